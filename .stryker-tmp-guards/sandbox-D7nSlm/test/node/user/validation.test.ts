// @ts-nocheck
import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { INodeParameters } from 'n8n-workflow';
import { credentialsFor, runNode } from '../../harness/engine';
import { rlList as rl } from '../../harness/locator';

let sandbox: Sandbox;

// 'list' mode for literal values: n8n's own regex check of By ID would stop them before the node runs.
const account = rl(DEMO_IDS.accountId);
const user = rl(DEMO_IDS.userIds[0]);

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
		parameters: { resource: 'user', ...parameters },
	});
	expect(items).toEqual([]);
	for (const part of [...parts, '[item 0]']) expect(error?.message).toContain(part);
	expect(sandbox.requests.count()).toBe(before);
}

describe('user: validation before any request', () => {
	it.each(['get', 'update', 'deleteUser'])('%s: a User ID that is not a UUID', async (operation) => {
		await expectRejected({ operation, userId: rl('42'), updateFields: { firstName: 'x' } }, '"User"', 'must be a UUID');
	});

	it('get: a User (By ID) from an expression that is not a UUID', async () => {
		await expectRejected({ operation: 'get', userId: rl('={{ $json.nothing ?? "user-1" }}', 'id') }, '"User"', 'user-1');
	});

	it('create: an Account that is not a UUID', async () => {
		await expectRejected({ operation: 'create', accountId: rl('acme'), email: 'a@example.com' }, '"Account"');
	});

	it.each(['not-an-address', 'two@@example.com', 'a@b', 'spaces in@example.com'])(
		'create: an Email that is not one (%s)',
		async (email) => {
			await expectRejected({ operation: 'create', accountId: account, email }, '"Email"', 'must be an e-mail address');
		},
	);

	it('create: an empty Email from an expression', async () => {
		await expectRejected({ operation: 'create', accountId: account, email: '={{ "" }}' }, '"Email"', 'is required');
	});

	it('create: an empty literal Email is stopped by n8n as a required parameter', async () => {
		const before = sandbox.requests.count();
		await expect(
			runNode({
				credentials: credentialsFor(sandbox),
				parameters: { resource: 'user', operation: 'create', accountId: account, email: '' },
			}),
		).rejects.toThrow('Parameter "Email" is required');
		expect(sandbox.requests.count()).toBe(before);
	});

	it.each(['Mars/Olympus', 'Europe/Nowhere', '+01:00', 'GMT+1 hour'])('create: an unknown time zone (%s)', async (timezone) => {
		await expectRejected(
			{ operation: 'create', accountId: account, email: 'tz@example.com', additionalFields: { timezone } },
			'"Time Zone"',
		);
	});

	it('create: a Group that is not a UUID', async () => {
		await expectRejected(
			{ operation: 'create', accountId: account, email: 'g@example.com', additionalFields: { groupId: rl('ops') } },
			'"Group"',
			'must be a UUID',
		);
	});

	it('update: no field to change', async () => {
		await expectRejected({ operation: 'update', userId: user, updateFields: {} }, '"Update Fields"', 'is empty');
	});

	it.each([
		['firstName', 'First Name'],
		['lastName', 'Last Name'],
	])('update: an empty %s', async (field, label) => {
		await expectRejected({ operation: 'update', userId: user, updateFields: { [field]: ' ' } }, `"${label}"`);
	});

	it('update: an unknown time zone', async () => {
		await expectRejected(
			{ operation: 'update', userId: user, updateFields: { timezone: 'Atlantis/Capital' } },
			'"Time Zone"',
			'is not a known time zone',
		);
	});

	it('update: an empty time zone', async () => {
		await expectRejected({ operation: 'update', userId: user, updateFields: { timezone: '' } }, '"Time Zone"', 'is empty');
	});

	it('get many: an Email filter that is not an address', async () => {
		await expectRejected({ operation: 'getMany', filters: { email: 'bob' } }, '"Filters → Email"', 'must be an e-mail address');
	});

	it.each([
		['accountId', 'Account'],
		['groupId', 'Group'],
	])('get many: a %s filter that is not a UUID', async (field, label) => {
		await expectRejected({ operation: 'getMany', filters: { [field]: rl('x-y-z') } }, `"Filters → ${label}"`, 'must be a UUID');
	});

	it('get many: Limit 0', async () => {
		await expectRejected({ operation: 'getMany', limit: 0 }, '"Limit"');
	});

	it('get many: an unknown sort field from an expression', async () => {
		await expectRejected(
			{ operation: 'getMany', sort: { rules: [{ field: '={{ "password" }}', direction: 'ascending' }] } },
			'"Sort › Field"',
		);
	});
});
