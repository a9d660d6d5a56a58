/**
 * What Parallel Requests Auto remembers per service (transport/pace/remembered.ts), alone: the key, the age checked at
 * each read, the bound on services, and a limit held at a run's own maximum; and how a run reads and writes it
 * (pace/index.ts useService, noteLoad; pace/retryAfter.ts notePause) on a bare context. test/throughput/learnt.test.ts shows it
 * through executions.
 */
import { newAuto, OVERLOAD_KEEP } from '../../../nodes/shared/transport/pace/auto';
import type { Remembered } from '../../../nodes/shared/transport/pace/remembered';
import { acquire, noteLoad, setParallel, useService } from '../../../nodes/shared/transport/pace/index';
import { pacerOf } from '../../../nodes/shared/transport/pace/pacer';
import { notePause } from '../../../nodes/shared/transport/pace/retryAfter';
import type { ApiContext } from '../../../nodes/shared/transport/settings';
import { DEFAULT_PARALLEL } from '../../../nodes/shared/transport/settings';
import { serviceKey } from '../../../nodes/shared/transport/connection';
import { forgetRemembered, keepRemembered, KEPT_MS, recall, remember, SERVICES_KEPT, startFromRemembered } from '../../../nodes/shared/transport/pace/remembered';
import type { Pacer } from '../../../nodes/shared/transport/pace/pacer';

const limits = (limit: number): Remembered => ({
	parallel: limit,
	slowStart: false,
	windowMs: 0,
	windowStart: 0,
	windowSent: 0,
	windowRefused: false,
});

