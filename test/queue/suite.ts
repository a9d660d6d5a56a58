/**
 * What the queue-mode suites share (test/queue/*.test.ts): a run (its data folder, the packed package and an
 * in-process sandbox), the stacks it starts, and the crash loop both the default and the durable-cursor
 * suites drive. Each suite file is one jest worker, so the three run side by side with a sandbox, a data
 * folder and a figures file each.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { buildAndPack } from '../../scripts/n8n/packaging';
import { sleep } from '../../scripts/n8n/waiting';
import { NO_EDITOR_ENV, unusedModulesEnv } from '../../scripts/n8n/n8nProcess';
import { startQueueStack, type QueueStack } from '../../scripts/n8n/queue/stack';
import {
	MINUTE,
	OUT_DIR,
	TRIGGER,
	deliveries,
	executions,
	failJob,
	figure,
	log,
	pollStarts,
	randomInt,
	settledExecutions,
	startedExecutions,
	tally,
	until,
	useFiguresFile,
} from './helpers';
import type { ExecutionRecord } from './helpers';
import { TARBALL_ENV } from './globalSetup';

export const WORKERS = 2;
/**
 * Workers of the stacks whose scenarios kill main (main-crashes.test.ts, durable-cursors.test.ts): what they
 * test happens in main (the poll, its cursor, the hand-over of its events to the queue); a worker only runs
 * the executions that follow, and one at a concurrency of 5 keeps up with them. queue-mode.test.ts keeps two:
 * its scenarios spread executions over workers and kill one of them.
 */
export const CRASH_STACK_WORKERS = 1;
const CONCURRENCY = 5;
export const STORM = 100;
export const ALERT_JOBS = 200;
export const BURSTS = 4;
export const CRASHES = 10;
/**
 * The durable-cursor suite kills main fewer times at random: its second test kills main once more, at a chosen
 * moment (in the middle of a drain), and each kill costs a restart of main (10 to 40 s on two cores).
 */
export const DURABLE_CRASHES = 5;
/** The tests' trigger polls every 15 s (FAST_POLL_TIMES): a few polls' wait, plus margin for a busy machine. */
export const NEXT_POLL_MS = 90 * 1000;

/**
 * Bull's defaults (lock 60 s, stalled check every 30 s) would make the worker-crash scenario wait 1.5 min
 * for n8n to notice; these shorten it. The lock is still renewed every 3 s.
 */
/**
 * n8n pings its database every 2 s and answers "Database is not ready" (503) to every request after one ping
 * of more than 5 s: on two cores shared by two stacks that happened with a healthy Postgres. The suites
 * allow 20 s.
 */
const SHARED_CORES_ENV = { DB_PING_TIMEOUT_MS: '20000' };

