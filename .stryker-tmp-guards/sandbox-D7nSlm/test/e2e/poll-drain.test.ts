/**
 * End-to-end: a backlog larger than one poll, in real n8n with its durable poll scheduler
 * (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_POLLER_DURABLE_CURSORS_ENABLED) and a poll
 * timeout of 10 s, which gives each poll a budget of 5 s (`getPollBudgetMs()`: the timeout less a margin of
 * 5 s). The sandbox's network model makes every answer take 550 ms, so that reading the whole backlog at once
 * (25 pages, about 14 s) would outrun the timeout and n8n would abandon the poll, discard its items and back
 * off. The trigger stops reading within its budget and the next polls go on where it stopped: every job is
 * delivered once, over several polls, and n8n never logs "Poll exceeded its timeout".
 *
 * n8n-workflow gives poll nodes getPollBudgetMs() from 2.41 on; older versions have no budget to keep to (the
 * trigger's own bound, 30 s, is longer than this timeout), so the test runs in 2.41 and later only.
 */
// @ts-nocheck

import fs from 'node:fs';
import path from 'node:path';

import { type Sandbox } from '../../sandbox/src';
import { randomId, type RunResult } from '../../scripts/n8n/headless';
import type { PublicApiClient } from '../../scripts/n8n/n8nApi';
import { CREDENTIAL_TYPE } from '../../scripts/n8n/packaging';
import { ensureWorkflow, type WorkflowJson } from '../../scripts/n8n/workflows';
import { N8N_VERSION } from '../../scripts/n8n/paths';
import { sleep } from '../../scripts/n8n/waiting';
import { until } from './helpers/examples';
import { useN8nStack } from './helpers/stack';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const CLIENT_ID = 'drain-e2e-client';
const CLIENT_SECRET = `drain-e2e-${randomId()}`;
const TRIGGER = 'Ended Job';
const TRIGGER_TYPE = 'n8n-nodes-file-transfer-manager.fileTransferManagerTrigger';
/** The backlog: finished jobs, and failed ones with an error record each (Attach Errors is on). */
const FINISHED = 2_500;
const FAILED = 10;
const LATENCY_MS = 550;
const POLL_TIMEOUT_S = 10;
/** A poll every 5 s: n8n takes a list of once-a-minute crons, not a wildcard in the seconds. */
const POLL_EVERY_S = 5;
const POLL_TIMES = {
	item: Array.from({ length: 60 / POLL_EVERY_S }, (_, i) => ({ mode: 'custom', cronExpression: `${i * POLL_EVERY_S} * * * * *` })),
};
const [major, minor] = N8N_VERSION.split('.').map(Number);
const HAS_BUDGET = major > 2 || (major === 2 && minor >= 41);

interface Execution {
	id: string;
	status: string;
	data?: RunResult['data'];
}

let sandbox: Sandbox;
let api: PublicApiClient;
let credential: { id: string; name: string };
let workDir: string;

