/**
 * The token endpoint under hostile answers: the token request obeys the same Timeout and retry rules as
 * every request, and only a usable bearer token is ever stored (a bad answer never poisons the credential).
 */
// @ts-nocheck

import type * as http from 'node:http';

import { FAST, getGroup, seen, useHostileSuite } from './helpers';
import { drip, json } from './servers';

const h = useHostileSuite();

const tokenAnswer = (body: unknown, status = 200, headers: http.OutgoingHttpHeaders = {}) =>
	(_req: http.IncomingMessage, res: http.ServerResponse) => json(res, status, body, headers);

describe('Timeout and retries apply to the token request', () => {
	it('a token endpoint that never answers: Timeout 1 s and Max Retries 0 end the item in about 1 s', async () => {
		h.service.on('POST', '/oauth/token', () => undefined);
		const { error, ms } = await h.run(getGroup({ timeout: 1, maxRetries: 0 }));
		expect(ms).toBeLessThan(2500);
		expect(error?.message).toMatch(/completely within 1 seconds|no answer within/);
		expect(h.service.requests.filter((r) => r.method === 'GET')).toEqual([]);
	});

	it('a token endpoint that drips its answer is bounded the same way', async () => {
		h.service.on('POST', '/oauth/token', (_req, res) => drip(res, ' ', 100, 20_000));
		const { error, ms } = await h.run(getGroup({ timeout: 1, maxRetries: 1, ...FAST }));
		expect(error).toBeDefined();
		expect(ms).toBeLessThan(4000);
		expect(h.service.requests.filter((r) => r.url === '/oauth/token')).toHaveLength(2);
	});

	it('429 with Retry-After 1 from the token endpoint: waits about 1 s, asks again, and the request succeeds', async () => {
		h.service.on('POST', '/oauth/token', tokenAnswer({ error: 'slow_down' }, 429, { 'Retry-After': '1' }), 1);
		const { error, items, ms } = await h.run(getGroup());
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const tokens = h.service.requests.filter((r) => r.url === '/oauth/token');
		expect(tokens).toHaveLength(2);
		expect(tokens[1].at - tokens[0].at).toBeGreaterThanOrEqual(950);
		expect(ms).toBeLessThan(3000);
	});

	it('a token endpoint that keeps answering 429 is reported as rate limiting, not as a failed connection', async () => {
		h.service.on('POST', '/oauth/token', tokenAnswer({ error: 'slow_down' }, 429, { 'Retry-After': '0' }));
		const { error } = await h.run(getGroup({ maxRetries: 2 }));
		expect(error?.message).toBe('Could not get an access token from the service (HTTP 429)');
		expect(error?.description).toContain('The request was tried 3 times.');
		expect(h.service.requests.filter((r) => r.url === '/oauth/token')).toHaveLength(3);
	});

	it('Retry-After from the token endpoint is capped by Max Wait Between Retries', async () => {
		h.service.on('POST', '/oauth/token', tokenAnswer({ error: 'slow_down' }, 503, { 'Retry-After': '600' }), 1);
		const { error, ms } = await h.run(getGroup({ maxRetryWait: 0.2 }));
		expect(error).toBeUndefined();
		expect(ms).toBeLessThan(2000);
	});

	it('Max Retries 0: a 503 from the token endpoint is not repeated', async () => {
		h.service.on('POST', '/oauth/token', tokenAnswer({}, 503));
		const { error } = await h.run(getGroup({ maxRetries: 0 }));
		expect(error?.message).toBe('Could not get an access token from the service (HTTP 503)');
		expect(seen(h.service)).toEqual(['POST /oauth/token']);
	});
});

