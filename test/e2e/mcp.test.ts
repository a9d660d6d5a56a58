/**
 * End-to-end, no language model: the nodes as tools of an AI agent, through a real MCP client in real n8n.
 *
 * Real n8n (`n8n start`) with the packed package installed as users install it, the sandbox, and example 5
 * (examples/05-mcp-assistant.json: n8n's MCP Server Trigger with six File Transfer Manager tool nodes)
 * imported and activated through the public API, as `npm start` does (its trigger's Bearer Auth credential
 * made with a token of the test's, its empty Allowed Target Storage IDs filled in with the archive storage). A
 * client of the MCP TypeScript SDK connects to the trigger's production URL over Streamable HTTP with the bearer
 * token and does what an agent would:
 *
 * - without the token, with a wrong one or another scheme, n8n refuses the request (403) and the SDK's client
 *   cannot connect; n8n's MCP Client Tool lists the tools with the Bearer Auth credential and not without;
 * - lists the tools and compares names, descriptions and input schemas with test/e2e/fixtures/mcp-tools.json
 *   (`FTM_UPDATE_FIXTURES=1` writes it instead: a change of a tool fails here until the fixture is updated
 *   on purpose), and checks each input schema (required keys, types);
 * - calls list_storages → create_dry_run (two storage ids from the list) → get_job until the dry run ends →
 *   reads the estimated cost from the output → run_from_dry_run → get_job until the run ends, and after
 *   each call checks the sandbox's state; then list_jobs (at most 50, with more than 50 jobs in the sandbox)
 *   and get_job_errors;
 * - run_from_dry_run's fixed Max Estimated Cost: a dry run estimated above it is a tool error (isError) that
 *   says the estimate, the maximum and what to do, and no job is started at the sandbox; one at it runs;
 * - run_from_dry_run's Guards, with dry runs put straight into the sandbox (a model may pick any dry run of the
 *   account): a move, a sync, an overwriting copy, another target, a dry run 95 minutes old are each a tool
 *   error with the guard's message, no POST /jobs and the same jobs after; one within every guard runs;
 * - sends bad arguments, which must come back as tool errors (isError), not as a crash or a hang;
 * - checks that no tool output holds the client secret or any access token the sandbox issued;
 * - prints the size of each tool result (`[mcp e2e] bytes <tool>: N`, UTF-8 bytes of its text).
 *
 * Every wait is bounded: n8n's start (startN8n), each MCP request (REQUEST_TIMEOUT_MS), each job (JOB_WAIT_MS).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEMO_IDS, type Sandbox } from '../../sandbox/src';
import { randomId } from '../../scripts/n8n/headless';
import type { RestClient } from '../../scripts/n8n/n8nApi';
import { sleep, until } from '../../scripts/n8n/waiting';
import { BEARER_CREDENTIAL_TYPE, ensureBearerCredential, withBearerCredential } from '../../scripts/n8n/mcpAuth';
import { ensureWorkflow, mcpServerUrls, withCredential, type WorkflowJson } from '../../scripts/n8n/workflows';
import type { Job } from '../../nodes/shared/api/types';
import { N8N_VERSION, n8nMajor } from '../../scripts/n8n/paths';
import { EXAMPLE_CREDENTIAL_NAME, EXAMPLE_FILES, listFiles, readExample } from './helpers/examples';
import { useN8nStack } from './helpers/stack';

const MINUTE = 60 * 1000;
const CLIENT_ID = 'mcp-e2e-client';
const CLIENT_SECRET = `mcp-e2e-secret-${randomId()}`;
/** The MCP Server Trigger's bearer token: the example's Bearer Auth credential is made with it. */
const MCP_TOKEN = `mcp-e2e-token-${randomId()}-${randomId()}`;
/** The one target storage run_from_dry_run allows here: the test fills in the example's empty Allowed Target Storage IDs. */
const ALLOWED_TARGET = DEMO_IDS.storageIds.archive;
const FIXTURE = path.join(__dirname, 'fixtures', 'mcp-tools.json');
const UPDATE_FIXTURES = process.env.FTM_UPDATE_FIXTURES === '1';
/** Upper bound of one MCP request (the SDK's own default is 60 s). */
const REQUEST_TIMEOUT_MS = 60000;
/** The sandbox's job time runs this many times faster than real time: 1, as under npm start (a dry run of
 * the few demo files still ends within a second or two). */