let now = 1_000_000;
beforeEach(() => {
	forgetRemembered();
	now = 1_000_000;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

describe('what Auto learnt, per service', () => {
	it('is keyed by the Base URL and the Client ID, never by the secret', () => {
		const key = serviceKey('https://api.acme.example.com/v2', 'client-1');
		expect(key).not.toMatch(/secret/);
		// The same service spelt differently is the same key: a trailing slash, the host's case, blanks.
		expect(serviceKey(' https://API.acme.example.com/v2/ ', ' client-1 ')).toBe(key);
		expect(serviceKey('https://api.acme.example.com/v3', 'client-1')).not.toBe(key);
		expect(serviceKey('https://api.acme.example.com/v2', 'client-2')).not.toBe(key);
		expect(serviceKey('https://api.other.example.com/v2', 'client-1')).not.toBe(key);
		// A Base URL the URL parser cannot read is still trimmed; no Client ID is an empty one.
		expect(serviceKey(' not a url/ ', 'client-1')).toBe(serviceKey('not a url', 'client-1'));
		expect(serviceKey('https://api.acme.example.com/v2', undefined)).toBe(serviceKey('https://api.acme.example.com/v2', ''));
		expect(serviceKey('https://api.acme.example.com/v2', null)).toBe(JSON.stringify(['https://api.acme.example.com/v2', '']));
	});

	it('is forgotten whole when the process starts again (forgetRemembered)', () => {
		remember('a', limits(40), 1000);
		forgetRemembered();
		expect(recall('a')).toBeUndefined();
	});

	it('is kept for its age since it was last confirmed, checked when read', () => {
		remember('a', limits(40), 1000);
		now += KEPT_MS;
		expect(recall('a')?.parallel).toBe(40);
		// Confirmed again: the age counts from now.
		remember('a', limits(50), 1000);
		now += KEPT_MS;
		expect(recall('a')?.parallel).toBe(50);
		now += 1;
		expect(recall('a')).toBeUndefined();
	});

	it('forgets where the service ran out of room its age after the 503 that taught it, however often confirmed since', () => {
		remember('a', { ...limits(40), overload: { inFlight: 81, at: now } }, 1000);
		for (let i = 0; i < 4; i++) {
			now += KEPT_MS / 4;
			expect(recall('a')?.overload).toEqual({ inFlight: 81, at: 1_000_000 });
			remember('a', recall('a')!, 1000);
		}
		now += 1;
		expect(recall('a')?.parallel).toBe(40);
		expect(recall('a')?.overload).toBeUndefined();
	});

	it('hands out copies: a run changes its own limits, not the memory', () => {
		remember('a', limits(40), 1000);
		const copy = recall('a')!;
		copy.parallel = 1;
		expect(recall('a')?.parallel).toBe(40);
	});

	it(`keeps at most ${SERVICES_KEPT} services, dropping the one confirmed longest ago`, () => {
		for (let i = 0; i < SERVICES_KEPT; i++) {
			remember(`s${i}`, limits(10 + i), 1000);
			now++;
		}
		// s0 confirmed again: s1 is now the oldest.
		remember('s0', limits(10), 1000);
		remember('new', limits(99), 1000);
		expect(recall('s1')).toBeUndefined();
		// Only the oldest one goes: the bound holds SERVICES_KEPT, not one fewer.
		expect(recall('s2')?.parallel).toBe(12);
		expect(recall('s0')?.parallel).toBe(10);
		expect(recall('new')?.parallel).toBe(99);
		expect(recall(`s${SERVICES_KEPT - 1}`)?.parallel).toBe(10 + SERVICES_KEPT - 1);
	});

	it("a limit held at a run's own maximum does not replace a larger one; a limit below it does", () => {
		remember('a', limits(300), 1000);
		// A node whose Auto maximum is 24 got to 24: that says nothing of what lies above.
		remember('a', limits(24), 24);
		expect(recall('a')?.parallel).toBe(300);
		// Cut below its maximum: the service took less than was remembered.
		remember('a', limits(12), 24);
		expect(recall('a')?.parallel).toBe(12);
		// Held at its maximum above a smaller remembered limit: the larger one, its own, is kept.
		remember('a', limits(24), 24);
		expect(recall('a')?.parallel).toBe(24);
	});
});

/** A node context as the pacing sees it: only an object to key its per-run state by. */
const newContext = (): ApiContext => ({}) as unknown as ApiContext;

/** A run with Parallel Requests Auto up to `max`, or a fixed number. */
function run(parallel: { auto: number } | { fixed: number }): ApiContext {
	const ctx = newContext();
	setParallel(ctx, 'auto' in parallel ? { mode: 'auto', max: parallel.auto } : { mode: 'fixed', requests: parallel.fixed });
	return ctx;
}

/** A clean answer to a request sent with `inFlight` in flight, 40 ms ago. */
const clean = (inFlight: number) => ({ answer: 'clean' as const, sentAt: now - 40, answeredAt: now, inFlight });

describe('a run reads and writes what Auto learnt (pace/index.ts useService)', () => {
	it('under Auto, starts at the remembered limit, neither at 8 nor at its own maximum', () => {
		remember('a', limits(30), 1000);
		const ctx = run({ auto: 100 });
		expect(pacerOf(ctx).parallel).toBe(DEFAULT_PARALLEL);
		useService(ctx, 'a');
		expect(pacerOf(ctx).parallel).toBe(30);
		expect(pacerOf(ctx).auto?.slowStart).toBe(false);
	});

	it('within its own maximum, and below where the service ran out of room', () => {
		remember('a', limits(30), 1000);
		const capped = run({ auto: 20 });
		useService(capped, 'a');
		expect(pacerOf(capped).parallel).toBe(20);
		remember('b', { ...limits(30), overload: { inFlight: 25, at: now } }, 1000);
		const bounded = run({ auto: 100 });
		useService(bounded, 'b');
		expect(pacerOf(bounded).parallel).toBe(Math.floor(25 * OVERLOAD_KEEP));
	});

	it('a service it knows nothing of, or whose memory has aged out, starts at 8', () => {
		remember('a', limits(30), 1000);
		const other = run({ auto: 100 });
		useService(other, 'b');
		expect(pacerOf(other).parallel).toBe(DEFAULT_PARALLEL);
		now += KEPT_MS + 1;
		const late = run({ auto: 100 });
		useService(late, 'a');
		expect(pacerOf(late).parallel).toBe(DEFAULT_PARALLEL);
	});

	it('keeps the first service a run names: a later one neither replaces it nor is read', () => {
		remember('a', limits(30), 1000);
		remember('b', limits(60), 1000);
		const ctx = run({ auto: 100 });
		useService(ctx, 'a');
		useService(ctx, 'b');
		expect(pacerOf(ctx).service).toBe('a');
		expect(pacerOf(ctx).parallel).toBe(30);
		// What it learns goes to its own service.
		noteLoad(pacerOf(ctx), clean(30));
		noteLoad(pacerOf(ctx), { answer: 'refused', sentAt: now, answeredAt: now + 5, inFlight: 30 });
		expect(recall('a')?.parallel).toBeLessThan(30);
		expect(recall('b')?.parallel).toBe(60);
	});

	it('lets the requests waiting for a place go once the remembered limit is above the start', async () => {
		remember('a', limits(12), 1000);
		const ctx = run({ auto: 100 });
		for (let i = 0; i < DEFAULT_PARALLEL; i++) await acquire(ctx);
		let ninth = false;
		void acquire(ctx).then(() => (ninth = true));
		for (let i = 0; i < 5; i++) await Promise.resolve();
		expect(ninth).toBe(false);
		useService(ctx, 'a');
		for (let i = 0; i < 5; i++) await Promise.resolve();
		expect(ninth).toBe(true);
	});

	it('takes over a learnt rate budget, and its window while that window is still open', () => {
		const budget = { ...limits(30), budget: 10, windowMs: 1100, windowStart: now - 200, windowSent: 7, windowRefused: true };
		remember('open', budget, 1000);
		const open = run({ auto: 100 });
		useService(open, 'open');
		expect(pacerOf(open)).toMatchObject({ budget: 10, windowMs: 1100, windowStart: now - 200, windowSent: 7, windowRefused: true });
		// A window that closed before this run neither counts its sends nor its refusal.
		remember('closed', { ...budget, windowStart: now - 2000 }, 1000);
		const closed = run({ auto: 100 });
		useService(closed, 'closed');
		expect(pacerOf(closed)).toMatchObject({ budget: 10, windowMs: 1100, windowStart: 0, windowSent: 0, windowRefused: false });
		// A window ends at windowStart + windowMs, as retryAfter.ts counts it (a send then opens the next): one that
		// ends at this very millisecond is closed, and would otherwise raise the budget at the next send.
		remember('ending', { ...budget, windowStart: now - 1100, windowSent: 10, windowRefused: false }, 1000);
		const ending = run({ auto: 100 });
		useService(ending, 'ending');
		expect(pacerOf(ending)).toMatchObject({ budget: 10, windowStart: 0, windowSent: 0, windowRefused: false });
	});

	it('writes what the run learns, an answer with the limit in use confirming it, one with it idle not', () => {
		const ctx = run({ auto: 100 });
		useService(ctx, 'a');
		expect(recall('a')).toBeUndefined();
		// One request at a time against a limit of 8 tells nothing: nothing is written.
		noteLoad(pacerOf(ctx), clean(1));
		expect(recall('a')).toBeUndefined();
		// The limit in use (at least half of it): written, still in slow start.
		noteLoad(pacerOf(ctx), clean(DEFAULT_PARALLEL));
		expect(recall('a')).toMatchObject({ parallel: DEFAULT_PARALLEL, slowStart: true });
		// Confirmed again 9 minutes later by an answer in use, it outlives the first write's age.
		now += KEPT_MS - 60_000;
		noteLoad(pacerOf(ctx), clean(DEFAULT_PARALLEL));
		expect(recall('a')?.parallel).toBe(DEFAULT_PARALLEL + 1);
		now += 120_000;
		expect(recall('a')?.parallel).toBe(DEFAULT_PARALLEL + 1);
	});

	it('a fixed number neither reads nor writes it, even when it learns a rate budget', () => {
		remember('a', limits(30), 1000);
		const ctx = run({ fixed: 5 });
		useService(ctx, 'a');
		expect(pacerOf(ctx).parallel).toBe(5);
		expect(pacerOf(ctx).service).toBeUndefined();
		const pacer = pacerOf(ctx);
		pacer.acceptedSincePause = 20;
		pacer.acceptedBefore = 20;
		notePause(pacer, 1000, 429);
		expect(pacer.budget).toBe(20);
		noteLoad(pacer, clean(5));
		expect(recall('a')).toEqual({ ...limits(30) });
		// Nor on a service Auto knows nothing of.
		const unknown = run({ fixed: 5 });
		useService(unknown, 'b');
		notePause(pacerOf(unknown), 1000, 429);
		expect(recall('b')).toBeUndefined();
	});
});

describe('startFromRemembered and keepRemembered, on a bare pacer', () => {
	// A new context's pacer, as a run starts with it (pacer.ts), with or without Auto.
	const fresh = (): Pacer => pacerOf(newContext());
	const autoPacer = (): Pacer => Object.assign(fresh(), { auto: newAuto() });

	it('says whether it changed the run: not without Auto, not twice, not for a service it knows nothing of', () => {
		remember('svc', limits(40), 100);
		expect(startFromRemembered(fresh(), 'svc')).toBe(false);
		const nothingKnown = autoPacer();
		expect(startFromRemembered(nothingKnown, 'other')).toBe(false);
		const pacer = autoPacer();
		expect(startFromRemembered(pacer, 'svc')).toBe(true);
		expect(pacer.parallel).toBe(40);
		expect(startFromRemembered(pacer, 'svc')).toBe(false);
	});

	it('keeps nothing for a run that has not named its service', () => {
		const pacer = autoPacer();
		keepRemembered(pacer);
		expect(recall(undefined as unknown as string)).toBeUndefined();
		pacer.service = 'svc';
		keepRemembered(pacer);
		expect(recall('svc')?.parallel).toBe(DEFAULT_PARALLEL);
	});
});
