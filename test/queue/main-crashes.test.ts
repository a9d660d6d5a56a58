/**
 * Queue mode (Postgres, Redis, one main and one worker: CRASH_STACK_WORKERS), main killed with SIGKILL 10 times at random moments
 * within the first half second of a scheduled poll while jobs fail: a stack and a sandbox of its own, side by
 * side with queue-mode.test.ts (the other scenarios) and durable-cursors.test.ts (the same kills with n8n's
 * durable poll cursors). Figures go to tmp/queue-e2e/figures-crashes.json.
 */
import { CRASHES, CRASH_STACK_WORKERS, beyondOnePoll, crashLoop, keepOnFailure, newStack, stretchesOf, useQueueRun } from './suite';
import { MINUTE, fastAlert, failJob, listRequests, until } from './helpers';
import { createWorkflow } from '../e2e/helpers/workflows';

const run = useQueueRun('crashes', 'figures-crashes.json');

/** Jobs that failed before the workflow was activated: the trigger starts after them and must never deliver them. */
const EARLIER_JOBS = 20;

describe('queue mode: main killed while the trigger polls', () => {
	test(`main killed with SIGKILL at ${CRASHES} random moments while jobs fail`, keepOnFailure(async () => {
		const stack = await newStack(run, 'default', {}, CRASH_STACK_WORKERS);
		const earlier = Array.from({ length: EARLIER_JOBS }, (_, i) => failJob(run.sandbox, `before activation ${i + 1}`));
		// A workflow without errors attached: each poll is a few list requests, however many jobs failed, so
		// that the crashes hit n8n's cursor handling rather than a long poll (see the durable run).
		const polls = listRequests(run.sandbox);
		const workflowId = await createWorkflow(stack.publicApi, fastAlert(stack.credential, 0), 'queue e2e: alert (crashes)', {
			activate: true,
		});
		await until('the poll at activation', 2 * MINUTE, () => (listRequests(run.sandbox) > polls ? true : undefined), 250);
		const { failed, failedAt, polls: pollsDuring, fresh, missedAt, repeatedAt } = await crashLoop(run, stack, 'default', workflowId, earlier, {
			activationPoll: true,
			title: 'default',
		});
		expect(failed.length).toBeGreaterThan(0);
		expect(fresh.unknown).toEqual([]);
		// The trigger's guarantee (docs/trigger.md, docs/scaling.md): nothing is missed or delivered twice except
		// the events of a poll n8n was handing over when main died (n8n 2.41 saves the trigger's state and stores
		// the execution as two writes; a kill between them loses or repeats that poll's events). So the missed
		// jobs and the jobs delivered twice, if any, form at most one run per crash together, and each run is the
		// events of one poll: jobs that failed between two consecutive polls (30 seen at one kill). The counts are
		// reported above.
		expect(stretchesOf(missedAt).length + stretchesOf(repeatedAt).length).toBeLessThanOrEqual(CRASHES);
		expect(beyondOnePoll(missedAt, failedAt, pollsDuring)).toEqual([]);
		expect(beyondOnePoll(repeatedAt, failedAt, pollsDuring)).toEqual([]);
	}), 15 * MINUTE);
});
