/**
 * A real deployment that differs from our reading of the API: every deviation mode of the sandbox × every
 * operation it touches, and the trigger over 200 status changes. Each cell ends in a correct output
 * (checked against what the sandbox holds) or in an error that names the deviation, never in a silently
 * wrong result. Under no deviation does the trigger miss an event or emit a job outside its filters
 * without failing the poll.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { JobStatus } from '../../nodes/shared/api/types';
import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from '../harness/credentials';
import type { NodeRunResult } from '../harness/engine';
import { credentialsFor, runNode, triggerHandle } from '../harness/engine';
import { rl } from '../harness/locator';
import { demoDryRunCopy } from '../harness/parameters';

const FILES = DEMO_IDS.storageIds.files;
const ARCHIVE = DEMO_IDS.storageIds.archive;
let counter = 0;
const uniq = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;
beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	credentials = credentialsFor(sandbox);
	// More jobs than one page of 100, so that lists page.
	sandbox.control.insertJobs(130, { status: 'finished', name: 'bulk' });
});
afterEach(() => sandbox.deviations.clear());
afterAll(async () => {
	await sandbox.close();
});

async function run(parameters: INodeParameters, requestOptions: INodeParameters = { maxRetries: 0 }): Promise<NodeRunResult> {
	return await runNode({ credentials, parameters: { ...parameters, requestOptions } });
}

type Outcome = { ok: true } | { ok: false; message: string };
interface Cell {
	name: string;
	/** Runs the operation and checks a correct output; a thrown Error is a wrong result (a test failure). */
	run(): Promise<Outcome>;
}

function outcome(result: NodeRunResult): Outcome {
	return result.error ? { ok: false, message: `${result.error.message} — ${String(result.error.description ?? '')}` } : { ok: true };
}

function expectSame(actual: unknown, expected: unknown, what: string): void {
	if (JSON.stringify(actual) !== JSON.stringify(expected)) {
		throw new Error(`silently wrong: ${what}: got ${JSON.stringify(actual).slice(0, 300)}, expected ${JSON.stringify(expected).slice(0, 300)}`);
	}
}

const ids = (items: INodeExecutionData[]) => items.map((item) => String(item.json.id));
const sorted = (values: string[]) => [...values].sort();