const SANDBOX_SPEED = 1;
/** Upper bound of the wait for one job to end. */
const JOB_WAIT_MS = 2 * MINUTE;
const FINAL_STATUSES = ['finished', 'failed', 'canceled', 'stuck'];
const TOOL_NAMES = ['create_dry_run', 'get_job', 'get_job_errors', 'list_jobs', 'list_storages', 'run_from_dry_run'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const say = (line: string) => process.stderr.write(`[mcp e2e] ${line}\n`);
/** The header an MCP client sends with the token. */
const AUTHORIZED = { Authorization: `Bearer ${MCP_TOKEN}` };

interface ToolResult {
	text: string;
	isError: boolean;
}

interface ListedTool {
	name: string;
	description?: string;
	inputSchema: { type: string; properties?: Record<string, { type?: string; description?: string }>; required?: string[] } & Record<
		string,
		unknown
	>;
}

let sandbox: Sandbox;
let client: Client | undefined;
let rest: RestClient;
let mcpUrl: string;
/** The Bearer Auth credential of the trigger, as n8n stored it. */
let bearerCredential: { id: string; name: string };
let tools: ListedTool[] = [];
/** Every tool result's text, for the search for secrets. */
const outputs: string[] = [];
/** UTF-8 bytes of each call's result text, per tool, in call order. */
const bytes = new Map<string, number[]>();

/** Calls a tool over MCP (bounded); records its text and size. */
async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
	const result = await client!.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS });
	const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
	const text = content
		.filter((part) => part.type === 'text')
		.map((part) => part.text ?? '')
		.join('');
	outputs.push(text);
	const size = Buffer.byteLength(text, 'utf8');
	bytes.set(name, [...(bytes.get(name) ?? []), size]);
	say(`bytes ${name}: ${size}`);
	return { text, isError: result.isError === true };
}

