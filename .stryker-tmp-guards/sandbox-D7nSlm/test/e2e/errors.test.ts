/**
 * End-to-end: what a user reads when the service answers with an error, in real n8n (the version the
 * process runs against: the pinned one under `npm test`, each version of `npm run test:matrix`).
 *
 * One run, in a running n8n (useN8nStack: the packed package installed as users install it), of a chain of
 * File Transfer Manager nodes, each set to On Error "Continue (regular output)" so that every node's error is
 * kept as `{ error, description }`:
 * - an unknown job (404), a pause of a finished job (409), a 503 with Retry-After and Max Retries 0,
 *   a rejected client secret: the API's own title and detail, and our hint;
 * - a 503 with `Retry-After: 1` and the default retries: the repeat waits the second the service asked for;
 * - a list route whose deployment states a smaller page maximum: the node learns it and lists everything.
 *
 * Each error is also compared with the same node run in process through n8n-core (the pinned version), so
 * a version of n8n that hands the node less of the failed answer shows up as a difference, not as a weaker
 * message that still passes.
 */
// @ts-nocheck

import { DEMO_IDS, type Sandbox } from '../../sandbox/src';
import { ensureCredential, type CredentialRef } from '../../scripts/n8n/credentials';
import { nodeOutput, randomId } from '../../scripts/n8n/headless';
import { CREDENTIAL_TYPE, NODE_TYPE } from '../../scripts/n8n/packaging';
import type { WorkflowJson } from '../../scripts/n8n/workflows';
import { useN8nStack } from './helpers/stack';
import { runOnServer } from './helpers/workflows';
import { N8N_VERSION } from '../../scripts/n8n/paths';
import { credentialsFor, runNode } from '../harness/engine';
import { rl } from '../harness/locator';

const MINUTE = 60 * 1000;
const CLIENT_ID = 'errors-e2e-client';
const CLIENT_SECRET = `errors-e2e-${randomId()}`;
const WRONG_SECRET = `wrong-${randomId()}`;
const UNKNOWN = '0e0e0e0e-0000-4000-8000-000000000000';
const FINISHED = DEMO_IDS.jobIds.copied;
const FAILED = DEMO_IDS.jobIds.failedSync;
const DRY_RUN = DEMO_IDS.jobIds.dryRun;
/** The page maximum the deviating deployment states (the demo data has three jobs). */
const PAGE_MAX = 1;

const stack = useN8nStack({
	name: 'errors e2e',
	clientId: CLIENT_ID,
	clientSecret: CLIENT_SECRET,
	credentialName: 'File Transfer Manager (errors e2e)',
	sandbox: { speed: 1000 },
});
let sandbox: Sandbox;
/** The stack's credential, and one with a wrong client secret. */
let good: CredentialRef;
let wrong: CredentialRef;

interface Case {
	name: string;
	parameters: Record<string, unknown>;
	/** Uses the credential with the wrong client secret. */
	wrongSecret?: boolean;
}

/** The failing nodes, in the order they run. */
const FAILING: Case[] = [
	{ name: 'Unknown Job', parameters: { resource: 'job', operation: 'get', jobId: rl(UNKNOWN) } },
	{ name: 'Pause Finished Job', parameters: { resource: 'job', operation: 'pause', jobId: rl(FINISHED) } },
	{
		name: 'Unavailable',
		parameters: { resource: 'job', operation: 'get', jobId: rl(FAILED), requestOptions: { maxRetries: 0 } },
	},
	{ name: 'Wrong Secret', parameters: { resource: 'api', operation: 'getVersion' }, wrongSecret: true },
];
/** Nodes that succeed only when the node reads what the failed answer said. */
const RETRY_AFTER: Case = { name: 'Retry After', parameters: { resource: 'job', operation: 'get', jobId: rl(DRY_RUN) } };
const PAGE_MAXIMUM: Case = {
	name: 'Page Maximum',
	parameters: { resource: 'job', operation: 'getMany', returnAll: false, limit: 3 },
};
const CASES = [...FAILING, RETRY_AFTER, PAGE_MAXIMUM];

