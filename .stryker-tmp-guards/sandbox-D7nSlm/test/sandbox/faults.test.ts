// @ts-nocheck
import { DEMO_IDS } from '../../sandbox/src';
import type { FaultKind } from '../../sandbox/src/api';
import { expectError, expectJsonApi, expectUnauthorized, uniq, useSandbox, type Res } from './helpers';

const h = useSandbox({ demo: true });

afterEach(() => h.sb.faults.clear());

const groupBody = (name: string) => ({ data: { type: 'groups', attributes: { accountId: DEMO_IDS.accountId, name } } });
const postGroup = (name: string, opts = {}) => h.api.post('/groups', groupBody(name), opts);
const groupExists = async (name: string): Promise<boolean> => {
	const res = await h.api.get('/groups', { 'filter[name]': name });
	expect(res.status).toBe(200);
	return res.data.data.length > 0;
};

/** Expects the request to fail at the connection level (no HTTP answer). */
async function expectDropped(p: Promise<Res>): Promise<void> {
	let answered: Res | undefined;
	let error: unknown;
	try {
		answered = await p;
	} catch (e) {
		error = e;
	}
	expect(answered?.status).toBeUndefined();
	expect(error).toBeDefined();
	expect(String((error as { code?: string }).code ?? (error as Error).message)).toMatch(/ECONNRESET|socket hang up|EPIPE|ECONNABORTED|ERR_BAD_RESPONSE|aborted/i);
}

