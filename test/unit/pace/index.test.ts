/**
 * The pacing as the request path meets it (transport/pace/index.ts): `enter` before an attempt, `heard` when its
 * headers are in, `leave` with what it came to, on a bare context and jest's fake clock, as request.ts calls
 * them. No request is made: each test plays the answers an attempt would get, and reads what the pacing made of
 * them (the places, the pause, Auto's number, what is remembered of the service).
 */
import type { FailureFacts } from '../../../nodes/shared/transport/failure';
import type { Place } from '../../../nodes/shared/transport/pace/index';
import { enter, heard, leave, setParallel, StoppedError } from '../../../nodes/shared/transport/pace/index';
import { sentAheadOf } from '../../../nodes/shared/transport/pace/line';
import { pacerOf } from '../../../nodes/shared/transport/pace/pacer';
import { forgetRemembered, recall, remember } from '../../../nodes/shared/transport/pace/remembered';
import { newContext, settle, watch, expectHeldFor } from './helpers';
import { rejected } from '../fixtures';

const SERVICE = 'https://api.acme.example.com/v2 client-1';
const facts = (overrides: Partial<FailureFacts>): FailureFacts => ({ headers: {}, body: undefined, ...overrides });
const failed = (overrides: Partial<FailureFacts>) => ({ ok: false as const, facts: facts(overrides) });

/** A context whose requests go to SERVICE under Auto (up to `max`), as the router sets it. */
function autoContext(max = 100) {
	const ctx = newContext();
	setParallel(ctx, { mode: 'auto', max });
	return ctx;
}

/** `count` places entered one after another, all still in flight. */
async function enterAll(ctx: ReturnType<typeof newContext>, count: number): Promise<Place[]> {
	const places: Place[] = [];
	for (let i = 0; i < count; i++) places.push(await enter(ctx, SERVICE, {}));
	return places;
}

beforeEach(() => {
	jest.useFakeTimers({ now: Date.UTC(2026, 10, 21, 10, 0, 0) });
	forgetRemembered();
});
afterEach(() => {
	jest.useRealTimers();
	forgetRemembered();
});

describe('enter: a place for one attempt', () => {
	it('takes a place and marks the request sent: its order, when, and how many were in flight with it', async () => {
		const ctx = newContext();
		const [first, second] = await enterAll(ctx, 2);
		expect(first).toEqual({ pacer: pacerOf(ctx), sent: 1, sentAt: Date.now(), inFlight: 1, refused: false, accepted: false });
		expect(second).toMatchObject({ sent: 2, inFlight: 2 });
		expect(pacerOf(ctx).active).toBe(2);
		expect(sentAheadOf(pacerOf(ctx), second.sent)).toBe(1);
	});

	it('waits within its bounds: a stop signal drops it, and it waits for a pause no longer than waitUntil', async () => {
		const ctx = newContext();
		const stop = new AbortController();
		stop.abort();
		expect(await rejected(enter(ctx, SERVICE, { stop: stop.signal }))).toBeInstanceOf(StoppedError);
		expect(pacerOf(ctx).active).toBe(0);
		const [place] = await enterAll(ctx, 1);
		heard(place, { ok: false, status: 429, pauseMs: 10_000 });
		const waiting = watch(enter(ctx, SERVICE, { waitUntil: Date.now() + 100 }));
		await expectHeldFor(waiting, 100);
	});

	it('ends its wait for a pause when the execution is stopped (the cancel signal)', async () => {
		const ctx = newContext();
		const [place] = await enterAll(ctx, 1);
		heard(place, { ok: false, status: 429, pauseMs: 10_000 });
		const cancel = new AbortController();
		const waiting = watch(enter(ctx, SERVICE, { cancel: cancel.signal }));
		await jest.advanceTimersByTimeAsync(10);
		expect(waiting.state()).toBe('pending');
		cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(waiting.state()).toBe('resolved');
	});

	it('under Auto, starts from what was remembered of the service, and lets waiting requests take the places it adds', async () => {
		remember(SERVICE, { parallel: 20, slowStart: false, windowMs: 0, windowStart: 0, windowSent: 0, windowRefused: false }, 100);
		const ctx = autoContext();
		// Eight places taken before the run named its service (useService wakes the ones waiting behind them).
		const pacer = pacerOf(ctx);
		pacer.active = 8;
		const waiting = Array.from({ length: 3 }, () => watch(enter(ctx, SERVICE, {})));
		await settle();
		expect(pacer.parallel).toBe(20);
		expect(waiting.map((w) => w.state())).toEqual(['resolved', 'resolved', 'resolved']);
		expect(pacer.active).toBe(11);
	});
});

