/**
 * TLS: an https endpoint with a self-signed certificate (a TLS-terminating proxy in front of the sandbox,
 * with a key and certificate made by openssl for this run) is refused unless the credential's
 * "Ignore SSL Issues (Insecure)" is on, for the token request and for API requests alike.
 */
// @ts-nocheck

import { startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import { credentialsFor, runNode } from '../harness/engine';
import type { TlsProxy } from '../harness/tlsProxy';
import { startTlsProxy } from '../harness/tlsProxy';
import { DEMO_IDS, captureLogs, findSecrets, rl, runTexts, secretsOf } from './harness';

const logs = captureLogs();
let sandbox: Sandbox;
let proxy: TlsProxy;
let baseUrl: string;
/** TCP connections the proxy accepted (each refused attempt is one). */
let connections = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	proxy = await startTlsProxy(sandbox.baseUrl);
	proxy.server.on('connection', () => connections++);
	baseUrl = proxy.baseUrl;
});

afterAll(async () => {
	await proxy.close();
	await sandbox.close();
});

beforeEach(() => {
	sandbox.requests.clear();
	connections = 0;
	logs.clear();
});

const getGroup = { resource: 'group', operation: 'get', groupId: rl(DEMO_IDS.groupIds[0]), requestOptions: { maxRetryWait: 0.05 } };

describe('TLS certificates', () => {
	it('are verified by default: a self-signed certificate is refused once (not retried), with a clear error', async () => {
		const credentials = credentialsFor({ ...sandbox, baseUrl });
		const result = await runNode({ credentials, parameters: getGroup });
		expect(result.error?.message).toBe('The TLS certificate of the service could not be verified (DEPTH_ZERO_SELF_SIGNED_CERT)');
		expect(result.error?.description).toContain('"Ignore SSL Issues (Insecure)"');
		expect(sandbox.requests.count()).toBe(0);
		expect(connections).toBe(1);
		expect(findSecrets([...runTexts(result), logs.text()], secretsOf(sandbox, [credentials]))).toEqual([]);
	});

	it('are not checked when the credential says "Ignore SSL Issues": token request and API request go through', async () => {
		const credentials = credentialsFor({ ...sandbox, baseUrl }, { ignoreSSLIssues: true });
		const { error, items } = await runNode({ credentials, parameters: getGroup });
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(DEMO_IDS.groupIds[0]);
		expect(sandbox.requests.all().map((r) => [r.method, r.route, r.status])).toEqual([
			['POST', '/oauth/token', 200],
			['GET', '/groups/{id}', 200],
		]);
	});

	it('API requests are verified too: with a stored token and the option turned off again, the request is refused', async () => {
		const credentials = credentialsFor({ ...sandbox, baseUrl }, { ignoreSSLIssues: true });
		expect((await runNode({ credentials, parameters: getGroup })).error).toBeUndefined();
		credentials.set({ ...credentials.raw(), ignoreSSLIssues: false });
		sandbox.requests.clear();
		const { error } = await runNode({ credentials, parameters: getGroup });
		expect(error?.message).toBe('The TLS certificate of the service could not be verified (DEPTH_ZERO_SELF_SIGNED_CERT)');
		expect(sandbox.requests.count()).toBe(0);
	});
});
