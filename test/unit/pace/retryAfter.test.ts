/**
 * The shared pause a Retry-After sets, and the rate budget a 429 teaches (transport/pace/retryAfter.ts), with a
 * bare context object. No request is made; the pauses run on jest's fake clock.
 */
import { acquire, setParallel, useService } from '../../../nodes/shared/transport/pace/index';
import { release, StoppedError } from '../../../nodes/shared/transport/pace/line';
import { pacerOf, type Pacer } from '../../../nodes/shared/transport/pace/pacer';
import { forgetRemembered } from '../../../nodes/shared/transport/pace/remembered';
import { noteAccepted, notePause } from '../../../nodes/shared/transport/pace/retryAfter';
import { newContext, settle, itemStops, watch, expectHeldFor } from './helpers';
import { rejected } from '../fixtures';

/** A rate window in which the service accepted `accepted` requests, then refused one with 429 and Retry-After 1 s. */
function windowEndingIn429(pacer: Pacer, accepted: number): void {
	for (let i = 0; i < accepted; i++) noteAccepted(pacer);
	notePause(pacer, 1000, 429);
}

describe('pacing: the shared pause of a Retry-After', () => {
	beforeEach(() => {
		jest.useFakeTimers({ now: Date.UTC(2026, 10, 21, 10, 0, 0) });
	});
	afterEach(() => {
		jest.useRealTimers();
	});

	it('holds every later request until the pause ends', async () => {
		const ctx = newContext();
		const pacer = pacerOf(ctx);
		notePause(pacer, 1000, 429);
		expect(pacer.pausedUntil).toBe(Date.now() + 1000);
		const waiting = watch(acquire(ctx));
		await expectHeldFor(waiting, 1000);
		expect(pacer.active).toBe(1);
	});

	it('learns what a rate limit window accepts and sends no more than that per window afterwards', async () => {
		const ctx = newContext();
		const pacer = pacerOf(ctx);
		windowEndingIn429(pacer, 8);
		expect(pacer.budget).toBe(8);
		expect(pacer.windowMs).toBeCloseTo(1100);
		await jest.advanceTimersByTimeAsync(1000);
		for (let i = 0; i < 8; i++) release(await acquire(ctx));
		const ninth = watch(acquire(ctx));
		await expectHeldFor(ninth, 1100);
	});

	it('raises the budget by one after a window that used it all without a 429, and a 429 sets it one below the raised one', async () => {
		const ctx = newContext();
		const pacer = pacerOf(ctx);
		windowEndingIn429(pacer, 8);
		expect(pacer.budget).toBe(8);
		await jest.advanceTimersByTimeAsync(1000);
		for (let i = 0; i < 8; i++) release(await acquire(ctx));
		expect(pacer.budget).toBe(8);
		await jest.advanceTimersByTimeAsync(1100);
		release(await acquire(ctx));
		expect(pacer.budget).toBe(9);
		// A 429 in that window, after more accepted answers than the budget: the raise was one too many.
		windowEndingIn429(pacer, 20);
		expect(pacer.budget).toBe(8);
	});

	it('a window that used its whole budget and ended in a 429 raises nothing: the budget stays where the 429 set it', async () => {
		const ctx = newContext();
		const pacer = pacerOf(ctx);
		windowEndingIn429(pacer, 8);
		await jest.advanceTimersByTimeAsync(1000);
		// The whole budget of 8 sent in one window, then a 429 in it: one below the budget.
		for (let i = 0; i < 8; i++) release(await acquire(ctx));
		await jest.advanceTimersByTimeAsync(1);
		windowEndingIn429(pacer, 20);
		expect(pacer.budget).toBe(7);
		// The next window opens after the pause and the window: the refused one raises nothing.
		await jest.advanceTimersByTimeAsync(1100);
		release(await acquire(ctx));
		expect(pacer.budget).toBe(7);
	});

	it('a window that did not use its whole budget raises nothing', async () => {
		const ctx = newContext();
		const pacer = pacerOf(ctx);
		windowEndingIn429(pacer, 8);
		await jest.advanceTimersByTimeAsync(1000);
		for (let i = 0; i < 7; i++) release(await acquire(ctx));
		await jest.advanceTimersByTimeAsync(1100);
		release(await acquire(ctx));
		expect(pacer.budget).toBe(8);
	});

	it('learns a budget below the requests in flight from a second window in a row that ended in a 429', async () => {
		const pacer = pacerOf(newContext());
		windowEndingIn429(pacer, 3);
		// Three accepted of 8 in flight may be a passing refusal: nothing learnt yet.
		expect(pacer.budget).toBeUndefined();
		await jest.advanceTimersByTimeAsync(1001);
		windowEndingIn429(pacer, 3);
		expect(pacer.budget).toBe(3);
	});

	it('a window in which nothing was accepted is not the first of two in a row, nor teaches a budget of 0', async () => {
		const pacer = pacerOf(newContext());
		notePause(pacer, 1000, 429);
		await jest.advanceTimersByTimeAsync(1001);
		windowEndingIn429(pacer, 3);
		expect(pacer.budget).toBeUndefined();
		// After a window that accepted 3, one that accepted none: no budget of 0 (that would hold every request).
		await jest.advanceTimersByTimeAsync(1001);
		notePause(pacer, 1000, 429);
		expect(pacer.budget).toBeUndefined();
	});

	it('with more requests in flight than 8, a first window must accept as many as are in flight to teach a budget', () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 20 });
		const pacer = pacerOf(ctx);
		windowEndingIn429(pacer, 10);
		expect(pacer.budget).toBeUndefined();
	});

	it('a 429 at the very millisecond its pause ends still counts as sent during it: no budget learnt', async () => {
		const pacer = pacerOf(newContext());
		notePause(pacer, 1000, 503);
		for (let i = 0; i < 8; i++) noteAccepted(pacer);
		await jest.advanceTimersByTimeAsync(1000);
		expect(pacer.pausedUntil).toBe(Date.now());
		notePause(pacer, 1000, 429);
		expect(pacer.budget).toBeUndefined();
		expect(pacer.pausedUntil).toBe(Date.now() + 1000);
	});

	it('under Auto, the budget a 429 teaches is remembered: the next execution on the same service starts with it', () => {
		forgetRemembered();
		const first = newContext();
		setParallel(first, { mode: 'auto', max: 100 });
		useService(first, 'service-a');
		const pacer = pacerOf(first);
		windowEndingIn429(pacer, 8);
		expect(pacer.budget).toBe(8);
		const next = newContext();
		setParallel(next, { mode: 'auto', max: 100 });
		useService(next, 'service-a');
		expect(pacerOf(next).budget).toBe(8);
		forgetRemembered();
	});

	it('a 429 that arrives while a pause is set was sent before it: it lengthens the pause and teaches no budget', () => {
		const ctx = newContext();
		const pacer = pacerOf(ctx);
		notePause(pacer, 1000, 503);
		for (let i = 0; i < 8; i++) noteAccepted(pacer);
		notePause(pacer, 2000, 429);
		expect(pacer.pausedUntil).toBe(Date.now() + 2000);
		expect(pacer.budget).toBeUndefined();
	});

	it('a 503 pauses as a 429 does but teaches no rate budget: an overload is not a rate', async () => {
		const ctx = newContext();
		const pacer = pacerOf(ctx);
		for (let i = 0; i < 8; i++) noteAccepted(pacer);
		notePause(pacer, 1000, 503);
		expect(pacer.pausedUntil).toBe(Date.now() + 1000);
		expect(pacer.budget).toBeUndefined();
		await jest.advanceTimersByTimeAsync(1001);
		for (let i = 0; i < 8; i++) noteAccepted(pacer);
		notePause(pacer, 1000, 503);
		expect(pacer.budget).toBeUndefined();
		// A 429 after them counts what was accepted since the last 429, the 503s' pauses included.
		await jest.advanceTimersByTimeAsync(1001);
		notePause(pacer, 1000, 429);
		expect(pacer.budget).toBe(16);
	});

	it('under Auto, a 503 holds back no other request (Auto has cut its number), while a 429 still holds back all', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'auto', max: 1000 });
		const pacer = pacerOf(ctx);
		notePause(pacer, 1000, 503);
		expect(pacer.pausedUntil).toBe(0);
		const next = watch(acquire(ctx));
		await settle();
		expect(next.state()).toBe('resolved');
		notePause(pacer, 1000, 429);
		const after429 = watch(acquire(ctx));
		await expectHeldFor(after429, 1000);
	});

	it('learns nothing from a refusal when one request at a time is sent', () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const pacer = pacerOf(ctx);
		windowEndingIn429(pacer, 20);
		expect(pacer.budget).toBeUndefined();
	});

	it('ignores a pause of zero or less, and never shortens a longer pause', async () => {
		const pacer = pacerOf(newContext());
		notePause(pacer, 0, 429);
		notePause(pacer, -5, 429);
		expect(pacer.pausedUntil).toBe(0);
		notePause(pacer, 5000, 429);
		notePause(pacer, 1000, 429);
		expect(pacer.pausedUntil).toBe(Date.now() + 5000);
	});

	it('waits no longer than the request\'s own deadline (waitUntil)', async () => {
		const ctx = newContext();
		notePause(pacerOf(ctx), 10_000, 429);
		const waiting = watch(acquire(ctx, undefined, undefined, Date.now() + 100));
		await expectHeldFor(waiting, 100);
	});

	it('ends the wait when the execution is stopped, handing over the place (the attempt fails as canceled)', async () => {
		const ctx = newContext();
		notePause(pacerOf(ctx), 10_000, 429);
		const cancel = new AbortController();
		const waiting = watch(acquire(ctx, cancel.signal));
		await jest.advanceTimersByTimeAsync(10);
		expect(waiting.state()).toBe('pending');
		cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(waiting.state()).toBe('resolved');
		expect(pacerOf(ctx).active).toBe(1);
	});

	it('ends the wait when the execution is stopped, also for a request that has its own stop signal', async () => {
		const ctx = newContext();
		notePause(pacerOf(ctx), 10_000, 429);
		const cancel = new AbortController();
		const waiting = watch(acquire(ctx, cancel.signal, new AbortController().signal));
		await jest.advanceTimersByTimeAsync(10);
		expect(waiting.state()).toBe('pending');
		cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(waiting.state()).toBe('resolved');
	});

	it('rejects with StoppedError, and frees its place, a request whose stop signal aborts during the pause', async () => {
		const ctx = newContext();
		const pacer = pacerOf(ctx);
		const items = itemStops(6);
		notePause(pacer, 10_000, 429);
		const waiting = acquire(ctx, undefined, items.signal(5));
		await jest.advanceTimersByTimeAsync(10);
		expect(pacer.active).toBe(1);
		items.stopAfter(2);
		const error = await rejected(waiting);
		expect(error).toBeInstanceOf(StoppedError);
		expect(pacer.active).toBe(0);
	});
});
