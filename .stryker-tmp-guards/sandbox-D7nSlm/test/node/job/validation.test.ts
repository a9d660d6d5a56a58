/**
 * Every input rule of the Job operations is checked before any request: the error names the field (by its
 * display name) and the item, and the sandbox sees no request at all (not even the token request).
 */
// @ts-nocheck

import type { INodeParameters } from 'n8n-workflow';

import { BUCKET, FILES, createParameters, errorText, rl, useJobSandbox } from './helpers';

const t = useJobSandbox();

const wait = { waitForCompletion: true, pollInterval: 0.05, maxWait: 5 };

const cases: Array<[string, INodeParameters, string]> = [
	// Job IDs of every operation that takes one. A literal value that is not a UUID is already refused by
	// n8n (the locator's regex) before the node runs; values from expressions reach the node.
	...(['get', 'pause', 'resume', 'cancel', 'getTransfers', 'getErrors'] as const).map(
		(operation): [string, INodeParameters, string] => [
			`${operation}: Job ID from an expression that is not a UUID`,
			{ operation, jobId: rl('={{ "job-42" }}') },
			'"Job" must be a UUID',
		],
	),
	['get: Job ID from an expression that is a number', { operation: 'get', jobId: rl('={{ 42 }}') }, '"Job" must be a UUID'],
	['runFromDryRun: Job ID that is not a UUID', { operation: 'runFromDryRun', jobId: rl('={{ "x" }}') }, '"Dry-Run Job" must be a UUID'],
	['get: Job ID from an empty expression', { operation: 'get', jobId: rl('={{ "" }}') }, '"Job" is required'],

	// Create: locators
	['create: source storage not a UUID', createParameters({ sourceStorageId: rl('={{ "files" }}') }), '"Source Storage" must be a UUID'],
	['create: target storage empty', createParameters({ targetStorageId: rl('={{ $json.none }}', 'list') }), '"Target Storage" is required'],
	['create: account not a UUID', createParameters({ additionalFields: { accountId: rl('acme') } }), '"Account" must be a UUID'],
	['create: user not a UUID', createParameters({ additionalFields: { userId: rl('12345') } }), '"User" must be a UUID'],
	['create: group not a UUID', createParameters({ additionalFields: { groupId: rl('ops') } }), '"Group" must be a UUID'],

	// Create: transfer type and conflict handling
	[
		'create: sync with a conflict handling',
		createParameters({ transferType: '={{ "sync" }}', conflictHandling: 'skip' }),
		'"Conflict Handling" must be empty for a sync job',
	],
	[
		'create: copy without a conflict handling',
		createParameters({ transferType: 'copy', conflictHandling: '={{ "" }}' }),
		'"Conflict Handling" is required for a copy job',
	],
	[
		'create: move without a conflict handling',
		createParameters({ transferType: 'move', conflictHandling: '={{ null }}' }),
		'"Conflict Handling" is required for a move job',
	],
	['create: unknown transfer type', createParameters({ transferType: '={{ "teleport" }}' }), '"Transfer Type" must be one of'],
	['create: unknown conflict handling', createParameters({ conflictHandling: '={{ "merge" }}' }), '"Conflict Handling" must be one of'],

	// Create: scope rules
	[
		'create: matches rule that is not a regular expression',
		createParameters({
			additionalFields: {
				scopeRules: {
					rules: [
						{ type: 'name', condition: 'ends-with', value: '.csv' },
						{ type: 'name', condition: 'matches', value: '^report-(\\d+\\.csv$' },
					],
				},
			},
		}),
		'"Scope Rules 2: Value" is not a valid regular expression',
	],
	[
		'create: unknown rule condition',
		createParameters({
			additionalFields: { scopeRules: { rules: [{ type: 'name', condition: '={{ "contains" }}', value: 'x' }] } },
		}),
		'"Scope Rules 1: Condition" must be one of',
	],
	[
		'create: rule without a value',
		createParameters({ additionalFields: { scopeRules: { rules: [{ type: 'name', condition: 'ends-with', value: '' }] } } }),
		'"Scope Rules 1: Value" is required',
	],

	// Create: numbers
	['create: error count 0', createParameters({ additionalFields: { failAfterErrors: 0 } }), '"Fail After Errors" must be a whole number'],
	['create: rate limit 0', createParameters({ additionalFields: { transferRateLimit: 0 } }), '"Transfer Rate Limit" must be a whole number'],
	[
		'create: negative rate limit',
		createParameters({ additionalFields: { transferRateLimit: '={{ -1024 }}' } }),
		'"Transfer Rate Limit" must be a whole number',
	],
	['create: fractional rate limit', createParameters({ additionalFields: { transferRateLimit: 1.5 } }), '"Transfer Rate Limit"'],

	// Create: paths
	['create: relative source path', createParameters({ sourcePath: 'reports/2024' }), '"Source Path" must be an absolute path'],
	['create: relative target path', createParameters({ targetPath: 'archive' }), '"Target Path" must be an absolute path'],

	// Create: other enums from expressions
	[
		'create: unknown retrieval type',
		createParameters({ sourceStorageId: rl(BUCKET), additionalFields: { retrievalType: '={{ "glacier" }}' } }),
		'"Retrieval Type" must be one of',
	],
	['create: start status other than running', createParameters({ additionalFields: { startStatus: '={{ "paused" }}' } }), '"Start Status" must be one of'],

	// Waiting
	['create: poll interval 0', createParameters({ ...wait, pollInterval: 0 }), '"Poll Interval (Seconds)" must be a number of seconds above 0'],
	['create: negative max wait', createParameters({ ...wait, maxWait: -1 }), '"Max Wait (Seconds)" must be a number of seconds above 0'],
	[
		'resume: poll interval 0',
		{ operation: 'resume', jobId: rl(FILES), ...wait, pollInterval: '={{ 0 }}' },
		'"Poll Interval (Seconds)"',
	],
	['runFromDryRun: max wait 0', { operation: 'runFromDryRun', jobId: rl(FILES), ...wait, maxWait: 0 }, '"Max Wait (Seconds)"'],

	// Booleans from expressions
	['get: Simplify that is not a boolean', { operation: 'get', jobId: rl(FILES), simplify: '={{ "yes" }}' }, '"Simplify" must be true or false'],
	[
		'create: Wait for Completion that is not a boolean',
		createParameters({ waitForCompletion: '={{ "sometimes" }}' }),
		'"Wait for Completion" must be true or false',
	],
	['create: Dry Run that is not a boolean', createParameters({ dryRun: '={{ 1 }}' }), '"Dry Run" must be true or false'],

	// Lists
	['getMany: limit 0', { operation: 'getMany', returnAll: false, limit: 0 }, '"Limit" must be a whole number'],
	['getMany: negative limit', { operation: 'getMany', returnAll: false, limit: '={{ -5 }}' }, '"Limit" must be a whole number'],
	['getTransfers: limit 0', { operation: 'getTransfers', jobId: rl(FILES), limit: 0 }, '"Limit" must be a whole number'],
	['getErrors: limit 0', { operation: 'getErrors', jobId: rl(FILES), limit: 0 }, '"Limit" must be a whole number'],
	['getMany: unknown status filter', { operation: 'getMany', filters: { status: '={{ "done" }}' } }, '"Filters → Status" must be one of'],
	[
		'getMany: unknown transfer type filter',
		{ operation: 'getMany', filters: { transferType: '={{ "teleport" }}' } },
		'"Filters → Transfer Type" must be one of',
	],
	...(
		[
			['accountId', 'Account'],
			['groupId', 'Group'],
			['userId', 'User'],
			['sourceStorageId', 'Source Storage'],
			['targetStorageId', 'Target Storage'],
		] as const
	).map(([name, label]): [string, INodeParameters, string] => [
		`getMany: ${label} filter that is not a UUID`,
		{ operation: 'getMany', filters: { [name]: rl('not-an-id') } },
		`"Filters → ${label}" must be a UUID`,
	]),
	[
		'getMany: unknown sort field',
		{ operation: 'getMany', sort: { rules: [{ field: '={{ "size" }}', direction: 'ascending' }] } },
		'"Sort › Field" must be one of',
	],
];

