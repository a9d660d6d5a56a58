/**
 * Redirects: the token and the client secret never reach another origin, whatever a 3xx says. API
 * redirects are followed only within the Base URL's origin (and a method is never turned into GET); the
 * token endpoint's redirects are never followed.
 */
// @ts-nocheck

import type * as http from 'node:http';

import { triggerHandle } from '../harness/engine';
import type { TlsProxy } from '../harness/tlsProxy';
import { startTlsProxy } from '../harness/tlsProxy';
import { DEMO_IDS, getGroup, otherHostTraffic, rl, secretsIn, seen, useHostileSuite } from './helpers';
import { json } from './servers';

const h = useHostileSuite();
afterAll(() => {
	// Acceptance: nothing secret in all the traffic the other host received in this file (the recorded traffic
	// and the secrets outlive the suite's close).
	expect(secretsIn(otherHostTraffic(), h.secrets())).toEqual([]);
});

const GROUP = DEMO_IDS.groupIds[0];
const redirectTo = (location: string, status: number) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
	res.writeHead(status, { Location: location, 'Content-Length': 0 });
	res.end();
};
/** The other host answers like the real service would, so a followed redirect would "succeed". */
function otherAnswersLikeTheService() {
	h.other.on('*', /.*/, (_req, res) =>
		json(res, 200, { data: { id: GROUP, type: 'groups', attributes: { name: 'from the other host' } } }),
	);
}

describe('API requests redirected to another origin', () => {
	it.each([301, 302, 303, 307, 308])('GET answered %i to 127.0.0.2: refused, the other host gets nothing', async (status) => {
		otherAnswersLikeTheService();
		h.service.on('GET', `/groups/${GROUP}`, redirectTo(`${h.other.origin}/groups/${GROUP}`, status));
		const { error, items } = await h.run(getGroup());
		expect(items).toEqual([]);
		expect(error?.message).toBe(
			`The service answered GET /groups/${GROUP} with a redirect (HTTP ${status}) to another origin (${h.other.origin}); it was not followed`,
		);
		expect(error?.description).toContain('never sent anywhere else');
		expect(h.other.requests).toEqual([]);
		expect(seen(h.service)).toEqual(['POST /oauth/token', `GET /groups/${GROUP}`]);
	});

	it.each([
		['PATCH', 307],
		['PATCH', 308],
	] as const)('%s answered %i to 127.0.0.2 (which would re-send the body): refused, nothing reaches the other host', async (method, status) => {
		otherAnswersLikeTheService();
		h.service.on(method, `/groups/${GROUP}`, redirectTo(`${h.other.origin}/groups/${GROUP}`, status));
		const { error } = await h.run({ resource: 'group', operation: 'update', groupId: rl(GROUP), updateFields: { name: 'renamed' } });
		expect(error?.message).toContain(`answered ${method} /groups/${GROUP} with a redirect (HTTP ${status}) to another origin`);
		expect(h.other.requests).toEqual([]);
		expect(h.sandbox.state.groups().find((g) => g.id === GROUP)?.attributes.name).not.toBe('renamed');
	});

	it('DELETE answered 307 to 127.0.0.2: refused, the other host gets nothing', async () => {
		h.service.on('DELETE', /^\/users\//, redirectTo(`${h.other.origin}/users/x`, 307));
		const { error } = await h.run({ resource: 'user', operation: 'deleteUser', userId: rl(DEMO_IDS.userIds[0]) });
		expect(error?.message).toMatch(/^The service answered DELETE \/users\/.+ with a redirect \(HTTP 307\) to another origin/);
		expect(h.other.requests).toEqual([]);
		expect(h.sandbox.state.users().some((u) => u.id === DEMO_IDS.userIds[0])).toBe(true);
	});

	it('a scheme-relative Location (//127.0.0.2:port/…) counts as another origin', async () => {
		h.service.on('GET', `/groups/${GROUP}`, redirectTo(`//127.0.0.2:${new URL(h.other.origin).port}/x`, 302));
		const { error } = await h.run(getGroup());
		expect(error?.message).toContain(`to another origin (${h.other.origin})`);
		expect(h.other.requests).toEqual([]);
	});

	it('the same host on another port is another origin', async () => {
		const elsewhere = `http://127.0.0.1:${new URL(h.other.origin).port}`;
		h.service.on('GET', `/groups/${GROUP}`, redirectTo(`${elsewhere}/groups/${GROUP}`, 302));
		const { error } = await h.run(getGroup());
		expect(error?.message).toContain(`to another origin (${elsewhere})`);
	});

	it('a redirect without Location is an error that says so', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => {
			res.writeHead(302, { 'Content-Length': 0 });
			res.end();
		});
		const { error } = await h.run(getGroup());
		expect(error?.message).toBe(`The service answered GET /groups/${GROUP} with a redirect (HTTP 302) without a Location; it was not followed`);
	});

	it('page 2 of Get Many redirected to another origin: the list fails whole, the other host gets nothing', async () => {
		h.service.on('GET', '/groups', (req, res) => {
			const query = new URL(String(req.url), 'http://x').searchParams;
			if (query.get('page[after]') === 'cursor-2') {
				redirectTo(`${h.other.origin}/groups?page[after]=cursor-2`, 302)(req, res);
				return;
			}
			json(res, 200, {
				data: [{ id: GROUP, type: 'groups', attributes: { name: 'page one', accountId: DEMO_IDS.accountId } }],
				meta: { page: { after: 'cursor-2', total: 2 } },
			});
		});
		const { error, items } = await h.run({ resource: 'group', operation: 'getMany', returnAll: true });
		expect(items).toEqual([]);
		expect(error?.message).toBe(
			`The service answered GET /groups with a redirect (HTTP 302) to another origin (${h.other.origin}); it was not followed`,
		);
		expect(seen(h.service)).toEqual(['POST /oauth/token', 'GET /groups', 'GET /groups']);
		expect(h.other.requests).toEqual([]);
	});

	it("the trigger's list redirected to another origin: the poll fails, the other host gets nothing", async () => {
		h.service.on('GET', '/jobs', redirectTo(`${h.other.origin}/jobs`, 302));
		const trigger = triggerHandle(h.credentials(), { events: ['failed'] });
		await expect(trigger.poll()).rejects.toThrow(
			`The service answered GET /jobs with a redirect (HTTP 302) to another origin (${h.other.origin}); it was not followed`,
		);
		expect(h.other.requests).toEqual([]);
		expect(trigger.staticData()['node:File Transfer Manager Trigger'] ?? {}).toEqual({});
	});
});