describe('a malformed 200 from the token endpoint is an error and is never stored', () => {
	it.each([
		['no access_token', { token_type: 'Bearer' }, 'the token answer has no access_token'],
		['access_token null', { access_token: null }, "the token answer's access_token is null, not a token"],
		['access_token a number', { access_token: 12345678 }, "the token answer's access_token is a number, not a token"],
		['access_token an array', { access_token: ['a', 'b'] }, "the token answer's access_token is an array, not a token"],
		['access_token an object', { access_token: { value: 'x' } }, "the token answer's access_token is a object, not a token"],
		['access_token empty', { access_token: '' }, "the token answer's access_token is empty, not a token"],
		['access_token with spaces and quotes', { access_token: 'abc def"\r\nX-Evil: 1' }, "the token answer's access_token has characters a bearer token cannot have"],
		['token_type mac', { access_token: 'abcdefgh12345678', token_type: 'mac' }, `the token answer's token_type is "mac", not Bearer`],
		['an array document', [{ access_token: 'abcdefgh12345678' }], 'the token answer was not a JSON object'],
		['a string document', 'abcdefgh12345678', 'the token answer was not a JSON object'],
	])('%s: the error names it, and the next run asks again and succeeds', async (_name, body, problem) => {
		h.service.on('POST', '/oauth/token', tokenAnswer(body), 1);
		const credentials = h.credentials();
		const first = await h.run(getGroup({ maxRetries: 0 }), { credentials });
		expect(first.error?.message).toBe(`Could not get an access token from the service (${problem})`);
		expect(first.error?.description).toContain('nothing was stored');
		expect(credentials.tokenUpdates).toEqual([]);
		expect(credentials.raw()?.accessToken ?? '').toBe('');
		expect(h.service.requests.filter((r) => r.method === 'GET')).toEqual([]);

		// Not poisoned: the next run fetches a token again and works.
		const second = await h.run(getGroup(), { credentials });
		expect(second.error).toBeUndefined();
		expect(credentials.tokenUpdates).toHaveLength(1);
		expect(h.service.requests.filter((r) => r.url === '/oauth/token')).toHaveLength(2);
	});

	it('a token answer that is not JSON at all', async () => {
		h.service.on('POST', '/oauth/token', (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/html' });
			res.end('<html>maintenance</html>');
		});
		const { error } = await h.run(getGroup({ maxRetries: 0 }));
		expect(error?.message).toBe('Could not get an access token from the service (the token answer was not JSON)');
	});

	it('an endless token answer is cut at 64 KB', async () => {
		h.service.on('POST', '/oauth/token', (_req, res) => drip(res, Buffer.alloc(32 * 1024, 'a'), 1, 20_000));
		const { error, ms } = await h.run(getGroup({ maxRetries: 0 }));
		expect(error?.message).toBe('Could not get an access token from the service (the token answer was larger than 64 KB)');
		expect(ms).toBeLessThan(3000);
	});

	it('a 401 with an OAuth error: "check your Client ID and Client Secret", not repeated', async () => {
		h.service.on('POST', '/oauth/token', tokenAnswer({ error: 'invalid_client' }, 401));
		const { error } = await h.run(getGroup({ maxRetries: 3 }));
		expect(error?.message).toBe(
			'Could not get an access token: check your Client ID and Client Secret in the credential (HTTP 401 invalid_client)',
		);
		expect(seen(h.service)).toEqual(['POST /oauth/token']);
	});

	it('an OAuth error text that is not a plain code is not shown', async () => {
		h.service.on('POST', '/oauth/token', tokenAnswer({ error: `evil\n${'x'.repeat(500)}` }, 400));
		const { error } = await h.run(getGroup());
		expect(error?.message).toBe('Could not get an access token: check your Client ID and Client Secret in the credential (HTTP 400)');
	});
});

describe('one token per lifetime', () => {
	it('100 runs with one credential fetch one token; an expired one is renewed once', async () => {
		const credentials = h.credentials();
		for (let i = 0; i < 20; i++) {
			const { error } = await h.run(getGroup(), { credentials });
			expect(error).toBeUndefined();
		}
		expect(h.service.requests.filter((r) => r.url === '/oauth/token')).toHaveLength(1);
		h.sandbox.control.expireTokens();
		const { error } = await h.run(getGroup(), { credentials });
		expect(error).toBeUndefined();
		expect(h.service.requests.filter((r) => r.url === '/oauth/token')).toHaveLength(2);
		expect(credentials.tokenUpdates).toHaveLength(2);
	});

	it('10 executions that start together with a fresh credential and a slow token endpoint share one token request', async () => {
		h.service.on('POST', '/oauth/token', (_req, _res) => {
			// Slow: the sandbox answers after 1.5 s.
			return new Promise<'pass'>((resolve) => setTimeout(() => resolve('pass'), 1500));
		});
		const credentials = h.credentials();
		const runs = await Promise.all(Array.from({ length: 10 }, () => h.run(getGroup(), { credentials })));
		expect(runs.map((run) => run.error?.message ?? 'ok')).toEqual(Array(10).fill('ok'));
		expect(h.service.requests.filter((r) => r.url === '/oauth/token')).toHaveLength(1);
		expect(h.service.requests.filter((r) => r.method === 'GET')).toHaveLength(10);
	});

	it('executions that still hold a renewed token take the renewal instead of renewing again', async () => {
		const credentials = h.credentials();
		await h.run(getGroup(), { credentials });
		const old = credentials.raw()?.accessToken;
		h.sandbox.control.expireTokens();
		// Two credentials stores holding the same old token, as two executions that read it before the renewal.
		const other = h.credentials();
		other.set({ ...credentials.raw()!, accessToken: String(old) });
		expect((await h.run(getGroup(), { credentials })).error).toBeUndefined();
		expect((await h.run(getGroup(), { credentials: other })).error).toBeUndefined();
		expect(h.service.requests.filter((r) => r.url === '/oauth/token')).toHaveLength(2);
		expect(other.raw()?.accessToken).toBe(credentials.raw()?.accessToken);
	});
});