const QUEUE_LOCK_ENV = {
	QUEUE_WORKER_LOCK_DURATION: '12000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

/**
 * n8n's durable poll scheduler with a poll timeout of 10 s: each poll gets a budget of 5 s (the timeout less
 * a margin, `getPollBudgetMs()`), so that a backlog at the sandbox's slowed answers takes several polls.
 */
const DURABLE_POLL_TIMEOUT_S = 10;
export const DURABLE_ENV = {
	N8N_SCHEDULER_POLL_TIMEOUT: String(DURABLE_POLL_TIMEOUT_S),
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};

/** One suite file's run: what its stacks share, and what it cleans up. */
export interface QueueRun {
	label: string;
	startedAt: number;
	runDir: string;
	tarball: string;
	sandbox: Sandbox;
	stacks: QueueStack[];
	unexpected: string[];
}

/**
 * Takes the package packed for the run (or packs it) and starts a sandbox for one suite file; figures go to
 * tmp/queue-e2e/<figures>. dist/ is built already (test/queue/globalSetup.ts, or `npm test`).
 */
async function startQueueRun(label: string, figures: string): Promise<QueueRun> {
	useFiguresFile(figures);
	const runDir = path.join(OUT_DIR, `run-${label}-${Date.now()}`);
	fs.mkdirSync(runDir, { recursive: true });
	// Packed once for the three suite files by test/queue/globalSetup.ts; packed here when run without it.
	const packed = process.env[TARBALL_ENV];
	const tarball = packed && fs.existsSync(packed) ? packed : await buildAndPack(path.join(runDir, 'pack'), { build: false });
	const sandbox = await startSandbox({ port: 0, speed: 200 });
	return { label, startedAt: Date.now(), runDir, tarball, sandbox, stacks: [], unexpected: [] };
}

/**
 * A suite file's run: started (startQueueRun) before its tests and stopped (stopQueueRun) after them; the
 * returned object is filled in once it runs (read it inside tests and hooks, not at the top of the file).
 */
export function useQueueRun(label: string, figures: string): QueueRun {
	const run = {} as QueueRun;
	beforeAll(async () => {
		Object.assign(run, await startQueueRun(label, figures));
	}, 10 * MINUTE);
	afterAll(async () => stopQueueRun(run.sandbox ? run : undefined), 3 * MINUTE);
	return run;
}

/** Stops the run's stacks and sandbox; keeps the data folder (Postgres clusters, logs) only when a test failed. */
async function stopQueueRun(run: QueueRun | undefined): Promise<void> {
	if (!run) return;
	for (const stack of run.stacks) {
		try {
			await stack.stop();
		} catch (error) {
			log(`stopping a stack failed: ${(error as Error).message}`);
		}
	}
	await run.sandbox.close();
	figure('suite wall time (s)', Math.round((Date.now() - run.startedAt) / 1000));
	if (run.unexpected.length) figure('unexpected process exits', run.unexpected);
	const failed = (globalThis as { __queueFailed?: boolean }).__queueFailed;
	if (!failed) fs.rmSync(run.runDir, { recursive: true, force: true });
}

/**
 * Starts a stack of this run (Postgres, Redis, main and `workers` workers, default WORKERS) against its
 * run.sandbox.
 */
export async function newStack(run: QueueRun, label: string, env: Record<string, string>, workers = WORKERS): Promise<QueueStack> {
	const t = Date.now();
	const stack = await startQueueStack({
		dataDir: path.join(run.runDir, label),
		workers,
		workerConcurrency: CONCURRENCY,
		sandboxBaseUrl: run.sandbox.baseUrl,
		clientId: run.sandbox.clientId,
		clientSecret: run.sandbox.clientSecret,
		tarball: run.tarball,
		examples: false,
		// No browser opens these n8n, and they serve no product feature beside executions: without the editor
		// and the unused modules, each start costs less (a main starts 3 times and again after each of the 16
		// kills; the workers of the three stacks once each, one again after its kill).
		env: { ...NO_EDITOR_ENV, ...unusedModulesEnv(), ...QUEUE_LOCK_ENV, ...SHARED_CORES_ENV, ...env },
		log: (line) => log(`${label}: ${line}`),
		onUnexpectedExit: (name, how, tail) => {
			run.unexpected.push(`${label}/${name}: ${how}`);
			log(`${label}: ${name} exited unexpectedly (${how}):\n${tail}`);
		},
	});
	run.stacks.push(stack);
	figure(`${label}: stack start (s)`, +((Date.now() - t) / 1000).toFixed(1), JSON.stringify(stack.timings));
	return stack;
}

/** Marks the run failed (keeps the data folder) when a test throws. */
export function keepOnFailure<T>(fn: () => Promise<T>): () => Promise<T> {
	return async () => {
		try {
			return await fn();
		} catch (error) {
			(globalThis as { __queueFailed?: boolean }).__queueFailed = true;
			throw error;
		}
	};
}

/** Which worker started each execution, from the workers' logs. */
export function workerOf(stack: QueueStack): Map<string, string> {
	const map = new Map<string, string>();
	for (const worker of stack.workers) for (const id of startedExecutions(stack.logText(worker))) map.set(id, worker.name);
	return map;
}

/**
 * Crashes main `count` times at random moments while jobs fail at the sandbox, then waits for the trigger
 * to deliver everything; returns the figures. `workflowId` is an active copy of the alert example.
 */
export async function crashLoop(
	run: QueueRun,
	stack: QueueStack,
	label: string,
	workflowId: string,
	alreadyFailed: string[],
	/** `title` names the figures: "main crashes (<title>)"; `crashes`: how many kills (default CRASHES). */
	options: { activationPoll: boolean; title: string; crashes?: number },
) {
	const { sandbox } = run;
	const loopStart = Date.now();
	const failed: string[] = [];
	/** When each job of `failed` failed (local ms). */
	const failedAt: number[] = [];
	let failing = true;
	const failer = (async () => {
		for (let round = 0; failing && round < 600; round++) {
			for (let i = 0; i < 2; i++) {
				failed.push(failJob(sandbox, `${label} crash job ${failed.length + 1}`));
				failedAt.push(Date.now());
			}
			await sleep(1000);
		}
	})();
	// Each crash lands at a random moment within the first 0.5 s of a scheduled poll (every 15 s): while the
	// trigger lists jobs, or just after it emitted, while n8n saves the cursor and enqueues the execution.
	// Not during the poll main runs when it activates the workflow at start: a crash there can leave the
	// workflow's publication claimed by the dead main, and the next main activates it only when that lease
	// runs out (seen: up to 2 minutes without polls); that would blow the suite's time budget.
	const crashes: Array<{ pollWaitMs: number; afterPollStartMs: number; pollRequestsBeforeKill: number; restartMs: number }> = [];
	try {
		const count = options.crashes ?? CRASHES;
		for (let i = 0; i < count; i++) {
			const since = Date.now();
			// The poll at activation (main's first), then the next one 15 s apart at most.
			// With durable cursors main polls at start only for a workflow it activates for the first time.
			const first = await until('a poll of the trigger', 3 * MINUTE, () => pollStarts(sandbox, since)[0], 100);
			const pollStart = options.activationPoll
				? await until('a scheduled poll', MINUTE, () => pollStarts(sandbox, first + 3000)[0], 100)
				: first;
			const delay = randomInt(0, 500);
			await sleep(Math.max(0, pollStart + delay - Date.now()));
			const killedAt = Date.now();
			await stack.killMain('SIGKILL');
			const requests = sandbox.requests.all().filter((r) => r.at >= pollStart && r.at <= killedAt).length;
			const t = Date.now();
			await stack.startMain();
			crashes.push({ pollWaitMs: pollStart - since, afterPollStartMs: killedAt - pollStart, pollRequestsBeforeKill: requests, restartMs: Date.now() - t });
			log(`${label}: crash ${i + 1}/${count} ${killedAt - pollStart} ms into a poll (${requests} requests); main back in ${Date.now() - t} ms`);
		}
	} finally {
		failing = false;
		await failer;
	}
	const stoppedAt = Date.now();
	log(`${label}: ${failed.length} jobs failed during the crashes; waiting for the trigger to deliver them`);
	const { outcome, pollsAfter, all } = await awaitDelivery(run, stack, workflowId, failed, stoppedAt);
	if (outcome === 'polled') log(`${label}: not every failed job delivered after two polls without progress; counting`);
	figure(`main crashes (${label}): loop and delivery wall time (s)`, Math.round((Date.now() - loopStart) / 1000));
	const d = deliveries(all);
	const fresh = tally(failed, d, alreadyFailed);
	const old = tally(alreadyFailed, d);
	const { retries, afterRetry } = await retryStranded(stack, workflowId, all, failed, alreadyFailed);
	// Where the missed ones were in the order of failure (a run at the end would mean "not polled yet").
	const missedAt = fresh.missed.map((id) => failed.indexOf(id));
	const repeatedAt = fresh.repeated.map((id) => failed.indexOf(id));
	const name = `main crashes (${options.title})`;
	figure(`${name}: crashes`, crashes);
	figure(`${name}: executions (by status)`, d.statuses);
	figure(`${name}: events`, {
		failedJobs: failed.length,
		missed: fresh.missed.length,
		repeated: fresh.repeated.length,
		extraDeliveries: fresh.extraDeliveries,
		recordedButNotRun: fresh.strandedOnly.length,
		earlierJobsRepeated: old.repeated.length,
		pollsAfterTheLastFailure: pollsAfter,
	});
	if (missedAt.length) figure(`${name}: positions of the missed jobs in the order of failure`, missedAt);
	if (repeatedAt.length) figure(`${name}: positions of the jobs delivered twice in the order of failure`, repeatedAt);
	if (retries.length) {
		figure(`${name}: Retry of the crashed executions`, retries);
		figure(`${name}: after those retries`, { missed: afterRetry?.missed.length, repeated: afterRetry?.repeated.length });
	}
	// Every poll from the loop's start to the end of the delivery, for beyondOnePoll.
	const polls = pollStarts(sandbox, loopStart);
	return { failed, failedAt, polls, fresh, missedAt, repeatedAt, afterRetry };
}

/** Positions (in the order of failure) as their runs of consecutive positions. */
export function stretchesOf(positions: number[]): number[][] {
	const runs: number[][] = [];
	for (const position of [...positions].sort((a, b) => a - b)) {
		const last = runs[runs.length - 1];
		if (last && position === last[last.length - 1] + 1) last.push(position);
		else runs.push([position]);
	}
	return runs;
}

/** A job that fails while a poll lists may be that poll's or the next one's: the edges of a poll's window. */
const POLL_EDGE_MS = 1000;

/**
 * The stretches of `positions` that are more than one poll's events: one poll delivers the jobs that failed
 * after the poll before it started and before it started itself, so the jobs of a stretch that a crash lost or
 * repeated all failed between two consecutive poll starts (`polls`, from the sandbox's request log; a poll
 * killed while it listed is one of them). `failedAt[p]` is when the job at position p failed.
 */
export function beyondOnePoll(positions: number[], failedAt: number[], polls: number[]): number[][] {
	const starts = [-Infinity, ...[...polls].sort((a, b) => a - b), Infinity];
	return stretchesOf(positions).filter((stretch) => {
		const first = Math.min(...stretch.map((p) => failedAt[p]));
		const last = Math.max(...stretch.map((p) => failedAt[p]));
		return !starts.slice(1).some((end, i) => first > starts[i] - POLL_EDGE_MS && last <= end + POLL_EDGE_MS);
	});
}

/**
 * Waits until every job of `failed` is delivered or held by an execution n8n recorded and never ran, or until two
 * polls have completed (the third has started) with nothing new delivered or held since `since` or the last
 * progress: a job those polls did not deliver, the trigger's position went past (missed). A drain that takes
 * several polls keeps making progress, so it is waited for. The executions the polls started are then awaited.
 */
export async function awaitDelivery(run: QueueRun, stack: QueueStack, workflowId: string, failed: string[], since: number) {
	const { sandbox } = run;
	let covered = -1;
	let progressAt = since;
	const outcome = await until('every failed job delivered, or two polls without progress', 6 * MINUTE, async () => {
		const d = deliveries(await executions(stack.publicApi, workflowId, true));
		const now = failed.filter((id) => d.delivered.has(id) || d.stranded.has(id)).length;
		if (failed.every((id) => d.delivered.has(id))) return 'delivered';
		if (now !== covered) {
			covered = now;
			progressAt = Date.now();
		}
		return pollStarts(sandbox, progressAt).length >= 3 ? 'polled' : undefined;
	}, 3000);
	const pollsAfter = pollStarts(sandbox, since).length;
	const all = await settledExecutions(stack.publicApi, workflowId, 0, 2 * MINUTE, true).catch(async () =>
		executions(stack.publicApi, workflowId, true),
	);
	return { outcome, pollsAfter, all };
}

/**
 * How the user recovers events left in crashed executions (created, never run): Retry each of them (20 at most).
 * Returns what each Retry answered and the tally of `failed` after them (undefined when none was stranded).
 */
export async function retryStranded(
	stack: QueueStack,
	workflowId: string,
	all: ExecutionRecord[],
	failed: string[],
	alsoExpected: string[],
	/** Which executions to consider (default: all): a caller that retried some already leaves them out. */
	consider: (execution: ExecutionRecord) => boolean = () => true,
) {
	const stranded = all.filter((e) => consider(e) && e.status === 'crashed' && !e.data?.resultData?.runData?.[TRIGGER]);
	const retries: string[] = [];
	for (const execution of stranded.slice(0, 20)) {
		try {
			await stack.rest.call('POST', `/executions/${execution.id}/retry`, { loadWorkflow: false });
			retries.push(`${execution.id}: retried`);
		} catch (error) {
			retries.push(`${execution.id}: ${(error as Error).message.slice(0, 120)}`);
		}
	}
	let afterRetry: ReturnType<typeof tally> | undefined;
	if (stranded.length) {
		const retried = await settledExecutions(stack.publicApi, workflowId, all.length + 1, 2 * MINUTE, true).catch(async () =>
			executions(stack.publicApi, workflowId, true),
		);
		afterRetry = tally(failed, deliveries(retried), alsoExpected);
	}
	return { retries, afterRetry };
}
