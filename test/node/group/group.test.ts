import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { Group } from '../../../nodes/shared/api/types';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { credentialsFor, runNode } from '../../harness/engine';
import { startRecordingProxy } from '../../credential/proxy';
import { rl } from '../../harness/locator';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;

const flat = (g: Group) => ({ id: g.id, ...g.attributes });
const byName = (a: Group, b: Group) =>
	a.attributes.name < b.attributes.name ? -1 : a.attributes.name > b.attributes.name ? 1 : a.id < b.id ? -1 : 1;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	credentials = credentialsFor(sandbox);
});

afterAll(async () => {
	await sandbox.close();
});

async function createGroups(names: string[]): Promise<string[]> {
	const { items, error } = await runNode({
		credentials,
		parameters: {
			resource: 'group',
			operation: 'create',
			accountId: rl(DEMO_IDS.accountId, 'list'),
			name: '={{ $json.name }}',
		},
		items: names.map((name) => ({ json: { name } })),
	});
	if (error) throw error;
	return items.map((item) => item.json.id as string);
}

describe('group: create', () => {
	it('creates the group in the account, sending accountId and deploymentId with the same value', async () => {
		const proxy = await startRecordingProxy(sandbox.baseUrl);
		try {
			const { items, error } = await runNode({
				credentials: credentialsFor({ ...sandbox, baseUrl: proxy.baseUrl }),
				parameters: {
					resource: 'group',
					operation: 'create',
					accountId: rl(DEMO_IDS.accountId),
					name: 'Created by test',
				},
			});
			expect(error).toBeUndefined();
			const stored = sandbox.state.groups().find((g) => g.id === items[0].json.id)!;
			expect(stored.attributes).toEqual(
				expect.objectContaining({
					name: 'Created by test',
					accountId: DEMO_IDS.accountId,
					deploymentId: DEMO_IDS.accountId,
				}),
			);
			expect(items.map((i) => i.json)).toEqual([flat(stored)]);
			const post = proxy.requests.find((r) => r.method === 'POST' && r.url === '/groups')!;
			expect(JSON.parse(post.body)).toEqual({
				data: {
					type: 'groups',
					attributes: { accountId: DEMO_IDS.accountId, deploymentId: DEMO_IDS.accountId, name: 'Created by test' },
				},
			});
		} finally {
			await proxy.close();
		}
	});
});

describe('group: get', () => {
	it('returns the group flattened, as the sandbox holds it', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'get', groupId: rl(DEMO_IDS.groupIds[1], 'list') },
		});
		expect(error).toBeUndefined();
		const stored = sandbox.state.groups().find((g) => g.id === DEMO_IDS.groupIds[1])!;
		expect(items.map((i) => i.json)).toEqual([flat(stored)]);
	});

	it('an unknown group fails with the API error "Entity Not Found"', async () => {
		const unknown = '00000000-0000-4000-8000-000000000000';
		const { error } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'get', groupId: rl(unknown) },
		});
		expect(error?.message).toBe('Entity Not Found');
		expect(error?.description).toContain('The requested entity was not found.');
		expect(error?.httpCode).toBe('404');
	});
});