describe('API redirects within the origin', () => {
	it('GET answered 302 to another path of the same origin: followed, with the token, and the answer used', async () => {
		h.service.on('GET', `/groups/${GROUP}`, redirectTo(`/v2/groups/${GROUP}`, 302), 1);
		h.service.on('GET', `/v2/groups/${GROUP}`, (_req, res) =>
			json(res, 200, { data: { id: GROUP, type: 'groups', attributes: { name: 'moved', accountId: DEMO_IDS.accountId } } }),
		);
		const { error, items } = await h.run(getGroup());
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.id, item.json.name])).toEqual([[GROUP, 'moved']]);
		expect(seen(h.service)).toEqual(['POST /oauth/token', `GET /groups/${GROUP}`, `GET /v2/groups/${GROUP}`]);
		const followed = h.service.requests[2];
		expect(followed.headers.authorization).toMatch(/^Bearer \S+$/);
	});

	it('PATCH answered 307 within the origin: followed with the same method and body', async () => {
		h.service.on('PATCH', `/groups/${GROUP}`, redirectTo(`${h.service.origin}/groups/${GROUP}?moved=1`, 307), 1);
		const { error, items } = await h.run({ resource: 'group', operation: 'update', groupId: rl(GROUP), updateFields: { name: 'renamed via 307' } });
		expect(error).toBeUndefined();
		expect(items[0].json.name).toBe('renamed via 307');
		const patches = h.service.requests.filter((r) => r.method === 'PATCH');
		expect(patches).toHaveLength(2);
		expect(patches[1].body).toBe(patches[0].body);
	});

	it('PATCH answered 303 within the origin: refused, since following would turn it into GET', async () => {
		h.service.on('PATCH', `/groups/${GROUP}`, redirectTo(`/groups/${GROUP}`, 303), 1);
		const { error } = await h.run({ resource: 'group', operation: 'update', groupId: rl(GROUP), updateFields: { name: 'x' } });
		expect(error?.message).toBe(
			`The service answered PATCH /groups/${GROUP} with a redirect (HTTP 303) that would turn PATCH into GET; it was not followed`,
		);
		expect(h.service.requests.filter((r) => r.method === 'GET')).toEqual([]);
	});

	it('a redirect loop within the origin stops after 5 hops with an error', async () => {
		h.service.on('GET', `/groups/${GROUP}`, redirectTo(`/groups/${GROUP}`, 302));
		const { error, ms } = await h.run(getGroup());
		expect(error?.message).toBe(`The service answered GET /groups/${GROUP} with a redirect (HTTP 302) more than 5 times; it was not followed`);
		expect(h.service.requests.filter((r) => r.method === 'GET')).toHaveLength(6);
		expect(ms).toBeLessThan(5000);
	});
});