describe('heard: the answer as soon as its headers are in', () => {
	it('a success is counted as accepted at once, and not again when the attempt leaves', async () => {
		const ctx = newContext();
		const [place] = await enterAll(ctx, 1);
		heard(place, { ok: true });
		expect(place.accepted).toBe(true);
		expect(pacerOf(ctx).acceptedSincePause).toBe(1);
		leave(place, { ok: true });
		expect(pacerOf(ctx).acceptedSincePause).toBe(1);
		expect(pacerOf(ctx).active).toBe(0);
	});

	it('a 429 with Retry-After pauses every request at once and halves Auto; leaving then neither cuts nor pauses again', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		const pacer = pacerOf(ctx);
		heard(places[7], { ok: false, status: 429, pauseMs: 1000 });
		expect(places[7].refused).toBe(true);
		expect(pacer.pausedUntil).toBe(Date.now() + 1000);
		expect(pacer.parallel).toBe(4);
		await jest.advanceTimersByTimeAsync(500);
		leave(places[7], failed({ status: 429 }), 5000);
		expect(pacer.pausedUntil).toBe(Date.now() + 500);
		expect(pacer.parallel).toBe(4);
		expect(pacer.acceptedSincePause).toBe(0);
		expect(pacer.active).toBe(7);
	});

	it('a 503 without Retry-After cuts Auto but pauses nothing; under a fixed number, a 503 with Retry-After pauses all', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		heard(places[7], { ok: false, status: 503 });
		expect(pacerOf(ctx).parallel).toBe(4);
		expect(pacerOf(ctx).pausedUntil).toBe(0);
		const fixed = newContext();
		const [place] = await enterAll(fixed, 1);
		heard(place, { ok: false, status: 503, pauseMs: 2000 });
		expect(pacerOf(fixed).pausedUntil).toBe(Date.now() + 2000);
		expect(pacerOf(fixed).parallel).toBe(8);
	});

	it('a 429 without Retry-After pauses nothing and teaches no budget, however much was accepted before it', async () => {
		const ctx = newContext();
		for (let i = 0; i < 8; i++) leave(await enter(ctx, SERVICE, {}), { ok: true });
		const [place] = await enterAll(ctx, 1);
		heard(place, { ok: false, status: 429 });
		expect(place.refused).toBe(true);
		expect(pacerOf(ctx).pausedUntil).toBe(0);
		expect(pacerOf(ctx).budget).toBeUndefined();
	});

	it('another error status is left to leave: not refused, no pause, Auto unchanged', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		heard(places[7], { ok: false, status: 500, pauseMs: 1000 });
		expect(places[7].refused).toBe(false);
		expect(pacerOf(ctx).pausedUntil).toBe(0);
		expect(pacerOf(ctx).parallel).toBe(8);
	});

	it('a 503 tells Auto the requests sent before it that are still unanswered, not all that were in flight when it went', async () => {
		remember(SERVICE, { parallel: 30, slowStart: false, windowMs: 0, windowStart: 0, windowSent: 0, windowRefused: false }, 100);
		const ctx = autoContext();
		const places = await enterAll(ctx, 15);
		// The first three are answered before the 503 to the fifteenth: the service held 11 before it, and it.
		for (const place of places.slice(0, 3)) leave(place, { ok: true });
		heard(places[14], { ok: false, status: 503 });
		expect(pacerOf(ctx).auto?.overload).toEqual({ inFlight: 12, at: Date.now() });
	});
});