/** A successful call's output: n8n sends the tool node's output items as a JSON array. */
async function callOk(name: string, args: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
	const result = await call(name, args);
	if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${result.text}`);
	const parsed = JSON.parse(result.text) as unknown;
	if (!Array.isArray(parsed)) throw new Error(`${name} returned no JSON array: ${result.text.slice(0, 500)}`);
	return parsed as Array<Record<string, unknown>>;
}

/** The one item of a call that outputs one record. */
async function callOne(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
	const items = await callOk(name, args);
	expect(items).toHaveLength(1);
	return items[0];
}

/** Calls get_job until the job's status is final or stuck (bounded); checks each answer against the sandbox. */
async function getJobUntilEnded(jobId: string): Promise<{ item: Record<string, unknown>; calls: number }> {
	const deadline = Date.now() + JOB_WAIT_MS;
	for (let calls = 1; ; calls++) {
		const jobsBefore = sandbox.state.jobs().length;
		const item = await callOne('get_job', { jobId });
		expect(item.id).toBe(jobId);
		expect(sandbox.state.jobs().length).toBe(jobsBefore);
		const held = sandbox.state.job(jobId)!;
		say(`get_job: ${String(item.status)}`);
		if (FINAL_STATUSES.includes(String(item.status))) {
			expect(item.status).toBe(held.attributes.status);
			return { item, calls };
		}
		if (Date.now() > deadline) throw new Error(`job ${jobId} still "${String(item.status)}" after ${JOB_WAIT_MS / 1000} s of get_job`);
		await sleep(250);
	}
}

/** The example's bearer credential name (the trigger's credential reference). */
function bearerCredentialName(workflow: WorkflowJson): string {
	const trigger = workflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
	return trigger.credentials![BEARER_CREDENTIAL_TYPE].name;
}

/** The example with run_from_dry_run's Allowed Target Storage IDs filled in, as a user does for their storages. */
function withAllowedTarget(workflow: WorkflowJson, storageIds: string): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.name !== 'run_from_dry_run') return node;
			const parameters = node.parameters as { guards: Record<string, unknown> };
			return { ...node, parameters: { ...parameters, guards: { ...parameters.guards, allowedTargetStorageIds: storageIds } } };
		}),
	};
}

/** An MCP initialize request as a client sends it first (Streamable HTTP), with these extra headers. */
async function initializeStatus(headers: Record<string, string>): Promise<{ status: number; body: string }> {
	const res = await fetch(mcpUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
		body: JSON.stringify({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'ftm-mcp-e2e-raw', version: '1.0.0' } },
		}),
		signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
	});
	return { status: res.status, body: await res.text() };
}

/** Objects with their keys sorted, all the way down: a stable fixture. */
function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.keys(value as object)
			.sort()
			.map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
	);
}

/**
 * The tool list as the fixture holds it: by name, with description and input schema. Normalised: keys and
 * `required` sorted, and without what n8n's version decides rather than the example or the nodes (the JSON
 * Schema dialect `$schema` and `additionalProperties`: 2.41.1 writes draft 2020-12 with additional
 * properties allowed).
 */
function fixtureOf(listed: ListedTool[]): unknown {
	return [...listed]
		.sort((a, b) => a.name.localeCompare(b.name))
		.map((tool) => {
			const { $schema: _dialect, additionalProperties: _additional, ...schema } = tool.inputSchema;
			if (Array.isArray(schema.required)) schema.required = [...schema.required].sort();
			return sortKeys({ name: tool.name, description: tool.description ?? null, inputSchema: schema });
		});
}

const t0 = Date.now();
const stack = useN8nStack({
	name: 'mcp e2e',
	clientId: CLIENT_ID,
	clientSecret: CLIENT_SECRET,
	credentialName: EXAMPLE_CREDENTIAL_NAME,
	sandbox: { speed: SANDBOX_SPEED },
	logFile: 'n8n.log',
});

beforeAll(async () => {
	({ sandbox, rest } = stack);
	const { n8n, api, credential } = stack;
	const example = readExample(EXAMPLE_FILES.mcpAssistant);
	// As npm start: the example is saved active, and activated on import.
	expect(example.active).toBe(true);
	// As npm start (scripts/n8n/mcpAuth.ts), the trigger's Bearer Auth credential, here with a known token.
	const bearer = await ensureBearerCredential(api, bearerCredentialName(example), MCP_TOKEN);
	expect(bearer).toMatchObject({ created: true, token: MCP_TOKEN });
	bearerCredential = { id: bearer.id, name: bearer.name };
	const imported = withAllowedTarget(withBearerCredential(withCredential(example, credential), bearerCredential), ALLOWED_TARGET);
	const { activated } = await ensureWorkflow(api, imported, { activate: true });
	expect(activated).toBe(true);
	[mcpUrl] = mcpServerUrls(example, n8n.url);
	expect(mcpUrl).toBe(`${n8n.url}/mcp/file-transfer-manager`);
	// n8n 2.x registers a published workflow's webhooks a moment after the activation answers (its
	// publication outbox): until then the URL answers 404 "not registered". A DELETE without a token is
	// refused once the trigger listens, and starts nothing.
	await until('the MCP Server Trigger to listen', MINUTE, async () => {
		const res = await fetch(mcpUrl, { method: 'DELETE', signal: AbortSignal.timeout(5000) });
		return res.status === 404 ? undefined : res.status;
	}, 250);

	client = new Client({ name: 'ftm-mcp-e2e', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: AUTHORIZED } }), {
		timeout: REQUEST_TIMEOUT_MS,
	});
	say(`connected to ${mcpUrl} in ${((Date.now() - t0) / 1000).toFixed(1)} s from the start (server ${JSON.stringify(client.getServerVersion())})`);
}, 30 * MINUTE);

afterAll(async () => {
	for (const [name, sizes] of [...bytes.entries()].sort(([a], [b]) => a.localeCompare(b))) {
		say(`bytes per call of ${name}: ${sizes.join(', ')}`);
	}
	await client?.close().catch(() => undefined);
}, 2 * MINUTE);

describe('example 5: the MCP Server Trigger offers the File Transfer Manager tools', () => {
	test('the server names itself after the trigger and sends the instructions that name the tools in order (n8n 2.x; 1.x sends none)', () => {
		expect(client!.getServerVersion()?.name).toBe('File_Transfer_Manager');
		const instructions = client!.getInstructions() ?? '';
		// n8n 1.x's MCP Server Trigger has no Instructions parameter (docs/versions.md › What differs by version).
		if (n8nMajor(N8N_VERSION) < 2) {
			expect(instructions).toBe('');
			return;
		}
		for (const name of TOOL_NAMES) expect(instructions).toContain(name);
	});

	test('tools/list: the six tools, as test/e2e/fixtures/mcp-tools.json holds them', async () => {
		const listed = await client!.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
		tools = listed.tools as ListedTool[];
		expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
		const current = fixtureOf(tools);
		if (UPDATE_FIXTURES) {
			fs.mkdirSync(path.dirname(FIXTURE), { recursive: true });
			fs.writeFileSync(FIXTURE, `${JSON.stringify(current, null, 2)}\n`);
			say(`wrote ${path.relative(process.cwd(), FIXTURE)}`);
		}
		if (!fs.existsSync(FIXTURE)) throw new Error(`${FIXTURE} is missing: run this test once with FTM_UPDATE_FIXTURES=1`);
		// A difference here is a change of what an agent sees: update the fixture on purpose
		// (FTM_UPDATE_FIXTURES=1 FTM_PACKAGE_BUILT=1 npx jest test/e2e/mcp.test.ts) when it is meant.
		expect(current).toEqual(JSON.parse(fs.readFileSync(FIXTURE, 'utf8')));
	});

	test('each input schema: an object of the keys the model fills, all required strings with a description', () => {
		const byName = new Map(tools.map((tool) => [tool.name, tool]));
		const expected: Record<string, string[]> = {
			list_storages: [],
			list_jobs: [],
			create_dry_run: ['name', 'sourcePath', 'sourceStorageId', 'targetPath', 'targetStorageId'],
			get_job: ['jobId'],
			run_from_dry_run: ['jobId'],
			get_job_errors: ['jobId'],
		};
		for (const [name, keys] of Object.entries(expected)) {
			const schema = byName.get(name)?.inputSchema;
			expect(schema).toBeDefined();
			expect(schema!.type).toBe('object');
			expect(Object.keys(schema!.properties ?? {}).sort()).toEqual(keys);
			expect([...(schema!.required ?? [])].sort()).toEqual(keys);
			for (const key of keys) {
				const property = schema!.properties![key];
				expect(property.type).toBe('string');
				expect(property.description?.length).toBeGreaterThan(20);
				// Ids: the description says they are UUIDs and where to find one.
				if (/Id$/.test(key)) expect(property.description).toMatch(/UUID.*(list_storages|create_dry_run|list_jobs|get_job)/);
			}
		}
	});

	test("each tool's description is its node's Tool Description, and names only tools the agent can call", () => {
		const example = readExample(EXAMPLE_FILES.mcpAssistant);
		for (const tool of tools) {
			const node = example.nodes.find((n) => n.name === tool.name)!;
			expect(tool.description).toBe((node.parameters as { toolDescription: string }).toolDescription);
			const named = tool.description!.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [];
			for (const name of named) expect(TOOL_NAMES).toContain(name);
		}
	});
});

describe("the trigger's Bearer Auth: no tool without the token", () => {
	test('the example sets Bearer Auth on its trigger, with a credential it names', () => {
		const trigger = readExample(EXAMPLE_FILES.mcpAssistant).nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
		expect(trigger.parameters).toMatchObject({ authentication: 'bearerAuth' });
		expect(trigger.credentials).toEqual({ [BEARER_CREDENTIAL_TYPE]: { name: 'File Transfer Manager MCP (bearer token)' } });
	});

	test('with the token, initialize answers 200; without it, with a wrong one or another scheme, n8n refuses it (403)', async () => {
		const authorized = await initializeStatus(AUTHORIZED);
		expect(authorized.status).toBe(200);
		expect(authorized.body).toContain('serverInfo');

		const refusals = {
			none: await initializeStatus({}),
			wrong: await initializeStatus({ Authorization: `Bearer ${MCP_TOKEN}x` }),
			otherScheme: await initializeStatus({ Authorization: `Basic ${Buffer.from(`user:${MCP_TOKEN}`).toString('base64')}` }),
		};
		say(`refused: ${JSON.stringify(refusals)}`);
		for (const refused of Object.values(refusals)) {
			expect(refused.status).toBe(403);
			expect(refused.body).not.toContain('serverInfo');
		}
	}, MINUTE);

	test("the SDK's client without the token, or with a wrong one, cannot connect", async () => {
		for (const headers of [{}, { Authorization: 'Bearer not-the-token' }]) {
			const refused = new Client({ name: 'ftm-mcp-e2e-no-token', version: '1.0.0' });
			const connecting = refused.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } }), {
				timeout: REQUEST_TIMEOUT_MS,
			});
			// The SDK's StreamableHTTPError: n8n's status and text (Webhook's WebhookAuthorizationError).
			await expect(connecting).rejects.toMatchObject({ code: 403 });
			await expect(connecting).rejects.toThrow('Authorization data is wrong!');
			await refused.close().catch(() => undefined);
		}
	}, MINUTE);
});

describe('the same URL over SSE, for older MCP clients', () => {
	test('an SSE client lists the same tools and calls list_storages', async () => {
		// From typeVersion 2 the trigger serves SSE on the same URL: GET opens the stream, POSTs carry ?sessionId=.
		const sseClient = new Client({ name: 'ftm-mcp-e2e-sse', version: '1.0.0' });
		// The SDK sends requestInit's headers on the stream's GET and on each POST.
		const transport = new SSEClientTransport(new URL(mcpUrl), { requestInit: { headers: AUTHORIZED } });
		await sseClient.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
		try {
			const listed = await sseClient.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
			expect(fixtureOf(listed.tools as ListedTool[])).toEqual(fixtureOf(tools));
			const result = await sseClient.callTool({ name: 'list_storages', arguments: {} }, undefined, { timeout: REQUEST_TIMEOUT_MS });
			expect(result.isError).not.toBe(true);
			const text = (result.content as Array<{ type: string; text: string }>)[0].text;
			outputs.push(text);
			expect((JSON.parse(text) as unknown[]).length).toBe(sandbox.state.storages().length);
		} finally {
			await sseClient.close().catch(() => undefined);
		}
	}, 2 * MINUTE);
});

describe("n8n's own AI Agent side: the MCP Client Tool", () => {
	/** The route the editor calls for the MCP Client Tool's tool list (its getTools method): n8n itself as the
	 * MCP client an AI Agent node uses, with this Authentication and credential. */
	const listThroughClientTool = (authentication: string, credentials?: Record<string, { id: string; name: string }>) =>
		rest.call<Array<{ name: string; value: string; description?: string }>>('POST', '/dynamic-node-parameters/options', {
			nodeTypeAndVersion: { name: '@n8n/n8n-nodes-langchain.mcpClientTool', version: 1.4 },
			methodName: 'getTools',
			path: 'includeTools',
			currentNodeParameters: {
				endpointUrl: mcpUrl,
				serverTransport: 'httpStreamable',
				authentication,
				include: 'selected',
				includeTools: [],
				options: {},
			},
			...(credentials && { credentials }),
		});

	test('with Authentication Bearer Auth and the credential, it lists the six tools, as the editor fills its "Tools to Include"', async () => {
		const options = await listThroughClientTool('bearerAuth', { [BEARER_CREDENTIAL_TYPE]: bearerCredential });
		expect(options.map((option) => option.value).sort()).toEqual(TOOL_NAMES);
		for (const option of options) expect(option.description).toBe(tools.find((tool) => tool.name === option.value)?.description);
	}, 2 * MINUTE);

	test('with Authentication None it lists nothing: the trigger refuses it', async () => {
		// n8n's MCP Client Tool reads the trigger's 403 as "Authentication failed" (the route answers 500).
		await expect(listThroughClientTool('none')).rejects.toThrow('Could not connect to your MCP server. Authentication failed.');
	}, 2 * MINUTE);
});

describe('an agent copies files: list_storages → create_dry_run → get_job → run_from_dry_run → get_job', () => {
	test('the dry run, its cost from the output, the real run, each step as the sandbox holds it', async () => {
		const { files: FILES, archive: ARCHIVE } = DEMO_IDS.storageIds;
		const jobsAtStart = sandbox.state.jobs().length;

		// 1. The storages, as the sandbox holds them; the agent picks two by name.
		const storages = await callOk('list_storages', {});
		expect(storages.map((s) => s.id).sort()).toEqual(sandbox.state.storages().map((s) => s.id).sort());
		const source = storages.find((s) => s.name === 'files')!;
		const target = storages.find((s) => s.name === 'archive')!;
		expect([source.id, target.id]).toEqual([FILES, ARCHIVE]);
		expect(sandbox.state.jobs().length).toBe(jobsAtStart);

		// 2. A dry run of a copy from files:/reports to archive:/mcp/reports.
		const dryRunItem = await callOne('create_dry_run', {
			sourceStorageId: source.id,
			sourcePath: '/reports',
			targetStorageId: target.id,
			targetPath: '/mcp/reports',
			name: 'MCP archive reports',
		});
		const dryRunId = String(dryRunItem.id);
		say(`create_dry_run: ${String(dryRunItem.status)}`);
		expect(dryRunId).toMatch(UUID);
		expect(sandbox.state.jobs().length).toBe(jobsAtStart + 1);
		// The settings the dry run was asked for, which the real run repeats.
		const settings = {
			transferType: 'copy',
			conflictHandling: 'skip',
			source: { id: FILES, path: '/reports' },
			target: { id: ARCHIVE, path: '/mcp/reports' },
		};
		expect(sandbox.state.job(dryRunId)?.attributes).toMatchObject({ name: 'MCP archive reports', dryRun: true, ...settings });

		// 3. get_job until the dry run ends; 4. its estimated cost, read from the output.
		const dryRunEnd = await getJobUntilEnded(dryRunId);
		say(`the dry run ended after ${dryRunEnd.calls} get_job call(s)`);
		expect(dryRunEnd.item.status).toBe('finished');
		const heldCost = sandbox.state.job(dryRunId)!.attributes.stats.estimatedCost;
		expect(heldCost).not.toBeNull();
		// The tool shape of a job: the cost once, as a number with its currency (docs/operations.md).
		expect(dryRunEnd.item.estimatedCost).toEqual({ amount: Number(heldCost!.amount), currency: heldCost!.currency });
		expect(Number(heldCost!.amount)).toBeGreaterThan(0);
		// A dry run moves nothing.
		const targetDir = path.join(sandbox.state.storageDir(ARCHIVE), 'mcp', 'reports');
		expect(fs.existsSync(targetDir)).toBe(false);

		// 5. The real run, from the dry run.
		const runItem = await callOne('run_from_dry_run', { jobId: dryRunId });
		const runId = String(runItem.id);
		expect(runId).toMatch(UUID);
		expect(runId).not.toBe(dryRunId);
		expect(runItem).toMatchObject({
			dryRunJobId: dryRunId,
			dryRunEstimatedCost: { amount: Number(heldCost!.amount), currency: heldCost!.currency },
		});
		expect(sandbox.state.jobs().length).toBe(jobsAtStart + 2);
		const run: Job = sandbox.state.job(runId)!;
		expect(run.attributes).toMatchObject({ name: 'MCP archive reports (run)', dryRun: false, ...settings });

		// 6. get_job of the run until it ends: the files are on the target's disk.
		const runEnd = await getJobUntilEnded(runId);
		expect(runEnd.item.status).toBe('finished');
		const sourceFiles = listFiles(path.join(sandbox.state.storageDir(FILES), 'reports'));
		expect(sourceFiles.length).toBeGreaterThan(0);
		expect(listFiles(targetDir)).toEqual(sourceFiles);
		expect(sandbox.state.job(runId)!.attributes.stats.transferredCount).toBe(sourceFiles.length);
		expect(sandbox.state.jobs().length).toBe(jobsAtStart + 2);
	}, 5 * MINUTE);

	test('list_jobs returns at most 50 jobs, the newest first, with more than 50 in the sandbox', async () => {
		sandbox.control.insertJobs(60, { name: 'MCP e2e filler' });
		const held = sandbox.state.jobs();
		expect(held.length).toBeGreaterThan(50);

		const jobs = await callOk('list_jobs', {});
		say(`list_jobs: ${jobs.length} of the sandbox's ${held.length} jobs`);

		expect(jobs).toHaveLength(50);
		const heldIds = new Set(held.map((job) => job.id));
		for (const job of jobs) expect(heldIds.has(String(job.id))).toBe(true);
		const createdAt = jobs.map((job) => Date.parse(String(sandbox.state.job(String(job.id))!.attributes.createdAt)));
		for (let i = 1; i < createdAt.length; i++) expect(createdAt[i]).toBeLessThanOrEqual(createdAt[i - 1]);
		expect(sandbox.state.jobs().length).toBe(held.length);
	}, 2 * MINUTE);

	test("get_job_errors lists a failed job's errors as the sandbox holds them", async () => {
		const failed = DEMO_IDS.jobIds.failedSync;
		const heldErrors = sandbox.state.jobErrors(failed);
		expect(heldErrors.length).toBeGreaterThan(0);

		const errors = await callOk('get_job_errors', { jobId: failed });

		expect(errors).toHaveLength(heldErrors.length);
		const text = JSON.stringify(errors);
		for (const error of heldErrors) expect(text).toContain(error.attributes.message);
	}, 2 * MINUTE);
});

