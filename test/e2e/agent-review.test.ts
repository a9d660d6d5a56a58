/**
 * End-to-end, no language model: example 6 (examples/06-agent-with-review.json), an AI Agent whose
 * run_from_dry_run goes through n8n's human review (Send Email's Send and Wait as the review tool), in real n8n
 * with the packed package, against the sandbox. Nothing leaves 127.0.0.1:
 *
 * - the model is a scripted OpenAI stand-in (helpers/scriptedModel.ts): n8n's OpenAI Chat Model 1.3 calls its
 *   Responses API (without a stream) through the OpenAI credential's Base URL; the script answers with tool calls in a fixed
 *   order (list_storages → create_dry_run with two storage ids from the list → get_job until the dry run is
 *   finished → run_from_dry_run with the dry run's id), reading the ids from the tool results it is sent, and
 *   its final answer quotes the last tool result, so that the test reads what the agent got;
 * - the reviewer is the test: a local SMTP sink (helpers/smtpSink.ts) receives the review e-mail, and the test
 *   opens its Approve or Deny link as a person's browser does;
 * - the chat message starts the workflow as n8n's chat panel does: a manual run from the Chat Trigger with the
 *   message as the trigger's data (`triggerToStartFrom`).
 *
 * The cases: approved → exactly one real job, created from that dry run; denied → no job, and the agent is
 * told the call was rejected; a dry run that breaks a guard (a move, a sync, a copy that overwrites, one to a
 * storage the workflow does not allow, one finished 95 minutes ago), approved → no job, and the agent gets the
 * guard's message. The test's copy of the example allows the archive storage only (the example leaves Allowed
 * Target Storage IDs empty for the user). Where the n8n under test has no human review for tools, the suite
 * skips, naming the version, by n8n's own source (n8n 1.123.81 has none; 2.40.7 and 2.41.1 have it); an n8n not
 * installed when the suite loads fails it instead of passing untested. Every wait is bounded (n8n's start, the e-mail, each execution, each job).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_IDS, type Sandbox } from '../../sandbox/src';
import { randomId } from '../../scripts/n8n/headless';
import { N8N_VERSION, n8nInstallDir } from '../../scripts/n8n/paths';
import { ensureWorkflow, withCredential, type WorkflowJson } from '../../scripts/n8n/workflows';
import { until } from '../../scripts/n8n/waiting';
import type { Job } from '../../nodes/shared/api/types';
import { EXAMPLE_CREDENTIAL_NAME, EXAMPLE_FILES, readExample } from './helpers/examples';
import { startScriptedModel, type Reply, type ScriptedModel, type Turn } from './helpers/scriptedModel';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './helpers/smtpSink';
import { useN8nStack } from './helpers/stack';
import { createWorkflow, endedExecution, type ServerRun } from './helpers/workflows';

const MINUTE = 60 * 1000;
const CLIENT_ID = 'agent-review-e2e-client';
const CLIENT_SECRET = `agent-review-e2e-${randomId()}`;
const { files: FILES, archive: ARCHIVE } = DEMO_IDS.storageIds;
const CHAT_TRIGGER = 'When chat message received';
const AGENT = 'AI Agent';
const REVIEW = 'Review by E-mail';
/** Upper bounds: the review e-mail after the chat message, an execution after the reviewer's click, one job. */
const MAIL_WAIT_MS = 2 * MINUTE;
const EXECUTION_WAIT_MS = 3 * MINUTE;
const JOB_WAIT_MS = MINUTE;
/** The script gives up after this many get_job calls on a dry run that does not finish. */
const MAX_GET_JOB = 30;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const say = (line: string) => process.stderr.write(`[agent review e2e] ${line}\n`);

/**
 * Whether the installed n8n of `version` makes human-review tools (`…HitlTool` node types from the nodes with a
 * Send and Wait operation: `createHitlTools` in its node loader); undefined when that version is not installed.
 */
function hitlToolsInSource(version: string): boolean | undefined {
	const loader = path.join(n8nInstallDir(version), 'node_modules', 'n8n', 'dist', 'load-nodes-and-credentials.js');
	try {
		return fs.readFileSync(loader, 'utf8').includes('createHitlTools');
	} catch {
		return undefined;
	}
}
const HITL_IN_SOURCE = hitlToolsInSource(N8N_VERSION);

/** A field of a tool result, which n8n sends as JSON text (possibly with its quotes escaped once more). */
function field(output: string, name: string): string | undefined {
	const match = new RegExp(`\\\\*"${name}\\\\*"\\s*:\\s*\\\\*"([^"\\\\]+)`).exec(output);
	return match?.[1];
}

