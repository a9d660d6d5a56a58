// @ts-nocheck
import { randomUUID } from 'node:crypto';
import { DEMO_IDS } from '../../sandbox/src';
import { eventually, expectUnauthorized, routeTable, useSandbox } from './helpers';

/** Long enough for a first request on a loaded machine, short enough to wait for. */
const TTL_SECONDS = 2;
const h = useSandbox({ demo: false, tokenTtlSeconds: TTL_SECONDS });

describe(`auth: token lifetime (tokenTtlSeconds: ${TTL_SECONDS})`, () => {
	it('reports the configured lifetime in expires_in', async () => {
		const res = await h.api.tokenRequest({
			grant_type: 'client_credentials',
			client_id: h.sb.clientId,
			client_secret: h.sb.clientSecret,
		});
		expect(res.status).toBe(200);
		expect(res.data.expires_in).toBe(TTL_SECONDS);
	});

	it('a token stops working once its lifetime has passed: 401 invalid_token; a new one works', async () => {
		const token = await h.api.fetchToken(h.sb.clientId, h.sb.clientSecret);
		const issuedAt = Date.now();
		const first = await h.api.get('/', undefined, { token });
		// Two seconds of lifetime leave a loaded machine room for this first request.
		expect(first.status).toBe(200);
		const expired = await eventually(async () => {
			const res = await h.api.get('/jobs', undefined, { token });
			return res.status === 401 ? res : undefined;
		}, 'the token to expire', 10000);
		expect(Date.now() - issuedAt).toBeGreaterThanOrEqual(TTL_SECONDS * 1000 - 50);
		expectUnauthorized(expired);
		// 401 comes before any other check, so made-up ids do for the routes that take one.
		const ids = { accountId: randomUUID(), groupId: randomUUID(), userId: randomUUID(), jobId: randomUUID(), storageId: randomUUID() };
		for (const r of routeTable(ids, { id: DEMO_IDS.storageIds.files, type: 'file' }, DEMO_IDS.storageIds.archive)) {
			const res = await h.api.request(r.method, r.path, { body: r.body, token });
			try {
				expectUnauthorized(res);
			} catch (e) {
				throw new Error(`${r.name} (${r.method} ${r.path}): ${(e as Error).message}`);
			}
		}
		const fresh = await h.api.fetchToken(h.sb.clientId, h.sb.clientSecret);
		expect((await h.api.get('/jobs', undefined, { token: fresh })).status).toBe(200);
	});
});
