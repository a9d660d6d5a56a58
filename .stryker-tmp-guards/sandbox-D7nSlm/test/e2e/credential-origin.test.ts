/**
 * End-to-end: n8n's own HTTP Request node with this credential ("Predefined Credential Type"), in real n8n
 * (FTM_N8N_VERSION, default the pinned one): one running n8n (useN8nStack), in which each workflow is
 * created through the public API and run as from the editor. A URL on the Base URL's origin works and gets the
 * token; a URL on another port is refused with our message naming both origins, and that server receives
 * nothing at all (not even a connection); a redirect from the Base URL to another port is followed without
 * the token; three items at once after the token expired make one token request. The HTTP Request node sends
 * through n8n-core's legacy requestWithAuthentication, which calls the credential's authenticate with the
 * options' `uri`. The Base URL is a recording pass-through in front of the sandbox, which answers one path
 * with that redirect; the credential naming it is created through the public API once the pass-through runs
 * (the stack's own credential, on the sandbox itself, is not used).
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';

import { DEMO_IDS, type Sandbox } from '../../sandbox/src';
import { ensureCredential, type CredentialRef } from '../../scripts/n8n/credentials';
import { nodeOutput, randomId } from '../../scripts/n8n/headless';
import { CREDENTIAL_TYPE } from '../../scripts/n8n/packaging';
import type { WorkflowJson } from '../../scripts/n8n/workflows';
import { useN8nStack } from './helpers/stack';
import { runOnServer, runToSuccess } from './helpers/workflows';
import { N8N_VERSION, n8nInstallDir } from '../../scripts/n8n/paths';
import { startRecordingProxy, type RecordingProxy } from '../credential/proxy';
import { startRecordingServer, type RecordingServer } from '../credential/recorder';

const MINUTE = 60 * 1000;
const CLIENT_ID = 'e2e-origin-client';
const CLIENT_SECRET = `e2e-origin-secret-${randomId()}`;
const NODE_NAME = 'HTTP Request';

const stack = useN8nStack({
	name: 'origin e2e',
	clientId: CLIENT_ID,
	clientSecret: CLIENT_SECRET,
	credentialName: 'File Transfer Manager (origin e2e, sandbox)',
});
let sandbox: Sandbox;
let other: RecordingServer;
let landing: RecordingServer;
let baseUrl: RecordingProxy;
/** The credential whose Base URL is the recording proxy. */
let credential: CredentialRef;

