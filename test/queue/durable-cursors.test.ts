/**
 * Queue mode with n8n's durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED) and a poll timeout of 10 s (a
 * poll budget of 5 s): a stack of its own (Postgres, Redis, main and one worker: CRASH_STACK_WORKERS) against a sandbox of its
 * own.
 * 1. main killed with SIGKILL 5 times while jobs fail;
 * 2. a backlog that takes several polls (the sandbox answers in 1 s), main killed in the middle of its drain.
 * Runs side by side with queue-mode.test.ts and main-crashes.test.ts (jest.queue.config.js: three workers);
 * figures go to tmp/queue-e2e/figures-durable.json.
 */
import type { QueueStack } from '../../scripts/n8n/queue/stack';
import { sleep } from '../../scripts/n8n/waiting';
import {
	CRASH_STACK_WORKERS,
	DURABLE_CRASHES,
	DURABLE_ENV,
	awaitDelivery,
	beyondOnePoll,
	crashLoop,
	keepOnFailure,
	newStack,
	retryStranded,
	stretchesOf,
	useQueueRun,
} from './suite';
import {
	MINUTE,
	deliveries,
	executions,
	fastAlert,
	failJob,
	figure,
	listRequests,
	log,
	pollStarts,
	randomInt,
	tally,
	until,
} from './helpers';
import { createWorkflow } from '../e2e/helpers/workflows';

/** The drain scenario: a backlog of failed jobs, answers slowed to 1 s, so one poll of 5 s reads 2 to 3 pages. */
const BACKLOG = 800;
const DRAIN_LATENCY_MS = 1000;

const run = useQueueRun('durable', 'figures-durable.json');

let stack: QueueStack | undefined;
let workflowId = '';
/** Every job failed by the first test, which the second must not see again. */
const earlier: string[] = [];