/**
 * A finished dry run put straight into the sandbox (not through the tools: a model may pick any dry run of the
 * account): the demo dry run's scope from files:/data, a copy with conflict handling skip to the one allowed
 * target (archive), finished a minute ago and estimated at 0.0102 USD, with these changes.
 */
function dryRunAtSandbox(
	name: string,
	changes: { transferType?: 'copy' | 'move' | 'sync'; conflictHandling?: 'skip' | 'rename' | 'overwrite' | null; targetId?: string; finishedAgoMs?: number; amount?: string } = {},
): string {
	const { createdAt: _createdAt, updatedAt: _updatedAt, ...base } = sandbox.state.job(DEMO_IDS.jobIds.dryRun)!.attributes;
	const finishedAt = new Date(Date.now() - (changes.finishedAgoMs ?? MINUTE)).toISOString();
	const stats = { ...base.stats, finishedAt, estimatedCost: { amount: changes.amount ?? '0.0102', currency: 'USD' } };
	const targetId = changes.targetId ?? ALLOWED_TARGET;
	const targetStorage = sandbox.state.storages().find((storage) => storage.id === targetId)!;
	const target = { id: targetId, type: targetStorage.attributes.type, path: `/mcp-${name.replace(/\W+/g, '-')}` };
	return sandbox.control.insertJobs(1, {
		...base,
		name: `MCP ${name}`,
		dryRun: true,
		status: 'finished',
		transferType: changes.transferType ?? 'copy',
		conflictHandling: changes.conflictHandling === undefined ? 'skip' : changes.conflictHandling,
		target,
		stats,
	})[0];
}

