/**
 * Hostile input in Filters: values from expressions that are not what a filter takes (numbers, booleans,
 * arrays, objects, null, undefined, empty or blank text) on every Get Many and on the trigger. Each is
 * either sent as the API expects it (the exact query the service received is checked) or refused before
 * any request (not even a token request) with an error naming the filter and the item; never dropped,
 * which would widen the list. Also: an error message that quotes input such as "ENOENT" is not replaced
 * by n8n's generic text for that Node.js error code.
 */
import type { INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { operationError } from '../../nodes/shared/execution/operationError';
import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { RecordingProxy } from '../credential/proxy';
import { startRecordingProxy } from '../credential/proxy';
import { credentialsFor, runNode, triggerHandle } from '../harness/engine';

let sandbox: Sandbox;
let proxy: RecordingProxy;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	proxy = await startRecordingProxy(sandbox.baseUrl);
});
afterAll(async () => {
	await proxy.close();
	await sandbox.close();
});

const ACCOUNT = DEMO_IDS.accountId;
const GROUP = DEMO_IDS.groupIds[0];
const FILES = DEMO_IDS.storageIds.files;

/** A resource locator as the editor stores it; expressions go in By ID mode, literals in list mode. */
const rl = (value: string, mode = value.startsWith('=') ? 'id' : 'list') => ({ __rl: true, mode, value });

interface Outcome {
	error?: Error & { description?: string };
	items: INodeExecutionData[];
	/** Every request that reached the service during the run, token requests included. */
	requests: string[];
	/** The list requests (path and decoded query) that reached the service. */
	lists: string[];
}

/** Runs the node with fresh credentials, so that even a token request would be seen. */
async function run(parameters: INodeParameters, items?: INodeExecutionData[], continueOnFail = false): Promise<Outcome> {
	const before = proxy.requests.length;
	const { error, items: output } = await runNode({
		credentials: credentialsFor({ ...sandbox, baseUrl: proxy.baseUrl }),
		parameters,
		items,
		continueOnFail,
	});
	const requests = proxy.requests.slice(before).map((request) => request.url);
	return {
		error,
		items: output,
		requests,
		lists: requests.filter((url) => !url.startsWith('/oauth/')).map((url) => decodeURIComponent(url)),
	};
}

/** Expects the run to fail with exactly `message` and nothing sent at all. */
async function expectRefused(parameters: INodeParameters, message: string): Promise<Outcome> {
	const outcome = await run(parameters);
	expect(outcome.error?.message).toBe(message);
	expect(outcome.requests).toEqual([]);
	return outcome;
}

/** Expects one list request, exactly `url` (decoded), and no error. */
async function expectSent(parameters: INodeParameters, url: string): Promise<Outcome> {
	const outcome = await run(parameters);
	expect(outcome.error?.message).toBeUndefined();
	expect(outcome.lists).toEqual([url]);
	return outcome;
}

const getMany = (resource: string, filters: INodeParameters): INodeParameters => ({
	resource,
	operation: 'getMany',
	returnAll: false,
	limit: 1,
	filters,
});

// ---------------------------------------------------------------------------------------------------
// Text filters: Name on Job, Group, Storage, Account; Status on Storage.

const TEXT_FILTERS: Array<[resource: string, path: string, filter: string, label: string]> = [
	['job', '/jobs', 'name', 'Name'],
	['group', '/groups', 'name', 'Name'],
	['storage', '/storages', 'name', 'Name'],
	['storage', '/storages', 'status', 'Status'],
	['account', '/accounts', 'name', 'Name'],
];

/** [expression, what it is, sent value or undefined (left out)] */
const TEXT_SENT: Array<[string, string, string | undefined]> = [
	['={{ 123 }}', 'a whole number', '123'],
	['={{ 1.5 }}', 'a decimal number', '1.5'],
	['  Nightly export  ', 'text with spaces around it (trimmed)', 'Nightly export'],
	['econnrefused', 'text that contains a Node.js error code', 'econnrefused'],
	['', 'empty text (left out, as the editor does for an unfilled filter)', undefined],
	['={{ "   " }}', 'blank text from an expression (left out)', undefined],
];

/** [expression, what it is, how the error shows it] */
const TEXT_REFUSED: Array<[string, string, string]> = [
	['={{ true }}', 'a boolean', 'true'],
	['={{ [1, 2] }}', 'an array', '[1,2]'],
	['={{ { a: 1 } }}', 'an object', '{"a":1}'],
	['={{ null }}', 'null', 'null'],
	['={{ $json.missing }}', 'undefined (a field the item lacks)', 'undefined'],
	['={{ NaN }}', 'NaN', 'NaN'],
	['={{ 1e21 }}', 'a number only written with an exponent', '1e+21'],
];

