// @ts-nocheck
import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import { FileTransferManagerOAuth2Api } from '../../credentials/FileTransferManagerOAuth2Api.credentials';
import { CREDENTIAL_TYPE, type TestCredentialsHelper } from '../harness/credentials';
import { runCredentialTest, testerMessage } from '../harness/credentialTest';
import { credentialsFor, runNode } from '../harness/engine';
import { httpRequestStandIn } from '../harness/foreignNode';
import { startRecordingProxy } from './proxy';

let sandbox: Sandbox;

const WRONG_SECRET = 'wrong-secret-7f3a9c51d2';
const getGroup = {
	resource: 'group',
	operation: 'get',
	groupId: { __rl: true, mode: 'id', value: DEMO_IDS.groupIds[0] },
};
const tokenRequests = () => sandbox.requests.count({ method: 'POST', path: '/oauth/token' });
const groupRequests = () => sandbox.requests.count({ method: 'GET', route: '/groups/{id}' });

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => sandbox.requests.clear());

describe('credential: access token', () => {
	it('fetches one token on the first request and none in 100 further executions', async () => {
		const credentials = credentialsFor(sandbox);
		const first = await runNode({ credentials, parameters: getGroup });
		expect(first.error).toBeUndefined();
		expect(tokenRequests()).toBe(1);
		expect(credentials.tokenUpdates).toHaveLength(1);

		for (let run = 0; run < 100; run++) {
			const { error } = await runNode({ credentials, parameters: getGroup });
			if (error) throw error;
		}
		expect(tokenRequests()).toBe(1);
		expect(groupRequests()).toBe(101);
		const bearer = `Bearer ${credentials.tokenUpdates[0]}`;
		expect(sandbox.requests.all().filter((r) => r.route === '/groups/{id}').every((r) => r.authorization === bearer)).toBe(
			true,
		);
	});

	it('renews a token the sandbox expired once, then the request succeeds', async () => {
		const credentials = credentialsFor(sandbox);
		await runNode({ credentials, parameters: getGroup });
		sandbox.control.expireTokens();
		sandbox.requests.clear();

		const { items, error } = await runNode({ credentials, parameters: getGroup });
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(DEMO_IDS.groupIds[0]);
		expect(tokenRequests()).toBe(1);
		expect(sandbox.requests.all().map((r) => [r.method, r.route, r.status])).toEqual([
			['GET', '/groups/{id}', 401],
			['POST', '/oauth/token', 200],
			['GET', '/groups/{id}', 200],
		]);
		expect(credentials.tokenUpdates).toHaveLength(2);
		expect(credentials.raw()?.accessToken).toBe(credentials.tokenUpdates[1]);
	});

	it('a token expired in the middle of a workflow (fault expire-token) is renewed once (one item at a time)', async () => {
		const credentials = credentialsFor(sandbox);
		await runNode({ credentials, parameters: getGroup });
		sandbox.faults.add({ kind: 'expire-token', method: 'GET', path: '/groups/{id}', times: 1 });
		sandbox.requests.clear();
		const { error } = await runNode({
			credentials,
			parameters: { ...getGroup, requestOptions: { parallelRequests: 1 } },
			items: [{ json: {} }, { json: {} }],
		});
		expect(error).toBeUndefined();
		expect(tokenRequests()).toBe(1);
		expect(sandbox.requests.all().map((r) => [r.method, r.route, r.status])).toEqual([
			['GET', '/groups/{id}', 401],
			['POST', '/oauth/token', 200],
			['GET', '/groups/{id}', 200],
			['GET', '/groups/{id}', 200],
		]);
	});

	it('with items at once (the default), still one new token; a request already sent with the old one gets its own 401 and one repeat', async () => {
		const credentials = credentialsFor(sandbox);
		await runNode({ credentials, parameters: getGroup });
		sandbox.faults.add({ kind: 'expire-token', method: 'GET', path: '/groups/{id}', times: 1 });
		sandbox.requests.clear();
		const { error, items } = await runNode({ credentials, parameters: getGroup, items: [{ json: {} }, { json: {} }] });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(tokenRequests()).toBe(1);
		const gets = sandbox.requests.all().filter((r) => r.route === '/groups/{id}');
		const refused = gets.filter((r) => r.status === 401).length;
		expect(refused).toBeGreaterThanOrEqual(1);
		expect(refused).toBeLessThanOrEqual(2);
		expect(gets.filter((r) => r.status === 200)).toHaveLength(2);
	});
});

