/**
 * End-to-end: the alert example (examples/02-alert-failed-or-stuck.json) activated in a running n8n with
 * the packed package installed. n8n itself polls the trigger: once at activation, then on its Poll Times. The
 * example polls every minute; here it polls four times a minute (withFastPolling), everything else as shipped,
 * so that the three polls the test needs take a minute rather than three.
 */
// @ts-nocheck

import { DEMO_IDS, type Sandbox } from '../../sandbox/src';
import { randomId, type RunResult } from '../../scripts/n8n/headless';
import type { PublicApiClient } from '../../scripts/n8n/n8nApi';
import { sleep } from '../../scripts/n8n/waiting';
import { ensureWorkflow, withCredential } from '../../scripts/n8n/workflows';
import { EXAMPLE_CREDENTIAL_NAME, EXAMPLE_FILES, readExample, until } from './helpers/examples';
import { useN8nStack } from './helpers/stack';
import { withFastPolling } from './helpers/workflows';

const MINUTE = 60 * 1000;
const CLIENT_ID = 'alert-e2e-client';
const CLIENT_SECRET = `alert-e2e-${randomId()}`;
const TRIGGER = 'Failed or Stuck Job';
const FORMAT = 'Format Message';
/** n8n polls every 15 s here; a few polls' time plus margin for a busy machine. */
const NEXT_POLL_MS = 90 * 1000;

interface Execution {
	id: string;
	status: string;
	mode: string;
	startedAt: string;
	data?: RunResult['data'];
}

interface Seen {
	executionId: string;
	trigger: Record<string, unknown>;
	message: Record<string, unknown> | undefined;
}

let sandbox: Sandbox;
let api: PublicApiClient;
let credential: { id: string; name: string };
let failedBeforeActivation: string;

/** Makes an inserted running job fail with the given error messages, as the sandbox's engine would. */
function failJob(name: string, messages: string[]): string {
	const [id] = sandbox.control.insertJobs(1, { status: 'running', name });
	messages.forEach((message, i) => sandbox.control.addJobError(id, { sourcePath: `/alert-e2e/${name}/${i + 1}.csv`, message }));
	sandbox.control.setJobStatus(id, 'failed');
	return id;
}

/** Poll requests of the trigger (the job list; the errors it attaches are read from /jobs/{id}/errors). */
const listRequests = () => sandbox.requests.count({ method: 'GET', path: '/jobs' });

async function executions(workflowId: string): Promise<Execution[]> {
	return api.list<Execution>(`/executions?workflowId=${workflowId}&includeData=true`);
}

/** Every item the trigger emitted, across the workflow's finished executions; fails on a failed one. */
function seenItems(all: Execution[]): Seen[] {
	const seen: Seen[] = [];
	for (const execution of all) {
		if (execution.status === 'error' || execution.status === 'crashed') {
			throw new Error(`execution ${execution.id} ended with status ${execution.status}: ${JSON.stringify(execution.data?.resultData.error)}`);
		}
		if (execution.status !== 'success') continue;
		const runData = execution.data?.resultData.runData ?? {};
		const triggerItems = runData[TRIGGER]?.[0]?.data?.main?.[0] ?? [];
		const messageItems = runData[FORMAT]?.[0]?.data?.main?.[0] ?? [];
		triggerItems.forEach((item, i) =>
			seen.push({ executionId: execution.id, trigger: item.json, message: messageItems[i]?.json }),
		);
	}
	return seen;
}

const stack = useN8nStack({
	name: 'alert e2e',
	clientId: CLIENT_ID,
	clientSecret: CLIENT_SECRET,
	credentialName: EXAMPLE_CREDENTIAL_NAME,
	sandbox: { speed: 200 },
	beforeN8n: (started) => {
		sandbox = started;
		failedBeforeActivation = failJob('Alert e2e: failed before activation', ['Failed before the workflow was activated.']);
	},
});
beforeAll(() => ({ api, credential } = stack));