describe.each(TEXT_FILTERS)('%s get many, text filter %s[%s]', (resource, path, filter, label) => {
	it.each(TEXT_SENT)('%s (%s) is sent as the API expects', async (value, _what, sent) => {
		const query = sent === undefined ? '' : `filter[${filter}]=${sent}&`;
		await expectSent(getMany(resource, { [filter]: value }), `${path}?${query}page[limit]=1`);
	});

	it.each(TEXT_REFUSED)('%s (%s) is refused before any request', async (value, _what, shown) => {
		await expectRefused(
			getMany(resource, { [filter]: value }),
			`"Filters → ${label}" must be text or a number, got ${shown} [item 0]`,
		);
	});
});

describe('user get many, Email filter', () => {
	it.each([
		[' team.3@example.com ', 'team.3@example.com'],
		['={{ "" }}', undefined],
		['   ', undefined],
	])('%p is sent trimmed, or left out when blank', async (value, sent) => {
		const query = sent === undefined ? '' : `filter[email]=${sent}&`;
		await expectSent(getMany('user', { email: value }), `/users?${query}page[limit]=1`);
	});

	it.each([
		['={{ true }}', '"Filters → Email" must be text or a number, got true [item 0]'],
		['={{ ["a@b.example"] }}', '"Filters → Email" must be text or a number, got ["a@b.example"] [item 0]'],
		['={{ null }}', '"Filters → Email" must be text or a number, got null [item 0]'],
		['={{ { email: "a@b.example" } }}', '"Filters → Email" must be text or a number, got {"email":"a@b.example"} [item 0]'],
		// A number is text for a text filter, but not an e-mail address.
		['={{ 42 }}', '"Filters → Email" must be an e-mail address, got "42" [item 0]'],
	])('%s is refused before any request', async (value, message) => {
		await expectRefused(getMany('user', { email: value }), message);
	});
});

// ---------------------------------------------------------------------------------------------------
// Boolean filters: Job › Dry Run, Storage › Enabled.

const BOOLEAN_FILTERS: Array<[resource: string, path: string, filter: string, label: string]> = [
	['job', '/jobs', 'dryRun', 'Dry Run'],
	['storage', '/storages', 'enabled', 'Enabled'],
];

describe.each(BOOLEAN_FILTERS)('%s get many, boolean filter %s[%s]', (resource, path, filter, label) => {
	it.each([
		[true, 'true'],
		[false, 'false'],
		['={{ "true" }}', 'true'],
		['={{ "false" }}', 'false'],
	])('%p is sent as %s', async (value, sent) => {
		await expectSent(getMany(resource, { [filter]: value }), `${path}?filter[${filter}]=${sent}&page[limit]=1`);
	});

	it.each([
		['={{ "yes" }}', '"yes"'],
		['={{ 1 }}', '1'],
		['={{ "" }}', '""'],
		['={{ "TRUE" }}', '"TRUE"'],
		['={{ null }}', 'null'],
		['={{ [] }}', '[]'],
		['={{ $json.missing }}', 'undefined'],
	])('%s is refused before any request', async (value, shown) => {
		await expectRefused(
			getMany(resource, { [filter]: value }),
			`"Filters → ${label}" must be true or false, got ${shown} [item 0]`,
		);
	});
});

// ---------------------------------------------------------------------------------------------------
// Option filters: Job › Status and Transfer Type, Storage › Type.

describe('option filters', () => {
	it('a listed value from an expression is sent', async () => {
		await expectSent(
			getMany('job', { status: '={{ "failed" }}', transferType: '={{ "sync" }}' }),
			'/jobs?filter[status]=failed&filter[transferType]=sync&page[limit]=1',
		);
		await expectSent(getMany('storage', { type: '={{ "object-aws" }}' }), '/storages?filter[type]=object-aws&page[limit]=1');
	});

	const STATUSES = '"scanning", "running", "paused", "stuck", "canceled", "finished", "failed"';
	it.each([
		['={{ 1 }}', '1'],
		['={{ "" }}', '""'],
		['={{ null }}', 'null'],
		['={{ ["failed"] }}', '["failed"]'],
		['={{ " failed" }}', '" failed"'],
	])('job Status %s is refused before any request', async (value, shown) => {
		await expectRefused(
			getMany('job', { status: value }),
			`"Filters → Status" must be one of ${STATUSES}, got ${shown} [item 0]`,
		);
	});

	it.each([
		['={{ true }}', 'true'],
		['={{ $json.missing }}', 'undefined'],
	])('storage Type %s is refused before any request', async (value, shown) => {
		await expectRefused(
			getMany('storage', { type: value }),
			`"Filters → Type" must be one of "file", "object-aws", got ${shown} [item 0]`,
		);
	});
});