describe('faults: each kind does what it says', () => {
	it('rate-limit: 429 rate-limited with Retry-After; not carried out', async () => {
		h.sb.faults.add({ kind: 'rate-limit', method: 'POST', path: '/groups', retryAfterSeconds: 4 });
		const name = uniq('rl');
		const res = await postGroup(name);
		expectError(res, 429, 'rate-limited');
		expect(res.headers['retry-after']).toBe('4');
		expect(await groupExists(name)).toBe(false);
		expectJsonApi(await postGroup(name), 201);
	});

	it('internal-error: 500 internal-error; not carried out', async () => {
		h.sb.faults.add({ kind: 'internal-error', method: 'POST', path: '/groups' });
		const name = uniq('ie');
		expectError(await postGroup(name), 500, 'internal-error');
		expect(await groupExists(name)).toBe(false);
	});

	it('bad-gateway: 502 with a JSON:API error; not carried out', async () => {
		h.sb.faults.add({ kind: 'bad-gateway', method: 'POST', path: '/groups' });
		const name = uniq('bg');
		const res = await postGroup(name);
		expect(res.status).toBe(502);
		expect(['internal-error', 'unavailable']).toContain(res.data?.errors?.[0]?.code);
		expect(res.data.errors[0].status).toBe('502');
		expect(await groupExists(name)).toBe(false);
	});

	it('unavailable: 503 unavailable with Retry-After; not carried out', async () => {
		h.sb.faults.add({ kind: 'unavailable', method: 'POST', path: '/groups', retryAfterSeconds: 2 });
		const name = uniq('un');
		const res = await postGroup(name);
		expectError(res, 503, 'unavailable');
		expect(res.headers['retry-after']).toBe('2');
		expect(await groupExists(name)).toBe(false);
	});

	it('unavailable without retryAfterSeconds: 503, no Retry-After needed', async () => {
		h.sb.faults.add({ kind: 'unavailable', method: 'GET', path: '/accounts' });
		expectError(await h.api.get('/accounts'), 503, 'unavailable');
	});

	it('drop-before-body: the connection drops and the request was not carried out', async () => {
		h.sb.faults.add({ kind: 'drop-before-body', method: 'POST', path: '/groups' });
		const name = uniq('dbb');
		await expectDropped(postGroup(name));
		expect(await groupExists(name)).toBe(false);
	});

	it('drop-after-body: the connection drops but the request was carried out', async () => {
		h.sb.faults.add({ kind: 'drop-after-body', method: 'POST', path: '/groups' });
		const name = uniq('dab');
		await expectDropped(postGroup(name));
		expect(await groupExists(name)).toBe(true);
	});

	it('drop-after-body on PATCH /jobs/{id}: the status change happened', async () => {
		const [id] = h.sb.control.insertJobs(1, { status: 'running' });
		h.sb.faults.add({ kind: 'drop-after-body', method: 'PATCH', path: '/jobs/{id}' });
		await expectDropped(h.api.patch(`/jobs/${id}`, { data: { id, type: 'jobs', attributes: { status: 'paused' } } }));
		expect((await h.api.get(`/jobs/${id}`)).data.data.attributes.status).toBe('paused');
	});

	it('slow: the answer comes after delayMs and the request is carried out', async () => {
		h.sb.faults.add({ kind: 'slow', method: 'POST', path: '/groups', delayMs: 300 });
		const name = uniq('slow');
		const started = Date.now();
		const res = await postGroup(name);
		const elapsed = Date.now() - started;
		expectJsonApi(res, 201);
		expect(elapsed).toBeGreaterThanOrEqual(290);
		expect(await groupExists(name)).toBe(true);
	});

	it('malformed-json: 200 with a body that is not JSON; not carried out', async () => {
		h.sb.faults.add({ kind: 'malformed-json', method: 'POST', path: '/groups' });
		const name = uniq('mj');
		const res = await postGroup(name, { responseType: 'text' });
		expect(res.status).toBe(200);
		expect(typeof res.data).toBe('string');
		expect(() => JSON.parse(res.data)).toThrow();
		expect(await groupExists(name)).toBe(false);
	});

	it('wrong-content-type: 200 text/html with an HTML body; not carried out', async () => {
		h.sb.faults.add({ kind: 'wrong-content-type', method: 'POST', path: '/groups' });
		const name = uniq('ct');
		const res = await postGroup(name, { responseType: 'text' });
		expect(res.status).toBe(200);
		expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
		expect(res.data).toMatch(/<html/i);
		expect(await groupExists(name)).toBe(false);
	});

	it('expire-token: the presented token is expired (401 invalid_token, also afterwards); a new token works', async () => {
		const token = await h.api.fetchToken(h.sb.clientId, h.sb.clientSecret);
		h.sb.faults.add({ kind: 'expire-token', method: 'GET', path: '/jobs' });
		expectUnauthorized(await h.api.get('/jobs', undefined, { token }));
		expectUnauthorized(await h.api.get('/accounts', undefined, { token }));
		const fresh = await h.api.fetchToken(h.sb.clientId, h.sb.clientSecret);
		expectJsonApi(await h.api.get('/jobs', undefined, { token: fresh }), 200);
		expectJsonApi(await h.api.get('/accounts'), 200);
	});

	it('an unknown kind is refused by faults.add', () => {
		expect(() => h.sb.faults.add({ kind: 'explode' as FaultKind })).toThrow();
	});
});