/**
 * The scripted model. A message naming a dry run ("… dry run <uuid>") goes straight to run_from_dry_run with
 * it; any other starts with list_storages and makes its own dry run of files:/reports. The call of a gated
 * tool has two parts, the tool's own input and the review node's (none here).
 */
function script(turns: Turn[]): Reply {
	const runFromDryRun = (jobId: string): Reply => ({ call: 'run_from_dry_run', args: { toolParameters: { jobId }, hitlParameters: {} } });
	const results = turns.filter((turn): turn is Extract<Turn, { kind: 'result' }> => turn.kind === 'result');
	const last = results[results.length - 1];
	if (!last) {
		const user = turns.filter((turn) => turn.kind === 'user').map((turn) => ('text' in turn ? turn.text : '')).join('\n');
		const named = new RegExp(`dry run (${UUID.source})`, 'i').exec(user);
		return named ? runFromDryRun(named[1]) : { call: 'list_storages', args: {} };
	}
	switch (last.name) {
		case 'list_storages':
			if (!last.output.includes(FILES) || !last.output.includes(ARCHIVE)) return { text: `No files and archive storages in: ${last.output}` };
			return {
				call: 'create_dry_run',
				args: { sourceStorageId: FILES, sourcePath: '/reports', targetStorageId: ARCHIVE, targetPath: '/agent-review/reports', name: `Agent review ${randomId()}` },
			};
		case 'create_dry_run':
		case 'get_job': {
			const dryRunId = field(results.find((result) => result.name === 'create_dry_run')?.output ?? '', 'id');
			if (!dryRunId) return { text: `No dry-run id in: ${last.output}` };
			if (field(last.output, 'status') === 'finished') return runFromDryRun(dryRunId);
			if (results.filter((result) => result.name === 'get_job').length >= MAX_GET_JOB) return { text: `The dry run did not finish: ${last.output}` };
			return { call: 'get_job', args: { jobId: dryRunId } };
		}
		default:
			return { text: `Last tool result (${last.name}): ${last.output}` };
	}
}

/** The example with its OpenAI and SMTP credentials pointed at the ones made for the test. */
function exampleWorkflow(credentials: { ftm: { id: string; name: string }; openAi: { id: string; name: string }; smtp: { id: string; name: string } }): WorkflowJson {
	const workflow = withCredential(readExample(EXAMPLE_FILES.agentReview), credentials.ftm);
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.credentials?.openAiApi) return { ...node, credentials: { openAiApi: credentials.openAi } };
			if (node.credentials?.smtp) return { ...node, credentials: { smtp: credentials.smtp } };
			// The example leaves Allowed Target Storage IDs for the user to fill in; the test allows the archive only.
			if (node.name === 'run_from_dry_run') {
				const parameters = node.parameters as { guards?: Record<string, unknown> };
				return { ...node, parameters: { ...parameters, guards: { ...parameters.guards, allowedTargetStorageIds: ARCHIVE } } };
			}
			return node;
		}),
	};
}

/** The review e-mail's link whose query has approved=<value>, with its HTML entities decoded. */
function reviewLink(mail: ReceivedMail, approved: boolean): string {
	const links = [...mail.text.matchAll(/href="([^"]+)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));
	const link = links.find((href) => new URL(href).searchParams.get('approved') === String(approved));
	if (!link) throw new Error(`no link with approved=${approved} in the review e-mail: ${links.join(', ')}`);
	return link;
}

/** The agent's reply: the output of its last run. */
function agentReply(run: ServerRun): string {
	const runs = run.data.resultData.runData[AGENT] ?? [];
	const output = runs[runs.length - 1]?.data?.main?.[0]?.[0]?.json.output;
	if (typeof output !== 'string') throw new Error(`the agent gave no reply: ${JSON.stringify(runs).slice(0, 2000)}`);
	return output;
}

