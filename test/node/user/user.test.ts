import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { User } from '../../../nodes/shared/api/types';
import type { INodeParameters } from 'n8n-workflow';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { credentialsFor, runNode } from '../../harness/engine';
import { startRecordingProxy } from '../../credential/proxy';
import { rlList as rl } from '../../harness/locator';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;

const flat = (u: User) => ({ id: u.id, ...u.attributes });
const stored = (id: unknown) => sandbox.state.users().find((u) => u.id === id);

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	credentials = credentialsFor(sandbox);
});

afterAll(async () => {
	await sandbox.close();
});

async function createUser(email: string, additionalFields: INodeParameters = {}) {
	return await runNode({
		credentials,
		parameters: {
			resource: 'user',
			operation: 'create',
			accountId: rl(DEMO_IDS.accountId),
			email,
			additionalFields,
		},
	});
}

describe('user: create', () => {
	it('creates a user stub with every field, sending accountId and deploymentId with the same value', async () => {
		const proxy = await startRecordingProxy(sandbox.baseUrl);
		try {
			const { items, error } = await runNode({
				credentials: credentialsFor({ ...sandbox, baseUrl: proxy.baseUrl }),
				parameters: {
					resource: 'user',
					operation: 'create',
					accountId: rl(DEMO_IDS.accountId, 'id'),
					email: 'grace.hopper@example.com',
					additionalFields: {
						firstName: 'Grace',
						lastName: 'Hopper',
						groupId: rl(DEMO_IDS.groupIds[1]),
						timezone: 'America/Chicago',
					},
				},
			});
			expect(error).toBeUndefined();
			const user = stored(items[0].json.id)!;
			expect(user.attributes).toEqual(
				expect.objectContaining({
					accountId: DEMO_IDS.accountId,
					deploymentId: DEMO_IDS.accountId,
					email: 'grace.hopper@example.com',
					firstName: 'Grace',
					lastName: 'Hopper',
					groupId: DEMO_IDS.groupIds[1],
					timezone: 'America/Chicago',
				}),
			);
			expect(items.map((i) => i.json)).toEqual([flat(user)]);
			const post = proxy.requests.find((r) => r.method === 'POST' && r.url === '/users')!;
			expect(JSON.parse(post.body)).toEqual({
				data: {
					type: 'users',
					attributes: {
						accountId: DEMO_IDS.accountId,
						deploymentId: DEMO_IDS.accountId,
						email: 'grace.hopper@example.com',
						firstName: 'Grace',
						lastName: 'Hopper',
						groupId: DEMO_IDS.groupIds[1],
						timezone: 'America/Chicago',
					},
				},
			});
		} finally {
			await proxy.close();
		}
	});

	it('creates a user with the e-mail address only; no group and no time zone', async () => {
		const { items, error } = await createUser('minimal@example.com');
		expect(error).toBeUndefined();
		const user = stored(items[0].json.id)!;
		expect(user.attributes).toEqual(
			expect.objectContaining({ email: 'minimal@example.com', groupId: null, timezone: null }),
		);
		expect(items[0].json).toEqual(flat(user));
	});

	it('sends a time zone written in other letter case in its canonical case', async () => {
		const { items, error } = await createUser('lowercase.tz@example.com', { timezone: 'europe/paris' });
		expect(error).toBeUndefined();
		expect(stored(items[0].json.id)?.attributes.timezone).toBe('Europe/Paris');
	});

	it('a duplicate e-mail address fails with the API conflict error', async () => {
		const existing = sandbox.state.users()[0].attributes.email;
		const before = sandbox.state.users().length;
		const { error } = await createUser(existing);
		expect(error?.message).toBe('Conflict');
		expect(error?.httpCode).toBe('409');
		expect(error?.description).toContain(existing);
		expect(error?.description).toContain('Field: email.');
		expect(sandbox.state.users()).toHaveLength(before);
	});
});

describe('user: get', () => {
	it('returns the user flattened, as the sandbox holds it', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'user', operation: 'get', userId: rl(DEMO_IDS.userIds[2], 'id') },
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([flat(stored(DEMO_IDS.userIds[2])!)]);
	});

	it('an unknown user fails with "Entity Not Found"', async () => {
		const { error } = await runNode({
			credentials,
			parameters: { resource: 'user', operation: 'get', userId: rl('0b0b0b0b-0000-4000-8000-000000000000') },
		});
		expect(error?.message).toBe('Entity Not Found');
		expect(error?.httpCode).toBe('404');
	});
});

