/**
 * End-to-end: n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED=true) in a running n8n, with the service on
 * an internal address (the sandbox on 127.0.0.1, in n8n's default blocked ranges). Two n8n starts:
 *
 * - the address not allowed: the action node, API › Check Compatibility, the trigger's manual poll and the
 *   credential's test are each refused before anything reaches the sandbox (its request log stays empty),
 *   with the message that names the host and N8N_SSRF_ALLOWED_IP_RANGES, tried once, with no advice to retry;
 * - the address allowed (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32): the same workflow and test pass.
 *
 * n8n 1.x has no SSRF protection (the variable is not read): there the suite only checks that the nodes work
 * with it set. test/hardening/ssrf.test.ts covers the same through n8n-core in process, API requests with a
 * stored token and host names included.
 */
// @ts-nocheck

import { testStoredCredential } from '../../scripts/n8n/credentials';
import { nodeOutput, randomId } from '../../scripts/n8n/headless';
import { CREDENTIAL_TYPE, NODE_TYPE, TRIGGER_NODE_TYPE } from '../../scripts/n8n/packaging';
import type { WorkflowJson } from '../../scripts/n8n/workflows';
import { N8N_VERSION, n8nMajor } from '../../scripts/n8n/paths';
import { SANDBOX_ADDRESS } from '../../scripts/n8n/profile';
import { DEMO_IDS } from '../../sandbox/src';
import { rl } from '../harness/locator';
import { useN8nStack, type N8nStack } from './helpers/stack';
import { runOnServer, type ServerRun } from './helpers/workflows';

const MINUTE = 60 * 1000;
const HAS_SSRF_PROTECTION = n8nMajor() >= 2;
const TRIGGER = 'Trigger';

/** Manual trigger → Get Group → Check Compatibility, each continuing on error; and the trigger, run on its own. */
function workflow(stack: N8nStack): WorkflowJson {
	const id = (n: number) => `55f55f55-0000-4000-8000-${String(n).padStart(12, '0')}`;
	const credentials = { [CREDENTIAL_TYPE]: stack.credential };
	const node = (n: number, name: string, parameters: Record<string, unknown>) => ({
		id: id(n),
		name,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [220 * n, 0] as [number, number],
		onError: 'continueRegularOutput',
		executeOnce: true,
		parameters,
		credentials,
	});
	return {
		name: 'e2e: SSRF protection',
		nodes: [
			{ id: id(0), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			node(1, 'Get Group', { resource: 'group', operation: 'get', groupId: rl(DEMO_IDS.groupIds[0]) }),
			node(2, 'Check Compatibility', { resource: 'api', operation: 'checkCompatibility' }),
			{
				id: id(3),
				name: TRIGGER,
				type: TRIGGER_NODE_TYPE,
				typeVersion: 1,
				position: [0, 300],
				parameters: { events: ['failed', 'finished', 'stuck'], filters: {}, options: {} },
				credentials,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Get Group', type: 'main', index: 0 }]] },
			'Get Group': { main: [[{ node: 'Check Compatibility', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The trigger's run error, as n8n recorded the manual poll ("Fetch Test Event"). */
function runError(run: ServerRun): { message?: string; description?: string } {
	return (run.data.resultData.error ?? {}) as { message?: string; description?: string };
}

const stackOptions = (name: string, allowed: string) => ({
	name,
	clientId: `ssrf-e2e-${randomId()}`,
	clientSecret: `secret-${randomId()}`,
	credentialName: `File Transfer Manager (${name})`,
	sandbox: { speed: 1000 },
	// Set whatever profile the run has (FTM_N8N_PROFILE=v3 allows the sandbox's address): this suite decides.
	extraEnv: { N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_IP_RANGES: allowed },
});

describe(`n8n ${N8N_VERSION} with SSRF protection on, the service's address (${SANDBOX_ADDRESS}) not allowed`, () => {
	const stack = useN8nStack(stackOptions('ssrf blocked e2e', ''));
	let run: ServerRun;
	let poll: ServerRun;

	beforeAll(async () => {
		stack.sandbox.requests.clear();
		run = await runOnServer(stack, workflow(stack), { trigger: 'Start' });
		poll = await runOnServer(stack, workflow(stack), { trigger: TRIGGER });
	}, 10 * MINUTE);

	const refusal = {
		error: expect.stringMatching(new RegExp(`^n8n's SSRF protection blocked the token request to ${SANDBOX_ADDRESS.replace(/\./g, '\\.')}: nothing was sent$`)),
		description: expect.stringContaining(`N8N_SSRF_ALLOWED_IP_RANGES=${SANDBOX_ADDRESS}/32`),
	};

	(HAS_SSRF_PROTECTION ? test : test.skip)('the action node: refused, with the host and the setting, tried once, no advice to retry', () => {
		const [item] = nodeOutput(run, 'Get Group');
		expect(item).toEqual(refusal);
		expect(String(item.description)).not.toMatch(/Retry On Fail|Max Retries|tried \d+ times|restarting/);
	});

	(HAS_SSRF_PROTECTION ? test : test.skip)('API › Check Compatibility: the same refusal, not one failed check per assumption', () => {
		expect(nodeOutput(run, 'Check Compatibility')).toEqual([refusal]);
	});

	(HAS_SSRF_PROTECTION ? test : test.skip)("the trigger's poll: the same refusal", () => {
		expect(poll.status).toBe('error');
		expect(runError(poll)).toMatchObject({ message: refusal.error, description: refusal.description });
	});

	(HAS_SSRF_PROTECTION ? test : test.skip)("the credential's test (n8n's Test button): the same message", async () => {
		const result = await testStoredCredential(stack.api, stack.credential.id);
		expect(result).toEqual({ status: 'Error', message: refusal.error });
	});

	(HAS_SSRF_PROTECTION ? test : test.skip)('nothing reached the service', () => {
		expect(stack.sandbox.requests.all()).toEqual([]);
	});

	(HAS_SSRF_PROTECTION ? test.skip : test)('n8n 1.x has no SSRF protection: the nodes reach the service', () => {
		expect(nodeOutput(run, 'Get Group')[0].id).toBe(DEMO_IDS.groupIds[0]);
	});
});

describe(`n8n ${N8N_VERSION} with SSRF protection on, the service's address allowed (N8N_SSRF_ALLOWED_IP_RANGES=${SANDBOX_ADDRESS}/32)`, () => {
	const stack = useN8nStack(stackOptions('ssrf allowed e2e', `${SANDBOX_ADDRESS}/32`));
	let run: ServerRun;
	let poll: ServerRun;

	beforeAll(async () => {
		run = await runOnServer(stack, workflow(stack), { trigger: 'Start' });
		poll = await runOnServer(stack, workflow(stack), { trigger: TRIGGER });
	}, 10 * MINUTE);

	test('the action node and Check Compatibility work', () => {
		expect(run.status).toBe('success');
		expect(nodeOutput(run, 'Get Group')[0].id).toBe(DEMO_IDS.groupIds[0]);
		const report = nodeOutput(run, 'Check Compatibility');
		expect(report.find((item) => item.check === 'token')?.result).toBe('pass');
		expect(report.filter((item) => item.result === 'fail')).toEqual([]);
	});

	test("the trigger's poll works", () => {
		expect(poll.status).toBe('success');
	});

	test("the credential's test passes", async () => {
		expect(await testStoredCredential(stack.api, stack.credential.id)).toMatchObject({ status: 'OK' });
	});
});