describe('queue mode with durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED)', () => {
	test(`main killed with SIGKILL at ${DURABLE_CRASHES} random moments, durable cursors`, keepOnFailure(async () => {
		stack = await newStack(run, 'durable', DURABLE_ENV, CRASH_STACK_WORKERS);
		const polls = listRequests(run.sandbox);
		workflowId = await createWorkflow(stack.publicApi, fastAlert(stack.credential, 0), 'queue e2e: alert (durable)', {
			activate: true,
		});
		await until('the poll at activation', 2 * MINUTE, () => (listRequests(run.sandbox) > polls ? true : undefined), 250);
		// Jobs that fail between the activation and the first scheduled poll: n8n commits no cursor for the
		// poll at activation; the trigger keeps the position it took there in main's memory (inFlight.ts), and
		// the first scheduled poll starts from it.
		const afterActivation = Array.from({ length: 5 }, (_, i) => failJob(run.sandbox, `durable: after activation ${i + 1}`));
		const since = Date.now();
		await until('two scheduled polls', 2 * MINUTE, () => (pollStarts(run.sandbox, since).length >= 2 ? true : undefined), 250);
		await sleep(5000);
		const early = tally(afterActivation, deliveries(await executions(stack.publicApi, workflowId, true)));
		figure('durable cursors: jobs failed between activation and the first scheduled poll', {
			failed: afterActivation.length,
			delivered: afterActivation.length - early.missed.length,
		});
		expect(early.missed).toEqual([]);
		const { failed, failedAt, polls: pollsDuring, fresh, repeatedAt, afterRetry } = await crashLoop(run, stack, 'durable', workflowId, afterActivation, {
			activationPoll: false,
			title: 'durable cursors',
			crashes: DURABLE_CRASHES,
		});
		earlier.push(...afterActivation, ...failed);
		// The durable guarantee: every event is either delivered or held by a crashed execution that Retry runs.
		expect((afterRetry ?? fresh).missed).toEqual([]);
		expect(fresh.unknown).toEqual([]);
		// And none is delivered twice but the events of a poll n8n was handing over when main died
		// (docs/scaling.md: 0 twice in most runs, 86 in one): at most one run of them per kill, each one poll's
		// events (jobs that failed between two consecutive polls), before Retry and after it.
		const repeatedAfterRetry = (afterRetry ?? fresh).repeated.map((id) => failed.indexOf(id));
		for (const positions of [repeatedAt, repeatedAfterRetry]) {
			expect(stretchesOf(positions).length).toBeLessThanOrEqual(DURABLE_CRASHES);
			expect(beyondOnePoll(positions, failedAt, pollsDuring)).toEqual([]);
		}
	}), 15 * MINUTE);

	test(`a backlog of ${BACKLOG} drained over several polls, main killed with SIGKILL in the middle of the drain`, keepOnFailure(async () => {
		if (!stack) throw new Error('the stack did not start (first test)');
		const { sandbox } = run;
		// Whatever the first test left undelivered is delivered first, at full speed.
		await sleep(2000);
		const t = Date.now();
		// The first test's crashed executions were retried there already.
		const earlierExecutions = new Set((await executions(stack.publicApi, workflowId)).map((e) => e.id));
		sandbox.network.set({ latencyMs: DRAIN_LATENCY_MS });
		try {
			const backlog = Array.from({ length: BACKLOG }, (_, i) => failJob(sandbox, `durable drain job ${i + 1}`));
			const covered = async () => {
				const d = deliveries(await executions(stack!.publicApi, workflowId, true));
				return backlog.filter((id) => d.delivered.has(id) || d.stranded.has(id)).length;
			};
			// The first poll of the backlog reads what its budget allows and commits its position with its execution.
			const first = await until('a poll that delivered a part of the backlog', 3 * MINUTE, async () => {
				const n = await covered();
				return n > 0 ? n : undefined;
			}, 1000);
			figure('durable drain: backlog, and what its first poll delivered', { backlog: BACKLOG, firstPoll: first });
			expect(first).toBeLessThan(BACKLOG);
			// Then main is killed within the first 0.5 s of the next poll, in the middle of the drain.
			const since = Date.now();
			const pollStart = await until('the next poll of the drain', 2 * MINUTE, () => pollStarts(sandbox, since)[0], 100);
			await sleep(Math.max(0, pollStart + randomInt(0, 500) - Date.now()));
			const killedAt = Date.now();
			const before = await covered().catch(() => first);
			await stack.killMain('SIGKILL');
			const restart = Date.now();
			await stack.startMain();
			log(`durable drain: main killed ${killedAt - pollStart} ms into a poll with ${before} of ${BACKLOG} delivered; back in ${Date.now() - restart} ms`);
			const { outcome, all } = await awaitDelivery(run, stack, workflowId, backlog, Date.now());
			const d = deliveries(all);
			const result = tally(backlog, d, earlier);
			const { retries, afterRetry } = await retryStranded(stack, workflowId, all, backlog, earlier, (e) => !earlierExecutions.has(e.id));
			// The executions that hold a part of the backlog (run, or recorded and never run), with the size of each part.
			const inBacklog = new Set(backlog);
			const drainExecutions = all
				.map((e) => {
					const one = deliveries([e]);
					return [...one.delivered.keys(), ...one.stranded.keys()].filter((id) => inBacklog.has(id)).length;
				})
				.filter((n) => n > 0);
			figure('durable drain: items of the backlog per execution', drainExecutions);
			figure('durable drain: events', {
				outcome,
				deliveredAtTheKill: before,
				missed: result.missed.length,
				repeated: result.repeated.length,
				recordedButNotRun: result.strandedOnly.length,
				seconds: Math.round((Date.now() - t) / 1000),
			});
			if (retries.length) figure('durable drain: Retry of the crashed executions', { retries, after: { missed: afterRetry?.missed.length, repeated: afterRetry?.repeated.length } });
			// Several polls delivered it (the kill landed in the middle of a drain), and nothing was lost.
			expect(drainExecutions.length).toBeGreaterThanOrEqual(2);
			expect((afterRetry ?? result).missed).toEqual([]);
			// Nothing came twice but, at most, the events of the one poll main was handing over at the kill: no more
			// than the largest part of the backlog one execution held (0 twice in the runs measured so far).
			expect(result.repeated.length).toBeLessThanOrEqual(Math.max(...drainExecutions));
			expect((afterRetry ?? result).repeated.length).toBeLessThanOrEqual(Math.max(...drainExecutions));
		} finally {
			sandbox.network.clear();
		}
	}), 12 * MINUTE);
});