describe('faults: rule matching', () => {
	it('method: only the given method gets the fault', async () => {
		h.sb.faults.add({ kind: 'internal-error', method: 'POST', path: '/groups', times: Infinity });
		expectJsonApi(await h.api.get('/groups'), 200);
		expectError(await postGroup(uniq('m')), 500, 'internal-error');
		expectJsonApi(await h.api.get('/groups'), 200);
	});

	it('path as a route template: /jobs/{id} matches any job id but not /jobs or /jobs/{id}/errors', async () => {
		const [a, b] = h.sb.control.insertJobs(2, { status: 'finished' });
		h.sb.faults.add({ kind: 'internal-error', path: '/jobs/{id}', times: Infinity });
		expectJsonApi(await h.api.get('/jobs'), 200);
		expectJsonApi(await h.api.get(`/jobs/${a}/errors`), 200);
		expectError(await h.api.get(`/jobs/${a}`), 500, 'internal-error');
		expectError(await h.api.get(`/jobs/${b}`), 500, 'internal-error');
	});

	it('path as an exact path matches that path only', async () => {
		const [a, b] = h.sb.control.insertJobs(2, { status: 'finished' });
		h.sb.faults.add({ kind: 'internal-error', path: `/jobs/${a}`, times: Infinity });
		expectJsonApi(await h.api.get(`/jobs/${b}`), 200);
		expectError(await h.api.get(`/jobs/${a}`), 500, 'internal-error');
	});

	it('times: the first n matching requests get the fault, then normal answers', async () => {
		h.sb.faults.add({ kind: 'unavailable', method: 'GET', path: '/storages', times: 2 });
		expectError(await h.api.get('/storages'), 503, 'unavailable');
		expectError(await h.api.get('/storages'), 503, 'unavailable');
		expectJsonApi(await h.api.get('/storages'), 200);
		expectJsonApi(await h.api.get('/storages'), 200);
	});

	it('times defaults to 1', async () => {
		h.sb.faults.add({ kind: 'internal-error', method: 'GET', path: '/storages' });
		expectError(await h.api.get('/storages'), 500, 'internal-error');
		expectJsonApi(await h.api.get('/storages'), 200);
	});

	it('times Infinity lasts until faults.clear()', async () => {
		h.sb.faults.add({ kind: 'internal-error', method: 'GET', path: '/storages', times: Infinity });
		for (let i = 0; i < 5; i++) expectError(await h.api.get('/storages'), 500, 'internal-error');
		h.sb.faults.clear();
		expectJsonApi(await h.api.get('/storages'), 200);
	});

	it('after: skips that many matching requests first', async () => {
		h.sb.faults.add({ kind: 'internal-error', method: 'GET', path: '/storages', after: 2 });
		expectJsonApi(await h.api.get('/storages'), 200);
		expectJsonApi(await h.api.get('/storages'), 200);
		expectError(await h.api.get('/storages'), 500, 'internal-error');
		expectJsonApi(await h.api.get('/storages'), 200);
	});

	it('no path: any route gets the fault except the token endpoint', async () => {
		h.sb.faults.add({ kind: 'internal-error', times: Infinity });
		const token = await h.api.tokenRequest({
			grant_type: 'client_credentials',
			client_id: h.sb.clientId,
			client_secret: h.sb.clientSecret,
		});
		expect(token.status).toBe(200);
		expectError(await h.api.get('/'), 500, 'internal-error');
		expectError(await h.api.get('/users'), 500, 'internal-error');
	});

	it('an explicit /oauth/token path faults the token endpoint', async () => {
		h.sb.faults.add({ kind: 'unavailable', path: '/oauth/token', retryAfterSeconds: 1 });
		const form = { grant_type: 'client_credentials', client_id: h.sb.clientId, client_secret: h.sb.clientSecret };
		expect((await h.api.tokenRequest(form)).status).toBe(503);
		expect((await h.api.tokenRequest(form)).status).toBe(200);
	});

	it('slow on /oauth/token delays every token answer (times: Infinity); the tokens still work', async () => {
		h.sb.faults.add({ kind: 'slow', path: '/oauth/token', times: Infinity, delayMs: 300 });
		const form = { grant_type: 'client_credentials', client_id: h.sb.clientId, client_secret: h.sb.clientSecret };
		for (let i = 0; i < 2; i++) {
			const t = Date.now();
			const answer = await h.api.tokenRequest(form);
			expect(answer.status).toBe(200);
			expect(Date.now() - t).toBeGreaterThanOrEqual(290);
		}
		expect(h.sb.requests.count({ method: 'POST', path: '/oauth/token' })).toBeGreaterThanOrEqual(2);
	});

	it('chaos: rate 1 faults every API request (token endpoint spared); clear() ends it', async () => {
		h.sb.faults.chaos({ rate: 1, seed: 7, kinds: ['internal-error'] });
		for (const p of ['/', '/jobs', '/users']) expectError(await h.api.get(p), 500, 'internal-error');
		expect(
			(
				await h.api.tokenRequest({ grant_type: 'client_credentials', client_id: h.sb.clientId, client_secret: h.sb.clientSecret })
			).status,
		).toBe(200);
		h.sb.faults.clear();
		expectJsonApi(await h.api.get('/jobs'), 200);
	});

	it('chaos: rate 0 faults nothing; the same seed gives the same draw', async () => {
		h.sb.faults.chaos({ rate: 0, seed: 1 });
		for (let i = 0; i < 10; i++) expectJsonApi(await h.api.get('/accounts'), 200);
		const draw = async () => {
			h.sb.faults.chaos({ rate: 0.5, seed: 42, kinds: ['internal-error', 'unavailable'] });
			const out: number[] = [];
			for (let i = 0; i < 30; i++) out.push((await h.api.get('/accounts')).status);
			h.sb.faults.clear();
			return out;
		};
		const first = await draw();
		expect(await draw()).toEqual(first);
		expect(first).toContain(200);
		expect(first.some((s) => s === 500 || s === 503)).toBe(true);
	});
});

