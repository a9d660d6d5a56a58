/**
 * The credential sends its token only to the origin (scheme, host, port) of its Base URL, whoever makes
 * the request: our nodes, n8n's credential test, or n8n's HTTP Request node with this credential picked as
 * "Predefined Credential Type". The requests go through n8n-core's own helpers: httpRequestWithAuthentication
 * (options with `url`, maybe `baseURL`) and the legacy requestWithAuthentication (options with `uri`), which
 * the HTTP Request node v4 uses. Other servers are local recorders that count every connection. The credential's
 * `authenticate` alone, target by target, is a unit test: test/unit/origin.test.ts.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import { CREDENTIAL_TYPE, type TestCredentialsHelper } from '../harness/credentials';
import { credentialsFor } from '../harness/engine';
import { httpRequestStandIn } from '../harness/foreignNode';
import { startTlsProxy, type TlsProxy } from '../harness/tlsProxy';
import { startRecordingProxy, type RecordingProxy } from './proxy';
import { startRecordingServer, type RecordingServer } from './recorder';

let sandbox: Sandbox;
let other: RecordingServer;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	other = await startRecordingServer();
});

afterAll(async () => {
	await other.close();
	await sandbox.close();
});

beforeEach(() => sandbox.requests.clear());

/** A node of a type that may use our credential, as the HTTP Request node is with a predefined credential type. */
function contextFor(credentials: TestCredentialsHelper): IExecuteFunctions {
	return httpRequestStandIn(credentials).context;
}

type Helper = 'httpRequestWithAuthentication' | 'requestWithAuthentication';
const HELPERS: Array<[Helper, 'url' | 'uri']> = [
	['httpRequestWithAuthentication', 'url'],
	['requestWithAuthentication', 'uri'],
];

type Outcome = { body?: unknown; error?: Error & { description?: string } };

/** One GET through n8n-core's helper, as the HTTP Request node (legacy helper) or our transport would send it. */
async function send(credentials: TestCredentialsHelper, helper: Helper, options: IDataObject): Promise<Outcome> {
	const ctx = contextFor(credentials);
	try {
		// Options as each helper's callers build them, including ones without a (readable) URL on purpose.
		const request = { method: 'GET', json: true, ...options } as never;
		const body =
			helper === 'httpRequestWithAuthentication'
				? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, request)
				: await ctx.helpers.requestWithAuthentication.call(ctx, CREDENTIAL_TYPE, request, undefined, 0);
		return { body };
	} catch (error) {
		return { error: error as Outcome['error'] };
	}
}

const sandboxPort = () => new URL(sandbox.baseUrl).port;
const refusal = (allowed: string, target: string) => `This credential sends its token only to ${allowed}; the request goes to ${target}`;
const gets = () => sandbox.requests.all().filter((r) => r.method === 'GET');
const tokenRequests = () => sandbox.requests.count({ method: 'POST', path: '/oauth/token' });

describe.each(HELPERS)("the credential's origin, through n8n-core's %s (option `%s`)", (helper, key) => {
	it('a request to the Base URL sends the token', async () => {
		const credentials = credentialsFor(sandbox);
		const { body, error } = await send(credentials, helper, { [key]: `${sandbox.baseUrl}/` });
		expect(error).toBeUndefined();
		expect(body).toEqual(expect.objectContaining({ jsonapi: { version: '1.1' } }));
		const token = credentials.raw()?.accessToken;
		expect(typeof token).toBe('string');
		expect(gets().map((r) => [r.path, r.status, r.authorization])).toEqual([['/', 200, `Bearer ${token}`]]);
	});

	it('another port: refused naming both origins; the other server gets no connection at all', async () => {
		const { error } = await send(credentialsFor(sandbox), helper, { [key]: `${other.baseUrl}/jobs?x=1` });
		expect(error?.message).toBe(refusal(sandbox.baseUrl, other.baseUrl));
		expect(error?.description).toContain('Nothing was sent');
		expect(other.connections()).toBe(0);
		expect(gets()).toEqual([]);
	});

	it('another host on the same port: refused; the Base URL\'s server gets no request but the token request', async () => {
		const target = `http://localhost:${sandboxPort()}`;
		const { error } = await send(credentialsFor(sandbox), helper, { [key]: `${target}/` });
		expect(error?.message).toBe(refusal(sandbox.baseUrl, target));
		expect(gets()).toEqual([]);
		expect(sandbox.requests.all().every((r) => r.method === 'POST' && r.path === '/oauth/token')).toBe(true);
	});

	it('http Base URL, https target on the same host and port: refused; no TLS handshake reaches the server', async () => {
		const proxy = await startRecordingProxy(sandbox.baseUrl);
		try {
			const target = proxy.baseUrl.replace(/^http:/, 'https:');
			const { error } = await send(credentialsFor(sandbox, { baseUrl: proxy.baseUrl }), helper, { [key]: `${target}/` });
			expect(error?.message).toBe(refusal(proxy.baseUrl, target));
			expect(proxy.clientErrors()).toBe(0);
			expect(proxy.requests.filter((r) => r.url !== '/oauth/token')).toEqual([]);
		} finally {
			await proxy.close();
		}
	});

	it('https Base URL, http target on the same host and port: refused; nothing in clear text reaches the server', async () => {
		const tls: TlsProxy = await startTlsProxy(sandbox.baseUrl);
		let plainAttempts = 0;
		tls.server.on('tlsClientError', () => plainAttempts++);
		try {
			const credentials = credentialsFor(sandbox, { baseUrl: tls.baseUrl, ignoreSSLIssues: true });
			const target = tls.baseUrl.replace(/^https:/, 'http:');
			const { error } = await send(credentials, helper, { [key]: `${target}/` });
			expect(error?.message).toBe(refusal(tls.baseUrl, target));
			expect(plainAttempts).toBe(0);
			expect(gets()).toEqual([]);
			// Over TLS, the token request went to the Base URL: that is where the credential sends its secret.
			expect(tokenRequests()).toBeGreaterThanOrEqual(1);
		} finally {
			await tls.close();
		}
	});

	it.each([
		['a port that is not a number', () => `http://127.0.0.1:${other.port}:x/`],
		['a space in the host', () => `http://127.0.0.1 ${other.port}/`],
		['no scheme', () => `127.0.0.1:${other.port}/jobs`],
	])('an unreadable URL (%s): refused; the other server gets nothing', async (_, url) => {
		const { error } = await send(credentialsFor(sandbox), helper, { [key]: url() });
		expect(error?.message).toMatch(
			new RegExp(`^This credential sends its token only to ${sandbox.baseUrl.replace(/\./g, '\\.')}; the request's URL .* cannot be read$`),
		);
		expect(other.connections()).toBe(0);
		expect(gets()).toEqual([]);
	});

	it('a Base URL with a path prefix: its origin gets the token (through the prefix), another origin does not', async () => {
		const proxy: RecordingProxy = await startRecordingProxy(sandbox.baseUrl, '/v2');
		try {
			const credentials = credentialsFor(sandbox, { baseUrl: `${proxy.baseUrl}/` });
			const sent = await send(credentials, helper, { [key]: `${proxy.baseUrl}/` });
			expect(sent.error).toBeUndefined();
			const token = credentials.raw()?.accessToken;
			expect(proxy.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
				['POST', '/v2/oauth/token', undefined],
				['GET', '/v2/', `Bearer ${token}`],
			]);

			const refused = await send(credentials, helper, { [key]: `${other.baseUrl}/v2/` });
			expect(refused.error?.message).toBe(refusal(new URL(proxy.baseUrl).origin, other.baseUrl));
			expect(other.connections()).toBe(0);
		} finally {
			await proxy.close();
		}
	});
});