/** The HTTP Request node version a user gets when adding the node in this n8n version (its defaultVersion). */
function httpRequestNodeVersion(): number {
	const file = path.join(n8nInstallDir(), 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
	const match = /defaultVersion:\s*([\d.]+)/.exec(fs.readFileSync(file, 'utf8'));
	if (!match) throw new Error(`no defaultVersion in ${file}`);
	return Number(match[1]);
}

function httpRequestWorkflow(url: string, options: Record<string, unknown> = {}): WorkflowJson {
	return {
		name: `e2e: HTTP Request with the FTM credential to ${url}`,
		nodes: [
			{
				id: 'c0ffee00-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'c0ffee00-0000-4000-8000-000000000002',
				name: NODE_NAME,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: httpRequestNodeVersion(),
				position: [220, 0],
				parameters: {
					method: 'GET',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIAL_TYPE,
					// The API answers application/vnd.api+json, which the node's autodetection takes for text.
					options: { response: { response: { responseFormat: 'json' } }, ...options },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: { Start: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * `workflow` with one item per id in front of its HTTP Request node (a Set node's list, split into items), so
 * that the node sends its requests at once, as it does for several items.
 */
function withItems(workflow: WorkflowJson, ids: string[]): WorkflowJson {
	return {
		...workflow,
		nodes: [
			...workflow.nodes,
			{
				id: 'c0ffee00-0000-4000-8000-000000000003',
				name: 'Ids',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [110, 200],
				parameters: {
					assignments: {
						assignments: [{ id: 'c0ffee00-0000-4000-8000-000000000030', name: 'ids', value: `={{ ${JSON.stringify(ids)} }}`, type: 'array' }],
					},
					options: {},
				},
			},
			{
				id: 'c0ffee00-0000-4000-8000-000000000004',
				name: 'One Item Each',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 200],
				parameters: { fieldToSplitOut: 'ids', include: 'noOtherFields', options: { destinationFieldName: 'id' } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Ids', type: 'main', index: 0 }]] },
			Ids: { main: [[{ node: 'One Item Each', type: 'main', index: 0 }]] },
			'One Item Each': { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
		},
	};
}

beforeAll(async () => {
	({ sandbox } = stack);
	other = await startRecordingServer();
	landing = await startRecordingServer();
	baseUrl = await startRecordingProxy(sandbox.baseUrl, '', { '/elsewhere': `${landing.baseUrl}/landing` });
	credential = await ensureCredential(stack.api, 'File Transfer Manager (origin e2e)', {
		baseUrl: baseUrl.baseUrl,
		clientId: CLIENT_ID,
		clientSecret: CLIENT_SECRET,
	});
}, 10 * MINUTE);

afterAll(async () => {
	await other?.close();
	await landing?.close();
	await baseUrl?.close();
}, MINUTE);

describe(`n8n ${N8N_VERSION}: the HTTP Request node with the File Transfer Manager credential`, () => {
	test('a URL on the Base URL\'s origin: the request is sent with the token the credential fetched', async () => {
		sandbox.requests.clear();
		const run = await runToSuccess(stack, httpRequestWorkflow(`${baseUrl.baseUrl}/`));

		const calls = sandbox.requests.all();
		expect(calls.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /oauth/token 200', 'GET / 200']);
		expect(calls[1].authorization).toMatch(/^Bearer \S{16,}$/);
		const items = nodeOutput(run, NODE_NAME);
		expect(items).toHaveLength(1);
		expect(items[0]).toEqual(expect.objectContaining({ jsonapi: { version: '1.1' } }));
	}, 10 * MINUTE);

	test('a URL on another port: refused with the message naming both origins; that server receives nothing', async () => {
		sandbox.requests.clear();
		const run = await runOnServer(stack, httpRequestWorkflow(`${other.baseUrl}/collect?from=n8n`));
		expect(run.status).toBe('error');

		const error = run.data.resultData.runData[NODE_NAME]?.[0]?.error;
		expect(error?.message).toBe(
			`This credential sends its token only to ${baseUrl.baseUrl}; the request goes to ${other.baseUrl}`,
		);
		expect(error?.description).toContain('Nothing was sent');
		expect(run.data.resultData.error?.message).toBe(error?.message);
		expect(other.connections()).toBe(0);
		expect(other.requests).toEqual([]);
		// The Base URL got token requests only (n8n's legacy helper renews the token once after any failure).
		expect(sandbox.requests.all().filter((r) => !(r.method === 'POST' && r.path === '/oauth/token'))).toEqual([]);
	}, 10 * MINUTE);

	test('a redirect from the Base URL to another port, with "Send Credentials on Cross-Origin Redirect" on: followed without the token', async () => {
		// The option exists from node version 4.4 (default off); up to 4.3, and in n8n 1.x, n8n sends credentials on.
		const run = await runToSuccess(
			stack,
			httpRequestWorkflow(`${baseUrl.baseUrl}/elsewhere`, { sendCredentialsOnCrossOriginRedirect: true }),
		);

		expect(baseUrl.requests.filter((r) => r.url === '/elsewhere').map((r) => r.headers.authorization)).toEqual([
			expect.stringMatching(/^Bearer \S{16,}$/),
		]);
		expect(landing.requests).toEqual([{ method: 'GET', url: '/landing', authorization: undefined }]);
		expect(nodeOutput(run, NODE_NAME)).toEqual([{ reached: true }]);
	}, 10 * MINUTE);

	test('three items at once after the token expired, one answered late: one token request, and each refused item repeated once with the new token', async () => {
		// The credential holds a token, which the sandbox then expires.
		await runToSuccess(stack, httpRequestWorkflow(`${baseUrl.baseUrl}/`));
		sandbox.control.expireTokens();
		// The first request is answered two seconds late, so that its 401 arrives after the token request that
		// another item's 401 started has ended.
		sandbox.faults.add({ kind: 'slow', method: 'GET', path: '/users/{id}', times: 1, delayMs: 2000 });
		sandbox.requests.clear();
		const ids = DEMO_IDS.userIds.slice(0, 3);
		let run: Awaited<ReturnType<typeof runToSuccess>>;
		try {
			run = await runToSuccess(stack, withItems(httpRequestWorkflow(`=${baseUrl.baseUrl}/users/{{ $json.id }}`), ids));
		} finally {
			sandbox.faults.clear();
		}

		const tokens = sandbox.requests.all().filter((r) => r.method === 'POST' && r.path === '/oauth/token');
		expect(tokens.map((r) => r.status)).toEqual([200]);
		const gets = sandbox.requests.all().filter((r) => r.route === '/users/{id}');
		const refused = gets.filter((r) => r.status === 401);
		const answered = gets.filter((r) => r.status === 200);
		// An item that read the credential after n8n stored the new token is not refused at all.
		expect(refused.length).toBeGreaterThanOrEqual(2);
		expect(refused.length).toBeLessThanOrEqual(3);
		expect(new Set(refused.map((r) => r.authorization)).size).toBe(1);
		expect(answered).toHaveLength(3);
		expect(new Set(answered.map((r) => r.authorization)).size).toBe(1);
		expect(answered[0].authorization).not.toBe(refused[0].authorization);
		const late = gets.find((r) => r.fault === 'slow');
		expect(late?.status).toBe(401);
		expect(late?.doneAt).toBeGreaterThan(tokens[0].doneAt ?? Infinity);
		expect(nodeOutput(run, NODE_NAME).map((item) => (item as { data?: { id?: string } }).data?.id).sort()).toEqual([...ids].sort());
	}, 10 * MINUTE);
});