(HITL_IN_SOURCE === false ? describe.skip : describe)(`an AI agent whose run_from_dry_run a person reviews by e-mail, in n8n ${N8N_VERSION}`, () => {
	const stack = useN8nStack({
		name: 'agent review e2e',
		clientId: CLIENT_ID,
		clientSecret: CLIENT_SECRET,
		credentialName: EXAMPLE_CREDENTIAL_NAME,
		sandbox: { speed: 50 },
	});
	let sandbox: Sandbox;
	let model: ScriptedModel;
	let smtp: SmtpSink;
	let workflowId: string;
	const t0 = Date.now();
	let mails = 0;

	beforeAll(async () => {
		sandbox = stack.sandbox;
		// The node types the editor loads (its static route, behind the owner's session).
		const res = await fetch(`${stack.n8n.url}/types/nodes.json`, { headers: { cookie: stack.rest.cookie }, signal: AbortSignal.timeout(60000) });
		const nodeTypes: unknown = await res.json();
		if (!Array.isArray(nodeTypes)) throw new Error(`GET /types/nodes.json -> ${res.status}: not a list of node types`);
		// The suite skips by n8n's source (above); it never passes without testing.
		if (!nodeTypes.some((type: { name?: unknown }) => type.name === 'n8n-nodes-base.emailSendHitlTool')) {
			throw new Error(
				HITL_IN_SOURCE === undefined
					? `n8n ${N8N_VERSION} was not installed when the suite loaded, and it has no n8n-nodes-base.emailSendHitlTool node type: install it first (npm run n8n:install), then the suite skips by its source`
					: `n8n ${N8N_VERSION}'s source makes human-review tools, but it serves no n8n-nodes-base.emailSendHitlTool node type`,
			);
		}
		model = await startScriptedModel(script);
		smtp = await startSmtpSink();
		const openAi = await stack.api.call<{ id: string; name: string }>('POST', '/credentials', {
			name: 'OpenAI (scripted stand-in)',
			type: 'openAiApi',
			data: { apiKey: `sk-test-${randomId()}`, url: model.baseUrl, header: false },
		});
		const smtpCredential = await stack.api.call<{ id: string; name: string }>('POST', '/credentials', {
			name: 'SMTP (test sink)',
			type: 'smtp',
			data: { user: 'n8n', password: `smtp-${randomId()}`, host: '127.0.0.1', port: smtp.port, secure: false, disableStartTls: true },
		});
		workflowId = await createWorkflow(
			stack.api,
			exampleWorkflow({ ftm: stack.credential, openAi: { id: openAi.id, name: openAi.name }, smtp: { id: smtpCredential.id, name: smtpCredential.name } }),
			'agent review e2e',
		);
	}, 5 * MINUTE);

	afterAll(async () => {
		await model?.close();
		await smtp?.close();
		say(`suite ${((Date.now() - t0) / 1000).toFixed(1)} s (n8n's start included)`);
	});

	/**
	 * Sends a chat message as n8n's chat panel does and waits for the review e-mail; returns the execution (still
	 * waiting) and the e-mail.
	 */
	async function chatUntilReview(message: string): Promise<{ executionId: string; mail: ReceivedMail }> {
		const started = await stack.rest.call<{ executionId?: string }>('POST', `/workflows/${workflowId}/run`, {
			triggerToStartFrom: {
				name: CHAT_TRIGGER,
				data: {
					startTime: Date.now(),
					executionTime: 0,
					executionIndex: 0,
					executionStatus: 'success',
					source: [],
					data: { main: [[{ json: { sessionId: `agent-review-${randomId()}`, action: 'sendMessage', chatInput: message } }]] },
				},
			},
		});
		if (!started?.executionId) throw new Error(`the chat message started no execution: ${JSON.stringify(started)}`);
		const executionId = String(started.executionId);
		const mail = await smtp.message(mails++, MAIL_WAIT_MS);
		await until(`execution ${executionId} to wait for the reviewer`, MAIL_WAIT_MS, async () => {
			const execution = await stack.api.call<{ status: string }>('GET', `/executions/${executionId}`);
			if (['success', 'error', 'crashed', 'canceled'].includes(execution.status)) throw new Error(`execution ${executionId} ended (${execution.status}) instead of waiting for the reviewer`);
			return execution.status === 'waiting' ? true : undefined;
		}, 250);
		return { executionId, mail };
	}

	/** Opens a review link as a person's browser does: n8n answers with its page and resumes the execution. */
	async function click(link: string): Promise<void> {
		const res = await fetch(link, { headers: { 'user-agent': BROWSER, accept: 'text/html' }, signal: AbortSignal.timeout(60000) });
		expect(res.status).toBe(200);
		await res.text();
	}

	test('imports as npm start imports it: inactive, with its guards, run_from_dry_run wired to the review node only', async () => {
		const example = readExample(EXAMPLE_FILES.agentReview);
		expect(example.active).toBe(false);
		const result = await ensureWorkflow(stack.api, withCredential(example, stack.credential), { activate: example.active === true });
		expect(result).toMatchObject({ created: true, activated: false });
		const stored = await stack.api.call<WorkflowJson>('GET', `/workflows/${result.id}`);
		expect(stored.nodes.map((node) => node.name).sort()).toEqual(example.nodes.map((node) => node.name).sort());
		expect(stored.nodes.find((node) => node.name === 'run_from_dry_run')?.parameters).toMatchObject({
			maxEstimatedCost: '5.00',
			maxEstimatedCostCurrency: 'USD',
			guards: { allowedTransferTypes: ['copy'], allowedConflictHandling: ['skip', 'rename'], maxDryRunAgeMinutes: 60 },
		});
		expect(stored.connections.run_from_dry_run).toEqual({ ai_tool: [[{ node: REVIEW, type: 'ai_tool', index: 0 }]] });
		expect(stored.connections[REVIEW]).toEqual({ ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] });
	});

	const realJobs = () => sandbox.state.jobs().filter((job) => job.attributes.dryRun !== true);

	test('approved: exactly one real job, created from the dry run the agent made; the agent gets the new job', async () => {
		const t = Date.now();
		const before = new Set(realJobs().map((job) => job.id));
		const firstRequest = model.requests.length;
		sandbox.requests.clear();

		const { executionId, mail } = await chatUntilReview('Copy /reports from the files storage to archive:/agent-review/reports.');

		// The dry run exists, finished; nothing real has started while the person has not answered.
		const dryRuns = sandbox.state.jobs().filter((job) => job.attributes.dryRun === true && job.attributes.name.startsWith('Agent review '));
		const dryRun = dryRuns[dryRuns.length - 1];
		expect(dryRun?.attributes).toMatchObject({ status: 'finished', transferType: 'copy', source: { id: FILES, path: '/reports' }, target: { id: ARCHIVE, path: '/agent-review/reports' } });
		expect(sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(1);
		expect(realJobs().filter((job) => !before.has(job.id))).toEqual([]);
		// What the reviewer receives: who asks, for which dry run, and the two buttons.
		expect(mail.to).toEqual(['reviewer@example.com']);
		expect(mail.subject).toBe('Approve a real file transfer?');
		expect(mail.text).toContain('The AI agent wants to call run_from_dry_run with');
		expect(mail.text).toContain(dryRun.id);
		expect(mail.text).toMatch(/>Approve</);
		expect(mail.text).toMatch(/>Deny</);

		await click(reviewLink(mail, true));
		const run = await endedExecution(stack.api, executionId, `execution ${executionId} after the approval`, EXECUTION_WAIT_MS);
		expect(run.status).toBe('success');

		const created = realJobs().filter((job) => !before.has(job.id));
		expect(created).toHaveLength(1);
		const [job] = created;
		expect(job.attributes).toMatchObject({
			dryRun: false,
			transferType: 'copy',
			conflictHandling: dryRun.attributes.conflictHandling,
			source: { id: FILES, path: '/reports' },
			target: { id: ARCHIVE, path: '/agent-review/reports' },
			name: `${dryRun.attributes.name} (run)`,
		});
		expect(sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(2);
		const reply = agentReply(run);
		expect(reply).toMatch(/^Last tool result \(run_from_dry_run\): /);
		expect(reply).toContain(job.id);
		expect(reply).toContain(dryRun.id);
		// One run_from_dry_run call in the conversation n8n sends back, as the gated tool ran it: with the dry run's
		// id (the model sent it as toolParameters; n8n passes those to the tool once the person approved).
		const calls = new Map<string, Record<string, unknown>>();
		for (const turn of model.requests.slice(firstRequest).flatMap((request) => request.turns)) {
			if (turn.kind === 'call' && turn.name === 'run_from_dry_run' && !calls.has(turn.callId)) calls.set(turn.callId, turn.args);
		}
		expect([...calls.values()]).toEqual([expect.objectContaining({ jobId: dryRun.id, tool: 'run_from_dry_run' })]);
		// Every model call went to the Responses API (the stand-in answers nothing else), offering the four tools.
		const requests = model.requests.slice(firstRequest);
		expect(requests.length).toBeGreaterThanOrEqual(5);
		for (const request of requests) {
			expect(request.path).toBe('/v1/responses');
			expect([...request.tools].sort()).toEqual(['create_dry_run', 'get_job', 'list_storages', 'run_from_dry_run']);
		}
		await sandbox.control.waitForJob(job.id, JOB_WAIT_MS);
		say(`approved: ${((Date.now() - t) / 1000).toFixed(1)} s, reply ${reply.length} characters`);
	}, 10 * MINUTE);

	test('denied: no job is started, and the agent is told that the user rejected the call', async () => {
		const t = Date.now();
		const jobsBefore = sandbox.state.jobs().length;
		const realBefore = realJobs().length;
		sandbox.requests.clear();

		const { executionId, mail } = await chatUntilReview('Copy /reports from the files storage to archive:/agent-review/reports.');
		await click(reviewLink(mail, false));
		const run = await endedExecution(stack.api, executionId, `execution ${executionId} after the denial`, EXECUTION_WAIT_MS);
		expect(run.status).toBe('success');

		// The dry run only.
		expect(sandbox.state.jobs().length).toBe(jobsBefore + 1);
		expect(realJobs().length).toBe(realBefore);
		expect(sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(1);
		const reply = agentReply(run);
		expect(reply).toMatch(/^Last tool result \(run_from_dry_run\): /);
		expect(reply).toContain('User rejected the tool call to run_from_dry_run');
		expect(run.data.resultData.runData.run_from_dry_run).toBeUndefined();
		say(`denied: ${((Date.now() - t) / 1000).toFixed(1)} s; the agent got: ${reply}`);
	}, 10 * MINUTE);

	/**
	 * A finished dry run put straight into the sandbox (a model may name any dry run of the account): a copy of
	 * files:/reports to archive with conflict handling skip, finished a minute ago, with these changes.
	 */
	function dryRunAtSandbox(name: string, changes: Partial<Pick<Job['attributes'], 'transferType' | 'conflictHandling'>> & { targetId?: string; finishedAgoMs?: number }): string {
		const { createdAt: _createdAt, updatedAt: _updatedAt, ...base } = sandbox.state.job(DEMO_IDS.jobIds.dryRun)!.attributes;
		const targetId = changes.targetId ?? ARCHIVE;
		const targetType = sandbox.state.storages().find((storage) => storage.id === targetId)!.attributes.type;
		return sandbox.control.insertJobs(1, {
			...base,
			name: `Agent review ${name} ${randomId()}`,
			dryRun: true,
			status: 'finished',
			transferType: changes.transferType ?? 'copy',
			source: { type: 'file', id: FILES, path: '/reports' },
			target: { id: targetId, type: targetType, path: `/agent-review/${name.replace(/\W+/g, '-')}` },
			conflictHandling: changes.conflictHandling === undefined ? 'skip' : changes.conflictHandling,
			stats: { ...base.stats, finishedAt: new Date(Date.now() - (changes.finishedAgoMs ?? MINUTE)).toISOString(), estimatedCost: { amount: '0.0102', currency: 'USD' } },
		})[0];
	}

	// Each guard of the example (and the one target the test allows), approved by the person: the guard still refuses.
	test.each([
		['a move', { transferType: 'move' as const }, 'is a move, and this workflow allows only copy'],
		['a sync', { transferType: 'sync' as const, conflictHandling: null }, 'is a sync, and this workflow allows only copy'],
		['a copy that overwrites', { conflictHandling: 'overwrite' as const }, 'overwrites files on the target, and this workflow allows only skip, rename'],
		['a copy to another storage', { targetId: FILES }, `targets storage ${FILES}, which is not among the Allowed Target Storage IDs`],
		['a dry run finished 95 minutes ago', { finishedAgoMs: 95 * MINUTE }, 'finished 95 minutes ago, more than the Max Dry Run Age of 60 minutes'],
	])('%s, approved: the guard refuses it, no job is started, and the agent gets why', async (what, changes, refusal) => {
		const t = Date.now();
		const dryRunId = dryRunAtSandbox(what, changes);
		const jobsBefore = sandbox.state.jobs().map((job) => job.id).sort();
		sandbox.requests.clear();

		const { executionId, mail } = await chatUntilReview(`Start the real job of the dry run ${dryRunId}.`);
		expect(mail.text).toContain(dryRunId);
		await click(reviewLink(mail, true));
		const run = await endedExecution(stack.api, executionId, `execution ${executionId} after the approval`, EXECUTION_WAIT_MS);
		expect(run.status).toBe('success');

		expect(sandbox.state.jobs().map((job) => job.id).sort()).toEqual(jobsBefore);
		expect(sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(0);
		const reply = agentReply(run);
		expect(reply).toMatch(/^Last tool result \(run_from_dry_run\): /);
		expect(reply).toContain(`Not started: dry run ${dryRunId} ${refusal}`);
		say(`${what} refused: ${((Date.now() - t) / 1000).toFixed(1)} s; the agent got: ${reply}`);
	}, 10 * MINUTE);
});