describe.each(HELPERS)('a redirect answered at the Base URL, through n8n-core\'s %s', (helper, key) => {
	let landing: RecordingServer;
	let proxy: RecordingProxy;

	beforeEach(async () => {
		landing = await startRecordingServer();
		proxy = await startRecordingProxy(sandbox.baseUrl, '', {
			'/elsewhere': `${landing.baseUrl}/landing`,
			'/moved': '/',
		});
	});

	afterEach(async () => {
		await proxy.close();
		await landing.close();
	});

	it.each([
		['n8n\'s default for the helper', {}],
		['"Send Credentials on Cross-Origin Redirect" on (the HTTP Request node\'s default up to 4.3)', { sendCredentialsOnCrossOriginRedirect: true }],
	])('to another origin, with %s: followed without the token', async (_, extra) => {
		const credentials = credentialsFor(sandbox, { baseUrl: proxy.baseUrl });
		const { error } = await send(credentials, helper, { [key]: `${proxy.baseUrl}/elsewhere`, ...extra });
		expect(error).toBeUndefined();
		const token = credentials.raw()?.accessToken;
		expect(proxy.requests.filter((r) => r.url === '/elsewhere').map((r) => r.headers.authorization)).toEqual([`Bearer ${token}`]);
		expect(landing.requests).toEqual([{ method: 'GET', url: '/landing', authorization: undefined }]);
	});

	it('on the same origin: followed with the token', async () => {
		const credentials = credentialsFor(sandbox, { baseUrl: proxy.baseUrl });
		const { body, error } = await send(credentials, helper, { [key]: `${proxy.baseUrl}/moved` });
		expect(error).toBeUndefined();
		expect(body).toEqual(expect.objectContaining({ jsonapi: { version: '1.1' } }));
		const bearer = `Bearer ${credentials.raw()?.accessToken}`;
		expect(proxy.requests.filter((r) => r.method === 'GET').map((r) => [r.url, r.headers.authorization])).toEqual([
			['/moved', bearer],
			['/', bearer],
		]);
		expect(landing.connections()).toBe(0);
	});
});

describe('the credential\'s origin with `baseURL` + `url` (how n8n runs the credential test)', () => {
	it('baseURL is the Base URL, url relative: sent with the token', async () => {
		const credentials = credentialsFor(sandbox);
		const { error } = await send(credentials, 'httpRequestWithAuthentication', { baseURL: sandbox.baseUrl, url: '/' });
		expect(error).toBeUndefined();
		expect(gets().map((r) => [r.path, r.authorization])).toEqual([['/', `Bearer ${credentials.raw()?.accessToken}`]]);
	});

	it.each([
		['baseURL of another origin', () => ({ baseURL: other.baseUrl, url: '/' })],
		['an absolute url of another origin beside the Base URL', () => ({ baseURL: sandbox.baseUrl, url: `${other.baseUrl}/` })],
		['a protocol-relative url (//host) beside the Base URL', () => ({ baseURL: sandbox.baseUrl, url: `//127.0.0.1:${other.port}/x` })],
	])('%s: refused; the other server gets no connection', async (_, options) => {
		const { error } = await send(credentialsFor(sandbox), 'httpRequestWithAuthentication', options());
		expect(error?.message).toBe(refusal(sandbox.baseUrl, other.baseUrl));
		expect(other.connections()).toBe(0);
		expect(gets()).toEqual([]);
	});
});