describe('leave: the place given back, with what the attempt came to', () => {
	it('an attempt that threw gives its place back and counts nothing', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		leave(places[7]);
		leave(places[6], undefined, 1000);
		const pacer = pacerOf(ctx);
		expect(pacer.active).toBe(6);
		expect(sentAheadOf(pacer, 100)).toBe(6);
		expect(pacer.acceptedSincePause).toBe(0);
		expect(pacer.auto).toMatchObject({ parallel: 8, fraction: 0 });
		expect(pacer.pausedUntil).toBe(0);
	});

	it('a success not heard before is counted as accepted, and a clean answer for Auto', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		leave(places[7], { ok: true });
		expect(pacerOf(ctx).acceptedSincePause).toBe(1);
		expect(pacerOf(ctx).auto?.fraction).toBe(0.5);
	});

	it('an answer refused for its content (a 400) was accepted, and is clean for Auto', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		leave(places[7], failed({ status: 400 }));
		expect(pacerOf(ctx).acceptedSincePause).toBe(1);
		expect(pacerOf(ctx).auto?.fraction).toBe(0.5);
	});

	it('a dropped connection (no status) was not accepted, and is a refusal for Auto', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		leave(places[7], failed({ code: 'ECONNRESET' }));
		expect(pacerOf(ctx).acceptedSincePause).toBe(0);
		expect(pacerOf(ctx).parallel).toBe(4);
	});

	it('a 429 or 503 not heard with the headers (the token request\'s) is not accepted, cuts Auto, and pauses all by its Retry-After', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		leave(places[7], failed({ status: 429 }), 3000);
		const pacer = pacerOf(ctx);
		expect(pacer.acceptedSincePause).toBe(0);
		expect(pacer.parallel).toBe(4);
		expect(pacer.pausedUntil).toBe(Date.now() + 3000);
		const fixed = newContext();
		const [place] = await enterAll(fixed, 1);
		leave(place, failed({ status: 503 }));
		expect(pacerOf(fixed).acceptedSincePause).toBe(0);
		expect(pacerOf(fixed).pausedUntil).toBe(0);
	});

	it('a Retry-After of a failure without a status (a token request that failed) pauses all, and teaches no budget', async () => {
		const ctx = newContext();
		const [place] = await enterAll(ctx, 1);
		for (let i = 0; i < 20; i++) leave(await enter(ctx, SERVICE, {}), { ok: true });
		leave(place, failed({}), 2000);
		expect(pacerOf(ctx).pausedUntil).toBe(Date.now() + 2000);
		expect(pacerOf(ctx).budget).toBeUndefined();
		expect(pacerOf(ctx).acceptedSincePause).toBe(20);
	});
});

describe('Auto\'s number: what is remembered of it, and the requests a larger one lets go', () => {
	it('is remembered when it changes or is in use, not from one request at a time that changes nothing', async () => {
		const ctx = autoContext();
		const [alone] = await enterAll(ctx, 1);
		leave(alone, { ok: true });
		expect(pacerOf(ctx).parallel).toBe(8);
		expect(recall(SERVICE)).toBeUndefined();
		// Four in flight of eight: in use.
		const four = await enterAll(ctx, 4);
		leave(four[3], { ok: true });
		expect(pacerOf(ctx).parallel).toBe(8);
		expect(recall(SERVICE)?.parallel).toBe(8);
		forgetRemembered();
		// One at a time, but a refusal changes the number: remembered.
		leave(four[0], failed({ status: 429 }));
		expect(recall(SERVICE)?.parallel).toBe(4);
	});

	it('lets a waiting request go as soon as a clean answer grows it, beside the one that takes the freed place', async () => {
		const ctx = autoContext();
		const places = await enterAll(ctx, 8);
		const waiting = Array.from({ length: 3 }, () => watch(enter(ctx, SERVICE, {})));
		await settle();
		expect(waiting.map((w) => w.state())).toEqual(['pending', 'pending', 'pending']);
		leave(places[7], { ok: true });
		await settle();
		expect(waiting.map((w) => w.state())).toEqual(['resolved', 'pending', 'pending']);
		// The second clean answer grows 8 to 9: two go, one in the freed place and one in the new.
		leave(places[6], { ok: true });
		await settle();
		expect(pacerOf(ctx).parallel).toBe(9);
		expect(waiting.map((w) => w.state())).toEqual(['resolved', 'resolved', 'resolved']);
		expect(pacerOf(ctx).active).toBe(9);
	});

	it('a fixed number lets waiting requests go as soon as it is raised', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		await enterAll(ctx, 1);
		const waiting = Array.from({ length: 2 }, () => watch(enter(ctx, SERVICE, {})));
		await settle();
		setParallel(ctx, { mode: 'fixed', requests: 3 });
		await settle();
		expect(waiting.map((w) => w.state())).toEqual(['resolved', 'resolved']);
	});
});
