/**
 * End-to-end in n8n's queue mode: Postgres, Redis, one main and two workers
 * (scripts/n8n/queue/stack.ts) with the packed package, against an in-process sandbox.
 *
 * One stack serves these scenarios, in order: the examples on workers; a token storm from a fresh
 * credential; the alert trigger with 200 failing jobs; a worker killed with SIGKILL during Wait for
 * Completion. Beside this file, each with a stack of its own: main-crashes.test.ts (main killed with SIGKILL
 * 10 times while jobs fail) and durable-cursors.test.ts (the same with n8n's durable poll cursors).
 *
 * Figures go to stdout ("[queue e2e] ...") and to tmp/queue-e2e/figures.json. Speed is measured, never
 * asserted. Run alone: `npm run test:queue`.
 */
import {
	ALERT_JOBS,
	BURSTS,
	NEXT_POLL_MS,
	STORM,
	WORKERS,
	keepOnFailure,
	newStack,
	useQueueRun,
	workerOf,
} from './suite';
import { DEMO_IDS } from '../../sandbox/src';
import { ensureCredential } from '../../scripts/n8n/credentials';
import { sleep } from '../../scripts/n8n/waiting';
import { FRESH_KEPT_MS } from '../../nodes/shared/transport/token';
import type { QueueStack } from '../../scripts/n8n/queue/stack';
import {
	MINUTE,
	deliveries,
	enqueuedExecutions,
	example,
	executions,
	fastAlert,
	failJob,
	figure,
	jobCreations,
	listRequests,
	log,
	settledExecutions,
	startedExecutions,
	tally,
	tokenRequests,
	until,
	type ExecutionRecord,
} from './helpers';
import { FINAL_STATUSES, createWorkflow, endedExecution, runManually, slowCreateWorkflow } from '../e2e/helpers/workflows';

const run = useQueueRun('default', 'figures.json');

