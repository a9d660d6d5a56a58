/**
 * The sandbox's network and capacity model over real HTTP: latency with seeded jitter, a capacity with a FIFO
 * queue, the overload 503 beyond the queue's bound, its order with the fault rules, the admin route. Timing
 * assertions are lower bounds (a timer never fires early) and counts; upper bounds only where the margin is
 * seconds, since the machine may be loaded.
 */
import { startSandbox } from '../../sandbox/src';
import type { NetworkSettings, NetworkState } from '../../sandbox/src/api';
import { expectError, expectJsonApi, useSandbox, type Res } from './helpers';

const h = useSandbox({ demo: true, seed: 5 });

beforeEach(() => h.sb.requests.clear());
afterEach(() => {
	h.sb.network.clear();
	h.sb.faults.clear();
});

/** Timers may fire up to a millisecond early against Date.now()'s rounding. */
const SLACK = 2;

const admin = (method: 'GET' | 'PUT' | 'DELETE', body?: unknown): Promise<Res> =>
	h.api.http.request({
		method,
		url: `${h.sb.baseUrl}/__sandbox/network`,
		data: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		headers: { 'Content-Type': 'application/json' },
	});

async function setNetwork(settings: NetworkSettings): Promise<NetworkState> {
	const res = await admin('PUT', settings);
	expect(res.status).toBe(200);
	return res.data as NetworkState;
}

const network = async (): Promise<NetworkState> => (await admin('GET')).data as NetworkState;

/** n requests sent at once; each answer with the time it arrived, counted from just before the first was sent. */
async function burst(n: number, send: () => Promise<Res>): Promise<{ res: Res; at: number }[]> {
	const t0 = Date.now();
	return Promise.all(Array.from({ length: n }, () => send().then((res) => ({ res, at: Date.now() - t0 }))));
}

async function timed(send: () => Promise<Res>): Promise<{ res: Res; ms: number }> {
	const t0 = Date.now();
	const res = await send();
	return { res, ms: Date.now() - t0 };
}

const accounts = () => h.api.get('/accounts', undefined, { timeoutMs: 30_000 });
const statuses = (answers: { res: Res }[]) => answers.map((a) => a.res.status).sort();

describe('network model: latency', () => {
	it('every API answer takes latencyMs ± jitterMs, drawn from the seed: within bounds, varied, and the same again after a new set', async () => {
		const draw = async () => {
			await setNetwork({ latencyMs: 120, jitterMs: 40 });
			h.sb.requests.clear();
			const elapsed: number[] = [];
			for (let i = 0; i < 8; i++) {
				const { res, ms } = await timed(accounts);
				expectJsonApi(res, 200);
				elapsed.push(ms);
			}
			const drawn = h.sb.requests.all().map((r) => r.latencyMs as number);
			expect(drawn).toHaveLength(8);
			drawn.forEach((latency, i) => {
				expect(latency).toBeGreaterThanOrEqual(80);
				expect(latency).toBeLessThanOrEqual(160);
				expect(elapsed[i]).toBeGreaterThanOrEqual(latency - SLACK);
			});
			return drawn;
		};
		const first = await draw();
		expect(new Set(first).size).toBeGreaterThan(2);
		expect(await draw()).toEqual(first);
	});

	it('a sandbox with another seed draws other latencies', async () => {
		const other = await startSandbox({ port: 0, seed: 6, demo: false, network: { latencyMs: 50, jitterMs: 40 } });
		try {
			await setNetwork({ latencyMs: 50, jitterMs: 40 });
			// Any answer is drawn for, a refused token request too.
			const poke = (baseUrl: string) => fetch(`${baseUrl}/oauth/token`, { method: 'POST' }).then((res) => res.status);
			for (let i = 0; i < 5; i++) {
				expect(await poke(h.sb.baseUrl)).toBe(400);
				expect(await poke(other.baseUrl)).toBe(400);
			}
			const mine = h.sb.requests.all().map((r) => r.latencyMs);
			const theirs = other.requests.all().map((r) => r.latencyMs);
			expect(mine).toHaveLength(5);
			expect(theirs).toHaveLength(5);
			expect(theirs).not.toEqual(mine);
		} finally {
			await other.close();
		}
	});

	it('applies to POST /oauth/token, not to the /__sandbox/ routes', async () => {
		await setNetwork({ latencyMs: 300 });
		const form = { grant_type: 'client_credentials', client_id: h.sb.clientId, client_secret: h.sb.clientSecret };
		const { res, ms } = await timed(() => h.api.tokenRequest(form));
		expect(res.status).toBe(200);
		expect(ms).toBeGreaterThanOrEqual(300 - SLACK);
		for (let i = 0; i < 3; i++) expect((await admin('GET')).status).toBe(200);
		expect((await h.api.http.get(`${h.sb.baseUrl}/__sandbox/info`)).status).toBe(200);
		expect(await network()).toMatchObject({ served: 1, inFlight: 0, queued: 0 });
		expect(h.sb.requests.all().map((r) => r.path)).toEqual(['/oauth/token']);
	});

	it('off (the default, and after DELETE): no delay, nothing counted, no latencyMs in the log', async () => {
		const before = await network();
		expect(before.settings).toBeNull();
		const fastest = async () => {
			let min = Infinity;
			for (let i = 0; i < 5; i++) {
				const { res, ms } = await timed(accounts);
				expectJsonApi(res, 200);
				min = Math.min(min, ms);
			}
			return min;
		};
		expect(await fastest()).toBeLessThan(250);
		expect(h.sb.requests.all().every((r) => r.latencyMs === undefined)).toBe(true);

		await setNetwork({ latencyMs: 250 });
		expect(await fastest()).toBeGreaterThanOrEqual(250 - SLACK);
		const off = (await admin('DELETE')).data as NetworkState;
		expect(off).toMatchObject({ settings: null, served: 5 });
		expect(await fastest()).toBeLessThan(250);
		expect(await network()).toMatchObject({ settings: null, served: 5 });
	});
});

