/**
 * The bad-input catalogue: invalid inputs across all operations, literal or from expressions. Each one
 * fails every item with an error that names the field and the item, and nothing reaches the sandbox (not
 * even a token request). Valid Base URL forms (path prefix, trailing slash) are shown to work.
 */
// @ts-nocheck

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import { startRecordingProxy } from '../credential/proxy';
import { credentialsFor, runNode } from '../harness/engine';
import { ACCOUNT, DEMO_IDS, captureLogs, findSecrets, rl, runTexts, secretsOf } from './harness';
import { demoDryRunCopy } from '../harness/parameters';

const logs = captureLogs();
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
});
afterAll(async () => {
	await sandbox.close();
});

const JOB = DEMO_IDS.jobIds.copied;
/** A value from the input item, as an expression would give it: `$json.v`. */
const fromItem = '={{ $json.v }}';

const validCreate: INodeParameters = {
	...demoDryRunCopy('/bad-input'),
};
const create = (over: INodeParameters): INodeParameters => ({ ...validCreate, ...over });
const rule = (condition: string, value: string): INodeParameters => ({ scopeRules: { rules: [{ type: 'name', condition, value }] } });

interface Case {
	/** What is wrong. */
	title: string;
	parameters: INodeParameters;
	/** The field as the error names it. */
	field: string;
	/** json of each input item (for expressions); default {}. */
	item?: IDataObject;
	credential?: IDataObject;
}