describe('queue mode: Postgres, Redis, main and two workers', () => {
	let stack: QueueStack;
	let alertWorkflowId: string;
	const alertFailed: string[] = [];

	beforeAll(async () => {
		stack = await newStack(run, 'default', {});
	}, 5 * MINUTE);

	test('1. the examples run on workers, and both workers are used', keepOnFailure(async () => {
		const credential = stack.credential;
		const ex1 = await createWorkflow(stack.publicApi, example('dryRunThenRun', credential), 'queue e2e: example 1');
		const ex3 = await createWorkflow(stack.publicApi, example('housekeeping', credential), 'queue e2e: example 3');
		const t = Date.now();
		const started = await Promise.all([
			...Array.from({ length: 6 }, () => runManually(stack.rest, ex1, 'Start')),
			...Array.from({ length: 4 }, () => runManually(stack.rest, ex3, 'Run Now')),
		]);
		const done = [
			...(await settledExecutions(stack.publicApi, ex1, 6, 3 * MINUTE)),
			...(await settledExecutions(stack.publicApi, ex3, 4, 3 * MINUTE)),
		];
		figure('examples 1+3: 10 manual runs wall time (s)', +((Date.now() - t) / 1000).toFixed(1));
		const failedRuns = done.filter((e) => e.status !== 'success');
		expect(failedRuns).toEqual([]);

		const byWorker = workerOf(stack);
		const enqueued = enqueuedExecutions(stack.logText(stack.main));
		const spread: Record<string, number> = {};
		for (const id of started) spread[byWorker.get(id) ?? 'not on a worker'] = (spread[byWorker.get(id) ?? 'not on a worker'] ?? 0) + 1;
		figure('examples 1+3: executions per worker', spread);
		for (const id of started) {
			expect(enqueued.has(id)).toBe(true);
			expect(byWorker.has(id)).toBe(true);
		}
		expect(Object.keys(spread).filter((k) => k.startsWith('worker-')).length).toBe(WORKERS);
	}), 6 * MINUTE);

	test(`2. token storm: ${STORM} executions of example 1 from a fresh credential, slow token endpoint`, keepOnFailure(async () => {
		const fresh = await ensureCredential(stack.publicApi, 'queue e2e: fresh credential', {
			baseUrl: run.sandbox.baseUrl,
			clientId: run.sandbox.clientId,
			clientSecret: run.sandbox.clientSecret,
		});
		const workflowId = await createWorkflow(stack.publicApi, example('dryRunThenRun', fresh), 'queue e2e: token storm');
		// A worker shares a token it fetched for the same client in the last FRESH_KEPT_MS with a credential that has
		// none (transport/token.ts); the first test's tokens are for the same sandbox client, so wait that out:
		// then the fresh credential must fetch its own, and the count below says how many it took.
		const tokenTimes = run.sandbox.requests.all().filter((r) => r.method === 'POST' && r.path === '/oauth/token').map((r) => r.at);
		const shared = Math.max(0, ...tokenTimes) + FRESH_KEPT_MS + 1000 - Date.now();
		if (shared > 0) await sleep(shared);
		run.sandbox.faults.add({ kind: 'slow', path: '/oauth/token', times: Infinity, delayMs: 1500 });
		const before = tokenRequests(run.sandbox);
		const t = Date.now();
		try {
			const started = await Promise.all(Array.from({ length: STORM }, () => runManually(stack.rest, workflowId, 'Start')));
			expect(new Set(started).size).toBe(STORM);
			const done = await settledExecutions(stack.publicApi, workflowId, STORM, 8 * MINUTE);
			figure(`token storm: wall time for ${STORM} executions (s)`, +((Date.now() - t) / 1000).toFixed(1));
			const statuses: Record<string, number> = {};
			for (const e of done) statuses[e.status] = (statuses[e.status] ?? 0) + 1;
			figure('token storm: execution statuses', statuses);
			const tokens = tokenRequests(run.sandbox) - before;
			const byWorker = workerOf(stack);
			const spread: Record<string, number> = {};
			for (const id of started) spread[byWorker.get(id) ?? 'unknown'] = (spread[byWorker.get(id) ?? 'unknown'] ?? 0) + 1;
			figure('token storm: executions per worker', spread);
			figure(`token storm: token requests per ${STORM} concurrent executions`, tokens, `goal <= ${WORKERS} (one per worker)`);
			expect(statuses).toEqual({ success: STORM });
			expect(tokens).toBeGreaterThanOrEqual(1);
			expect(tokens).toBeLessThanOrEqual(WORKERS);
		} finally {
			run.sandbox.faults.clear();
		}
	}), 10 * MINUTE);

	test(`3. the alert trigger: ${ALERT_JOBS} jobs failing in ${BURSTS} bursts, one item each, none twice, none missed`, keepOnFailure(async () => {
		const polls = listRequests(run.sandbox);
		alertWorkflowId = await createWorkflow(stack.publicApi, fastAlert(stack.credential), 'queue e2e: alert', { activate: true });
		await until('the poll at activation', MINUTE, () => (listRequests(run.sandbox) > polls ? true : undefined), 250);
		await sleep(2000);
		const t = Date.now();
		const perBurst = ALERT_JOBS / BURSTS;
		// Bursts 8 s apart, across polls 15 s apart: some land between polls, some while one runs.
		for (let burst = 0; burst < BURSTS; burst++) {
			if (burst > 0) await sleep(8000);
			for (let i = 0; i < perBurst; i++) alertFailed.push(failJob(run.sandbox, `alert burst ${burst + 1} job ${i + 1}`));
			log(`alert: burst ${burst + 1}/${BURSTS}: ${perBurst} jobs failed`);
		}
		await until(`all ${ALERT_JOBS} failed jobs delivered`, NEXT_POLL_MS, async () => {
			const d = deliveries(await executions(stack.publicApi, alertWorkflowId, true));
			return alertFailed.every((id) => d.delivered.has(id)) ? true : undefined;
		}, 3000);
		const all = await settledExecutions(stack.publicApi, alertWorkflowId, 1, 2 * MINUTE, true);
		figure(`alert: time from the first burst until all ${ALERT_JOBS} delivered (s)`, Math.round((Date.now() - t) / 1000));
		const d = deliveries(all);
		const { missed, repeated, unknown } = tally(alertFailed, d);
		figure('alert: executions (by status)', d.statuses);
		const byWorker = workerOf(stack);
		const spread: Record<string, number> = {};
		for (const e of all) spread[byWorker.get(e.id) ?? 'unknown'] = (spread[byWorker.get(e.id) ?? 'unknown'] ?? 0) + 1;
		figure('alert: trigger executions per worker', spread);
		figure(`alert: missed / repeated of ${ALERT_JOBS}`, { missed: missed.length, repeated: repeated.length, unknown: unknown.length });
		expect(all.every((e) => e.mode === 'trigger' && e.status === 'success')).toBe(true);
		expect(missed).toEqual([]);
		expect(repeated).toEqual([]);
		expect(unknown).toEqual([]);
		expect([...d.delivered.values()].reduce((a, b) => a + b, 0)).toBe(ALERT_JOBS);
	}), 8 * MINUTE);

	test('4. a worker killed with SIGKILL during Wait for Completion', keepOnFailure(async () => {
		// The alert workflow of test 3 stops polling: only this test's execution runs on the workers.
		if (alertWorkflowId) await stack.publicApi.call('POST', `/workflows/${alertWorkflowId}/deactivate`);
		// The job name is the idempotency marker (Job Create → Additional Fields → If a Job With This Name
		// Exists: Use the Existing Job): a re-run of the workflow finds the job the crashed run created.
		const { files } = DEMO_IDS.storageIds;
		// 3000 bytes at 1 byte/s, at sandbox speed 200: the job transfers for about 15 s.
		const folder = `/queue-e2e-slow-${Date.now()}`;
		run.sandbox.control.writeFile(files, `${folder}/big.bin`, Buffer.alloc(3000, 120));
		const jobName = `queue e2e slow ${Date.now()}`;
		const extra = { additionalFields: { ifNameExists: 'useExisting' } };
		const workflowId = await createWorkflow(
			stack.publicApi,
			slowCreateWorkflow(stack.credential, jobName, folder, extra),
			'queue e2e: slow create',
		);
		const createsBefore = jobCreations(run.sandbox);
		const executionId = await runManually(stack.rest, workflowId, 'Start');
		const worker = await until(`execution ${executionId} on a worker`, MINUTE, () => workerOf(stack).get(executionId), 250);
		await until('the job created at the sandbox', MINUTE, () => (jobCreations(run.sandbox) > createsBefore ? true : undefined), 250);
		const job = run.sandbox.state.jobs().find((j) => j.attributes.name === jobName);
		expect(job).toBeDefined();
		await sleep(2000); // in the wait loop
		const index = stack.workers.findIndex((w) => w.name === worker);
		const statusBefore = (await stack.publicApi.call<ExecutionRecord>('GET', `/executions/${executionId}`)).status;
		await stack.killWorker(index, 'SIGKILL');
		const killedAt = Date.now();
		log(`worker crash: ${worker} killed during the wait of execution ${executionId} (status ${statusBefore}); job ${job!.id} is ${run.sandbox.state.job(job!.id)?.attributes.status}`);

		// What n8n records: Bull finds the job stalled once its lock expires (QUEUE_LOCK_ENV), moves it to failed
		// (n8n sets maxStalledCount 0: no re-run), and main marks the execution after a 30 s grace window.
		const get = (id: string) => stack.publicApi.call<ExecutionRecord>('GET', `/executions/${id}?includeData=true`);
		const recorded = await endedExecution(stack.publicApi, executionId, `execution ${executionId} (its worker killed)`, 4 * MINUTE).catch(() =>
			get(executionId),
		);
		const otherWorker = stack.workers.find((w) => w.name !== worker)!;
		figure('worker crash: what n8n records', {
			status: recorded.status,
			secondsAfterKill: Math.round((Date.now() - killedAt) / 1000),
			error: recorded.data?.resultData?.error?.message ?? null,
			rerunByOtherWorker: startedExecutions(stack.logText(otherWorker)).has(executionId),
		});

		// The service goes on: the job finishes without the worker.
		const finished = await run.sandbox.control.waitForJob(job!.id, 2 * MINUTE);
		figure('worker crash: the job at the service after the kill', finished.attributes.status);
		await stack.startWorker(index);
		const createsAfterCrash = jobCreations(run.sandbox) - createsBefore;
		figure('worker crash: jobs created for the item before any retry', createsAfterCrash);

		// How the user recovers. First Retry in the executions list; then running the workflow again.
		let retryOutcome = '';
		try {
			await stack.rest.call<unknown>('POST', `/executions/${executionId}/retry`, { loadWorkflow: false });
			const retry = await until('the retry to end', 3 * MINUTE, async () => {
				const found = (await executions(stack.publicApi, workflowId)).find((e) => e.mode === 'retry');
				return found && FINAL_STATUSES.includes(found.status) ? found : undefined;
			}, 1000);
			retryOutcome = `${retry.status}: ${(await get(retry.id)).data?.resultData?.error?.message ?? 'no error'}`;
		} catch (error) {
			retryOutcome = `refused or failed: ${(error as Error).message.slice(0, 300)}`;
		}
		const createsAfterRetry = jobCreations(run.sandbox) - createsBefore;
		figure('worker crash: Retry of the execution', retryOutcome, `jobs created so far: ${createsAfterRetry}`);
		const rerunId = await runManually(stack.rest, workflowId, 'Start');
		const rerun = await endedExecution(stack.publicApi, rerunId, `the re-run, execution ${rerunId}`, 3 * MINUTE);
		figure('worker crash: the workflow run again', rerun.status);
		const createsTotal = jobCreations(run.sandbox) - createsBefore;
		figure('worker crash: jobs created for the one item after the crash, a Retry and a re-run', createsTotal, 'If a Job With This Name Exists: Use the Existing Job');
		// What docs/scaling.md says happens: n8n marks the execution error, "failed to be processed too many
		// times", and no other worker runs it again; the job finishes at the service without the worker; n8n's
		// Retry fails with the same message and creates nothing.
		const tooManyTimes = /failed to be processed too many times/;
		expect(recorded.status).toBe('error');
		expect(recorded.data?.resultData?.error?.message).toMatch(tooManyTimes);
		expect(startedExecutions(stack.logText(otherWorker)).has(executionId)).toBe(false);
		expect(finished.attributes.status).toBe('finished');
		expect(retryOutcome).toMatch(/^error: /);
		expect(retryOutcome).toMatch(tooManyTimes);
		expect(createsAfterRetry).toBe(1);
		expect(createsAfterCrash).toBe(1);
		// The re-run output the crashed run's job, marked as reused, and created none.
		expect(rerun.status).toBe('success');
		const output = rerun.data?.resultData?.runData?.['Create Job']?.[0]?.data?.main?.[0]?.[0]?.json as
			| { id?: string; status?: string; reusedExistingJob?: boolean }
			| undefined;
		expect(output).toMatchObject({ id: job!.id, status: 'finished', reusedExistingJob: true });
		expect(createsTotal).toBe(1);
	}), 10 * MINUTE);
});
