/**
 * End-to-end: a rate-limited poll in real n8n. The trigger declares why its poll failed (`failure`:
 * rate-limited, with the wait the service's Retry-After asked for; transport/failure.ts failureCauseOf), and n8n 2.40 and
 * later, with its durable poll scheduling on (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
 * N8N_POLLER_DURABLE_CURSORS_ENABLED), skips the polls due before that wait is over. n8n 1.x has no such
 * back-off and polls again at the next Poll Time; the test asserts that there (the env variables are unknown
 * to it). In every version no event is lost or delivered twice: jobs that finish before the rate limit
 * (pending when the poll fails), while it lasts, and after it each come exactly once.
 *
 * The trigger polls every 5 s (a list of once-a-minute crons); the service answers the job list with 429 and
 * `Retry-After: 20` twice, which the trigger's own retry (Max Retries 1, Max Wait Between Retries 1 s) uses up,
 * so the poll fails. Without the declared wait n8n 2.4x's back-off would be its curve (5 s after one error).
 */
import { type Sandbox } from '../../sandbox/src';
import { randomId, type RunResult } from '../../scripts/n8n/headless';
import type { PublicApiClient } from '../../scripts/n8n/n8nApi';
import { CREDENTIAL_TYPE } from '../../scripts/n8n/packaging';
import { sleep } from '../../scripts/n8n/waiting';
import { ensureWorkflow, type WorkflowJson } from '../../scripts/n8n/workflows';
import { N8N_VERSION, n8nMajor } from '../../scripts/n8n/paths';
import { until } from './helpers/examples';
import { useN8nStack } from './helpers/stack';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const CLIENT_ID = 'backoff-e2e-client';
const CLIENT_SECRET = `backoff-e2e-${randomId()}`;
const TRIGGER = 'Finished Job';
const TRIGGER_TYPE = 'n8n-nodes-file-transfer-manager.fileTransferManagerTrigger';
/** The Retry-After the rate-limited job list sends, in seconds: longer than the trigger's Max Wait Between Retries. */
const RETRY_AFTER = 20;
/** A poll every 5 s: n8n takes a list of once-a-minute crons, not a wildcard in the seconds. */
const POLL_EVERY_S = 5;
const POLL_TIMES = {
	item: Array.from({ length: 60 / POLL_EVERY_S }, (_, i) => ({ mode: 'custom', cronExpression: `${i * POLL_EVERY_S} * * * * *` })),
};
/** n8n 2.40.7 and 2.41.1 have the poll back-off (the same code in both); 1.x has none. */
const BACKS_OFF = n8nMajor() >= 2;
/** n8n's durable poll scheduling, where 2.4x reads the declared cause; the executor looks for due polls every second. */
const DURABLE_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_SCHEDULER_EXECUTOR_INTERVAL: '1',
	N8N_SCHEDULER_JITTER_RATIO: '0',
};

interface Execution {
	id: string;
	status: string;
	mode: string;
	data?: RunResult['data'];
}

let sandbox: Sandbox;
let api: PublicApiClient;
let credential: { id: string; name: string };

