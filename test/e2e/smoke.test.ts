/**
 * End-to-end: the packed package installed into real n8n the way users install it, run against the sandbox.
 * Installs n8n into .n8n-cache on first use (about 5 minutes), so the timeouts are long.
 *
 * The one suite of the headless route: its first test imports a credential and a workflow with the n8n CLI
 * (`n8n import:credentials`, `n8n import:workflow`) and runs it with `n8n execute`. The other e2e suites run
 * their workflows in one running n8n per file (helpers/workflows.ts, runOnServer).
 */
import * as fs from 'node:fs';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { ensureCredential, testCredentialData, testStoredCredential } from '../../scripts/n8n/credentials';
import { importCredentials, nodeOutput, randomId, runWorkflowHeadless } from '../../scripts/n8n/headless';
import {
	ensureOwner,
	generatePassword,
	publicApi,
	type PublicApiClient,
	type RestClient,
} from '../../scripts/n8n/n8nApi';
import { startN8n, type N8nServer } from '../../scripts/n8n/n8nProcess';
import { CREDENTIAL_TYPE, NODE_TYPE } from '../../scripts/n8n/packaging';
import { tempDir } from '../../scripts/n8n/paths';
import { ensureWorkflow, withCredential, type WorkflowJson } from '../../scripts/n8n/workflows';
import { sandboxApiVersion } from './helpers/sandboxApi';
import { sharedN8n, sharedOwner } from './helpers/sharedN8n';
import { prepareUserFolder } from './helpers/userFolder';

const MINUTE = 60 * 1000;
const CLIENT_ID = 'e2e-client';
const CLIENT_SECRET = `e2e-secret-${randomId()}`;

let workDir: string;
let userFolder: string;
let sandbox: Sandbox;
const credential = { id: randomId(), name: 'File Transfer Manager (e2e)' };

