/**
 * Shared pieces of the install-route tests (install-routes.test.ts): the workflows that prove the installed
 * nodes run, how they are started (production webhooks of active workflows, so that every n8n version runs
 * them the same way), and what n8n recorded of each run.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_IDS, type Sandbox } from '../../sandbox/src';
import type { CredentialRef } from '../../scripts/n8n/credentials';
import type { RunResult } from '../../scripts/n8n/headless';
import {
	PublicApiClient,
	createApiKey,
	ensureOwner,
	generatePassword,
	type RestClient,
} from '../../scripts/n8n/n8nApi';
import { CREDENTIAL_TYPE, NODE_TYPE, PACKAGE_NAME, TRIGGER_NODE_TYPE } from '../../scripts/n8n/packaging';
import { sleep, until } from '../../scripts/n8n/waiting';
import { ensureWorkflow, type WorkflowJson } from '../../scripts/n8n/workflows';
import { n8nMajor } from '../../scripts/n8n/paths';

export const MINUTE = 60 * 1000;
/** The preload that lets n8n use a registry other than the public one (see its own comment). */
export const LICENSE_PRELOAD = path.join(__dirname, 'custom-registry-licensed.cjs');
export const PRELOAD_LINE = '[install-route test preload] License.isCustomNpmRegistryEnabled() answers true';
const UNKNOWN_JOB = '0d0d0d0d-0000-4000-8000-000000000000';
const GOOD_JOB = DEMO_IDS.jobIds.copied;

export interface Stack {
	rest: RestClient;
	api: PublicApiClient;
}

/** The owner (set up through REST, or logged in) and an API key, in a freshly started n8n. */
export async function setUpOwner(url: string, label: string): Promise<Stack> {
	const owner = { email: 'owner@example.com', password: OWNER_PASSWORD, firstName: 'Install', lastName: 'Owner' };
	const { client: rest } = await ensureOwner(url, owner);
	const api = new PublicApiClient(url, await createApiKey(rest, label));
	return { rest, api };
}

const OWNER_PASSWORD = generatePassword();

/**
 * The sandbox credential, created through the public API (n8n knows its type only once the package is
 * installed). Created, not looked up: n8n 1.x's public API cannot list credentials, and each n8n here is new.
 */
export async function sandboxCredential(stack: Stack, sandbox: Sandbox, label: string): Promise<CredentialRef> {
	const name = `File Transfer Manager (${label})`;
	const data: Record<string, string> = { baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret };
	// n8n 1.x adds its HTTP Request domain fields to every credential, and its public API then requires them.
	if (n8nMajor() < 2) Object.assign(data, { allowedHttpRequestDomains: 'all' });
	const created = await stack.api.call<{ id: string }>('POST', '/credentials', { name, type: CREDENTIAL_TYPE, data });
	return { id: created.id, name };
}

const uuid = (route: string, n: number) =>
	`1a57a11e-0000-4000-8000-${(route.replace(/[^0-9a-f]/g, '') + String(n)).padStart(12, '0').slice(-12)}`;

function webhookNode(route: string, webhookPath: string) {
	return {
		id: uuid(route, 1),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: uuid(route, 9),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', options: {} },
	};
}