describe('user: get many', () => {
	beforeAll(async () => {
		for (const [i, last] of ['Young', 'Adams', 'Young', 'Baker', 'Moss'].entries()) {
			const { error } = await createUser(`team.${i}@example.com`, {
				firstName: `First${5 - i}`,
				lastName: last,
				groupId: rl(DEMO_IDS.groupIds[1]),
			});
			if (error) throw error;
		}
	});

	it('filters by account and group, sorted by last name, then first name descending', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: {
				resource: 'user',
				operation: 'getMany',
				returnAll: true,
				filters: { accountId: rl(DEMO_IDS.accountId, 'id'), groupId: rl(DEMO_IDS.groupIds[1]) },
				sort: {
					rules: [
						{ field: 'lastName', direction: 'ascending' },
						{ field: 'firstName', direction: 'descending' },
					],
				},
			},
		});
		expect(error).toBeUndefined();
		const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
		const expected = sandbox.state
			.users()
			.filter((u) => u.attributes.accountId === DEMO_IDS.accountId && u.attributes.groupId === DEMO_IDS.groupIds[1])
			.sort(
				(a, b) =>
					cmp(a.attributes.lastName, b.attributes.lastName) ||
					cmp(b.attributes.firstName, a.attributes.firstName) ||
					cmp(a.id, b.id),
			)
			.map(flat);
		expect(expected.length).toBeGreaterThanOrEqual(6);
		expect(items.map((i) => i.json)).toEqual(expected);
	});

	it('filters by e-mail address', async () => {
		const { items } = await runNode({
			credentials,
			parameters: { resource: 'user', operation: 'getMany', returnAll: true, filters: { email: 'team.3@example.com' } },
		});
		expect(items.map((i) => i.json)).toEqual(
			sandbox.state.users().filter((u) => u.attributes.email === 'team.3@example.com').map(flat),
		);
		expect(items).toHaveLength(1);
	});

	it('sorts by e-mail descending with a limit: one request, the first records of that order', async () => {
		sandbox.requests.clear();
		const { items } = await runNode({
			credentials,
			parameters: {
				resource: 'user',
				operation: 'getMany',
				limit: 5,
				sort: { rules: [{ field: 'email', direction: 'descending' }] },
			},
		});
		const expected = sandbox.state
			.users()
			.sort((a, b) => (a.attributes.email > b.attributes.email ? -1 : 1))
			.slice(0, 5)
			.map((u) => u.id);
		expect(items.map((i) => i.json.id)).toEqual(expected);
		const lists = sandbox.requests.all().filter((r) => r.method === 'GET' && r.path === '/users');
		expect(lists.map((r) => r.query)).toEqual([{ sort: '-email', 'page[limit]': '5' }]);
	});
});

describe('user: update', () => {
	it('changes only the given fields with one PATCH', async () => {
		const created = await createUser('to.update@example.com', { firstName: 'Old', lastName: 'Name', timezone: 'UTC' });
		const id = created.items[0].json.id as string;
		const proxy = await startRecordingProxy(sandbox.baseUrl);
		try {
			const { items, error } = await runNode({
				credentials: credentialsFor({ ...sandbox, baseUrl: proxy.baseUrl }),
				parameters: {
					resource: 'user',
					operation: 'update',
					userId: rl(id, 'id'),
					updateFields: { firstName: 'New', timezone: 'Asia/Tokyo' },
				},
			});
			expect(error).toBeUndefined();
			const user = stored(id)!;
			expect(user.attributes).toEqual(
				expect.objectContaining({ firstName: 'New', lastName: 'Name', timezone: 'Asia/Tokyo' }),
			);
			expect(items.map((i) => i.json)).toEqual([flat(user)]);
			const patches = proxy.requests.filter((r) => r.method === 'PATCH');
			expect(patches.map((r) => [r.url, JSON.parse(r.body)])).toEqual([
				[`/users/${id}`, { data: { id, type: 'users', attributes: { firstName: 'New', timezone: 'Asia/Tokyo' } } }],
			]);
		} finally {
			await proxy.close();
		}
	});

	it('changes the last name alone', async () => {
		const created = await createUser('last.only@example.com', { firstName: 'Keep', lastName: 'Before' });
		const id = created.items[0].json.id as string;
		await runNode({
			credentials,
			parameters: { resource: 'user', operation: 'update', userId: rl(id), updateFields: { lastName: 'After' } },
		});
		expect(stored(id)?.attributes).toEqual(expect.objectContaining({ firstName: 'Keep', lastName: 'After' }));
	});
});

describe('user: delete', () => {
	it('deletes the user and outputs { id, deleted: true }', async () => {
		const created = await createUser('to.delete@example.com');
		const id = created.items[0].json.id as string;
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'user', operation: 'deleteUser', userId: rl(id) },
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ id, deleted: true }]);
		expect(stored(id)).toBeUndefined();
	});

	it('deleting a user that does not exist fails with "Entity Not Found"', async () => {
		const { error } = await runNode({
			credentials,
			parameters: { resource: 'user', operation: 'deleteUser', userId: rl('0c0c0c0c-0000-4000-8000-000000000000') },
		});
		expect(error?.message).toBe('Entity Not Found');
	});
});