// ---------------------------------------------------------------------------------------------------
// Picker (resource locator) filters.

const LOCATOR_FILTERS: Array<[resource: string, path: string, filter: string, field: string, label: string, id: string]> = [
	['job', '/jobs', 'accountId', 'accountId', 'Account', ACCOUNT],
	['job', '/jobs', 'sourceStorageId', 'source.id', 'Source Storage', FILES],
	['group', '/groups', 'accountId', 'accountId', 'Account', ACCOUNT],
	['user', '/users', 'groupId', 'groupId', 'Group', GROUP],
];

describe.each(LOCATOR_FILTERS)('%s get many, picker filter %s', (resource, path, filter, field, label, id) => {
	it('an ID with spaces around it, from an expression, is sent trimmed', async () => {
		await expectSent(getMany(resource, { [filter]: rl(`={{ "  ${id}  " }}`) }), `${path}?filter[${field}]=${id}&page[limit]=1`);
	});

	it('an unpicked value (empty, list mode) leaves the filter out', async () => {
		await expectSent(getMany(resource, { [filter]: rl('') }), `${path}?page[limit]=1`);
	});

	it.each([
		['={{ 123 }}', '123'],
		['={{ true }}', 'true'],
		['={{ null }}', 'null'],
		['={{ $json.missing }}', 'undefined'],
		['={{ [1] }}', '[1]'],
		['={{ { id: 1 } }}', '{"id":1}'],
	])('%s is refused before any request', async (value, shown) => {
		const { error } = await expectRefused(
			getMany(resource, { [filter]: rl(value) }),
			`"Filters → ${label}" must be a UUID, got ${shown} [item 0]`,
		);
		expect(error?.description).toMatch(/IDs of this API|An expression gave no value/);
	});
});

// ---------------------------------------------------------------------------------------------------

describe('several items', () => {
	it('each item is read on its own; the bad one is named, and it sends nothing', async () => {
		const outcome = await run(getMany('job', { name: '={{ $json.v }}' }), [{ json: { v: 'a' } }, { json: { v: null } }]);
		expect(outcome.error?.message).toBe('"Filters → Name" must be text or a number, got null [item 1]');
		expect(outcome.lists).toEqual(['/jobs?filter[name]=a&page[limit]=1']);
	});

	it('with Continue On Fail, the bad item becomes an error item and the others run', async () => {
		const outcome = await run(
			getMany('job', { name: '={{ $json.v }}' }),
			[{ json: { v: ['x'] } }, { json: { v: 7 } }],
			true,
		);
		const message = '"Filters → Name" must be text or a number, got ["x"] [item 0]';
		expect(outcome.items.map((item) => item.json)).toEqual([{ error: message, description: message }]);
		expect(outcome.lists).toEqual(['/jobs?filter[name]=7&page[limit]=1']);
	});
});

// ---------------------------------------------------------------------------------------------------
// The trigger: a bad filter fails the poll, never widens what is watched.

describe('trigger filters', () => {
	const params = (filters: INodeParameters): INodeParameters => ({
		events: ['failed'],
		filters,
		options: {},
		requestOptions: { maxRetries: 0 },
	});

	async function poll(filters: INodeParameters): Promise<{ error?: Error; lists: string[] }> {
		const handle = triggerHandle(credentialsFor({ ...sandbox, baseUrl: proxy.baseUrl }), params(filters));
		const before = proxy.requests.length;
		let error: Error | undefined;
		try {
			await handle.poll();
		} catch (caught) {
			error = caught as Error;
		}
		const lists = proxy.requests
			.slice(before)
			.map((request) => request.url)
			.filter((url) => !url.startsWith('/oauth/'))
			.map((url) => decodeURIComponent(url));
		return { error, lists };
	}

	it('valid filters, from expressions, are sent on the first poll', async () => {
		const { error, lists } = await poll({
			accountId: rl(`={{ " ${ACCOUNT} " }}`),
			transferType: '={{ "copy" }}',
			dryRun: '={{ "exclude" }}',
		});
		expect(error).toBeUndefined();
		expect(lists[0]).toContain(`filter[accountId]=${ACCOUNT}`);
		expect(lists[0]).toContain('filter[transferType]=copy');
		expect(lists[0]).toContain('filter[dryRun]=false');
	});

	it('an unpicked filter is left out; an absent Dry Runs includes dry runs', async () => {
		const { error, lists } = await poll({ groupId: rl('') });
		expect(error).toBeUndefined();
		expect(lists.length).toBeGreaterThan(0);
		for (const url of lists) expect(url).not.toContain('filter[groupId]');
		for (const url of lists) expect(url).not.toContain('filter[dryRun]');
	});

	it.each([
		[{ accountId: rl('={{ 123 }}') }, '"Filters → Account" must be a UUID, got 123'],
		[{ userId: rl('={{ null }}') }, '"Filters → User" must be a UUID, got null'],
		[{ targetStorageId: rl('={{ ["x"] }}') }, '"Filters → Target Storage" must be a UUID, got ["x"]'],
		[{ transferType: '={{ null }}' }, '"Filters → Transfer Type" must be one of "copy", "move", "sync", got null'],
		[{ transferType: '={{ "" }}' }, '"Filters → Transfer Type" must be one of "copy", "move", "sync", got ""'],
		[{ dryRun: '={{ true }}' }, '"Filters → Dry Runs" must be one of "include", "exclude", "only", got true'],
		[{ dryRun: '={{ null }}' }, '"Filters → Dry Runs" must be one of "include", "exclude", "only", got null'],
	])('%p fails the poll before any request', async (filters, message) => {
		const { error, lists } = await poll(filters);
		expect(error?.message).toBe(message);
		expect(lists).toEqual([]);
	});
});