describe('the token endpoint', () => {
	it.each([307, 308])('answered %i to 127.0.0.2: the client secret is not re-sent there', async (status) => {
		h.other.on('POST', /.*/, (_req, res) => json(res, 200, { access_token: 'other-host-token-123456', token_type: 'Bearer' }));
		h.service.on('POST', '/oauth/token', redirectTo(`${h.other.origin}/oauth/token`, status));
		const credentials = h.credentials();
		const { error } = await h.run(getGroup({ maxRetries: 3 }), { credentials });
		expect(error?.message).toBe(
			`Could not get an access token from the service (the token endpoint redirected (HTTP ${status}) to ${h.other.origin}; not followed, so that the client secret is sent nowhere else)`,
		);
		expect(h.other.requests).toEqual([]);
		// Final, not repeated: one token request, no API request.
		expect(seen(h.service)).toEqual(['POST /oauth/token']);
		expect(credentials.tokenUpdates).toEqual([]);
	});

	it.each([301, 302, 303])('answered %i to 127.0.0.2 (which could hand out its own token): not followed, no token taken', async (status) => {
		h.other.on('*', /.*/, (_req, res) => {
			h.minted.push('planted-token-from-other-host');
			json(res, 200, { access_token: 'planted-token-from-other-host', token_type: 'Bearer' });
		});
		h.service.on('POST', '/oauth/token', redirectTo(`${h.other.origin}/token`, status));
		const credentials = h.credentials();
		const { error } = await h.run(getGroup(), { credentials });
		expect(error?.message).toContain(`the token endpoint redirected (HTTP ${status}) to ${h.other.origin}`);
		expect(h.other.requests).toEqual([]);
		expect(credentials.tokenUpdates).toEqual([]);
		expect(h.service.requests.filter((r) => r.method === 'GET')).toEqual([]);
	});

	it('a redirect to the same origin is not followed either (the secret goes to one URL only)', async () => {
		h.service.on('POST', '/oauth/token', redirectTo('/oauth/token2', 307));
		const { error } = await h.run(getGroup());
		expect(error?.message).toContain('the token endpoint redirected (HTTP 307) to ');
		expect(seen(h.service)).toEqual(['POST /oauth/token']);
	});
});

describe('https Base URL', () => {
	let proxy: TlsProxy;
	let httpsBase: string;

	beforeAll(async () => {
		proxy = await startTlsProxy(h.service.origin);
		httpsBase = proxy.baseUrl;
	});
	afterAll(async () => {
		await proxy.close();
	});

	it('a redirect from https to http on the same host and port is refused', async () => {
		const port = new URL(httpsBase).port;
		h.service.on('GET', `/groups/${GROUP}`, redirectTo(`http://127.0.0.1:${port}/groups/${GROUP}`, 302));
		const credentials = h.credentials({ baseUrl: httpsBase, ignoreSSLIssues: true });
		const { error } = await h.run(getGroup(), { credentials });
		expect(error?.message).toBe(
			`The service answered GET /groups/${GROUP} with a redirect (HTTP 302) from https to http (http://127.0.0.1:${port}); it was not followed`,
		);
		// The https request itself went through (token fetched over TLS), nothing went out over http.
		expect(seen(h.service)).toEqual(['POST /oauth/token', `GET /groups/${GROUP}`]);
	});

	it('a redirect from https to the http service is refused even with its own valid answer', async () => {
		h.service.on('GET', `/groups/${GROUP}`, redirectTo(`${h.service.origin}/groups/${GROUP}`, 301), 1);
		const credentials = h.credentials({ baseUrl: httpsBase, ignoreSSLIssues: true });
		const { error } = await h.run(getGroup(), { credentials });
		expect(error?.message).toContain(`from https to http (${h.service.origin})`);
		expect(h.service.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
	});
});
