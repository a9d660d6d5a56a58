/**
 * Job › Run From Dry Run › Guards (docs/operations.md › Job: Run From Dry Run), through n8n-core's engine
 * against the sandbox: a dry run outside a guard (a move, a sync, an overwrite, another target, too old)
 * starts no job (no POST /jobs reaches the sandbox, its jobs are the same before and after) and the item fails
 * with what the dry run has and what is allowed; no guard added runs as before; Continue On Fail makes the
 * refusal an item error while the other items run; as an AI tool the refusal is worded for the model; bad
 * guard input and a guard filled by $fromAI() are refused before any request. Old dry runs come from the
 * sandbox's control API, which inserts a finished job with the stats.finishedAt it is given.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { JobAttributes, JobStats } from '../../../nodes/shared/api/types';
import { callTool } from '../../harness/tool';
import { ARCHIVE, BUCKET, rl, uniq, useJobSandbox } from './helpers';

const t = useJobSandbox();

const MINUTE = 60_000;
const DEFAULT_GUARDS = {
	allowedTransferTypes: ['copy'],
	allowedConflictHandling: ['skip', 'rename'],
	allowedTargetStorageIds: '',
	maxDryRunAgeMinutes: 60,
};

/** A finished dry run in the sandbox (a copy that skips, to archive, finished a minute ago, unless told). */
function dryRunWith(attributes: Partial<Omit<JobAttributes, 'stats'>> = {}, finishedAgoMs = MINUTE): string {
	const finishedAt = new Date(Date.now() - finishedAgoMs).toISOString();
	const stats = { finishedAt, estimatedCost: { amount: '1.00', currency: 'USD' } } as Partial<JobStats> as JobStats;
	const [id] = t.sandbox.control.insertJobs(1, {
		name: uniq('guarded dry run'),
		dryRun: true,
		status: 'finished',
		transferType: 'copy',
		conflictHandling: 'skip',
		...attributes,
		stats,
	});
	expect(t.sandbox.state.job(id)!.attributes.stats.finishedAt).toBe(finishedAt);
	return id;
}

const runFrom = (jobId: string, over: INodeParameters = {}): INodeParameters => ({
	operation: 'runFromDryRun',
	jobId: rl(jobId),
	...over,
});

/** POST /jobs requests the sandbox received. */
const creates = () => t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
/** The sandbox's jobs, as their IDs. */
const jobIds = () => t.sandbox.state.jobs().map((job) => job.id).sort();