describe('network model: capacity and queue', () => {
	it('capacity 3: never more than 3 in service; the others wait their turn, so their answers come later', async () => {
		await setNetwork({ latencyMs: 200, capacity: 3 });
		const answers = await burst(12, accounts);
		for (const a of answers) expectJsonApi(a.res, 200);
		const state = await network();
		expect(state).toMatchObject({ peakInFlight: 3, served: 12, overloaded: 0, inFlight: 0, queued: 0 });
		// The log says when each arrived and was answered: each took at least its 200 ms, and three at a time,
		// the i-th answer (from 0) came no sooner than (floor(i / 3) + 1) × 200 ms after the first arrival. Counted
		// from the first arrival, not from each request's own: on a busy machine the burst's requests arrive spread
		// out, and a late one finds a free place sooner.
		const logged = h.sb.requests.all().filter((r) => r.route !== '/oauth/token');
		expect(logged).toHaveLength(12);
		for (const r of logged) expect((r.doneAt ?? 0) - r.at).toBeGreaterThanOrEqual(200 - SLACK);
		const first = Math.min(...logged.map((r) => r.at));
		const done = logged.map((r) => (r.doneAt ?? 0) - first).sort((a, b) => a - b);
		done.forEach((ms, i) => expect(ms).toBeGreaterThanOrEqual((Math.floor(i / 3) + 1) * 200 - SLACK));
		expect(state.peakQueued).toBeGreaterThanOrEqual(1);
		// Three at a time, 200 ms each: the i-th answer (from 0) cannot come before (floor(i / 3) + 1) × 200 ms.
		const at = answers.map((a) => a.at).sort((a, b) => a - b);
		at.forEach((ms, i) => expect(ms).toBeGreaterThanOrEqual((Math.floor(i / 3) + 1) * 200 - SLACK));
	});

	it('a full queue: 503 unavailable with Retry-After at once, logged as overloaded, counted; the admitted ones are served', async () => {
		await setNetwork({ latencyMs: 1000, capacity: 2, queue: 2, overloadRetryAfterSeconds: 3 });
		const answers = await burst(8, accounts);
		expect(statuses(answers)).toEqual([200, 200, 200, 200, 503, 503, 503, 503]);
		const refused = answers.filter((a) => a.res.status === 503);
		for (const a of refused) {
			expectError(a.res, 503, 'unavailable');
			expect(a.res.headers['retry-after']).toBe('3');
		}
		const firstServed = Math.min(...answers.filter((a) => a.res.status === 200).map((a) => a.at));
		expect(firstServed).toBeGreaterThanOrEqual(1000 - SLACK);
		for (const a of refused) expect(a.at).toBeLessThan(firstServed);
		expect(await network()).toMatchObject({ served: 4, overloaded: 4, peakInFlight: 2, peakQueued: 2 });
		const log = h.sb.requests.all();
		expect(log).toHaveLength(8);
		const overloaded = log.filter((r) => r.overloaded);
		expect(overloaded).toHaveLength(4);
		for (const r of overloaded) {
			expect(r).toMatchObject({ status: 503, route: '/accounts' });
			expect(r.fault).toBeUndefined();
			expect(r.latencyMs).toBeUndefined();
		}
		expect(log.filter((r) => r.status === 200)).toHaveLength(4);
	});

	it('queue 0: only capacity requests at once, every other one refused', async () => {
		await setNetwork({ latencyMs: 500, capacity: 1, queue: 0 });
		const answers = await burst(3, accounts);
		expect(statuses(answers)).toEqual([200, 503, 503]);
		expect(answers.find((a) => a.res.status === 503)!.res.headers['retry-after']).toBe('1');
		expect(await network()).toMatchObject({ served: 1, overloaded: 2, peakInFlight: 1, peakQueued: 0 });
	});

	it('a request whose client gave up while it waited frees its place without being served', async () => {
		await setNetwork({ latencyMs: 400, capacity: 1 });
		const first = accounts();
		await new Promise((resolve) => setTimeout(resolve, 50));
		const gaveUp = h.api.get('/accounts', undefined, { timeoutMs: 150 }).catch((error: Error) => error);
		expect(await gaveUp).toBeInstanceOf(Error);
		expectJsonApi(await first, 200);
		const { res, ms } = await timed(accounts);
		expectJsonApi(res, 200);
		expect(ms).toBeGreaterThanOrEqual(400 - SLACK);
		const log = h.sb.requests.all();
		expect(log.map((r) => r.status)).toEqual([200, 0, 200]);
		expect(log[1].latencyMs).toBeUndefined();
	});

	it('a request whose client gave up during its service time is not carried out and frees its place after that time', async () => {
		await setNetwork({ latencyMs: 400, capacity: 1 });
		// From the first send to the second answer, as one span: two spans summed would leave out the moment
		// between the give-up and the next send, in which the first request still holds the place.
		const t0 = Date.now();
		const gaveUp = await h.api.get('/accounts', undefined, { timeoutMs: 150 }).catch((error: Error) => error);
		expect(gaveUp).toBeInstanceOf(Error);
		const next = await accounts();
		expectJsonApi(next, 200);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(800 - SLACK);
		expect(h.sb.requests.all().map((r) => [r.status, r.latencyMs])).toEqual([
			[0, 400],
			[200, 400],
		]);
		expect(await network()).toMatchObject({ served: 2, inFlight: 0 });
	});
});