/**
 * n8n's HTTP Request node with this credential ("Predefined Credential Type") sends each item through n8n-core's
 * legacy requestWithAuthentication, without waiting for the previous item: each request reads the credential
 * for itself, and after a failure calls preAuthentication with the token it read. Its context here is the one
 * n8n-core gives such a node (test/harness/foreignNode.ts).
 */
function httpRequestNodeGet(credentials: TestCredentialsHelper, items: number) {
	const { context } = httpRequestStandIn(credentials, items);
	const uri = `${sandbox.baseUrl}/groups/${DEMO_IDS.groupIds[0]}`;
	return async (itemIndex: number): Promise<unknown> =>
		await context.helpers.requestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			{ method: 'GET', uri, json: true } as never,
			undefined,
			itemIndex,
		);
}

describe("credential: the token in n8n's HTTP Request node (n8n-core's legacy requestWithAuthentication)", () => {
	it('three requests at once after the token expired make one token request, also for the one whose 401 comes after the renewal', async () => {
		const credentials = credentialsFor(sandbox);
		const get = httpRequestNodeGet(credentials, 3);
		await get(0);
		const expired = credentials.raw()?.accessToken;
		sandbox.control.expireTokens();
		// One of the three is answered late, so that its 401 arrives after the token request has ended: it
		// holds the expired token and must get the one that replaced it, not a third.
		sandbox.faults.add({ kind: 'slow', method: 'GET', path: '/groups/{id}', times: 1, delayMs: 500 });
		sandbox.requests.clear();

		const results = await Promise.allSettled([0, 1, 2].map(get));
		expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
		expect(tokenRequests()).toBe(1);
		const renewed = credentials.raw()?.accessToken;
		expect(typeof renewed).toBe('string');
		expect(renewed).not.toBe(expired);
		const gets = sandbox.requests.all().filter((r) => r.route === '/groups/{id}');
		expect(gets.filter((r) => r.status === 401).map((r) => r.authorization)).toEqual(Array(3).fill(`Bearer ${expired}`));
		expect(gets.filter((r) => r.status === 200).map((r) => r.authorization)).toEqual(Array(3).fill(`Bearer ${renewed}`));
		const late = gets.find((r) => r.fault === 'slow');
		const token = sandbox.requests.all().find((r) => r.path === '/oauth/token');
		expect(late?.status).toBe(401);
		expect(late?.doneAt).toBeGreaterThan(token?.doneAt ?? Infinity);
	});
});

describe('credential: the Bearer header', () => {
	it('is set by a function from the stored token, other headers kept, the request options not changed in place', async () => {
		const credential = new FileTransferManagerOAuth2Api();
		expect(typeof credential.authenticate).toBe('function');
		const baseUrl = 'https://api.acme.example.com';
		const options = {
			url: `${baseUrl}/jobs`,
			headers: { Accept: 'application/vnd.api+json', Authorization: 'Bearer stale' },
		};
		const out = await credential.authenticate({ baseUrl, accessToken: 'tok-123' }, options);
		expect(out.headers).toEqual({ Accept: 'application/vnd.api+json', Authorization: 'Bearer tok-123' });
		expect(out.url).toBe(`${baseUrl}/jobs`);
		expect(options.headers.Authorization).toBe('Bearer stale');
		// No token stored: n8n runs preAuthentication first; the function itself never invents a token.
		expect((await credential.authenticate({ baseUrl }, { url: `${baseUrl}/` })).headers).toEqual({
			Authorization: 'Bearer ',
		});
	});
});

