// @ts-nocheck
import { DEMO_IDS } from '../../sandbox/src';
import { expectUnauthorized, routeTable, useSandbox, type RouteCase } from './helpers';

const h = useSandbox({ demo: true });

function routes(): RouteCase[] {
	const [jobId] = h.sb.control.insertJobs(1, { status: 'running' });
	const files = DEMO_IDS.storageIds.files;
	const type = h.sb.state.storages().find((s) => s.id === files)!.attributes.type;
	return routeTable(
		{
			accountId: DEMO_IDS.accountId,
			groupId: DEMO_IDS.groupIds[0],
			userId: DEMO_IDS.userIds[0],
			jobId,
			storageId: files,
		},
		{ id: files, type },
		DEMO_IDS.storageIds.archive,
	);
}

describe('auth: token endpoint', () => {
	it('issues a token for a form body (RFC 6749 success shape, application/json)', async () => {
		const res = await h.api.tokenRequest({
			grant_type: 'client_credentials',
			client_id: h.sb.clientId,
			client_secret: h.sb.clientSecret,
		});
		expect(res.status).toBe(200);
		expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
		expect(res.data).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 86400 });
		expect(res.data.access_token.length).toBeGreaterThan(0);
		const use = await h.api.get('/', undefined, { token: res.data.access_token });
		expect(use.status).toBe(200);
	});

	it('issues a token for HTTP Basic client authentication (RFC 6749 2.3.1)', async () => {
		const basic = Buffer.from(`${h.sb.clientId}:${h.sb.clientSecret}`).toString('base64');
		const res = await h.api.tokenRequest({ grant_type: 'client_credentials' }, { Authorization: `Basic ${basic}` });
		expect(res.status).toBe(200);
		expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
		expect(res.data).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 86400 });
		const use = await h.api.get('/accounts', undefined, { token: res.data.access_token });
		expect(use.status).toBe(200);
	});

	it('gives distinct tokens on each request, all of which work', async () => {
		const a = await h.api.fetchToken(h.sb.clientId, h.sb.clientSecret);
		const b = await h.api.fetchToken(h.sb.clientId, h.sb.clientSecret);
		expect(a).not.toBe(b);
		expect((await h.api.get('/', undefined, { token: a })).status).toBe(200);
		expect((await h.api.get('/', undefined, { token: b })).status).toBe(200);
	});

	const oauthError = (status: number, error: string) => (res: { status: number; data: unknown; headers: Record<string, unknown> }) => {
		expect({ status: res.status, body: res.data }).toEqual({
			status,
			body: { error, error_description: expect.any(String) },
		});
		expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
	};

	it.each([
		['grant_type missing', { client_id: 'ID', client_secret: 'SECRET' }],
		['grant_type password', { grant_type: 'password', client_id: 'ID', client_secret: 'SECRET' }],
		['grant_type authorization_code', { grant_type: 'authorization_code', client_id: 'ID', client_secret: 'SECRET' }],
	])('400 unsupported_grant_type: %s', async (_name, form) => {
		const res = await h.api.tokenRequest(fill(form));
		oauthError(400, 'unsupported_grant_type')(res);
	});

	it.each([
		['client_id missing', { grant_type: 'client_credentials', client_secret: 'SECRET' }],
		['client_secret missing', { grant_type: 'client_credentials', client_id: 'ID' }],
		['both missing', { grant_type: 'client_credentials' }],
	])('400 invalid_request: %s', async (_name, form) => {
		const res = await h.api.tokenRequest(fill(form));
		oauthError(400, 'invalid_request')(res);
	});

	it.each([
		['wrong secret', { grant_type: 'client_credentials', client_id: 'ID', client_secret: 'not-the-secret' }],
		['wrong id', { grant_type: 'client_credentials', client_id: 'someone-else', client_secret: 'SECRET' }],
	])('401 invalid_client: %s', async (_name, form) => {
		const res = await h.api.tokenRequest(fill(form));
		oauthError(401, 'invalid_client')(res);
	});

	it('401 invalid_client for wrong HTTP Basic credentials', async () => {
		const basic = Buffer.from(`${h.sb.clientId}:wrong`).toString('base64');
		const res = await h.api.tokenRequest({ grant_type: 'client_credentials' }, { Authorization: `Basic ${basic}` });
		oauthError(401, 'invalid_client')(res);
	});
});

/** Replaces the ID / SECRET placeholders with the sandbox's credentials. */
function fill(form: Record<string, string>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(form)) {
		out[k] = v === 'ID' ? h.sb.clientId : v === 'SECRET' ? h.sb.clientSecret : v;
	}
	return out;
}

describe('auth: every API route needs a valid bearer token', () => {
	it('401 unauthorized with WWW-Authenticate on every route without a token', async () => {
		for (const r of routes()) {
			const res = await h.api.request(r.method, r.path, { body: r.body, token: null });
			try {
				expectUnauthorized(res);
			} catch (e) {
				throw new Error(`${r.name} (${r.method} ${r.path}): ${(e as Error).message}`);
			}
		}
	});

	it('401 on every route with an unknown token', async () => {
		for (const r of routes()) {
			const res = await h.api.request(r.method, r.path, { body: r.body, token: 'not-a-token-this-server-issued' });
			try {
				expectUnauthorized(res);
			} catch (e) {
				throw new Error(`${r.name} (${r.method} ${r.path}): ${(e as Error).message}`);
			}
		}
	});

	it('401 for a non-Bearer Authorization header (Basic with the client credentials)', async () => {
		const basic = Buffer.from(`${h.sb.clientId}:${h.sb.clientSecret}`).toString('base64');
		const res = await h.api.get('/accounts', undefined, { headers: { Authorization: `Basic ${basic}` } });
		expectUnauthorized(res);
	});

	it('a request that failed auth was not carried out', async () => {
		const before = h.sb.state.groups().length;
		const res = await h.api.post(
			'/groups',
			{ data: { type: 'groups', attributes: { accountId: DEMO_IDS.accountId, name: 'nope' } } },
			{ token: null },
		);
		expectUnauthorized(res);
		expect(h.sb.state.groups().length).toBe(before);
	});

	it('401 on every route with an expired token (control.expireTokens); a new token works', async () => {
		const old = await h.api.fetchToken(h.sb.clientId, h.sb.clientSecret);
		expect((await h.api.get('/', undefined, { token: old })).status).toBe(200);
		h.sb.control.expireTokens();
		for (const r of routes()) {
			const res = await h.api.request(r.method, r.path, { body: r.body, token: old });
			try {
				expectUnauthorized(res);
			} catch (e) {
				throw new Error(`${r.name} (${r.method} ${r.path}): ${(e as Error).message}`);
			}
		}
		await h.relogin();
		const res = await h.api.get('/accounts');
		expect(res.status).toBe(200);
	});
});