describe('network model: order with the fault rules (admission, latency, fault rules, handler)', () => {
	it('a rate-limit 429 comes after the service time, like any answer', async () => {
		await setNetwork({ latencyMs: 150 });
		h.sb.faults.add({ kind: 'rate-limit', method: 'GET', path: '/accounts', perSecond: 2, retryAfterSeconds: 1 });
		const answers = await burst(5, accounts);
		expect(statuses(answers)).toEqual([200, 200, 429, 429, 429]);
		for (const a of answers) expect(a.at).toBeGreaterThanOrEqual(150 - SLACK);
		for (const a of answers.filter((x) => x.res.status === 429)) {
			expectError(a.res, 429, 'rate-limited');
			expect(a.res.headers['retry-after']).toBe('1');
		}
		const log = h.sb.requests.all();
		expect(log.filter((r) => r.fault === 'rate-limit' && r.status === 429 && r.latencyMs === 150)).toHaveLength(3);
		expect(await network()).toMatchObject({ served: 5, overloaded: 0 });
	});

	it('an overloaded request never reaches the fault rules: 503 overload, not a 429, and the rate limit counts only admitted ones', async () => {
		await setNetwork({ latencyMs: 300, capacity: 1, queue: 0 });
		h.sb.faults.add({ kind: 'rate-limit', method: 'GET', path: '/accounts', perSecond: 1, retryAfterSeconds: 1 });
		const answers = await burst(3, accounts);
		expect(statuses(answers)).toEqual([200, 503, 503]);
		const log = h.sb.requests.all();
		expect(log.filter((r) => r.overloaded && r.status === 503 && r.fault === undefined)).toHaveLength(2);
		expect(log.filter((r) => r.fault !== undefined)).toHaveLength(0);
	});

	it('a slow fault adds to the service time and holds the place', async () => {
		await setNetwork({ latencyMs: 100, capacity: 1 });
		h.sb.faults.add({ kind: 'slow', method: 'GET', path: '/accounts', delayMs: 300 });
		const answers = await burst(2, accounts);
		const at = answers.map((a) => a.at).sort((a, b) => a - b);
		expect(at[0]).toBeGreaterThanOrEqual(400 - SLACK);
		expect(at[1]).toBeGreaterThanOrEqual(500 - SLACK);
	});
});