function getVersionWorkflow(): WorkflowJson {
	return {
		name: 'e2e: API get version',
		nodes: [
			{
				id: 'a1b2c3d4-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'a1b2c3d4-0000-4000-8000-000000000002',
				name: 'Get Version',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: 'api', operation: 'getVersion' },
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: { Start: { main: [[{ node: 'Get Version', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

beforeAll(async () => {
	workDir = tempDir('ftm-e2e-');
	userFolder = await prepareUserFolder(workDir);
	sandbox = await startSandbox({ port: 0, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
}, 30 * MINUTE);

afterAll(async () => {
	await sandbox?.close();
	if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
}, MINUTE);

describe('headless run in real n8n', () => {
	test('API > Get Version returns the apiVersion the sandbox reports', async () => {
		await importCredentials(
			[
				{
					...credential,
					type: CREDENTIAL_TYPE,
					data: { baseUrl: sandbox.baseUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
				},
			],
			{ userFolder },
		);
		sandbox.requests.clear();

		const result = await runWorkflowHeadless(getVersionWorkflow(), { userFolder });

		if (!result.ok || !result.run) {
			throw new Error(`n8n execute failed (exit ${result.exitCode}):\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
		}
		// n8n fetched a token with the credential's secret, then called GET / with it.
		const calls = sandbox.requests.all().map((r) => `${r.method} ${r.path} ${r.status}`);
		expect(calls).toEqual(['POST /oauth/token 200', 'GET / 200']);
		expect(sandbox.requests.all()[1].authorization).toMatch(/^Bearer \S+/);

		const items = nodeOutput(result.run, 'Get Version');
		expect(items).toHaveLength(1);
		expect(items[0].apiVersion).toBe(await sandboxApiVersion(sandbox));
	}, 10 * MINUTE);
});

describe('credential test in a running n8n', () => {
	let n8n: N8nServer | undefined;
	let rest: RestClient;
	let api: PublicApiClient;

	beforeAll(async () => {
		// The run's shared n8n (its credentials here have names no other suite uses), else one of its own.
		const shared = sharedN8n();
		if (shared) {
			rest = sharedOwner(shared);
		} else {
			n8n = await startN8n({ userFolder });
			const owner = { email: 'owner@example.com', password: generatePassword(), firstName: 'E2e', lastName: 'Owner' };
			({ client: rest } = await ensureOwner(n8n.url, owner));
		}
		api = await publicApi(rest, 'smoke e2e');
	}, 10 * MINUTE);

	afterAll(async () => {
		await n8n?.stop();
	}, MINUTE);

	test('n8n loaded the package: the credential type schema has our fields', async () => {
		const schema = await api.call<{ properties: Record<string, unknown> }>('GET', `/credentials/schema/${CREDENTIAL_TYPE}`);
		expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['baseUrl', 'clientId', 'clientSecret']));
	});

	test('POST /rest/credentials/test: OK with the right secret', async () => {
		const created = await ensureCredential(api, 'FTM good secret', {
			baseUrl: sandbox.baseUrl,
			clientId: CLIENT_ID,
			clientSecret: CLIENT_SECRET,
		});
		// As the editor's credential modal does: load the stored credential (secret redacted), send it back.
		const stored = await rest.call<{ data: Record<string, unknown> }>('GET', `/credentials/${created.id}?includeData=true`);
		expect(stored.data.clientSecret).not.toBe(CLIENT_SECRET);
		sandbox.requests.clear();
		const result = await rest.call<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: { id: created.id, name: created.name, type: CREDENTIAL_TYPE, data: stored.data },
		});
		expect(result).toEqual(expect.objectContaining({ status: 'OK' }));
		expect(sandbox.requests.count({ method: 'POST', path: '/oauth/token', status: 200 })).toBe(1);
		expect(sandbox.requests.count({ method: 'GET', path: '/', status: 200 })).toBe(1);
	});

	test('POST /rest/credentials/test: Error with a wrong secret', async () => {
		sandbox.requests.clear();
		const result = await testCredentialData(rest, {
			name: 'FTM wrong secret',
			type: CREDENTIAL_TYPE,
			data: { baseUrl: sandbox.baseUrl, clientId: CLIENT_ID, clientSecret: 'not-the-secret' },
		});
		expect(result.status).toBe('Error');
		// The credential's own token request throws the same text as a workflow run shows.
		expect(result.message).toContain('check your Client ID and Client Secret in the credential (HTTP 401 invalid_client)');
		expect(result.message).not.toContain('not-the-secret');
		expect(sandbox.requests.count({ method: 'POST', path: '/oauth/token', status: 401 })).toBeGreaterThanOrEqual(1);
		expect(sandbox.requests.count({ method: 'GET', path: '/', status: 200 })).toBe(0);
	});

	test('a workflow imported through the public API points at the given credential, and is imported once', async () => {
		const target = await ensureCredential(api, 'FTM for workflows', {
			baseUrl: sandbox.baseUrl,
			clientId: CLIENT_ID,
			clientSecret: CLIENT_SECRET,
		});
		const workflow = withCredential({ ...getVersionWorkflow(), name: 'e2e: imported once' }, target);
		const first = await ensureWorkflow(api, workflow);
		const second = await ensureWorkflow(api, workflow);
		expect([first.created, second.created]).toEqual([true, false]);
		expect(second.id).toBe(first.id);
		const stored = await api.call<WorkflowJson>('GET', `/workflows/${first.id}`);
		const node = stored.nodes.find((n) => n.type === NODE_TYPE);
		expect(node?.credentials?.[CREDENTIAL_TYPE]).toEqual({ id: target.id, name: target.name });
		const named = await api.list<{ id: string }>(`/workflows?name=${encodeURIComponent(workflow.name)}`);
		expect(named).toHaveLength(1);
	});

	test('a stored credential\'s test (public API POST /credentials/{id}/test; n8n 1.x: the editor\'s): OK for the right secret, Error for a wrong one', async () => {
		const good = await ensureCredential(api, 'FTM good secret', {
			baseUrl: sandbox.baseUrl,
			clientId: CLIENT_ID,
			clientSecret: CLIENT_SECRET,
		});
		const bad = await ensureCredential(api, 'FTM bad secret', {
			baseUrl: sandbox.baseUrl,
			clientId: CLIENT_ID,
			clientSecret: 'wrong',
		});
		expect((await testStoredCredential(api, good.id)).status).toBe('OK');
		expect((await testStoredCredential(api, bad.id)).status).toBe('Error');
	});

	test("keepExisting (what npm start does on later starts) leaves a user's credential as it is", async () => {
		const first = await ensureCredential(api, 'FTM kept', { baseUrl: sandbox.baseUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
		const again = await ensureCredential(
			api,
			'FTM kept',
			{ baseUrl: sandbox.baseUrl, clientId: CLIENT_ID, clientSecret: 'would-break-it' },
			{ keepExisting: true },
		);
		expect(again).toEqual({ id: first.id, name: 'FTM kept', created: false, updated: false });
		// Still the working secret: nothing was written over it.
		expect((await testStoredCredential(api, first.id)).status).toBe('OK');
	});
});