describe('example 2: alert on failed or stuck jobs, activated in n8n', () => {
	test('n8n polls the trigger: nothing at activation, then one item per failed job, none twice, errors attached', async () => {
		const t0 = Date.now();
		const log = (what: string) => process.stderr.write(`[alert e2e] ${((Date.now() - t0) / 1000).toFixed(0)} s: ${what}\n`);
		const failedDemoJob = DEMO_IDS.jobIds.failedSync;
		expect(sandbox.state.job(failedDemoJob)?.attributes.status).toBe('failed');
		expect(sandbox.state.job(failedBeforeActivation)?.attributes.status).toBe('failed');

		sandbox.requests.clear();
		const workflow = readExample(EXAMPLE_FILES.alert);
		expect(workflow.active).toBe(true);
		const { id: workflowId, activated } = await ensureWorkflow(api, withFastPolling(withCredential(workflow, credential), TRIGGER), { activate: true });
		expect(activated).toBe(true);
		expect((await api.call<{ active: boolean }>('GET', `/workflows/${workflowId}`)).active).toBe(true);

		// The poll at activation: it records where the job list stands and starts no execution.
		await until('the poll at activation', MINUTE, () => (listRequests() > 0 ? true : undefined), 250);
		await sleep(3000);
		log(`activated; ${listRequests()} list request(s) at activation`);
		expect(await executions(workflowId)).toEqual([]);

		// One job fails; the next poll reports it.
		const jobA = failJob('Alert e2e A', ['A: the target disk is full.']);
		const first = await until(`an execution reporting job ${jobA}`, NEXT_POLL_MS, async () => {
			const seen = seenItems(await executions(workflowId));
			return seen.some((s) => s.trigger.id === jobA) ? seen : undefined;
		});
		log(`job A reported by execution ${first.find((s) => s.trigger.id === jobA)!.executionId}`);

		// Two more fail; a later poll reports both (one execution, or two if a poll fell between them).
		const jobB = failJob('Alert e2e B', ['B: access denied.', 'B: checksum mismatch.']);
		const cMessages = Array.from({ length: 7 }, (_, i) => `C: error ${i + 1} of 7.`);
		const jobC = failJob('Alert e2e C', cMessages);
		await until(`executions reporting jobs ${jobB} and ${jobC}`, NEXT_POLL_MS, async () => {
			const seen = seenItems(await executions(workflowId));
			return [jobB, jobC].every((id) => seen.some((s) => s.trigger.id === id)) ? seen : undefined;
		});
		log('jobs B and C reported');

		// One more poll with nothing new must not report anything again.
		const requestsBefore = listRequests();
		await until('one more poll', NEXT_POLL_MS, () => (listRequests() > requestsBefore ? true : undefined), 1000);
		await sleep(5000);
		const all = await executions(workflowId);
		const seen = seenItems(all);
		log(`${all.length} execution(s), ${seen.length} item(s) in all`);

		expect(all.every((e) => e.mode === 'trigger' && e.status === 'success')).toBe(true);
		// Exactly the three jobs, once each; nothing for the jobs that failed before the activation.
		expect(seen.map((s) => s.trigger.id).sort()).toEqual([jobA, jobB, jobC].sort());
		expect(seen.map((s) => s.trigger.id)).not.toContain(failedBeforeActivation);
		expect(seen.map((s) => s.trigger.id)).not.toContain(failedDemoJob);
		// A failed before B and C were made to fail, so it came in an execution of its own.
		const executionOf = (id: string) => seen.find((s) => s.trigger.id === id)!.executionId;
		expect(executionOf(jobA)).not.toBe(executionOf(jobB));
		expect(executionOf(jobA)).not.toBe(executionOf(jobC));

		const expectations: Array<[string, string, string[]]> = [
			[jobA, 'Alert e2e A', ['A: the target disk is full.']],
			[jobB, 'Alert e2e B', ['B: access denied.', 'B: checksum mismatch.']],
			[jobC, 'Alert e2e C', cMessages],
		];
		for (const [id, name, messages] of expectations) {
			const { trigger, message } = seen.find((s) => s.trigger.id === id)!;
			const attached = messages.slice(0, 5);
			expect(trigger).toMatchObject({ event: 'failed', status: 'failed', name, errorsTotal: messages.length });
			expect((trigger.errors as Array<{ message: string; jobId: string }>).map((e) => e.message)).toEqual(attached);
			expect((trigger.transferSummary as { text?: unknown }).text).toEqual(expect.any(String));
			expect(message).toBeDefined();
			expect(message).toMatchObject({ jobId: id, event: 'failed', subject: `Transfer job "${name}" failed` });
			const text = message!.message as string;
			expect(text).toContain(`Transfer job "${name}" (${id}) failed at ${trigger.seenAt as string}.`);
			expect(text).toContain((trigger.transferSummary as { text: string }).text);
			expect(text).toContain(`${messages.length} error(s); first: `);
			for (const m of attached) expect(text).toContain(m);
			for (const m of messages.slice(5)) expect(text).not.toContain(m);
		}
	}, 15 * MINUTE);
});