const cells: Cell[] = [
	{
		name: 'Job › Get Many, Return All (more than a page)',
		async run() {
			const result = await run({ resource: 'job', operation: 'getMany', returnAll: true, simplify: false });
			if (result.error) return outcome(result);
			expectSame(sorted(ids(result.items)), sorted(sandbox.state.jobs().map((job) => job.id)), 'the job ids');
			return { ok: true };
		},
	},
	{
		name: 'Job › Get Many, Sort by Name',
		async run() {
			const result = await run({
				resource: 'job',
				operation: 'getMany',
				returnAll: false,
				limit: 40,
				sort: { rules: [{ field: 'name', direction: 'ascending' }] },
			});
			if (result.error) return outcome(result);
			const names = result.items.map((item) => String(item.json.name ?? ''));
			const expected = sandbox.state
				.jobs()
				.map((job) => job.attributes.name ?? '')
				.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
				.slice(0, 40);
			expectSame(names, expected, 'names in order');
			return { ok: true };
		},
	},
	{
		name: 'Job › Get Many, Filters › Status = failed',
		async run() {
			const result = await run({ resource: 'job', operation: 'getMany', returnAll: true, filters: { status: 'failed' } });
			if (result.error) return outcome(result);
			expectSame(sorted(ids(result.items)), sorted(sandbox.state.jobs().filter((j) => j.attributes.status === 'failed').map((j) => j.id)), 'failed jobs');
			return { ok: true };
		},
	},
	{
		name: 'Job › Get Many, Filters › Source Storage',
		async run() {
			const result = await run({ resource: 'job', operation: 'getMany', returnAll: true, filters: { sourceStorageId: rl(ARCHIVE) } });
			if (result.error) return outcome(result);
			expectSame(sorted(ids(result.items)), sorted(sandbox.state.jobs().filter((j) => j.attributes.source.id === ARCHIVE).map((j) => j.id)), 'jobs from archive');
			return { ok: true };
		},
	},
	{
		name: 'Group › Get Many, Filters › Name',
		async run() {
			const name = sandbox.state.groups()[0].attributes.name;
			const result = await run({ resource: 'group', operation: 'getMany', returnAll: true, filters: { name } });
			if (result.error) return outcome(result);
			expectSame(sorted(ids(result.items)), sorted(sandbox.state.groups().filter((g) => g.attributes.name === name).map((g) => g.id)), 'groups named so');
			return { ok: true };
		},
	},
	{
		name: 'User › Get Many, Filters › Email',
		async run() {
			const email = sandbox.state.users()[0].attributes.email;
			const result = await run({ resource: 'user', operation: 'getMany', returnAll: true, filters: { email } });
			if (result.error) return outcome(result);
			expectSame(ids(result.items), sandbox.state.users().filter((u) => u.attributes.email === email).map((u) => u.id), 'users with that e-mail');
			return { ok: true };
		},
	},
	{
		name: 'Storage › Get Many, Filters › Type',
		async run() {
			const result = await run({ resource: 'storage', operation: 'getMany', returnAll: true, filters: { type: 'file' } });
			if (result.error) return outcome(result);
			expectSame(sorted(ids(result.items)), sorted(sandbox.state.storages().filter((s) => s.attributes.type === 'file').map((s) => s.id)), 'file storages');
			return { ok: true };
		},
	},
	{
		name: 'Job › Create (copy, dry run) + Wait for Completion',
		async run() {
			const name = uniq('dev-create');
			const result = await run({
				...demoDryRunCopy(`/${name}`),
				additionalFields: { name },
				waitForCompletion: true,
				pollInterval: 0.05,
				maxWait: 30,
			});
			if (result.error) return outcome(result);
			const made = sandbox.state.jobs().filter((job) => job.attributes.name === name);
			expectSame(made.length, 1, 'jobs created');
			expectSame(result.items[0].json.status, 'finished', 'the waited status');
			return { ok: true };
		},
	},
	{
		name: 'Job › Create (sync, no conflict handling)',
		async run() {
			const name = uniq('dev-sync');
			const result = await run({
				resource: 'job',
				operation: 'create',
				transferType: 'sync',
				sourceStorageId: rl(FILES),
				sourcePath: '/reports',
				targetStorageId: rl(ARCHIVE),
				targetPath: `/${name}`,
				dryRun: true,
				additionalFields: { name },
			});
			if (result.error) return outcome(result);
			expectSame(sandbox.state.jobs().filter((job) => job.attributes.name === name).length, 1, 'jobs created');
			return { ok: true };
		},
	},
	{
		name: 'Job › Get (Simplify off)',
		async run() {
			const job = sandbox.state.jobs().find((j) => j.attributes.name !== 'bulk')!;
			const result = await run({ resource: 'job', operation: 'get', jobId: rl(job.id), simplify: false });
			if (result.error) return outcome(result);
			expectSame(result.items[0].json.id, job.id, 'the id');
			expectSame(result.items[0].json.status, sandbox.state.job(job.id)!.attributes.status, 'the status');
			return { ok: true };
		},
	},
	{
		name: 'Job › Get Transfers and Get Errors',
		async run() {
			const job = sandbox.state.jobs().find((j) => sandbox.state.jobTransfers(j.id).length > 0)!;
			const transfers = await run({ resource: 'job', operation: 'getTransfers', jobId: rl(job.id), returnAll: true });
			if (transfers.error) return outcome(transfers);
			expectSame(transfers.items.length, sandbox.state.jobTransfers(job.id).length, 'transfers');
			const errors = await run({ resource: 'job', operation: 'getErrors', jobId: rl(job.id), returnAll: true });
			if (errors.error) return outcome(errors);
			expectSame(errors.items.length, sandbox.state.jobErrors(job.id).length, 'errors');
			return { ok: true };
		},
	},
	{
		name: 'Group › Create, then Delete',
		async run() {
			const name = uniq('dev-group');
			const created = await run({ resource: 'group', operation: 'create', accountId: rl(DEMO_IDS.accountId), name });
			if (created.error) return outcome(created);
			const made = sandbox.state.groups().filter((group) => group.attributes.name === name);
			expectSame(made.map((g) => g.id), [created.items[0].json.id], 'the created group');
			const deleted = await run({ resource: 'group', operation: 'deleteGroup', groupId: rl(made[0].id) });
			if (deleted.error) return outcome(deleted);
			expectSame(sandbox.state.groups().some((group) => group.id === made[0].id), false, 'the group deleted');
			return { ok: true };
		},
	},
	{
		name: 'User › Create',
		async run() {
			const email = `${uniq('dev')}@example.com`;
			const created = await run({ resource: 'user', operation: 'create', accountId: rl(DEMO_IDS.accountId), email });
			if (created.error) return outcome(created);
			expectSame(sandbox.state.users().filter((u) => u.attributes.email === email).length, 1, 'users created');
			return { ok: true };
		},
	},
	{
		name: 'Group › Get after every token expired',
		async run() {
			sandbox.control.expireTokens();
			const group = sandbox.state.groups()[0];
			const result = await run({ resource: 'group', operation: 'get', groupId: rl(group.id) });
			if (result.error) return outcome(result);
			expectSame(result.items[0].json.id, group.id, 'the group');
			return { ok: true };
		},
	},
	{
		name: 'API › Get Version',
		async run() {
			const result = await run({ resource: 'api', operation: 'getVersion' });
			if (result.error) return outcome(result);
			const version = result.items[0].json.apiVersion;
			if (version !== undefined && version !== null && typeof version !== 'string') throw new Error('silently wrong: apiVersion');
			return { ok: true };
		},
	},
];