/** The requests that could start a job: POST /jobs at the sandbox. */
const creates = () => sandbox.requests.count({ method: 'POST', path: '/jobs' });
const jobIds = () => sandbox.state.jobs().map((job) => job.id).sort();

describe("the spending guard: run_from_dry_run's Max Estimated Cost (5.00 USD, fixed in the example)", () => {
	/** A finished dry run of files → archive in the sandbox, with this estimate. */
	const dryRunWith = (amount: string): string => dryRunAtSandbox(`guard ${amount}`, { amount });

	test('the maximum is no argument of the tool: the model cannot change it', () => {
		const schema = tools.find((tool) => tool.name === 'run_from_dry_run')!.inputSchema;
		expect(Object.keys(schema.properties ?? {})).toEqual(['jobId']);
		const node = readExample(EXAMPLE_FILES.mcpAssistant).nodes.find((n) => n.name === 'run_from_dry_run')!;
		expect(node.parameters).toMatchObject({ maxEstimatedCost: '5.00', maxEstimatedCostCurrency: 'USD' });
	});

	test('a dry run estimated above the maximum: a tool error with the estimate, the maximum and what to do; no job started', async () => {
		const dryRunId = dryRunWith('250.00');
		const jobsBefore = sandbox.state.jobs().length;
		const createsBefore = creates();

		const result = await call('run_from_dry_run', { jobId: dryRunId });
		say(`run_from_dry_run {above the maximum} -> isError ${result.isError}: ${result.text}`);

		expect(result.isError).toBe(true);
		expect(result.text).toContain(`Not started: dry run ${dryRunId} estimates 250.00 USD, above the maximum of 5.00 USD`);
		expect(result.text).toContain('No job was started.');
		expect(result.text).toContain('a tool call cannot change it. Tell the user the estimate.');
		expect(result.text).toContain('a dry run of a narrower source');
		expect(result.text).not.toContain('[item');
		// Nothing reached the sandbox that starts a job.
		expect(creates()).toBe(createsBefore);
		expect(sandbox.state.jobs().length).toBe(jobsBefore);
	}, MINUTE);

	test('a dry run estimated at the maximum runs', async () => {
		const dryRunId = dryRunWith('5.00');
		const jobsBefore = sandbox.state.jobs().length;

		const item = await callOne('run_from_dry_run', { jobId: dryRunId });

		expect(item).toMatchObject({ dryRunJobId: dryRunId, dryRunEstimatedCost: { amount: 5, currency: 'USD' }, dryRun: false });
		expect(sandbox.state.jobs().length).toBe(jobsBefore + 1);
		expect(sandbox.state.job(String(item.id))?.attributes).toMatchObject({ dryRun: false, name: 'MCP guard 5.00 (run)' });
	}, MINUTE);
});

