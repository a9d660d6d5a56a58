/**
 * End-to-end: API › Check Compatibility run in real n8n (one running n8n, useN8nStack: the packed package
 * installed as users install it, the workflow created through the public API and run as from the editor)
 * against two sandboxes: one that keeps to the contract (the stack's), and one started with two deviation
 * modes (a smaller stated page maximum, and a job filter it ignores). The report
 * must pass every check against the first, and against the second fail exactly the checks of those two
 * deviations, saying what the sandbox was told to do. One workflow holds a check node per sandbox, so both
 * reports come from one run. test/node/api/compatibility.test.ts covers every mode through n8n-core; this
 * suite proves the same report comes out of n8n itself, in each version of the matrix.
 */
// @ts-nocheck

import { startSandbox, type Sandbox } from '../../sandbox/src';
import { ensureCredential, type CredentialRef } from '../../scripts/n8n/credentials';
import { nodeOutput, randomId, type RunResult } from '../../scripts/n8n/headless';
import { CREDENTIAL_TYPE, NODE_TYPE } from '../../scripts/n8n/packaging';
import type { WorkflowJson } from '../../scripts/n8n/workflows';
import { sandboxApiVersion } from './helpers/sandboxApi';
import { useN8nStack } from './helpers/stack';
import { runToSuccess } from './helpers/workflows';
import { CHECKS } from '../../nodes/FileTransferManager/actions/api/checkCompatibility.operation';

const MINUTE = 60 * 1000;
/** A stated page maximum under the nodes' 100 and at least 20 (below 20 it also changes the default page). */
const MAX_PAGE = 20 + Math.floor(Math.random() * 80);
/** A job filter the nodes send that the deviating sandbox accepts and does not apply. */
const IGNORED_FILTER = 'status';
const DEVIATIONS = [`max-page:${MAX_PAGE}`, `ignore-filter:${IGNORED_FILTER}`];

interface CheckItem {
	check: string;
	title: string;
	result: string;
	observed: string;
	fix: string;
}

interface Target {
	sandbox: Sandbox;
	credential: CredentialRef;
	/** The Check Compatibility node that uses it. */
	node: string;
}

const stack = useN8nStack({
	name: 'compat e2e',
	clientId: `compat-e2e-${randomId()}`,
	clientSecret: `secret-${randomId()}`,
	credentialName: 'File Transfer Manager (contract)',
	sandbox: { speed: 1000 },
});
let contract: Target;
let deviating: Target;
/** The one run of both checks, and the contract sandbox's jobs before it. */
let run: RunResult;
let contractJobsBefore: string;

/** The report of a target's node in the run (one item per check). */
const reportOf = (target: Target) => nodeOutput(run, target.node) as unknown as CheckItem[];