describe('Guards', () => {
	it.each([
		['a move', { transferType: 'move' }, MINUTE, {}, (id: string) => `Not started: dry run ${id} is a move, and this workflow allows only copy [item 0]`],
		['a sync', { transferType: 'sync', conflictHandling: null }, MINUTE, {}, (id: string) => `Not started: dry run ${id} is a sync, and this workflow allows only copy [item 0]`],
		[
			'an overwrite',
			{ conflictHandling: 'overwrite' },
			MINUTE,
			{},
			(id: string) => `Not started: dry run ${id} overwrites files on the target, and this workflow allows only skip, rename [item 0]`,
		],
		[
			'another target',
			{ target: { id: BUCKET, path: null } },
			MINUTE,
			{ allowedTargetStorageIds: ` ${ARCHIVE} ` },
			(id: string) => `Not started: dry run ${id} targets storage ${BUCKET}, which is not among the Allowed Target Storage IDs [item 0]`,
		],
		[
			'a dry run too old',
			{},
			95 * MINUTE + 20_000,
			{},
			(id: string) => `Not started: dry run ${id} finished 95 minutes ago, more than the Max Dry Run Age of 60 minutes [item 0]`,
		],
	] as const)('%s is refused: no POST /jobs, the same jobs before and after', async (_what, attributes, agoMs, over, message) => {
		const id = dryRunWith(attributes as Partial<JobAttributes>, agoMs);
		const jobsBefore = jobIds();
		const before = creates();
		const run = await t.run(runFrom(id, { guards: { ...DEFAULT_GUARDS, ...over } }));
		expect(run.error?.message).toBe(message(id));
		expect(run.error?.description).toMatch(/^No job was started\. To go on, change .+ in the node's Guards \(or remove it\), or make a new dry run .+ and run that one\.$/);
		expect(creates()).toBe(before);
		expect(jobIds()).toEqual(jobsBefore);
	});

	it('a dry run that fits every guard runs; a sync without conflict handling passes when sync is allowed', async () => {
		const copy = dryRunWith({ conflictHandling: 'rename' });
		const before = creates();
		const run = await t.run(runFrom(copy, { guards: { ...DEFAULT_GUARDS, allowedTargetStorageIds: `${BUCKET},${ARCHIVE}` } }));
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ dryRunJobId: copy, dryRun: false, transferType: 'copy' });
		const sync = dryRunWith({ transferType: 'sync', conflictHandling: null });
		const synced = await t.run(runFrom(sync, { guards: { ...DEFAULT_GUARDS, allowedTransferTypes: ['sync'] } }));
		expect(synced.error).toBeUndefined();
		expect(synced.items[0].json).toMatchObject({ dryRunJobId: sync, transferType: 'sync' });
		expect(creates()).toBe(before + 2);
	});

	it('no guard added: a move dry run of any age runs as before', async () => {
		const move = dryRunWith({ transferType: 'move', conflictHandling: 'overwrite', target: { id: BUCKET, path: null } }, 48 * 60 * MINUTE);
		const before = creates();
		const run = await t.run(runFrom(move));
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ dryRunJobId: move, dryRun: false, transferType: 'move' });
		expect(creates()).toBe(before + 1);
	});

	it('the guards come before Max Estimated Cost and before the name lookup: only the dry run is read', async () => {
		const move = dryRunWith({ transferType: 'move' });
		t.sandbox.requests.clear();
		const run = await t.run(
			runFrom(move, {
				name: uniq('guarded run'),
				additionalFields: { ifNameExists: 'useExisting' },
				maxEstimatedCost: '0.01',
				maxEstimatedCostCurrency: 'USD',
				guards: { allowedTransferTypes: ['copy'] },
			}),
		);
		expect(run.error?.message).toBe(`Not started: dry run ${move} is a move, and this workflow allows only copy [item 0]`);
		expect(t.sandbox.requests.all().filter((request) => request.path !== '/oauth/token').map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /jobs/${move}`,
		]);
	});

	it('Continue On Fail: the refusal is an item error, the other items run', async () => {
		const move = dryRunWith({ transferType: 'move' });
		const copy = dryRunWith();
		const before = creates();
		const run = await t.run(
			{ operation: 'runFromDryRun', jobId: rl('={{ $json.dryRunId }}'), guards: DEFAULT_GUARDS },
			{ items: [{ json: { dryRunId: copy } }, { json: { dryRunId: move } }, { json: { dryRunId: copy } }], continueOnFail: true },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect(run.items[0].json).toMatchObject({ dryRunJobId: copy, dryRun: false });
		expect(run.items[1].json).toEqual({
			error: `Not started: dry run ${move} is a move, and this workflow allows only copy [item 1]`,
			description: expect.stringMatching(/^No job was started\. To go on, change Allowed Transfer Types/),
		});
		expect(run.items[2].json).toMatchObject({ dryRunJobId: copy, dryRun: false });
		expect(creates()).toBe(before + 2);
	});

	it.each([
		[{ allowedTransferTypes: [] }, '"Guards → Allowed Transfer Types" must hold at least one transfer type [item 0]'],
		[{ allowedConflictHandling: [] }, '"Guards → Allowed Conflict Handling" must hold at least one conflict handling [item 0]'],
		[{ allowedTargetStorageIds: 'archive' }, '"Guards → Allowed Target Storage IDs" must be storage UUIDs separated by commas, got "archive" [item 0]'],
		[{ maxDryRunAgeMinutes: 0 }, '"Guards → Max Dry Run Age (Minutes)" must be a whole number of minutes, at least 1, got 0 [item 0]'],
		[{ maxDryRunAgeMinutes: "={{ $fromAI('age', 'minutes', 'number') }}" }, '"Guards → Max Dry Run Age (Minutes)" is filled by $fromAI(): a limit on what a dry run may start must not be set by the model [item 0]'],
	])('bad guard input %j is refused before any request', async (guards, message) => {
		const id = dryRunWith({ transferType: 'move' });
		t.sandbox.requests.clear();
		const run = await t.run(runFrom(id, { guards }));
		expect(run.error?.message).toBe(message);
		expect(t.sandbox.requests.all().filter((request) => request.path !== '/oauth/token')).toEqual([]);
	});
});

describe('Guards as an AI tool', () => {
	const fromAi = (key: string) => `={{ $fromAI('${key}', 'the ${key}', 'string') }}`;
	const tool = (over: INodeParameters = {}): INodeParameters => ({
		resource: 'job',
		operation: 'runFromDryRun',
		jobId: rl(fromAi('jobId')),
		guards: DEFAULT_GUARDS,
		...over,
	});

	it('the refusal reads like the spending guard\'s: the limit is the workflow\'s, tell the user; no job started', async () => {
		const move = dryRunWith({ transferType: 'move' });
		const before = creates();
		const result = await callTool({ credentials: t.credentials, parameters: tool(), args: { jobId: move } });
		expect(result.error).toBe(
			`Not started: dry run ${move} is a move, and this workflow allows only copy\n\nDetails: No job was started. The Allowed Transfer Types guard is set in the workflow; a tool call cannot change it. Tell the user why this dry run was refused. To go on, they change the guard in the workflow, or you start a dry run of a transfer type it allows (copy).`,
		);
		expect(creates()).toBe(before);
	});

	it('a dry run that fits runs', async () => {
		const copy = dryRunWith();
		const result = await callTool({ credentials: t.credentials, parameters: tool(), args: { jobId: copy } });
		expect(result.error).toBeUndefined();
		expect(result.items![0]).toMatchObject({ dryRunJobId: copy });
	});

	it('a guard the model would fill is refused before any request', async () => {
		const move = dryRunWith({ transferType: 'move' });
		t.sandbox.requests.clear();
		const result = await callTool({
			credentials: t.credentials,
			parameters: tool({ guards: { allowedTransferTypes: fromAi('types') } }),
			args: { jobId: move, types: 'copy,move' },
		});
		expect(result.error).toMatch(/^"Guards → Allowed Transfer Types" is filled by \$fromAI\(\): a limit on what a dry run may start must not be set by the model/);
		expect(t.sandbox.requests.all().filter((request) => request.path !== '/oauth/token')).toEqual([]);
	});

	it('a Max Estimated Cost the model would fill is refused before any request', async () => {
		const copy = dryRunWith();
		t.sandbox.requests.clear();
		const result = await callTool({
			credentials: t.credentials,
			parameters: tool({ maxEstimatedCost: fromAi('max'), maxEstimatedCostCurrency: 'USD' }),
			args: { jobId: copy, max: '1000000' },
		});
		expect(result.error).toMatch(/^"Max Estimated Cost" is filled by \$fromAI\(\): a limit on what a dry run may start must not be set by the model/);
		expect(t.sandbox.requests.all().filter((request) => request.path !== '/oauth/token')).toEqual([]);
	});
});
