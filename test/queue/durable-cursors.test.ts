/**
 * Queue mode with n8n's durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED): a stack of its own
 * (Postgres, Redis, main and two workers) against a sandbox of its own, main killed with SIGKILL 10 times
 * while jobs fail. Runs side by side with queue-mode.test.ts and main-crashes.test.ts (jest.queue.config.js:
 * three workers); figures go to tmp/queue-e2e/figures-durable.json.
 */
import { sleep } from '../../scripts/n8n/lib';
import { CRASHES, DURABLE_ENV, crashLoop, keepOnFailure, newStack, useQueueRun } from './suite';
import {
	MINUTE,
	deliveries,
	executions,
	fastAlert,
	failJob,
	figure,
	listRequests,
	pollStarts,
	tally,
	until,
} from './helpers';
import { createWorkflow } from '../e2e/helpers/workflows';

const run = useQueueRun('durable', 'figures-durable.json');

describe('queue mode with durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED)', () => {
	test(`main killed with SIGKILL at ${CRASHES} random moments, durable cursors`, keepOnFailure(async () => {
		const stack = await newStack(run, 'durable', DURABLE_ENV);
		const polls = listRequests(run.sandbox);
		const workflowId = await createWorkflow(stack.publicApi, fastAlert(stack.credential, 0), 'queue e2e: alert (durable)', {
			activate: true,
		});
		await until('the poll at activation', 2 * MINUTE, () => (listRequests(run.sandbox) > polls ? true : undefined), 250);
		// Jobs that fail between the activation and the first scheduled poll: n8n commits no cursor for the
		// poll at activation, so the trigger's starting point is only kept from the first scheduled poll on.
		const afterActivation = Array.from({ length: 5 }, (_, i) => failJob(run.sandbox, `durable: after activation ${i + 1}`));
		const since = Date.now();
		await until('two scheduled polls', 2 * MINUTE, () => (pollStarts(run.sandbox, since).length >= 2 ? true : undefined), 250);
		await sleep(5000);
		const early = tally(afterActivation, deliveries(await executions(stack.publicApi, workflowId, true)));
		figure('durable cursors: jobs failed between activation and the first scheduled poll', {
			failed: afterActivation.length,
			delivered: afterActivation.length - early.missed.length,
		});
		const { fresh, afterRetry } = await crashLoop(run, stack, 'durable', workflowId, afterActivation, {
			activationPoll: false,
			title: 'durable cursors',
		});
		// The durable guarantee: every event is either delivered or held by a crashed execution that Retry runs.
		expect((afterRetry ?? fresh).missed).toEqual([]);
		expect(fresh.unknown).toEqual([]);
	}), 15 * MINUTE);
});