/**
 * Per deviation: the cells that end in an error, with what the error must say (the deviation named).
 * Every other cell must give a correct output.
 */
const LOUD = /ignored|refused|differs from the API contract|Check Compatibility|not found|Route Not Found|required|without a way to the next one|does not advance|Forbidden/i;
const EXPECTED: Record<string, Record<string, RegExp>> = {
	none: {},
	'ignore-sort': { 'Job › Get Many, Sort by Name': /The service ignored sort=name/ },
	'ignore-filter:status': { 'Job › Get Many, Filters › Status = failed': /The service ignored the filter filter\[status\]=failed/ },
	'ignore-filter:source.id': { 'Job › Get Many, Filters › Source Storage': /The service ignored the filter filter\[source\.id\]=/ },
	'ignore-filters': {
		'Job › Get Many, Filters › Status = failed': /ignored the filter filter\[status\]/,
		'Job › Get Many, Filters › Source Storage': /ignored the filter filter\[source\.id\]/,
		'Group › Get Many, Filters › Name': /ignored the filter filter\[name\]/,
		'User › Get Many, Filters › Email': /ignored the filter filter\[email\]/,
		'Storage › Get Many, Filters › Type': /ignored the filter filter\[type\]/,
	},
	'reject-unknown-filters': {
		'Job › Get Many, Filters › Source Storage': /Check Compatibility/,
		'Job › Create (copy, dry run) + Wait for Completion': /Check Compatibility/,
		'Job › Create (sync, no conflict handling)': /Check Compatibility/,
	},
	'cursor-name': { 'Job › Get Many, Return All (more than a page)': /without a way to the next one/ },
	'links-only': {},
	'max-page:50': {},
	'json-only': {},
	'sync-needs-conflict': { 'Job › Create (sync, no conflict handling)': /conflictHandling is required/ },
	'extra-status': {},
	'extra-attributes': {},
	'no-total': {},
	'other-routes': { 'Job › Get Transfers and Get Errors': /exists, but this deployment serves its transfers elsewhere, not at GET \/jobs\/[0-9a-f-]+\/transfers \(HTTP 404 Route Not Found\): run API › Check Compatibility/ },
	'moved-subroutes': { 'Job › Get Transfers and Get Errors': /exists, but this deployment serves its transfers elsewhere, not at GET \/jobs\/[0-9a-f-]+\/transfers \(HTTP 404 Entity Not Found\): run API › Check Compatibility/ },
	'no-deployment-id': {},
	'root-shape': {},
	'delete-200': {},
	'auth-403': {},
};

describe.each(Object.keys(EXPECTED))('deviation %s', (deviation) => {
	beforeEach(() => {
		if (deviation !== 'none') sandbox.deviations.set([deviation]);
	});

	it.each(cells.map((cell) => [cell.name, cell] as const))('%s: a correct output or a loud error', async (name, cell) => {
		const expectedError = EXPECTED[deviation][name];
		const result = await cell.run();
		if (expectedError) {
			expect(result).toEqual({ ok: false, message: expect.stringMatching(expectedError) });
		} else if (!result.ok) {
			// Any other error must at least name a deviation; none is expected, so report it.
			expect(result.message).toMatch(LOUD);
			throw new Error(`unexpected error under ${deviation}: ${result.message}`);
		}
	});
});