/** Webhook → File Transfer Manager › API › Get Version: the smallest run of the action node against the sandbox. */
export function versionWorkflow(route: string, credential: CredentialRef): WorkflowJson {
	return {
		name: `Install check (${route}): API version`,
		nodes: [
			webhookNode(route, `ftm-install-${route}-version`),
			{
				id: uuid(route, 2),
				name: 'Get Version',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: 'api', operation: 'getVersion' },
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Get Version', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Webhook → Job › Get for a demo job and an unknown job, with On Error "Continue (using error output)":
 * the found job on the success output, the 404 on the error output with the node's message and description.
 */
export function errorOutputWorkflow(route: string, credential: CredentialRef): WorkflowJson {
	return {
		name: `Install check (${route}): error output`,
		nodes: [
			webhookNode(route, `ftm-install-${route}-error-output`),
			{
				id: uuid(route, 3),
				name: 'Job IDs',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: `return [{ json: { jobId: '${GOOD_JOB}' } }, { json: { jobId: '${UNKNOWN_JOB}' } }];` },
			},
			{
				id: uuid(route, 4),
				name: 'Get Job',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [440, 0],
				onError: 'continueErrorOutput',
				parameters: { resource: 'job', operation: 'get', jobId: { __rl: true, mode: 'id', value: '={{ $json.jobId }}' } },
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
			{ id: uuid(route, 5), name: 'Found', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [660, -100], parameters: {} },
			{ id: uuid(route, 6), name: 'Failed', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [660, 100], parameters: {} },
		],
		connections: {
			Webhook: { main: [[{ node: 'Job IDs', type: 'main', index: 0 }]] },
			'Job IDs': { main: [[{ node: 'Get Job', type: 'main', index: 0 }]] },
			'Get Job': { main: [[{ node: 'Found', type: 'main', index: 0 }], [{ node: 'Failed', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Webhook → Job › Get of an unknown job, no error handling: the execution fails with the node's API error. */
export function failingWorkflow(route: string, credential: CredentialRef): WorkflowJson {
	return {
		name: `Install check (${route}): API error`,
		nodes: [
			webhookNode(route, `ftm-install-${route}-api-error`),
			{
				id: uuid(route, 7),
				name: 'Get Job',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: 'job', operation: 'get', jobId: { __rl: true, mode: 'id', value: UNKNOWN_JOB } },
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Get Job', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** The trigger, polling every minute for failed jobs (as example 2), with nothing after it. */
export function triggerWorkflow(route: string, credential: CredentialRef): WorkflowJson {
	return {
		name: `Install check (${route}): trigger`,
		nodes: [
			{
				id: uuid(route, 8),
				name: 'Job Trigger',
				type: TRIGGER_NODE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: ['failed'], filters: {}, options: {} },
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** Creates and activates a workflow; returns its id. */
export async function activate(api: PublicApiClient, workflow: WorkflowJson): Promise<string> {
	const { id } = await ensureWorkflow(api, workflow, { activate: true });
	return id;
}

/**
 * Calls an active workflow's production webhook; the status and body of the answer. n8n registers the
 * webhook shortly after the activation call returns: a 404 "not registered" is asked again, for up to 30 s.
 */
export async function callWebhook(url: string, workflow: WorkflowJson): Promise<{ status: number; body: unknown }> {
	const webhook = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	const webhookPath = (webhook?.parameters as { path: string } | undefined)?.path;
	if (!webhookPath) throw new Error(`${workflow.name} has no webhook`);
	const deadline = Date.now() + 30000;
	for (;;) {
		const res = await fetch(`${url}/webhook/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
			signal: AbortSignal.timeout(2 * MINUTE),
		});
		const text = await res.text();
		if (res.status === 404 && text.includes('not registered') && Date.now() < deadline) {
			await sleep(500);
			continue;
		}
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: res.status, body };
	}
}

export interface Execution {
	id: string;
	status: string;
	mode: string;
	data?: RunResult['data'];
}

/** The workflow's finished executions (newest first), with their data; waits until there are `count`. */
export async function finishedExecutions(api: PublicApiClient, workflowId: string, count: number): Promise<Execution[]> {
	return until(`${count} finished execution(s) of workflow ${workflowId}`, MINUTE, async () => {
		const all = await api.list<Execution>(`/executions?workflowId=${workflowId}&includeData=true`);
		const finished = all.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
		return finished.length >= count ? finished : undefined;
	});
}

/** Output items (json) of a node's first run in an execution. */
export function items(execution: Execution, node: string, output = 0): Array<Record<string, unknown>> {
	return (execution.data?.resultData.runData[node]?.[0]?.data?.main?.[output] ?? []).map((item) => item.json);
}


/**
 * The node types of this package that n8n knows (the editor's node-type list), without the "…Tool" variants
 * n8n derives itself from a node that is usable as an AI tool (2.x always, 1.x only when allowed).
 */
export async function packageNodeTypes(rest: RestClient): Promise<string[]> {
	const res = await fetch(`${rest.url}/types/nodes.json`, { headers: { cookie: rest.cookie } });
	if (!res.ok) throw new Error(`GET /types/nodes.json -> ${res.status}`);
	const types = (await res.json()) as Array<{ name: string }>;
	return [...new Set(types.map((t) => t.name).filter((name) => name.startsWith(`${PACKAGE_NAME}.`) && !name.endsWith('Tool')))].sort();
}

/** Lines of an n8n log that mention this package and are errors. */
export function packageErrors(log: string): string[] {
	return log
		.split('\n')
		.filter((line) => line.includes(PACKAGE_NAME) || line.includes('fileTransferManager'))
		.filter((line) => /error|failed|unrecognized|cannot find/i.test(line));
}

/** Writes a log file when it exists (for a failing test's message). */
export function readLog(file: string): string {
	return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/**
 * A call of n8n's REST API (the editor's, with the owner's session) that may take minutes: before each
 * install and update n8n asks api.n8n.io whether the package is banned, and n8n 1.x does so without a time
 * limit, so where that address is unreachable (as on the test machines) the call waits for the system's TCP
 * timeout.
 */
export async function slowRest<T>(rest: RestClient, method: string, route: string, body?: unknown): Promise<T> {
	const res = await fetch(`${rest.url}/rest${route}`, {
		method,
		headers: { accept: 'application/json', cookie: rest.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(5 * MINUTE),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} /rest${route} -> ${res.status}: ${text.slice(0, 500)}`);
	return (JSON.parse(text) as { data: T }).data;
}
