// @ts-nocheck
import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { credentialsFor, runNode } from '../../harness/engine';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;

const UNKNOWN = '0d0d0d0d-0000-4000-8000-000000000000';
const byIdFromItem = { __rl: true, mode: 'id', value: '={{ $json.id }}' };

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	credentials = credentialsFor(sandbox);
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => sandbox.requests.clear());

const inputs = [DEMO_IDS.groupIds[0], 'not-a-uuid', UNKNOWN, DEMO_IDS.groupIds[1]].map((id) => ({ json: { id } }));

describe('router: continueOnFail', () => {
	it('gives an error item per failed input item and goes on with the others, each paired with its input', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'get', groupId: byIdFromItem },
			items: inputs,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		const groupName = (id: string) => sandbox.state.groups().find((g) => g.id === id)?.attributes.name;
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json).toEqual(expect.objectContaining({ id: DEMO_IDS.groupIds[0], name: groupName(DEMO_IDS.groupIds[0]) }));
		expect(items[1].json).toEqual({
			error: '"Group" must be a UUID, got "not-a-uuid" [item 1]',
			description: expect.stringContaining('IDs of this API look like'),
		});
		expect(items[2].json).toEqual({
			error: 'Entity Not Found',
			description: expect.stringContaining('The requested entity was not found.'),
		});
		expect(items[3].json).toEqual(expect.objectContaining({ id: DEMO_IDS.groupIds[1], name: groupName(DEMO_IDS.groupIds[1]) }));
		// The invalid item never reached the sandbox; the three others did.
		expect(sandbox.requests.all().filter((r) => r.route === '/groups/{id}').map((r) => r.path)).toEqual([
			`/groups/${DEMO_IDS.groupIds[0]}`,
			`/groups/${UNKNOWN}`,
			`/groups/${DEMO_IDS.groupIds[1]}`,
		]);
	});

	it('an error without a description still has one: the message again, so every failed item has the same fields', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'user', operation: 'getMany', returnAll: true, filters: { email: '={{ true }}' } },
			items: [{ json: {} }],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		const message = '"Filters → Email" must be text or a number, got true [item 0]';
		expect(items.map((i) => i.json)).toEqual([{ error: message, description: message }]);
		expect(sandbox.requests.all().filter((r) => r.route === '/users')).toHaveLength(0);
	});

	it('pairs every output item of a Get Many with the input item it came from', async () => {
		const { items } = await runNode({
			credentials,
			parameters: {
				resource: 'user',
				operation: 'getMany',
				returnAll: true,
				filters: { groupId: { __rl: true, mode: 'id', value: '={{ $json.group }}' } },
			},
			items: [{ json: { group: DEMO_IDS.groupIds[0] } }, { json: { group: DEMO_IDS.groupIds[1] } }],
			continueOnFail: true,
		});
		const expected = [DEMO_IDS.groupIds[0], DEMO_IDS.groupIds[1]].flatMap((group, item) =>
			sandbox.state
				.users()
				.filter((u) => u.attributes.groupId === group)
				.map((u) => ({ id: u.id, pairedItem: { item } })),
		);
		expect(expected.length).toBeGreaterThan(2);
		expect(items.map((i) => ({ id: i.json.id, pairedItem: i.pairedItem }))).toEqual(expected);
	});
});

describe('router: without continueOnFail', () => {
	it('fails on the first bad item, naming it, and does not go on', async () => {
		const { error, items } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'get', groupId: byIdFromItem },
			items: inputs,
		});
		expect(items).toEqual([]);
		expect(error?.message).toBe('"Group" must be a UUID, got "not-a-uuid" [item 1]');
		expect(error?.context?.itemIndex).toBe(1);
		expect(sandbox.requests.all().filter((r) => r.route === '/groups/{id}').map((r) => r.path)).toEqual([
			`/groups/${DEMO_IDS.groupIds[0]}`,
		]);
	});

	it('an API error names the item in its context', async () => {
		const { error } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'get', groupId: byIdFromItem },
			items: [inputs[0], inputs[3], inputs[2]],
		});
		expect(error?.message).toBe('Entity Not Found');
		expect(error?.context?.itemIndex).toBe(2);
	});
});

describe('router: On Error "Continue (using error output)"', () => {
	it('sends the failed items to the error output with message and description, the others to the success output', async () => {
		const { outputs, error } = await runNode({
			credentials,
			parameters: { resource: 'group', operation: 'get', groupId: byIdFromItem },
			items: inputs,
			node: { onError: 'continueErrorOutput' },
		});
		expect(error).toBeUndefined();
		expect(outputs).toHaveLength(2);
		const [success, failed] = outputs;
		expect(success.map((i) => [i.json.id, i.pairedItem])).toEqual([
			[DEMO_IDS.groupIds[0], { item: 0 }],
			[DEMO_IDS.groupIds[1], { item: 3 }],
		]);
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(failed[0].json).toEqual({
			error: '"Group" must be a UUID, got "not-a-uuid" [item 1]',
			message: expect.stringContaining('IDs of this API look like'),
		});
		expect(failed[1].json).toEqual({
			error: 'Entity Not Found',
			message: expect.stringContaining('The requested entity was not found.'),
		});
	});
});