function workflow(): WorkflowJson {
	return {
		name: `poll back-off e2e ${randomId()}`,
		nodes: [
			{
				id: '7b7b7b7b-0000-4000-8000-000000000001',
				name: TRIGGER,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: POLL_TIMES,
					events: ['finished'],
					filters: {},
					options: {},
					requestOptions: { maxRetries: 1, maxRetryWait: 1 },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** The times (sandbox clock, ms) of the trigger's job-list requests, and whether each was rate-limited. */
const polls = () =>
	sandbox.requests
		.all()
		.filter((r) => r.method === 'GET' && r.path === '/jobs')
		.map((r) => ({ at: r.at, limited: r.status === 429 }));

function finishJob(name: string): string {
	const [id] = sandbox.control.insertJobs(1, { status: 'running', name });
	sandbox.control.setJobStatus(id, 'finished');
	return id;
}

/** Job ids the trigger delivered, once per delivery, across the workflow's successful executions. */
async function delivered(workflowId: string): Promise<string[]> {
	const all = await api.list<Execution>(`/executions?workflowId=${workflowId}&includeData=true`);
	const ids: string[] = [];
	for (const execution of all) {
		if (execution.status !== 'success') continue;
		for (const item of execution.data?.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? []) ids.push(String(item.json.id));
	}
	return ids;
}

const stack = useN8nStack({
	name: 'backoff e2e',
	clientId: CLIENT_ID,
	clientSecret: CLIENT_SECRET,
	credentialName: 'File Transfer Manager (back-off e2e)',
	sandbox: { speed: 200 },
	extraEnv: DURABLE_ENV,
	logFile: 'n8n.log',
});
beforeAll(() => ({ sandbox, api, credential } = stack));

describe(`a rate-limited poll in n8n ${N8N_VERSION}`, () => {
	test(
		BACKS_OFF
			? `the next poll waits the ${RETRY_AFTER} s the service asked for; every job once`
			: `n8n 1.x polls again at the next Poll Time (no back-off); every job once`,
		async () => {
			const t0 = Date.now();
			const log = (what: string) => process.stderr.write(`[back-off e2e] ${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}\n`);
			sandbox.requests.clear();
			const { id: workflowId, activated } = await ensureWorkflow(api, workflow(), { activate: true });
			expect(activated).toBe(true);

			// Durable scheduling does not keep the position taken at activation: the first scheduled poll takes it
			// anew. Jobs finish only once a poll after that one has run, so that each is due for delivery.
			await until('two polls after activation', MINUTE, () => (polls().length >= 2 ? true : undefined), 250);
			const settled = polls().length;
			await until('one more poll', MINUTE, () => (polls().length > settled ? true : undefined), 250);
			log(`${polls().length} poll(s) so far`);

			// Before the rate limit: pending when the poll fails.
			const before = finishJob('back-off e2e: before');
			sandbox.faults.add({ kind: 'rate-limit', method: 'GET', path: '/jobs', retryAfterSeconds: RETRY_AFTER, times: 2 });
			await until('the rate-limited poll', MINUTE, () => (polls().filter((p) => p.limited).length === 2 ? true : undefined), 250);
			const failedAt = polls().filter((p) => p.limited)[1].at;
			log('the poll failed with 429 twice (its retry used up)');

			// During the wait.
			const during = finishJob('back-off e2e: during');
			await until('the poll after the failed one', MINUTE, () => (polls().some((p) => p.at > failedAt) ? true : undefined), 250);
			const next = polls().find((p) => p.at > failedAt)!;
			const gap = next.at - failedAt;
			log(`next poll ${(gap / 1000).toFixed(1)} s after the failed one`);
			expect(next.limited).toBe(false);
			if (BACKS_OFF) {
				// Skipped were the polls due within the wait; not one request to the job list in between.
				expect(gap).toBeGreaterThanOrEqual(RETRY_AFTER * SECOND);
				expect(gap).toBeLessThan((RETRY_AFTER + 3 * POLL_EVERY_S) * SECOND);
			} else {
				expect(gap).toBeLessThan(RETRY_AFTER * SECOND);
			}

			// After the rate limit.
			await until('jobs before and during delivered', MINUTE, async () => {
				const ids = await delivered(workflowId);
				return [before, during].every((id) => ids.includes(id)) ? true : undefined;
			});
			const after = finishJob('back-off e2e: after');
			await until('the job after delivered', MINUTE, async () => ((await delivered(workflowId)).includes(after) ? true : undefined));
			// One more poll, which must deliver nothing again.
			const count = polls().length;
			await until('one more poll', MINUTE, () => (polls().length > count ? true : undefined), 250);
			await sleep(2 * SECOND);

			const ids = await delivered(workflowId);
			log(`delivered ${ids.length} item(s)`);
			expect(ids.sort()).toEqual([before, during, after].sort());
		},
		3 * MINUTE,
	);
});
