/**
 * How the credential's token request is shared within one process (transport/token.ts `requestToken`): callers
 * at the same moment share one request; a caller without a token shortly after takes the token just fetched
 * (n8n stores it in the credential only after the fetching request, so a caller that read the credential in
 * between has none); a caller that holds a token is renewing it and gets a new one. n8n's request helper is a
 * fake that answers the token endpoint; no HTTP.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';

import { forgetFetchedTokens, requestToken } from '../../nodes/shared/transport/token';

const CREDENTIALS: ICredentialDataDecryptedObject = {
	baseUrl: 'https://ftm.example.com/api',
	clientId: 'client-1',
	clientSecret: 'secret-1',
};

/** A token endpoint that issues token-1, token-2, … after `delayMs`; counts the requests. */
function tokenEndpoint(delayMs = 5) {
	let issued = 0;
	const helper = {
		helpers: {
			httpRequest: async () => {
				issued++;
				const token = `token-${issued}`;
				await new Promise((resolve) => setTimeout(resolve, delayMs));
				return {
					statusCode: 200,
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }),
				};
			},
		},
	} as unknown as IHttpRequestHelper;
	return { helper, requests: () => issued };
}

beforeEach(() => forgetFetchedTokens());
afterEach(() => jest.useRealTimers());

describe('the token request, shared within a process', () => {
	it('callers at the same moment share one request', async () => {
		const endpoint = tokenEndpoint();
		const tokens = await Promise.all(Array.from({ length: 10 }, () => requestToken.call(endpoint.helper, CREDENTIALS)));
		expect(endpoint.requests()).toBe(1);
		expect(new Set(tokens.map((t) => t.accessToken))).toEqual(new Set(['token-1']));
	});

	it('a caller without a token just after the request ended takes the token it fetched', async () => {
		const endpoint = tokenEndpoint();
		await requestToken.call(endpoint.helper, CREDENTIALS);
		const later = await requestToken.call(endpoint.helper, CREDENTIALS);
		expect(later.accessToken).toBe('token-1');
		expect(endpoint.requests()).toBe(1);
	});

	it('keeps that token 10 seconds, not longer', async () => {
		jest.useFakeTimers({ doNotFake: ['setTimeout'] });
		const endpoint = tokenEndpoint(0);
		jest.setSystemTime(new Date('2026-11-26T12:00:00Z'));
		await requestToken.call(endpoint.helper, CREDENTIALS);
		jest.setSystemTime(new Date('2026-11-26T12:00:10Z'));
		expect((await requestToken.call(endpoint.helper, CREDENTIALS)).accessToken).toBe('token-1');
		jest.setSystemTime(new Date('2026-11-26T12:00:10.001Z'));
		expect((await requestToken.call(endpoint.helper, CREDENTIALS)).accessToken).toBe('token-2');
		expect(endpoint.requests()).toBe(2);
	});

	it('a caller that holds a token (a renewal after 401 or 403) gets a new one, not the one it holds', async () => {
		const endpoint = tokenEndpoint();
		const first = await requestToken.call(endpoint.helper, CREDENTIALS);
		const renewed = await requestToken.call(endpoint.helper, { ...CREDENTIALS, accessToken: first.accessToken });
		expect(renewed.accessToken).toBe('token-2');
		expect(endpoint.requests()).toBe(2);
	});

	it('renewals at the same moment by callers that hold different tokens share one request, and each holder keeps its replacement', async () => {
		const endpoint = tokenEndpoint();
		// One caller holds a token renewed before (old-0), the others the one that replaced it (old-1); the first starts the request.
		const together = await Promise.all([
			requestToken.call(endpoint.helper, { ...CREDENTIALS, accessToken: 'old-0' }),
			requestToken.call(endpoint.helper, { ...CREDENTIALS, accessToken: 'old-1' }),
		]);
		// A holder of old-1 whose 401 comes after the request ended takes the same token.
		const late = await requestToken.call(endpoint.helper, { ...CREDENTIALS, accessToken: 'old-1' });
		expect([...together, late].map((t) => t.accessToken)).toEqual(['token-1', 'token-1', 'token-1']);
		expect(endpoint.requests()).toBe(1);
	});

	it('another client (other secret) does not get the token', async () => {
		const endpoint = tokenEndpoint();
		await requestToken.call(endpoint.helper, CREDENTIALS);
		const other = await requestToken.call(endpoint.helper, { ...CREDENTIALS, clientSecret: 'secret-2' });
		expect(other.accessToken).toBe('token-2');
	});

	it('forgetFetchedTokens: a new credential store fetches its own', async () => {
		const endpoint = tokenEndpoint();
		await requestToken.call(endpoint.helper, CREDENTIALS);
		forgetFetchedTokens();
		expect((await requestToken.call(endpoint.helper, CREDENTIALS)).accessToken).toBe('token-2');
	});
});
