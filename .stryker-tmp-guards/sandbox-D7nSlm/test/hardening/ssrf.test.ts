/**
 * n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED=true, n8n 2.40 and later) with the service on a blocked
 * address: n8n refuses every request of the package before it is sent (the token request, API requests, the
 * trigger's poll, Check Compatibility, the credential's test). The package says so, names the host and the n8n
 * setting that allows it, and tries once (no repeat can pass). With the address allowed, all of it works.
 *
 * The protection is n8n's own (@n8n/backend-network's egress filter behind n8n-core's request helpers), set
 * up in process as n8n sets it up from its environment (test/harness/ssrf.ts). The sandbox listens on
 * 127.0.0.1, which n8n blocks by default (127.0.0.0/8). test/e2e/ssrf.test.ts shows the same in a running n8n.
 */
// @ts-nocheck

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import { runCredentialTest, testerMessage } from '../harness/credentialTest';
import { credentialsFor, runNode, triggerHandle } from '../harness/engine';
import { demoDryRunCopy } from '../harness/parameters';
import { setN8nSsrf } from '../harness/ssrf';
import { captureLogs, DEMO_IDS, rl } from './harness';

captureLogs();
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
});
afterAll(async () => {
	setN8nSsrf({ enabled: false });
	await sandbox.close();
});
beforeEach(() => sandbox.requests.clear());

const getGroup: INodeParameters = { resource: 'group', operation: 'get', groupId: rl(DEMO_IDS.groupIds[0]) };
const checkCompatibility: INodeParameters = { resource: 'api', operation: 'checkCompatibility' };
const triggerParams: INodeParameters = { events: ['failed', 'finished', 'stuck'], filters: {}, options: {} };

type Declared = Error & { description?: string; failure?: unknown };