describe('group: get many', () => {
	let created: string[];
	beforeAll(async () => {
		created = await createGroups(['Zeta team', 'Alpha team', 'Mid team', 'Alpha team', 'Beta team', 'Gamma team', 'Delta team']);
	});

	it('filters by account and name and sorts by name descending', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: {
				resource: 'group',
				operation: 'getMany',
				returnAll: true,
				filters: { accountId: rl(DEMO_IDS.accountId, 'list'), name: 'Alpha team' },
				sort: { rules: [{ field: 'name', direction: 'descending' }] },
			},
		});
		expect(error).toBeUndefined();
		const expected = sandbox.state
			.groups()
			.filter((g) => g.attributes.accountId === DEMO_IDS.accountId && g.attributes.name === 'Alpha team')
			.sort(byName)
			.map(flat);
		expect(expected).toHaveLength(2);
		expect(items.map((i) => i.json)).toEqual(expected);
	});

	it('sorts by several rules: name ascending, then createdAt descending', async () => {
		const { items } = await runNode({
			credentials,
			parameters: {
				resource: 'group',
				operation: 'getMany',
				returnAll: true,
				sort: {
					rules: [
						{ field: 'name', direction: 'ascending' },
						{ field: 'createdAt', direction: 'descending' },
					],
				},
			},
		});
		const expected = sandbox.state
			.groups()
			.sort((a, b) => {
				const byN = byName(a, b);
				if (a.attributes.name !== b.attributes.name) return byN;
				if (a.attributes.createdAt !== b.attributes.createdAt) return a.attributes.createdAt > b.attributes.createdAt ? -1 : 1;
				return a.id < b.id ? -1 : 1;
			})
			.map((g) => g.id);
		expect(items.map((i) => i.json.id)).toEqual(expected);
		expect(sandbox.requests.all().at(-1)?.query.sort).toBe('name,-createdAt');
	});

	it('Limit 5 makes one list request for 5 records', async () => {
		sandbox.requests.clear();
		const { items } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'getMany', returnAll: false, limit: 5 },
		});
		expect(items).toHaveLength(5);
		const lists = sandbox.requests.all().filter((r) => r.method === 'GET' && r.path === '/groups');
		expect(lists.map((r) => r.query['page[limit]'])).toEqual(['5']);
	});

	it('Return All pages with page[limit]=100 and returns every group', async () => {
		await createGroups(Array.from({ length: 150 }, (_, i) => `Bulk ${i}`));
		sandbox.requests.clear();
		const { items } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'getMany', returnAll: true },
		});
		const stored = sandbox.state.groups();
		expect(stored.length).toBeGreaterThan(150);
		expect(items.map((i) => i.json.id).sort()).toEqual(stored.map((g) => g.id).sort());
		const lists = sandbox.requests.all().filter((r) => r.method === 'GET' && r.path === '/groups');
		expect(lists.map((r) => r.query['page[limit]'])).toEqual(['100', '100']);
		expect(lists[1].query['page[after]']).toEqual(expect.any(String));
		expect(created).toHaveLength(7);
	});
});

describe('group: update', () => {
	it('renames the group with one PATCH and returns it', async () => {
		const [id] = await createGroups(['Before rename']);
		sandbox.requests.clear();
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'update', groupId: rl(id), updateFields: { name: 'After rename' } },
		});
		expect(error).toBeUndefined();
		const stored = sandbox.state.groups().find((g) => g.id === id)!;
		expect(stored.attributes.name).toBe('After rename');
		expect(items.map((i) => i.json)).toEqual([flat(stored)]);
		expect(sandbox.requests.count({ method: 'PATCH', route: '/groups/{id}' })).toBe(1);
	});

	it('is repeated after a 500, since it sets an absolute value', async () => {
		const [id] = await createGroups(['Flaky rename']);
		sandbox.faults.add({ kind: 'internal-error', method: 'PATCH', path: '/groups/{id}', times: 1 });
		sandbox.requests.clear();
		const { error } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'update', groupId: rl(id), updateFields: { name: 'Renamed anyway' } },
		});
		expect(error).toBeUndefined();
		expect(sandbox.requests.count({ method: 'PATCH', route: '/groups/{id}' })).toBe(2);
		expect(sandbox.state.groups().find((g) => g.id === id)?.attributes.name).toBe('Renamed anyway');
	});
});

describe('group: delete', () => {
	it('deletes the group, outputs { id, deleted: true }, and its users lose their groupId', async () => {
		const [id] = await createGroups(['Doomed']);
		const created = await runNode({
			credentials,
			parameters: {
				resource: 'user',
				operation: 'create',
				accountId: rl(DEMO_IDS.accountId),
				email: 'member.of.doomed@example.com',
				additionalFields: { groupId: rl(id) },
			},
		});
		const userId = created.items[0].json.id as string;
		expect(sandbox.state.users().find((u) => u.id === userId)?.attributes.groupId).toBe(id);

		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'deleteGroup', groupId: rl(id, 'list') },
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ id, deleted: true }]);
		expect(sandbox.state.groups().some((g) => g.id === id)).toBe(false);
		expect(sandbox.state.users().find((u) => u.id === userId)?.attributes.groupId).toBeNull();
	});
});