const CASES: Case[] = [
	// Job: ids
	{ title: 'job get: Job id that is not a UUID', parameters: { resource: 'job', operation: 'get', jobId: rl('42') }, field: '"Job"' },
	{ title: 'job get: Job id from an expression that gives a number', parameters: { resource: 'job', operation: 'get', jobId: rl(fromItem) }, item: { v: 42 }, field: '"Job"' },
	{ title: 'job get: Job id from an expression that gives nothing', parameters: { resource: 'job', operation: 'get', jobId: rl(fromItem) }, item: {}, field: '"Job"' },
	{ title: 'job pause: Job id with a typo', parameters: { resource: 'job', operation: 'pause', jobId: rl(`${JOB}x`) }, field: '"Job"' },
	{ title: 'job resume: Job id that is a name', parameters: { resource: 'job', operation: 'resume', jobId: rl('Copy reports') }, field: '"Job"' },
	{ title: 'job cancel: Job id from an expression that gives an object', parameters: { resource: 'job', operation: 'cancel', jobId: rl(fromItem) }, item: { v: { id: JOB } }, field: '"Job"' },
	{ title: 'job run from dry run: Dry-Run Job id that is not a UUID', parameters: { resource: 'job', operation: 'runFromDryRun', jobId: rl('dry-1') }, field: '"Dry-Run Job"' },
	// Job: Run From Dry Run's limits (Max Estimated Cost, Guards)
	{ title: 'job run from dry run: Max Estimated Cost with a comma', parameters: { resource: 'job', operation: 'runFromDryRun', jobId: rl(JOB), maxEstimatedCost: '25,00', maxEstimatedCostCurrency: 'USD' }, field: '"Max Estimated Cost"' },
	{ title: 'job run from dry run: Allowed Transfer Types with nothing selected', parameters: { resource: 'job', operation: 'runFromDryRun', jobId: rl(JOB), guards: { allowedTransferTypes: [] } }, field: '"Guards → Allowed Transfer Types"' },
	{ title: 'job run from dry run: Allowed Conflict Handling "merge" from an expression', parameters: { resource: 'job', operation: 'runFromDryRun', jobId: rl(JOB), guards: { allowedConflictHandling: fromItem } }, item: { v: ['skip', 'merge'] }, field: '"Guards → Allowed Conflict Handling"' },
	{ title: 'job run from dry run: Allowed Target Storage IDs with a storage name', parameters: { resource: 'job', operation: 'runFromDryRun', jobId: rl(JOB), guards: { allowedTargetStorageIds: `${DEMO_IDS.storageIds.archive}, files` } }, field: '"Guards → Allowed Target Storage IDs"' },
	{ title: 'job run from dry run: Max Dry Run Age 0 from an expression', parameters: { resource: 'job', operation: 'runFromDryRun', jobId: rl(JOB), guards: { maxDryRunAgeMinutes: fromItem } }, item: { v: 0 }, field: '"Guards → Max Dry Run Age (Minutes)"' },
	{ title: 'job run from dry run: a guard filled by $fromAI()', parameters: { resource: 'job', operation: 'runFromDryRun', jobId: rl(JOB), guards: { allowedTransferTypes: "={{ $fromAI('types', '', 'string') }}" } }, field: '"Guards → Allowed Transfer Types"' },
	// Job: get many, transfers, errors
	{ title: 'job get transfers: Limit 0', parameters: { resource: 'job', operation: 'getTransfers', jobId: rl(JOB), returnAll: false, limit: 0 }, field: '"Limit"' },
	{ title: 'job get errors: negative Limit', parameters: { resource: 'job', operation: 'getErrors', jobId: rl(JOB), returnAll: false, limit: -3 }, field: '"Limit"' },
	{ title: 'job get errors: Limit with a fraction, from an expression', parameters: { resource: 'job', operation: 'getErrors', jobId: rl(JOB), returnAll: false, limit: fromItem }, item: { v: 2.5 }, field: '"Limit"' },
	{ title: 'job get many: unknown status filter', parameters: { resource: 'job', operation: 'getMany', filters: { status: 'done' } }, field: '"Filters → Status"' },
	{ title: 'job get many: unknown transfer type filter, from an expression', parameters: { resource: 'job', operation: 'getMany', filters: { transferType: fromItem } }, item: { v: 'mirror' }, field: '"Filters → Transfer Type"' },
	{ title: 'job get many: Dry Run filter "yes"', parameters: { resource: 'job', operation: 'getMany', filters: { dryRun: fromItem } }, item: { v: 'yes' }, field: '"Filters → Dry Run"' },
	{ title: 'job get many: Source Storage filter that is a name', parameters: { resource: 'job', operation: 'getMany', filters: { sourceStorageId: rl('files') } }, field: '"Filters → Source Storage"' },
	{ title: 'job get many: unknown sort field', parameters: { resource: 'job', operation: 'getMany', sort: { rules: [{ field: 'size', direction: 'ascending' }] } }, field: '"Sort › Field"' },
	{ title: 'job get many: unknown sort direction', parameters: { resource: 'job', operation: 'getMany', sort: { rules: [{ field: 'name', direction: 'up' }] } }, field: '"Sort › Direction"' },
	{ title: 'job get many: Return All "maybe" from an expression', parameters: { resource: 'job', operation: 'getMany', returnAll: fromItem }, item: { v: 'maybe' }, field: '"Return All"' },
	// Job: create
	{ title: 'job create: unknown transfer type, from an expression', parameters: create({ transferType: fromItem }), item: { v: 'teleport' }, field: '"Transfer Type"' },
	{ title: 'job create: a sync with conflict handling', parameters: create({ transferType: fromItem, conflictHandling: 'skip' }), item: { v: 'sync' }, field: '"Conflict Handling"' },
	{ title: 'job create: a copy without conflict handling', parameters: create({ conflictHandling: fromItem }), item: { v: '' }, field: '"Conflict Handling"' },
	{ title: 'job create: unknown conflict handling', parameters: create({ conflictHandling: fromItem }), item: { v: 'merge' }, field: '"Conflict Handling"' },
	{ title: 'job create: Source Storage that is a name', parameters: create({ sourceStorageId: rl('files') }), field: '"Source Storage"' },
	{ title: 'job create: empty Target Storage from an expression', parameters: create({ targetStorageId: rl(fromItem) }), item: { v: '' }, field: '"Target Storage"' },
	{ title: 'job create: relative Source Path', parameters: create({ sourcePath: 'reports/2024' }), field: '"Source Path"' },
	{ title: 'job create: Target Path that is a number', parameters: create({ targetPath: fromItem }), item: { v: 5 }, field: '"Target Path"' },
	{ title: 'job create: invalid regular expression in a scope rule', parameters: create({ additionalFields: rule('matches', '([a-z') }), field: '"Scope Rules 1: Value"' },
	{ title: 'job create: unknown scope rule condition', parameters: create({ additionalFields: rule('contains', 'x') }), field: '"Scope Rules 1: Condition"' },
	{ title: 'job create: empty scope rule value', parameters: create({ additionalFields: rule('ends-with', '') }), field: '"Scope Rules 1: Value"' },
	{ title: 'job create: Fail After Errors 0', parameters: create({ additionalFields: { failAfterErrors: 0 } }), field: '"Fail After Errors"' },
	{ title: 'job create: negative Transfer Rate Limit', parameters: create({ additionalFields: { transferRateLimit: -1 } }), field: '"Transfer Rate Limit"' },
	{ title: 'job create: Transfer Rate Limit "fast" from an expression', parameters: create({ additionalFields: { transferRateLimit: fromItem } }), item: { v: 'fast' }, field: 'Transfer Rate Limit' },
	{ title: 'job create: Dry Run "perhaps"', parameters: create({ dryRun: fromItem }), item: { v: 'perhaps' }, field: '"Dry Run"' },
	{ title: 'job create: unknown retrieval type', parameters: create({ additionalFields: { retrievalType: fromItem } }), item: { v: 'instant' }, field: '"Retrieval Type"' },
	{ title: 'job create: User that is a name', parameters: create({ additionalFields: { userId: rl('bob') } }), field: '"User"' },
	{ title: 'job create: Start Status other than running', parameters: create({ additionalFields: { startStatus: fromItem } }), item: { v: 'paused' }, field: '"Start Status"' },
	{ title: 'job create: Poll Interval 0', parameters: create({ waitForCompletion: true, pollInterval: 0 }), field: '"Poll Interval (Seconds)"' },
	{ title: 'job create: negative Max Wait', parameters: create({ waitForCompletion: true, maxWait: -5 }), field: '"Max Wait (Seconds)"' },
	// User
	{ title: 'user create: Email that is not an address', parameters: { resource: 'user', operation: 'create', accountId: rl(ACCOUNT), email: 'not-an-address' }, field: '"Email"' },
	{ title: 'user create: empty Email from an expression', parameters: { resource: 'user', operation: 'create', accountId: rl(ACCOUNT), email: fromItem }, item: { v: '' }, field: '"Email"' },
	{ title: 'user create: unknown time zone', parameters: { resource: 'user', operation: 'create', accountId: rl(ACCOUNT), email: 'tz@example.com', additionalFields: { timezone: 'Mars/Olympus' } }, field: '"Time Zone"' },
	{ title: 'user create: Account that is a name', parameters: { resource: 'user', operation: 'create', accountId: rl('acme'), email: 'a@example.com' }, field: '"Account"' },
	{ title: 'user update: nothing to update', parameters: { resource: 'user', operation: 'update', userId: rl(DEMO_IDS.userIds[0]), updateFields: {} }, field: '"Update Fields"' },
	{ title: 'user update: empty First Name from an expression', parameters: { resource: 'user', operation: 'update', userId: rl(DEMO_IDS.userIds[0]), updateFields: { firstName: fromItem } }, item: { v: ' ' }, field: '"First Name"' },
	{ title: 'user get many: Email filter that is not an address', parameters: { resource: 'user', operation: 'getMany', filters: { email: 'nope' } }, field: '"Filters → Email"' },
	{ title: 'user delete: User id that is not a UUID', parameters: { resource: 'user', operation: 'deleteUser', userId: rl('x') }, field: '"User"' },
	// Group
	{ title: 'group create: blank Name', parameters: { resource: 'group', operation: 'create', accountId: rl(ACCOUNT), name: fromItem }, item: { v: '   ' }, field: '"Name"' },
	{ title: 'group update: Name that is not text', parameters: { resource: 'group', operation: 'update', groupId: rl(DEMO_IDS.groupIds[0]), updateFields: { name: fromItem } }, item: { v: 7 }, field: '"Name"' },
	{ title: 'group get many: Limit 0', parameters: { resource: 'group', operation: 'getMany', returnAll: false, limit: 0 }, field: '"Limit"' },
	{ title: 'group delete: Group id that is not a UUID', parameters: { resource: 'group', operation: 'deleteGroup', groupId: rl('ops') }, field: '"Group"' },
	// Account, storage
	{ title: 'account get: Account id that is not a UUID', parameters: { resource: 'account', operation: 'get', accountId: rl('acc-1') }, field: '"Account"' },
	{ title: 'storage get: Storage id that is a name', parameters: { resource: 'storage', operation: 'get', storageId: rl('files') }, field: '"Storage"' },
	{ title: 'storage get many: unknown type filter', parameters: { resource: 'storage', operation: 'getMany', filters: { type: fromItem } }, item: { v: 'ftp' }, field: '"Filters → Type"' },
	{ title: 'storage get many: Enabled filter "sometimes"', parameters: { resource: 'storage', operation: 'getMany', filters: { enabled: fromItem } }, item: { v: 'sometimes' }, field: '"Filters → Enabled"' },
	// Request Options and the credential
	{ title: 'Request Options: Timeout 0', parameters: { resource: 'api', operation: 'getVersion', requestOptions: { timeout: 0 } }, field: '"Request Options → Timeout (Seconds)"' },
	{ title: 'Request Options: Max Retries "three" from an expression', parameters: { resource: 'api', operation: 'getVersion', requestOptions: { maxRetries: fromItem } }, item: { v: 'three' }, field: 'Max Retries' },
	{ title: 'credential: Base URL without a scheme', parameters: { resource: 'api', operation: 'getVersion' }, credential: { baseUrl: 'api.example.com' }, field: 'Base URL' },
	{ title: 'credential: Base URL with another scheme', parameters: { resource: 'group', operation: 'get', groupId: rl(DEMO_IDS.groupIds[0]) }, credential: { baseUrl: 'ftp://127.0.0.1/v2/' }, field: 'Base URL' },
	{ title: 'credential: Base URL with a scheme and no host', parameters: { resource: 'api', operation: 'getVersion' }, credential: { baseUrl: 'https://' }, field: 'Base URL' },
	{ title: 'credential: Base URL with a query string', parameters: { resource: 'api', operation: 'getVersion' }, credential: { baseUrl: 'https://api.example.com/?tenant=1' }, field: 'Base URL' },
];