/** What every refusal shares: n8n named as the one that refused, the host, the setting, no advice to retry. */
function expectRefusal(error: Declared | undefined, what: RegExp, setting: string): void {
	expect(error).toBeDefined();
	expect(error!.message).toMatch(/^n8n's SSRF protection blocked the /);
	expect(error!.message).toMatch(what);
	expect(error!.message).toContain('nothing was sent');
	expect(error!.description).toContain('N8N_SSRF_PROTECTION_ENABLED=true');
	expect(error!.description).toContain(setting);
	expect(error!.description).toContain('restart n8n');
	expect(error!.description).not.toMatch(/Retry On Fail|Max Retries|restarting|tried \d+ times/);
	expect(error!.message).not.toMatch(/connection failed/i);
}

describe('n8n SSRF protection on, the service on a blocked address (127.0.0.1)', () => {
	beforeAll(() => setN8nSsrf({ enabled: true }));

	it('the token request is refused before it is sent, once, with the host and N8N_SSRF_ALLOWED_IP_RANGES', async () => {
		// The default Max Retries (3) would repeat a network failure three times; this is not one.
		const { error } = await runNode({ credentials: credentialsFor(sandbox), parameters: getGroup });
		expectRefusal(error, /token request to 127\.0\.0\.1:/, 'N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32');
		expect(sandbox.requests.all()).toEqual([]);
	});

	it('with a token already stored, the API requests are refused before they are sent (Group › Get, Job › Create)', async () => {
		const cases: Array<[INodeParameters, RegExp]> = [
			[getGroup, /request GET \/groups\/[\w-]+ to 127\.0\.0\.1: nothing was sent$/],
			// Job › Create reads the source storage first (its checks), and stops there.
			[demoDryRunCopy('/ssrf'), /request GET \/storages\/[\w-]+ to 127\.0\.0\.1: nothing was sent$/],
		];
		for (const [parameters, message] of cases) {
			const credentials = credentialsFor(sandbox, { accessToken: 'stored-token-ssrf' });
			const { error } = await runNode({ credentials, parameters });
			expectRefusal(error, message, 'N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32');
		}
		expect(sandbox.requests.all()).toEqual([]);
	});

	it("n8n's Retry On Fail repeats the node, and each try is refused again before anything is sent", async () => {
		const { error } = await runNode({
			credentials: credentialsFor(sandbox),
			parameters: getGroup,
			node: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});
		expectRefusal(error, /token request/, 'N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32');
		expect(sandbox.requests.all()).toEqual([]);
	});

	it('the trigger: the poll fails with the same message and configuration-invalid (n8n waits 30 min, not seconds)', async () => {
		const handle = triggerHandle(credentialsFor(sandbox), triggerParams);
		const error = (await handle.poll().catch((caught: unknown) => caught)) as Declared;
		expect(error).toBeInstanceOf(NodeApiError);
		expectRefusal(error, /token request to 127\.0\.0\.1:/, 'N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32');
		expect(error.failure).toEqual({ cause: 'configuration-invalid' });
		// Nothing of the failed poll was kept: the next one after the setting changed starts from scratch.
		expect(handle.staticData()).toEqual({ 'node:File Transfer Manager Trigger': {} });
		expect(sandbox.requests.all()).toEqual([]);
	});

	it('API › Check Compatibility stops with the refusal instead of reporting every check as failed', async () => {
		const { error, items } = await runNode({ credentials: credentialsFor(sandbox), parameters: checkCompatibility });
		expect(items).toEqual([]);
		expectRefusal(error, /token request to 127\.0\.0\.1:/, 'N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32');
		expect(sandbox.requests.all()).toEqual([]);
	});

	it("the credential's test (as n8n's CredentialsTester runs it) reports the refusal", async () => {
		const error = (await runCredentialTest(credentialsFor(sandbox)).catch((caught: unknown) => caught)) as Declared;
		const message = testerMessage(error as never);
		expect(message).toMatch(/^n8n's SSRF protection blocked the token request to 127\.0\.0\.1: nothing was sent$/);
		expect(sandbox.requests.all()).toEqual([]);
	});

	it('a host name that resolves to a blocked address: the message names both, and N8N_SSRF_ALLOWED_HOSTNAMES', async () => {
		const baseUrl = sandbox.baseUrl.replace('127.0.0.1', 'localhost');
		const { error } = await runNode({ credentials: credentialsFor(sandbox, { baseUrl }), parameters: getGroup });
		expectRefusal(error, /token request to localhost \((127\.0\.0\.1|::1)\)/, 'N8N_SSRF_ALLOWED_HOSTNAMES=localhost');
		expect(error!.description).toMatch(/N8N_SSRF_ALLOWED_IP_RANGES=(127\.0\.0\.1\/32|::1\/128)/);
		expect(sandbox.requests.all()).toEqual([]);
	});
});

describe('n8n SSRF protection on, a host name on its deny-list (N8N_SSRF_BLOCKED_HOSTNAMES)', () => {
	beforeAll(() => setN8nSsrf({ enabled: true, allowedIpRanges: ['127.0.0.1/32'], blockedHostnames: ['ftm.blocked.example'] }));

	it('is refused with the deny-list named, before any DNS lookup or request', async () => {
		const { error } = await runNode({
			credentials: credentialsFor(sandbox, { baseUrl: 'http://ftm.blocked.example:8787' }),
			parameters: getGroup,
		});
		expectRefusal(error, /token request to ftm\.blocked\.example: nothing was sent/, 'N8N_SSRF_BLOCKED_HOSTNAMES');
		expect(error!.description).toContain('N8N_SSRF_ALLOWED_HOSTNAMES=ftm.blocked.example');
	});
});

describe("n8n SSRF protection on, the service's address allowed (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32)", () => {
	beforeAll(() => setN8nSsrf({ enabled: true, allowedIpRanges: ['127.0.0.1/32'] }));

	it('the action node: token and API request', async () => {
		const { error, items } = await runNode({ credentials: credentialsFor(sandbox), parameters: getGroup });
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(DEMO_IDS.groupIds[0]);
		expect(sandbox.requests.all().map((r) => [r.method, r.route, r.status])).toEqual([
			['POST', '/oauth/token', 200],
			['GET', '/groups/{id}', 200],
		]);
	});

	it('the trigger activates (its first poll lists the jobs and stores its position)', async () => {
		const handle = triggerHandle(credentialsFor(sandbox), triggerParams);
		expect(await handle.poll()).toBeNull();
		expect(Object.keys(handle.staticData())).not.toEqual([]);
		expect(sandbox.requests.count({ method: 'GET', route: '/jobs' })).toBeGreaterThan(0);
	});

	it('API › Check Compatibility reports its checks', async () => {
		const { error, items } = await runNode({ credentials: credentialsFor(sandbox), parameters: checkCompatibility });
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(10);
		expect(items.map((item) => (item.json as IDataObject).check)).toEqual(expect.arrayContaining(['token', 'root', 'list-routes']));
		expect(items.find((item) => item.json.check === 'token')?.json.result).toBe('pass');
	});

	it("the credential's test passes", async () => {
		const response = await runCredentialTest(credentialsFor(sandbox));
		expect(response?.[0]?.[0]?.json).toEqual({ jsonapi: { version: '1.1' }, meta: { apiVersion: expect.any(String) } });
	});
});