const uuid = (n: number) => `c0c0c0c0-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** One Check Compatibility node per target, both after the trigger: one run for both. */
function checkWorkflow(targets: Target[]): WorkflowJson {
	return {
		name: 'e2e: Check Compatibility',
		nodes: [
			{ id: uuid(1), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			...targets.map((target, i) => ({
				id: uuid(2 + i),
				name: target.node,
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, i * 200],
				parameters: { resource: 'api', operation: 'checkCompatibility' },
				credentials: { [CREDENTIAL_TYPE]: target.credential },
			})),
		],
		connections: { Start: { main: [targets.map((target) => ({ node: target.node, type: 'main', index: 0 }))] } },
		settings: { executionOrder: 'v1' },
	};
}

/** A sandbox of its own, started with `deviations`, and a credential for it. */
async function target(name: string, deviations: string[]): Promise<Target> {
	const clientId = `compat-e2e-${randomId()}`;
	const sandbox = await startSandbox({ port: 0, clientId, clientSecret: `secret-${randomId()}`, speed: 1000, deviations });
	const credential = await ensureCredential(stack.api, `File Transfer Manager (${name})`, {
		baseUrl: sandbox.baseUrl,
		clientId: sandbox.clientId,
		clientSecret: sandbox.clientSecret,
	});
	return { sandbox, credential, node: `Check ${name}` };
}

beforeAll(async () => {
	contract = { sandbox: stack.sandbox, credential: stack.credential, node: 'Check contract' };
	deviating = await target('deviating', DEVIATIONS);

	contractJobsBefore = JSON.stringify(contract.sandbox.state.jobs());
	contract.sandbox.requests.clear();
	deviating.sandbox.requests.clear();
	run = await runToSuccess(stack, checkWorkflow([contract, deviating]));
}, 10 * MINUTE);

afterAll(async () => {
	await deviating?.sandbox.close();
}, MINUTE);

/** A check as one line, for a failure message. */
const shown = (c: CheckItem) => `${c.check}: ${c.result}: ${c.observed}`;

test('against the contract: one item per check of the node, in its order, every one passed; nothing written', async () => {
	const { sandbox } = contract;
	const checks = reportOf(contract);

	expect(checks.map((c) => c.check)).toEqual(CHECKS.map((spec) => spec.check));
	expect(checks.map((c) => c.title)).toEqual(CHECKS.map((spec) => spec.title));
	// Every check passed (one that did not is shown with what it observed).
	expect(checks.filter((c) => c.result !== 'pass').map(shown)).toEqual([]);
	expect(checks.filter((c) => typeof c.observed !== 'string' || c.observed === '')).toEqual([]);
	// The root check read the API version this sandbox states.
	expect(checks.find((c) => c.check === 'root')!.observed).toContain(await sandboxApiVersion(sandbox));
	// n8n's token request, GETs and the one PATCH of a job that does not exist (answered 404).
	const writes = sandbox.requests.all().filter((r) => r.method !== 'GET' && r.path !== '/oauth/token');
	expect(writes.map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual(['PATCH /jobs/{id} 404']);
	expect(JSON.stringify(sandbox.state.jobs())).toBe(contractJobsBefore);
});

test(`against a sandbox started with ${DEVIATIONS.join(' and ')}: the report names both, and only those`, async () => {
	const { sandbox } = deviating;
	const checks = reportOf(deviating);

	// The checks the two modes break: the page size, and the filter the sandbox ignores (named in its title).
	const filterCheck = CHECKS.find((spec) => spec.title.endsWith(`filter[${IGNORED_FILTER}]`));
	expect(filterCheck).toBeDefined();
	const failing = ['page-size', filterCheck!.check];
	expect(checks.map((c) => c.check)).toEqual(CHECKS.map((spec) => spec.check));
	expect(checks.filter((c) => failing.includes(c.check)).map((c) => `${c.check}: ${c.result}`).sort()).toEqual(
		failing.map((id) => `${id}: fail`).sort(),
	);
	expect(checks.filter((c) => !failing.includes(c.check) && c.result !== 'pass').map(shown)).toEqual([]);

	// The page size: the maximum the sandbox was started with, and the nodes' way around it.
	const pageSize = checks.find((c) => c.check === 'page-size')!;
	expect(pageSize.observed).toContain(`stated maximum of ${MAX_PAGE}`);
	expect(pageSize.fix).toContain(`ask for pages of ${MAX_PAGE}`);
	const limits = sandbox.requests
		.all()
		.filter((r) => r.method === 'GET' && r.path === '/jobs' && r.query['page[limit]'] !== undefined)
		.map((r) => `${r.query['page[limit]']} ${r.status}`);
	expect(limits).toContain('100 400');
	expect(limits).toContain(`${MAX_PAGE} 200`);

	// The filter: a value was asked for, and jobs with another value came back.
	const filter = checks.find((c) => c.check === filterCheck!.check)!;
	expect(filter.observed).toMatch(new RegExp(`filter\\[${IGNORED_FILTER}\\]=(\\S+) returned .*${IGNORED_FILTER} ≠ .*the filter is not applied`));
	const asked = sandbox.requests.all().find((r) => r.path === '/jobs' && r.query[`filter[${IGNORED_FILTER}]`] !== undefined);
	expect(asked?.status).toBe(200);
	const value = asked!.query[`filter[${IGNORED_FILTER}]`];
	expect(filter.observed).toContain(`filter[${IGNORED_FILTER}]=${value} returned`);
	expect(sandbox.state.jobs().some((job) => job.attributes.status !== value)).toBe(true);
});