describe('job: validation before any request', () => {
	it.each(cases)('%s', async (_name, parameters, expected) => {
		const before = t.sandbox.requests.count();
		const result = await t.run(parameters);
		expect(result.error).toBeDefined();
		expect(result.error!.message).toContain(expected);
		expect(result.error!.message).toContain('[item 0]');
		expect(t.sandbox.requests.count()).toBe(before);
	});

	it('names the item that failed; the items before it were carried out', async () => {
		const posts = t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
		const result = await t.run(createParameters({ sourcePath: '={{ $json.path }}' }), {
			items: [{ json: { path: '/reports' } }, { json: { path: 'reports' } }],
		});
		expect(errorText(result)).toContain('"Source Path" must be an absolute path');
		expect(result.error!.message).toContain('[item 1]');
		expect(t.sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(posts + 1);
	});

	it('a retrieval type on a source that is not object-aws fails after reading the storage, before the create', async () => {
		const posts = t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
		const jobs = t.sandbox.state.jobs().length;
		const result = await t.run(createParameters({ sourceStorageId: rl(FILES), additionalFields: { retrievalType: 'bulk' } }));
		expect(result.error!.message).toContain('"Retrieval Type" applies only to object-aws sources');
		expect(result.error!.message).toContain('[item 0]');
		expect(t.sandbox.requests.count({ method: 'GET', path: `/storages/${FILES}` })).toBeGreaterThan(0);
		expect(t.sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(posts);
		expect(t.sandbox.state.jobs()).toHaveLength(jobs);
	});
});