function workflow(): WorkflowJson {
	return {
		name: `poll drain e2e ${randomId()}`,
		nodes: [
			{
				id: '7c7c7c7c-0000-4000-8000-000000000001',
				name: TRIGGER,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: POLL_TIMES,
					events: ['finished', 'failed'],
					filters: {},
					options: { attachErrors: 1 },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** The times (sandbox clock, ms) of the trigger's requests for the first page of the job list: one per poll. */
const pollStarts = () =>
	sandbox.requests
		.all()
		.filter((r) => r.method === 'GET' && r.path === '/jobs' && r.query['page[after]'] === undefined)
		.map((r) => r.at);

/** "id:event" of every delivered item, per successful execution. */
async function deliveries(workflowId: string): Promise<string[][]> {
	const all = await api.list<Execution>(`/executions?workflowId=${workflowId}&includeData=true`);
	return all
		.filter((execution) => execution.status === 'success')
		.map((execution) =>
			(execution.data?.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map(
				(item) => `${String(item.json.id)}:${String(item.json.event)}`,
			),
		);
}

const stack = useN8nStack({
	name: 'drain e2e',
	clientId: CLIENT_ID,
	clientSecret: CLIENT_SECRET,
	credentialName: 'File Transfer Manager (drain e2e)',
	sandbox: { speed: 200 },
	extraEnv: {
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
		N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
		N8N_SCHEDULER_EXECUTOR_INTERVAL: '1',
		N8N_SCHEDULER_JITTER_RATIO: '0',
		N8N_SCHEDULER_POLL_TIMEOUT: String(POLL_TIMEOUT_S),
		// The trigger says at debug level when it skips a poll handed a position n8n has not saved yet.
		N8N_LOG_LEVEL: 'debug',
	},
	logFile: 'n8n.log',
});
beforeAll(() => ({ sandbox, api, credential, workDir } = stack));

(HAS_BUDGET ? describe : describe.skip)(`a backlog larger than one poll in n8n ${N8N_VERSION}, durable scheduler, poll timeout ${POLL_TIMEOUT_S} s`, () => {
	test(
		`${FINISHED + FAILED} jobs ending at once, every answer ${LATENCY_MS} ms: delivered over several polls, each once; no poll abandoned`,
		async () => {
			const t0 = Date.now();
			const log = (what: string) => process.stderr.write(`[drain e2e] ${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}\n`);
			const finished = sandbox.control.insertJobs(FINISHED, { status: 'running', name: 'drain e2e' });
			const failed = sandbox.control.insertJobs(FAILED, { status: 'running', name: 'drain e2e: failing' });
			sandbox.requests.clear();
			const { id: workflowId, activated } = await ensureWorkflow(api, workflow(), { activate: true });
			expect(activated).toBe(true);

			// The durable scheduler takes the position anew at its first scheduled poll: the backlog starts once a
			// poll after that one has run.
			await until('two polls after activation', MINUTE, () => (pollStarts().length >= 2 ? true : undefined), 250);
			const settled = pollStarts().length;
			await until('one more poll', MINUTE, () => (pollStarts().length > settled ? true : undefined), 250);

			sandbox.network.set({ latencyMs: LATENCY_MS });
			for (const id of failed) sandbox.control.addJobError(id, { sourcePath: '/drain-e2e/a.csv', message: 'unreachable' });
			for (const id of finished) sandbox.control.setJobStatus(id, 'finished');
			for (const id of failed) sandbox.control.setJobStatus(id, 'failed');
			const expected = [...finished.map((id) => `${id}:finished`), ...failed.map((id) => `${id}:failed`)];
			const backlogAt = Date.now();
			log(`backlog of ${expected.length} jobs`);

			// Delivered over several polls: the test waits as long as each minute brings more (a loaded machine
			// slows every poll), and prints the progress every 10 s and n8n's own lines about polls on a failure.
			const pollsBefore = pollStarts().length;
			const progress = async (got: string[][]) => {
				const statuses: Record<string, number> = {};
				for (const execution of await api.list<Execution>(`/executions?workflowId=${workflowId}`)) {
					statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
				}
				log(`${got.flat().length} of ${expected.length} delivered; ${pollStarts().length - pollsBefore} poll(s) since the backlog; executions ${JSON.stringify(statuses)}`);
			};
			let perExecution: string[][] | undefined;
			let reported = 0;
			let count = -1;
			let progressAt = Date.now();
			while (!perExecution) {
				const got = await deliveries(workflowId);
				if (got.flat().length !== count) {
					count = got.flat().length;
					progressAt = Date.now();
				}
				if (Date.now() - reported >= 10 * SECOND) {
					reported = Date.now();
					await progress(got);
				}
				if (count >= expected.length) perExecution = got;
				else if (Date.now() - progressAt > MINUTE) {
					await progress(got);
					const lines = fs.readFileSync(path.join(workDir, 'n8n.log'), 'utf8').split('\n');
					log(`n8n's log about polls:\n${lines.filter((line) => /poll|timeout|back.?off/i.test(line)).slice(-40).join('\n')}`);
					throw new Error(`no delivery for a minute, with ${count} of ${expected.length} delivered`);
				} else await sleep(2 * SECOND);
			}
			log(`delivered in ${perExecution.length} execution(s) of ${perExecution.map((items) => items.length).join(', ')} items, ${((Date.now() - backlogAt) / 1000).toFixed(1)} s after the backlog`);
			// One more poll after the last delivery: it must deliver nothing again.
			const polls = pollStarts().length;
			await until('one more poll', MINUTE, () => (pollStarts().length > polls ? true : undefined), 250);
			sandbox.network.set({ latencyMs: 0 });
			await until('its execution, if any, stored', 15 * SECOND, async () => ((await deliveries(workflowId)).flat().length >= expected.length ? true : undefined));

			const final = await deliveries(workflowId);
			const delivered = final.flat();
			const counts = new Map<string, number>();
			for (const key of delivered) counts.set(key, (counts.get(key) ?? 0) + 1);
			const twice = [...counts].filter(([, n]) => n > 1).map(([key]) => key);
			if (twice.length > 0) {
				// Which executions repeated what, to be read beside n8n's log.
				const repeatsPer = final.map((items) => items.filter((key) => twice.includes(key)).length);
				log(`${twice.length} delivered more than once; repeated items per execution: ${repeatsPer.join(', ')}`);
			}
			expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
			expect(delivered.sort()).toEqual(expected.sort());
			expect(perExecution.length).toBeGreaterThanOrEqual(3);

			const n8nLog = fs.readFileSync(path.join(workDir, 'n8n.log'), 'utf8');
			// How often a poll's turn began before n8n had saved the previous poll's position (it depends on timing).
			const occurrences = (text: string) => n8nLog.split(text).length - 1;
			log(
				`polls that handed items to n8n: ${occurrences('Poll returned new data')}; skipped until n8n saved the previous ` +
					`poll's position: ${occurrences('has not saved the position')}`,
			);
			expect(n8nLog).not.toContain('Poll exceeded its timeout');
		},
		10 * MINUTE,
	);
});