function workflow(): WorkflowJson {
	const id = (n: number) => `e1e1e1e1-0000-4000-8000-${String(n).padStart(12, '0')}`;
	const nodes: WorkflowJson['nodes'] = [
		{ id: id(0), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
	];
	const connections: WorkflowJson['connections'] = {};
	let previous = 'Start';
	CASES.forEach((c, n) => {
		nodes.push({
			id: id(n + 1),
			name: c.name,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [220 * (n + 1), 0],
			onError: 'continueRegularOutput',
			// Every node runs once, whatever its input.
			executeOnce: true,
			parameters: c.parameters,
			credentials: { [CREDENTIAL_TYPE]: c.wrongSecret ? wrong : good },
		});
		connections[previous] = { main: [[{ node: c.name, type: 'main', index: 0 }]] };
		previous = c.name;
	});
	return { name: 'e2e: errors as the user reads them', nodes, connections, settings: { executionOrder: 'v1' } };
}

/** The faults the run meets: one 503 for each, with the pause each asks for. */
function armFaults(): void {
	sandbox.faults.clear();
	sandbox.faults.add({ kind: 'unavailable', method: 'GET', path: `/jobs/${FAILED}`, times: Infinity, retryAfterSeconds: 1 });
	sandbox.faults.add({ kind: 'unavailable', method: 'GET', path: `/jobs/${DRY_RUN}`, times: 1, retryAfterSeconds: 1 });
	sandbox.deviations.set([`max-page:${PAGE_MAX}`]);
}

let items: Record<string, Array<Record<string, unknown>>>;
let requests: ReturnType<Sandbox['requests']['all']>;

beforeAll(async () => {
	({ sandbox, credential: good } = stack);
	wrong = await ensureCredential(stack.api, 'File Transfer Manager (errors e2e, wrong secret)', {
		baseUrl: sandbox.baseUrl,
		clientId: CLIENT_ID,
		clientSecret: WRONG_SECRET,
	});
	armFaults();
	sandbox.requests.clear();
	const run = await runOnServer(stack, workflow());
	items = Object.fromEntries(CASES.map((c) => [c.name, nodeOutput(run, c.name)]));
	requests = sandbox.requests.all();
}, 10 * MINUTE);

/** The same node, run in process through n8n-core (the pinned version), against the same sandbox. */
async function inProcess(c: Case): Promise<Record<string, unknown>> {
	armFaults();
	const credentials = credentialsFor({
		baseUrl: sandbox.baseUrl,
		clientId: CLIENT_ID,
		clientSecret: c.wrongSecret ? WRONG_SECRET : CLIENT_SECRET,
	});
	const result = await runNode({
		credentials,
		parameters: c.parameters as never,
		node: { onError: 'continueRegularOutput' },
	});
	return result.items[0].json;
}

describe(`n8n ${N8N_VERSION}: an API error keeps the API's title and detail`, () => {
	test('an unknown job: Entity Not Found, with the service\'s detail and the hint to check the ID', () => {
		expect(items['Unknown Job']).toEqual([
			{
				error: 'Entity Not Found',
				description: expect.stringMatching(/^The requested entity was not found\. Check the ID/),
			},
		]);
	});

	test('a pause of a finished job: Invalid Status Transition, naming the status and the field', () => {
		expect(items['Pause Finished Job']).toEqual([
			{
				error: 'Invalid Status Transition',
				description: expect.stringMatching(/^A job cannot go from "finished" to "paused"\. Field: status\. Jobs move/),
			},
		]);
	});

	test('a 503 with Max Retries 0: Service Unavailable, sent once', () => {
		expect(items.Unavailable).toEqual([
			{ error: 'Service Unavailable', description: expect.stringContaining('The service is unavailable') },
		]);
		expect(requests.filter((r) => r.path === `/jobs/${FAILED}`)).toHaveLength(1);
	});

	test('a rejected client secret: the message that names the Client ID and Secret', () => {
		expect(items['Wrong Secret']).toEqual([
			{
				error: expect.stringMatching(/client id|client secret/i),
				description: expect.stringContaining('The Client ID and Secret are generated together'),
			},
		]);
	});

	test.each(FAILING.map((c) => [c.name, c] as const))(
		'%s: the same error and description as the node run through n8n-core in process',
		async (_name, c) => {
			expect(items[c.name]).toEqual([await inProcess(c)]);
		},
	);
});

describe(`n8n ${N8N_VERSION}: what a failed answer says is acted on`, () => {
	test('Retry-After: 1 on a 503: the repeat comes a second or more later, and the job is returned', () => {
		const attempts = requests.filter((r) => r.path === `/jobs/${DRY_RUN}`);
		expect(attempts.map((r) => r.status)).toEqual([503, 200]);
		expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);
		expect(items['Retry After']).toEqual([expect.objectContaining({ id: DRY_RUN })]);
	});

	test('a stated page maximum is learnt: every job is listed, in pages of that size after one refusal', () => {
		expect(items['Page Maximum'].map((job) => job.id)).toHaveLength(3);
		const pages = requests.filter((r) => r.path === '/jobs');
		expect(pages[0]).toEqual(expect.objectContaining({ status: 400 }));
		expect(pages.slice(1).map((r) => [r.status, r.query['page[limit]']])).toEqual(
			Array.from({ length: pages.length - 1 }, () => [200, String(PAGE_MAX)]),
		);
	});
});
