// @ts-nocheck
import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import { safeRegex } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';
import { credentialsFor, runNode } from '../../harness/engine';
import { rlList as rl } from '../../harness/locator';

let sandbox: Sandbox;

// 'list' mode: n8n's own regex check of the By ID mode would stop a literal bad ID before the node runs
// (see the last test), so literal values go through the list mode and By ID values through expressions.

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
});

afterAll(async () => {
	await sandbox.close();
});

/** Runs the node with fresh credentials (so a token request would show) and expects a rejection before any request. */
async function expectRejected(parameters: INodeParameters, ...parts: string[]) {
	const before = sandbox.requests.count();
	const { error, items } = await runNode({
		credentials: credentialsFor(sandbox),
		parameters: { resource: 'group', ...parameters },
	});
	expect(items).toEqual([]);
	for (const part of [...parts, '[item 0]']) expect(error?.message).toContain(part);
	expect(sandbox.requests.count()).toBe(before);
}

describe('group: validation before any request', () => {
	it.each(['get', 'update', 'deleteGroup'])('%s: a Group ID that is not a UUID', async (operation) => {
		await expectRejected(
			{ operation, groupId: rl('group-42'), updateFields: { name: 'x' } },
			'"Group"',
			'must be a UUID',
			'group-42',
		);
	});

	it('get: an empty Group', async () => {
		await expectRejected({ operation: 'get', groupId: rl('={{ "" }}', 'id') }, '"Group"', 'is required');
	});

	it('get: a Group ID (By ID) from an expression that is not a UUID', async () => {
		await expectRejected({ operation: 'get', groupId: rl('={{ "abc" + 1 }}', 'id') }, '"Group"', 'abc1');
	});

	it("get: a literal non-UUID in By ID mode is stopped by n8n's own parameter check", async () => {
		const before = sandbox.requests.count();
		await expect(
			runNode({
				credentials: credentialsFor(sandbox),
				parameters: { resource: 'group', operation: 'get', groupId: rl('group-42', 'id') },
			}),
		).rejects.toThrow('Not a valid ID: IDs are UUIDs');
		expect(sandbox.requests.count()).toBe(before);
	});

	it("the harness runs n8n's regex checks without n8n's 250 ms wall-clock budget (test/harness/engine.ts)", () => {
		// Backtracks for about 0.7 s here: n8n's own engine would throw "Regular expression execution timed out".
		expect(safeRegex.test('^(a+)+$', `${'a'.repeat(23)}!`)).toBe(false);
	});

	it('create: an Account that is not a UUID', async () => {
		await expectRejected({ operation: 'create', accountId: rl('acme'), name: 'x' }, '"Account"', 'must be a UUID');
	});

	it('create: an empty Name', async () => {
		await expectRejected({ operation: 'create', accountId: rl(DEMO_IDS.accountId), name: '  ' }, '"Name"', 'is required');
	});

	it('update: no field to change', async () => {
		await expectRejected(
			{ operation: 'update', groupId: rl(DEMO_IDS.groupIds[0]), updateFields: {} },
			'"Update Fields"',
			'is empty',
		);
	});

	it('update: an empty Name', async () => {
		await expectRejected(
			{ operation: 'update', groupId: rl(DEMO_IDS.groupIds[0]), updateFields: { name: '' } },
			'"Name"',
			'is required',
		);
	});

	it.each([0, -3, 2.5])('get many: Limit %p', async (limit) => {
		await expectRejected({ operation: 'getMany', returnAll: false, limit }, '"Limit"', 'whole number of at least 1');
	});

	it('get many: a Limit from an expression that is not a number', async () => {
		await expectRejected({ operation: 'getMany', returnAll: false, limit: '={{ "lots" }}' }, '"Limit"');
	});

	it('get many: an Account filter that is not a UUID', async () => {
		await expectRejected({ operation: 'getMany', filters: { accountId: rl('nope') } }, '"Filters → Account"', 'must be a UUID');
	});

	it('get many: an unknown sort field from an expression', async () => {
		await expectRejected(
			{ operation: 'getMany', sort: { rules: [{ field: '={{ "colour" }}', direction: 'ascending' }] } },
			'"Sort › Field"',
			'"colour"',
		);
	});

	it('get many: an unknown sort direction from an expression', async () => {
		await expectRejected(
			{ operation: 'getMany', sort: { rules: [{ field: 'name', direction: '={{ "up" }}' }] } },
			'"Sort › Direction"',
			'"up"',
		);
	});
});
