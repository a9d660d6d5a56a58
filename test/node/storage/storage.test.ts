import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { Storage } from '../../../nodes/shared/api/types';
import type { INodeParameters } from 'n8n-workflow';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { credentialsFor, runNode } from '../../harness/engine';
import { rlList as rl } from '../../harness/locator';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;

const flat = (s: Storage) => ({ id: s.id, ...s.attributes });
const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	credentials = credentialsFor(sandbox);
});

afterAll(async () => {
	await sandbox.close();
});

async function getMany(parameters: INodeParameters) {
	const { items, error } = await runNode({
		credentials,
		parameters: { resource: 'storage', operation: 'getMany', returnAll: true, ...parameters },
	});
	if (error) throw error;
	return items.map((i) => i.json);
}

describe('storage: get', () => {
	it.each(Object.entries(DEMO_IDS.storageIds))('returns the %s storage flattened, stats kept as an object', async (_, id) => {
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'storage', operation: 'get', storageId: rl(id, 'id') },
		});
		expect(error).toBeUndefined();
		const stored = sandbox.state.storages().find((s) => s.id === id)!;
		expect(items.map((i) => i.json)).toEqual([flat(stored)]);
		expect(items[0].json.stats).toEqual({ capacity: expect.objectContaining({ bytesUsed: expect.any(Number) }) });
	});

	it('an unknown storage fails with "Entity Not Found"', async () => {
		const { error } = await runNode({
			credentials,
			parameters: { resource: 'storage', operation: 'get', storageId: rl('05050505-0000-4000-8000-000000000000') },
		});
		expect(error?.message).toBe('Entity Not Found');
	});
});

describe('storage: get many', () => {
	it('returns every storage, sorted by type then name descending', async () => {
		const items = await getMany({
			sort: {
				rules: [
					{ field: 'type', direction: 'ascending' },
					{ field: 'name', direction: 'descending' },
				],
			},
		});
		const expected = sandbox.state
			.storages()
			.sort((a, b) => cmp(a.attributes.type, b.attributes.type) || cmp(b.attributes.name, a.attributes.name))
			.map(flat);
		expect(items).toEqual(expected);
	});

	it.each(['file', 'object-aws'])('filters by type %s', async (type) => {
		const items = await getMany({ filters: { type } });
		const expected = sandbox.state.storages().filter((s) => s.attributes.type === type);
		expect(expected.length).toBeGreaterThan(0);
		expect(items.map((i) => i.id).sort()).toEqual(expected.map((s) => s.id).sort());
	});

	it('filters by name and by status', async () => {
		const target = sandbox.state.storages()[1];
		expect((await getMany({ filters: { name: target.attributes.name } })).map((i) => i.id)).toEqual([target.id]);
		const ready = await getMany({ filters: { status: 'ready' }, sort: { rules: [{ field: 'createdAt', direction: 'ascending' }] } });
		expect(ready.map((i) => i.id)).toEqual(
			sandbox.state
				.storages()
				.filter((s) => s.attributes.status === 'ready')
				.sort((a, b) => cmp(a.attributes.createdAt, b.attributes.createdAt) || cmp(a.id, b.id))
				.map((s) => s.id),
		);
	});

	it('filters by enabled: a disabled storage shows only under enabled = false', async () => {
		const id = DEMO_IDS.storageIds.bucket;
		sandbox.control.setStorageAvailable(id, false);
		try {
			const enabled = await getMany({ filters: { enabled: true } });
			const disabled = await getMany({ filters: { enabled: false } });
			expect(disabled.map((i) => i.id)).toEqual([id]);
			expect(enabled.map((i) => i.id).sort()).toEqual(
				sandbox.state.storages().filter((s) => s.id !== id).map((s) => s.id).sort(),
			);
			expect(sandbox.requests.all().filter((r) => r.path === '/storages').slice(-2).map((r) => r.query['filter[enabled]'])).toEqual([
				'true',
				'false',
			]);
		} finally {
			sandbox.control.setStorageAvailable(id, true);
		}
	});

	it('Limit 1 makes one list request of one record', async () => {
		sandbox.requests.clear();
		const { items } = await runNode({ credentials, parameters: { resource: 'storage', operation: 'getMany', limit: 1 } });
		expect(items).toHaveLength(1);
		expect(sandbox.requests.all().filter((r) => r.path === '/storages').map((r) => r.query['page[limit]'])).toEqual(['1']);
	});
});

describe('storage: validation before any request', () => {
	async function expectRejected(parameters: INodeParameters, ...parts: string[]) {
		const before = sandbox.requests.count();
		const { error } = await runNode({
			credentials: credentialsFor(sandbox),
			parameters: { resource: 'storage', ...parameters },
		});
		for (const part of [...parts, '[item 0]']) expect(error?.message).toContain(part);
		expect(sandbox.requests.count()).toBe(before);
	}

	it('get: a Storage that is not a UUID', async () => {
		await expectRejected({ operation: 'get', storageId: rl('archive') }, '"Storage"', 'must be a UUID');
	});

	it('get many: an unknown storage type from an expression', async () => {
		await expectRejected({ operation: 'getMany', filters: { type: '={{ "ftp" }}' } }, '"Filters → Type"', '"ftp"');
	});

	it('get many: an Enabled value from an expression that is not true or false', async () => {
		await expectRejected({ operation: 'getMany', filters: { enabled: '={{ "yes" }}' } }, '"Filters → Enabled"', 'true or false');
	});

	it('get many: Limit 0', async () => {
		await expectRejected({ operation: 'getMany', limit: 0 }, '"Limit"');
	});

	it('get many: an unknown sort field from an expression', async () => {
		await expectRejected(
			{ operation: 'getMany', sort: { rules: [{ field: '={{ "size" }}', direction: 'descending' }] } },
			'"Sort › Field"',
		);
	});
});