describe('faults: the request log', () => {
	it('records method, path, route, query, status, authorization and the fault', async () => {
		h.sb.requests.clear();
		expect(h.sb.requests.all()).toEqual([]);
		const [id] = h.sb.control.insertJobs(1, { status: 'finished' });
		await h.api.get('/jobs', { 'filter[name]': 'x', 'page[limit]': '5' });
		await h.api.get(`/jobs/${id}`);
		h.sb.faults.add({ kind: 'rate-limit', method: 'GET', path: '/jobs/{id}', retryAfterSeconds: 1 });
		await h.api.get(`/jobs/${id}`);
		await h.api.get('/no-such-route');
		const log = h.sb.requests.all();
		expect(log).toHaveLength(4);
		expect(log[0]).toEqual(
			expect.objectContaining({
				method: 'GET',
				path: '/jobs',
				route: '/jobs',
				query: { 'filter[name]': 'x', 'page[limit]': '5' },
				status: 200,
				authorization: `Bearer ${h.api.token}`,
				at: expect.any(Number),
			}),
		);
		expect(log[0].fault).toBeUndefined();
		expect(log[1]).toEqual(expect.objectContaining({ method: 'GET', path: `/jobs/${id}`, route: '/jobs/{id}', status: 200 }));
		expect(log[2]).toEqual(expect.objectContaining({ route: '/jobs/{id}', status: 429, fault: 'rate-limit' }));
		expect(log[3]).toEqual(expect.objectContaining({ path: '/no-such-route', route: '' }));
		expect(log[3].status).toBeGreaterThanOrEqual(400);
		expect(log[0].at).toBeLessThanOrEqual(log[3].at);

		expect(h.sb.requests.count({ route: '/jobs/{id}' })).toBe(2);
		expect(h.sb.requests.count({ route: '/jobs/{id}', status: 429 })).toBe(1);
		expect(h.sb.requests.count({ method: 'GET', path: '/jobs' })).toBe(1);
		expect(h.sb.requests.count()).toBe(4);
		h.sb.requests.clear();
		expect(h.sb.requests.count()).toBe(0);
	});

	it('records dropped requests with their fault', async () => {
		h.sb.requests.clear();
		h.sb.faults.add({ kind: 'drop-before-body', method: 'POST', path: '/groups' });
		h.sb.faults.add({ kind: 'drop-after-body', method: 'POST', path: '/groups' });
		await expectDropped(postGroup(uniq('log1')));
		await expectDropped(postGroup(uniq('log2')));
		const faults = h.sb.requests.all().filter((r) => r.route === '/groups').map((r) => r.fault);
		expect(faults).toEqual(['drop-before-body', 'drop-after-body']);
	});

	it('records requests without a token (authorization undefined) and with 401', async () => {
		h.sb.requests.clear();
		await h.api.get('/users', undefined, { token: null });
		expect(h.sb.requests.all()).toEqual([expect.objectContaining({ path: '/users', status: 401 })]);
		expect(h.sb.requests.all()[0].authorization).toBeUndefined();
	});
});