describe("run_from_dry_run's guards: copy only, skip or rename, the allowed target, at most 60 minutes old", () => {
	/**
	 * Calls run_from_dry_run with a dry run that one guard refuses: a tool error whose text starts with the
	 * guard's message and says that no job was started, no POST /jobs at the sandbox, the same jobs after.
	 */
	async function refused(dryRunId: string, reason: string): Promise<void> {
		const jobsBefore = jobIds();
		const createsBefore = creates();

		const result = await call('run_from_dry_run', { jobId: dryRunId });
		say(`run_from_dry_run {${reason.slice(0, 40)}…} -> isError ${result.isError}: ${result.text}`);

		expect(result.isError).toBe(true);
		expect(result.text).toContain(`Not started: dry run ${dryRunId} ${reason}`);
		expect(result.text).toContain('No job was started.');
		// Said to the model: the limit is the workflow's, and what to do.
		expect(result.text).toContain('guard is set in the workflow; a tool call cannot change it. Tell the user why this dry run was refused.');
		expect(result.text).not.toContain('[item');
		expect(creates()).toBe(createsBefore);
		expect(jobIds()).toEqual(jobsBefore);
	}

	test('the guards are set in the node, not through $fromAI(): the model fills only jobId', () => {
		const schema = tools.find((tool) => tool.name === 'run_from_dry_run')!.inputSchema;
		expect(Object.keys(schema.properties ?? {})).toEqual(['jobId']);
		const node = readExample(EXAMPLE_FILES.mcpAssistant).nodes.find((n) => n.name === 'run_from_dry_run')!;
		expect((node.parameters as { guards: unknown }).guards).toEqual({
			allowedTransferTypes: ['copy'],
			allowedConflictHandling: ['skip', 'rename'],
			allowedTargetStorageIds: '',
			maxDryRunAgeMinutes: 60,
		});
	});

	test('a dry run of a move: refused, no job started', async () => {
		await refused(dryRunAtSandbox('move', { transferType: 'move' }), 'is a move, and this workflow allows only copy');
	}, MINUTE);

	test('a dry run of a sync: refused, no job started', async () => {
		await refused(dryRunAtSandbox('sync', { transferType: 'sync', conflictHandling: null }), 'is a sync, and this workflow allows only copy');
	}, MINUTE);

	test('a dry run of a copy that overwrites: refused, no job started', async () => {
		await refused(
			dryRunAtSandbox('overwrite', { conflictHandling: 'overwrite' }),
			'overwrites files on the target, and this workflow allows only skip, rename',
		);
	}, MINUTE);

	test('a dry run to another target than the Allowed Target Storage IDs the test set: refused, no job started', async () => {
		const other = DEMO_IDS.storageIds.bucket;
		expect(other).not.toBe(ALLOWED_TARGET);
		await refused(
			dryRunAtSandbox('other target', { targetId: other }),
			`targets storage ${other}, which is not among the Allowed Target Storage IDs`,
		);
	}, MINUTE);

	test('a dry run that finished 95 minutes ago: refused, no job started', async () => {
		await refused(
			dryRunAtSandbox('old', { finishedAgoMs: 95 * MINUTE + 5000 }),
			'finished 95 minutes ago, more than the Max Dry Run Age of 60 minutes',
		);
	}, MINUTE);

	test('the same dry run within every guard runs', async () => {
		const dryRunId = dryRunAtSandbox('within the guards', { finishedAgoMs: 59 * MINUTE });
		const jobsBefore = sandbox.state.jobs().length;

		const item = await callOne('run_from_dry_run', { jobId: dryRunId });

		expect(item).toMatchObject({ dryRunJobId: dryRunId, dryRun: false });
		expect(sandbox.state.jobs().length).toBe(jobsBefore + 1);
		expect(sandbox.state.job(String(item.id))?.attributes).toMatchObject({
			dryRun: false,
			transferType: 'copy',
			conflictHandling: 'skip',
			target: { id: ALLOWED_TARGET },
		});
	}, MINUTE);
});