describe('network model: settings', () => {
	it('GET shows the settings with every default filled in; PUT resets the counters', async () => {
		const set = await setNetwork({ latencyMs: 10 });
		expect(set).toEqual({
			settings: { latencyMs: 10, jitterMs: 0, capacity: null, queue: null, overloadRetryAfterSeconds: 1 },
			served: 0,
			overloaded: 0,
			inFlight: 0,
			queued: 0,
			peakInFlight: 0,
			peakQueued: 0,
		});
		await accounts();
		expect((await network()).served).toBe(1);
		expect((await setNetwork({ latencyMs: 10, capacity: 4, queue: 10 })).served).toBe(0);
		expect((await network()).settings).toMatchObject({ capacity: 4, queue: 10 });
	});

	it.each<[string, unknown, RegExp]>([
		['a negative latency', { latencyMs: -1 }, /latencyMs must be a number from 0/],
		['a latency that is not a number', { latencyMs: '40' }, /latencyMs must be a number/],
		['jitter above the latency', { latencyMs: 10, jitterMs: 20 }, /jitterMs \(20\) must not exceed latencyMs \(10\)/],
		['capacity 0', { capacity: 0 }, /capacity must be an integer from 1/],
		['a fractional capacity', { capacity: 2.5 }, /capacity must be an integer/],
		['a negative queue', { queue: -1 }, /queue must be an integer from 0/],
		['a fractional Retry-After', { overloadRetryAfterSeconds: 0.5 }, /overloadRetryAfterSeconds must be an integer/],
		['an unknown setting', { latency: 40 }, /Unknown network setting latency; known: latencyMs/],
		['an array', [1], /must be a JSON object/],
		['a body that is not JSON', '{latencyMs: 1', /JSON/],
	])('PUT refuses %s with 400 and a message naming it; the settings stay as they were', async (_name, body, message) => {
		await setNetwork({ latencyMs: 5, capacity: 2 });
		const res = await admin('PUT', body);
		expect(res.status).toBe(400);
		expect(res.data.error).toMatch(message);
		expect((await network()).settings).toMatchObject({ latencyMs: 5, capacity: 2 });
	});

	it('in process: sandbox.network.set refuses bad values, startSandbox refuses bad network options', async () => {
		expect(() => h.sb.network.set({ capacity: -3 })).toThrow(/capacity must be an integer from 1/);
		expect(h.sb.network.get().settings).toBeNull();
		await expect(startSandbox({ port: 0, demo: false, network: { jitterMs: 5 } })).rejects.toThrow(/jitterMs \(5\) must not exceed/);
		expect(h.sb.network.set({ latencyMs: 1, queue: null }).settings).toMatchObject({ latencyMs: 1, queue: null });
	});
});