describe('credential: wrong client credentials', () => {
	it.each([
		['secret', { clientSecret: WRONG_SECRET }],
		['client id', { clientId: 'unknown-client' }],
	])('a wrong %s gives a clear error naming the Client ID and Secret, without the secret', async (_, override) => {
		const credentials = credentialsFor(sandbox, override);
		const { error } = await runNode({ credentials, parameters: getGroup });
		expect(error?.message).toContain('Client ID');
		expect(error?.message).toContain('Client Secret');
		const text = `${error?.message} ${error?.description ?? ''} ${JSON.stringify(error?.context ?? {})}`;
		expect(text).not.toContain(WRONG_SECRET);
		expect(text).not.toContain(sandbox.clientSecret);
		expect(sandbox.requests.all().map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/oauth/token', 401]]);
	});
});

describe('credential: Base URL and token URL', () => {
	it.each([
		['a trailing slash', '/'],
		['several trailing slashes and spaces', '//  '],
	])('works with %s', async (_, suffix) => {
		const credentials = credentialsFor(sandbox, { baseUrl: `${sandbox.baseUrl}${suffix}` });
		const { error } = await runNode({ credentials, parameters: getGroup });
		expect(error).toBeUndefined();
		expect(sandbox.requests.all().map((r) => [r.method, r.path, r.status])).toEqual([
			['POST', '/oauth/token', 200],
			['GET', `/groups/${DEMO_IDS.groupIds[0]}`, 200],
		]);
	});

	it('works with a path prefix: the token URL and every route sit under it (through a prefixing proxy)', async () => {
		const proxy = await startRecordingProxy(sandbox.baseUrl, '/v2');
		try {
			const credentials = credentialsFor(sandbox, { baseUrl: `${proxy.baseUrl}/` });
			const { error } = await runNode({ credentials, parameters: getGroup });
			expect(error).toBeUndefined();
			expect(proxy.requests.map((r) => [r.method, r.url])).toEqual([
				['POST', '/v2/oauth/token'],
				['GET', `/v2/groups/${DEMO_IDS.groupIds[0]}`],
			]);
		} finally {
			await proxy.close();
		}
	});

	it('derives the token URL as <Base URL>/oauth/token and sends id and secret in the form body', async () => {
		const proxy = await startRecordingProxy(sandbox.baseUrl);
		try {
			const credentials = credentialsFor(sandbox, { baseUrl: proxy.baseUrl });
			await runNode({ credentials, parameters: getGroup });
			const token = proxy.requests.filter((r) => r.url === '/oauth/token');
			expect(token).toHaveLength(1);
			expect(token[0].method).toBe('POST');
			expect(token[0].headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
			expect(token[0].headers.authorization).toBeUndefined();
			expect(Object.fromEntries(new URLSearchParams(token[0].body))).toEqual(
				expect.objectContaining({
					grant_type: 'client_credentials',
					client_id: sandbox.clientId,
					client_secret: sandbox.clientSecret,
				}),
			);
			// The sandbox's own log has no bodies; it shows that no Basic header carried the credentials.
			const logged = sandbox.requests.all().find((r) => r.path === '/oauth/token')!;
			expect([logged.status, logged.authorization]).toEqual([200, undefined]);
		} finally {
			await proxy.close();
		}
	});
});

describe("credential: the credential's test request, as n8n's CredentialsTester runs it", () => {
	it('succeeds with the right secret: an authenticated GET / answered with the API version', async () => {
		const response = await runCredentialTest(credentialsFor(sandbox));
		expect(response?.[0]?.[0]?.json).toEqual({ jsonapi: { version: '1.1' }, meta: { apiVersion: expect.any(String) } });
		expect(sandbox.requests.all().map((r) => [r.method, r.path, r.status])).toEqual([
			['POST', '/oauth/token', 200],
			['GET', '/', 200],
		]);
	});

	it('fails with a wrong secret, with the same message as in workflow runs and no secret in it', async () => {
		let caught: unknown;
		try {
			await runCredentialTest(credentialsFor(sandbox, { clientSecret: WRONG_SECRET }));
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeDefined();
		const message = testerMessage(caught as never);
		// The credential's own token request throws it, so n8n's credential test shows the node's text.
		expect(message).toBe(
			'Could not get an access token: check your Client ID and Client Secret in the credential (HTTP 401 invalid_client)',
		);
		expect(message).not.toContain(WRONG_SECRET);
		expect(sandbox.requests.all().map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/oauth/token', 401]]);
	});
});