describe('bad arguments come back as tool errors', () => {
	test('get_job with jobId "abc": a tool error that names the parameter, says what it must be and where to find one', async () => {
		const requestsBefore = sandbox.requests.count({ path: '/jobs/abc' });
		const result = await call('get_job', { jobId: 'abc' });
		say(`get_job {jobId: "abc"} -> isError ${result.isError}: ${result.text}`);
		expect(result.isError).toBe(true);
		// The parameter by the name the model sent it under (the $fromAI key), the value it got, and where to look.
		expect(result.text).toContain(`jobId must be a job's UUID (got "abc"); list jobs with Job › Get Many to find one`);
		// No "[item 0]": a tool call is one item.
		expect(result.text).not.toContain('[item');
		// Refused before any request.
		expect(sandbox.requests.count({ path: '/jobs/abc' })).toBe(requestsBefore);
	}, MINUTE);

	test('run_from_dry_run with jobId "abc": a tool error, and no job is created', async () => {
		const jobsBefore = sandbox.state.jobs().length;
		const result = await call('run_from_dry_run', { jobId: 'abc' });
		say(`run_from_dry_run {jobId: "abc"} -> isError ${result.isError}: ${result.text}`);
		expect(result.isError).toBe(true);
		expect(result.text).toContain('jobId');
		expect(result.text).toContain('must be');
		expect(sandbox.state.jobs().length).toBe(jobsBefore);
	}, MINUTE);

	test('get_job with a number for jobId: refused by the input schema, a tool error', async () => {
		const result = await call('get_job', { jobId: 42 });
		say(`get_job {jobId: 42} -> isError ${result.isError}: ${result.text}`);
		expect(result.isError).toBe(true);
		expect(result.text).toContain('jobId');
	}, MINUTE);

	test('a job id that is a UUID but unknown: a tool error that says no such job exists', async () => {
		const result = await call('get_job', { jobId: '00000000-0000-4000-8000-000000000000' });
		say(`get_job {unknown UUID} -> isError ${result.isError}: ${result.text}`);
		expect(result.isError).toBe(true);
		expect(result.text).toMatch(/not found/i);
		expect(result.text).toContain('no job with ID 00000000-0000-4000-8000-000000000000');
	}, MINUTE);

	test('the server still answers after the errors', async () => {
		const storages = await callOk('list_storages', {});
		expect(storages.length).toBe(sandbox.state.storages().length);
	}, MINUTE);
});

describe('no secret in any tool output', () => {
	test('neither the client secret nor any access token the sandbox issued appears in a tool result', () => {
		expect(outputs.length).toBeGreaterThan(5);
		const tokens = new Set(
			sandbox.requests
				.all()
				.map((r) => /^Bearer (\S+)$/.exec(r.authorization ?? '')?.[1])
				.filter((token): token is string => token !== undefined),
		);
		expect(tokens.size).toBeGreaterThan(0);
		const all = outputs.join('\n');
		expect(all).not.toContain(CLIENT_SECRET);
		// Nor the MCP bearer token the client sent (n8n hands the tools the request's headers from typeVersion 2.1).
		expect(all).not.toContain(MCP_TOKEN);
		for (const token of tokens) expect(all).not.toContain(token);
	});
});