describe('the trigger over 200 status changes, under each deviation', () => {
	const STATUSES: JobStatus[] = ['finished', 'failed', 'stuck'];
	const TRIGGER_LOUD: Record<string, RegExp> = {
		'ignore-sort': /did not list jobs newest first/,
		// The stuck list asks for filter[status]=stuck.
		'ignore-filter:status': /ignored the filter filter\[status\]=stuck/,
		'ignore-filter:source.id': /ignored the filter filter\[source\.id\]/,
		'ignore-filter:userId': /ignored the filter filter\[userId\]/,
		'ignore-filters': /ignored the filter/,
		'reject-unknown-filters': /Invalid Filter.*Check Compatibility/,
		'cursor-name': /without a way to the next one/,
	};
	const deviations = ['none', ...Object.keys(TRIGGER_LOUD), 'links-only', 'max-page:50', 'extra-status', 'extra-attributes', 'no-total', 'other-routes', 'moved-subroutes', 'json-only', 'auth-403'];

	it.each(deviations)('%s: every event once, or the poll fails naming the deviation', async (deviation) => {
		const own = await startSandbox({ speed: 1000 });
		try {
			const user = DEMO_IDS.userIds[0];
			const other = DEMO_IDS.userIds[1];
			const job = (userId: string, storage: string) => ({ status: 'running', userId, source: { id: storage, type: 'file', path: '/' } }) as never;
			// 200 jobs of one user from one storage; the same user's jobs from another storage and another
			// user's jobs from the same storage are outside the filters, and change status too.
			const pool = own.control.insertJobs(200, job(user, FILES));
			const outside = [...own.control.insertJobs(30, job(user, ARCHIVE)), ...own.control.insertJobs(30, job(other, FILES))];
			if (deviation !== 'none') own.deviations.set([deviation]);
			const handle = triggerHandle(credentialsFor(own), {
				events: ['failed', 'finished', 'stuck'],
				filters: { userId: rl(user), sourceStorageId: rl(FILES) },
				options: { attachErrors: 1 },
				requestOptions: { maxRetries: 0 },
			});
			const expected: string[] = [];
			const delivered: string[] = [];
			let failure: string | undefined;
			const poll = async () => {
				try {
					const items = (await handle.poll()) ?? [];
					for (const item of items) {
						const json = item.json as IDataObject & { userId?: string; source?: { id?: string } };
						// Never a job outside the filters.
						expect(json.userId).toBe(user);
						expect(json.source?.id).toBe(FILES);
						delivered.push(`${String(json.id)}:${String(json.event)}`);
					}
				} catch (error) {
					const { message, description } = error as Error & { description?: string };
					failure = `${message} — ${description ?? ''}`;
				}
			};
			await poll();
			// A first round of 120 changes (more than a page), then 8 rounds of 10; in each round 6 jobs
			// outside the filters change too (never to be delivered).
			const rounds = [120, 10, 10, 10, 10, 10, 10, 10, 10];
			let next = 0;
			for (let round = 0; round < rounds.length && failure === undefined; round++) {
				for (let i = 0; i < rounds[round]; i++) {
					const id = pool[next++];
					const status = STATUSES[(round + i) % 3];
					own.control.setJobStatus(id, status);
					expected.push(`${id}:${status}`);
				}
				for (const id of outside.filter((_, index) => index % 10 === round % 10)) own.control.setJobStatus(id, 'failed');
				await new Promise((resolve) => setTimeout(resolve, 2));
				await poll();
			}
			if (TRIGGER_LOUD[deviation]) {
				expect({ failure, delivered: delivered.length }).toEqual({ failure: expect.stringMatching(TRIGGER_LOUD[deviation]), delivered: expect.any(Number) });
			} else {
				expect(next).toBe(200);
				expect(failure).toBeUndefined();
				expect(sorted(delivered)).toEqual(sorted(expected));
			}
		} finally {
			await own.close();
		}
	});
});