// ---------------------------------------------------------------------------------------------------
// n8n replaces a NodeOperationError message that contains a Node.js error code with a generic text.

describe('messages that quote a Node.js error code are kept', () => {
	it('a Name filter ["ENOENT"] names the filter, not "The file or directory does not exist"', async () => {
		await expectRefused(
			getMany('job', { name: '={{ ["ENOENT"] }}' }),
			'"Filters → Name" must be text or a number, got ["ENOENT"] [item 0]',
		);
	});

	it('a Status filter "EACCES" keeps the message', async () => {
		await expectRefused(
			getMany('job', { status: '={{ "EACCES" }}' }),
			'"Filters → Status" must be one of "scanning", "running", "paused", "stuck", "canceled", "finished", "failed", got "EACCES" [item 0]',
		);
	});

	it('a Group create whose Account is "econnrefused" keeps the message', async () => {
		await expectRefused(
			{ resource: 'group', operation: 'create', accountId: rl('econnrefused'), name: 'x' },
			'"Account" must be a UUID, got "econnrefused" [item 0]',
		);
	});

	it('a User create with the e-mail "ENOENT" keeps the message, also with Continue On Fail', async () => {
		const parameters = { resource: 'user', operation: 'create', accountId: rl(ACCOUNT), email: 'ENOENT' };
		await expectRefused(parameters, '"Email" must be an e-mail address, got "ENOENT" [item 0]');
		const outcome = await run(parameters, undefined, true);
		expect(outcome.items[0].json.error).toBe('"Email" must be an e-mail address, got "ENOENT" [item 0]');
	});

	it('a name filter "ENOENT" is a valid name: sent, and nothing matches', async () => {
		const { items } = await expectSent(getMany('group', { name: 'ENOENT' }), '/groups?filter[name]=ENOENT&page[limit]=1');
		expect(items).toEqual([]);
	});

	it('the trigger keeps its message for an Account "ECONNREFUSED"', async () => {
		const handle = triggerHandle(
			credentialsFor({ ...sandbox, baseUrl: proxy.baseUrl }),
			{ events: ['failed'], filters: { accountId: rl('ECONNREFUSED') }, options: {} },
		);
		await expect(handle.poll()).rejects.toThrow('"Filters → Account" must be a UUID, got "ECONNREFUSED"');
	});

	describe('operationError', () => {
		const node = { id: 'n', name: 'File Transfer Manager', type: 't', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

		it('keeps a message n8n would replace, and does not list it twice', () => {
			const error = operationError(node, 'Sort field "eaddrnotavail" is unknown [item 2]', { itemIndex: 2, description: 'd' });
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('Sort field "eaddrnotavail" is unknown [item 2]');
			expect(error.messages).toEqual([]);
			expect(error.description).toBe('d');
			expect(error.context.itemIndex).toBe(2);
			// What n8n's own constructor does with the same text:
			expect(new NodeOperationError(node, 'Sort field "eaddrnotavail" is unknown [item 2]').message).toMatch(/address is not available/);
		});

		it('keeps the message of a wrapped Error, and hands a NodeOperationError back unchanged', () => {
			expect(operationError(node, new Error('open ENOENT /x')).message).toBe('open ENOENT /x');
			const existing = operationError(node, 'already ours');
			expect(operationError(node, existing)).toBe(existing);
		});

		it('leaves a messageMapping to n8n', () => {
			expect(operationError(node, 'raw ENOENT', { messageMapping: { raw: 'mapped' } }).message).toBe('mapped');
		});
	});
});