describe('bad input: an error naming the field and the item, and no request', () => {
	it('the catalogue holds at least 40 cases', () => {
		expect(CASES.length).toBeGreaterThanOrEqual(40);
	});

	it.each(CASES.map((c) => [c.title, c] as const))('%s', async (_title, testCase) => {
		sandbox.requests.clear();
		logs.clear();
		const credentials = credentialsFor(sandbox, testCase.credential ?? {});
		// Two items, both bad, with Continue On Fail: each item fails on its own and says which it is.
		const item = { json: testCase.item ?? {} };
		const result = await runNode({ credentials, parameters: testCase.parameters, items: [item, item], continueOnFail: true });
		expect(result.error).toBeUndefined();
		const outputs = result.items.map((output) => output.json);
		expect(outputs).toHaveLength(2);
		outputs.forEach((json, index) => {
			// Every failed item has both fields (the message again when the error has no description).
			expect(Object.keys(json).sort()).toEqual(['description', 'error']);
			expect(json.error).toContain(testCase.field);
			expect(json.error).toMatch(new RegExp(`\\[item ${index}\\]$`));
		});
		expect(sandbox.requests.count()).toBe(0);
		// And without Continue On Fail the run fails on the first item, in the same words.
		const failed = await runNode({ credentials, parameters: testCase.parameters, items: [item, item] });
		expect(failed.error?.message).toBe(outputs[0].error);
		expect(sandbox.requests.count()).toBe(0);
		expect(findSecrets([...runTexts(result), ...runTexts(failed), logs.text()], secretsOf(sandbox, [credentials]))).toEqual([]);
	});
});

describe('valid Base URL forms', () => {
	it.each([
		['a path prefix', '/v2'],
		['a path prefix and a trailing slash', '/v2/'],
		['a path prefix and several trailing slashes', '/v2//'],
	])('with %s it works: token and API requests go under the prefix', async (_title, suffix) => {
		const proxy = await startRecordingProxy(sandbox.baseUrl, '/v2');
		try {
			const origin = proxy.baseUrl.replace(/\/v2$/, '');
			const credentials = credentialsFor(sandbox, { baseUrl: `${origin}${suffix}` });
			const { error, items } = await runNode({
				credentials,
				parameters: { resource: 'group', operation: 'get', groupId: rl(DEMO_IDS.groupIds[0]) },
			});
			expect(error).toBeUndefined();
			expect(items[0].json.id).toBe(DEMO_IDS.groupIds[0]);
			expect(proxy.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
				'POST /v2/oauth/token',
				`GET /v2/groups/${DEMO_IDS.groupIds[0]}`,
			]);
		} finally {
			await proxy.close();
		}
	});
});
