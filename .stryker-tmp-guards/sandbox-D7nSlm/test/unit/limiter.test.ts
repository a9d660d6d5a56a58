/**
 * The per-run limiter (transport/limiter.ts) with a bare context object: slots, the order of waiters,
 * the shared pause a Retry-After sets, and dropping the requests whose stop signal aborts (which items are
 * stopped is the item loop's: test/unit/item-run.test.ts). No request is made; the pauses run on jest's
 * fake clock.
 */
// @ts-nocheck

import type { ApiContext } from '../../nodes/FileTransferManager/transport/settings';
import type { Limiter } from '../../nodes/FileTransferManager/transport/limiter';
import {
	acquire,
	limiterOf,
	markSent,
	noteAccepted,
	notePause,
	release,
	sentAheadOf,
	setParallel,
	StoppedError,
} from '../../nodes/FileTransferManager/transport/limiter';
import { rejected } from './fixtures';

/** A node context as the limiter sees it: only an object to key its per-run state by. */
const newContext = (): ApiContext => ({}) as unknown as ApiContext;

/** Lets every promise that can settle now settle. */
const settle = async (): Promise<void> => {
	for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** One stop signal per item, as the item loop gives them; `stopAfter(n)` aborts those after item n. */
function itemStops(count: number): { signal: (item: number) => AbortSignal; stopAfter: (item: number) => void } {
	const controllers = Array.from({ length: count }, () => new AbortController());
	return {
		signal: (item) => controllers[item].signal,
		stopAfter: (item) => controllers.slice(item + 1).forEach((controller) => controller.abort()),
	};
}

/** Tracks whether a promise has settled, and how. */
function watch<T>(promise: Promise<T>): { state: () => 'pending' | 'resolved' | 'rejected'; promise: Promise<T> } {
	let state: 'pending' | 'resolved' | 'rejected' = 'pending';
	promise.then(
		() => (state = 'resolved'),
		() => (state = 'rejected'),
	);
	return { state: () => state, promise };
}

/** On jest's fake clock: `waiting` is still pending `ms` - 1 after now, and resolved at `ms`. */
async function expectHeldFor(waiting: { state: () => string }, ms: number): Promise<void> {
	await jest.advanceTimersByTimeAsync(ms - 1);
	expect(waiting.state()).toBe('pending');
	await jest.advanceTimersByTimeAsync(1);
	expect(waiting.state()).toBe('resolved');
}

describe('limiter: slots', () => {
	it('starts with DEFAULT_PARALLEL (8) slots', async () => {
		const ctx = newContext();
		for (let i = 0; i < 8; i++) await acquire(ctx);
		const ninth = watch(acquire(ctx));
		await settle();
		expect(ninth.state()).toBe('pending');
		expect(limiterOf(ctx).active).toBe(8);
	});

	it('lets at most N requests hold a slot; a release lets the next one in', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 2 });
		const first = await acquire(ctx);
		await acquire(ctx);
		const third = watch(acquire(ctx));
		await settle();
		expect(third.state()).toBe('pending');
		expect(first.active).toBe(2);
		release(first);
		await settle();
		expect(third.state()).toBe('resolved');
		expect(first.active).toBe(2);
		expect(first.queue).toHaveLength(0);
	});

	it('hands slots to waiters first come, first served', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const limiter = await acquire(ctx);
		const order: number[] = [];
		const waiters = [1, 2, 3].map((n) => acquire(ctx).then(() => order.push(n)));
		await settle();
		expect(order).toEqual([]);
		release(limiter);
		await settle();
		expect(order).toEqual([1]);
		release(limiter);
		await settle();
		expect(order).toEqual([1, 2]);
		release(limiter);
		await Promise.all(waiters);
		expect(order).toEqual([1, 2, 3]);
	});

	it('does not let a newcomer pass waiters while a slot is free for them', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const limiter = await acquire(ctx);
		const order: string[] = [];
		const waiter = acquire(ctx).then(() => order.push('waiter'));
		release(limiter);
		const newcomer = acquire(ctx).then(() => order.push('newcomer'));
		await settle();
		expect(order).toEqual(['waiter']);
		release(limiter);
		await Promise.all([waiter, newcomer]);
		expect(order).toEqual(['waiter', 'newcomer']);
	});

	it('wakes waiters when Parallel Requests is raised, and keeps at least one slot', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		await acquire(ctx);
		const second = watch(acquire(ctx));
		const third = watch(acquire(ctx));
		await settle();
		setParallel(ctx, { mode: 'fixed', requests: 3 });
		await settle();
		expect(second.state()).toBe('resolved');
		expect(third.state()).toBe('resolved');
		setParallel(ctx, { mode: 'fixed', requests: 0 });
		expect(limiterOf(ctx).limit).toBe(1);
		setParallel(ctx, { mode: 'fixed', requests: 2.9 });
		expect(limiterOf(ctx).limit).toBe(2);
	});

	it('never counts below zero when released once too often', async () => {
		const ctx = newContext();
		const limiter = await acquire(ctx);
		release(limiter);
		release(limiter);
		expect(limiter.active).toBe(0);
	});

	it('keeps one limiter per context', async () => {
		const one = newContext();
		const other = newContext();
		setParallel(one, { mode: 'fixed', requests: 1 });
		await acquire(one);
		expect(limiterOf(one)).toBe(limiterOf(one));
		expect(limiterOf(other)).not.toBe(limiterOf(one));
		expect(limiterOf(other).active).toBe(0);
		expect(limiterOf(other).limit).toBe(8);
	});
});

describe('limiter: the shared pause of a Retry-After', () => {
	beforeEach(() => {
		jest.useFakeTimers({ now: Date.UTC(2026, 10, 21, 10, 0, 0) });
	});
	afterEach(() => {
		jest.useRealTimers();
	});

	it('holds every later request until the pause ends', async () => {
		const ctx = newContext();
		const limiter = limiterOf(ctx);
		notePause(limiter, 1000, 429);
		expect(limiter.pausedUntil).toBe(Date.now() + 1000);
		const waiting = watch(acquire(ctx));
		await expectHeldFor(waiting, 1000);
		expect(limiter.active).toBe(1);
	});

	it('learns what a rate limit window accepts and sends no more than that per window afterwards', async () => {
		const ctx = newContext();
		const limiter = limiterOf(ctx);
		for (let i = 0; i < 8; i++) noteAccepted(limiter);
		notePause(limiter, 1000, 429);
		expect(limiter.budget).toBe(8);
		expect(limiter.windowMs).toBeCloseTo(1100);
		await jest.advanceTimersByTimeAsync(1000);
		for (let i = 0; i < 8; i++) release(await acquire(ctx));
		const ninth = watch(acquire(ctx));
		await expectHeldFor(ninth, 1100);
	});

	it('a 503 pauses as a 429 does but teaches no rate budget: an overload is not a rate', async () => {
		const ctx = newContext();
		const limiter = limiterOf(ctx);
		for (let i = 0; i < 8; i++) noteAccepted(limiter);
		notePause(limiter, 1000, 503);
		expect(limiter.pausedUntil).toBe(Date.now() + 1000);
		expect(limiter.budget).toBeUndefined();
		await jest.advanceTimersByTimeAsync(1001);
		for (let i = 0; i < 8; i++) noteAccepted(limiter);
		notePause(limiter, 1000, 503);
		expect(limiter.budget).toBeUndefined();
		// A 429 after them counts what was accepted since the last 429, the 503s' pauses included.
		await jest.advanceTimersByTimeAsync(1001);
		notePause(limiter, 1000, 429);
		expect(limiter.budget).toBe(16);
	});

	it('under Auto, a 503 holds back no other request (Auto has cut its limit), while a 429 still holds back all', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'auto', max: 1000 });
		const limiter = limiterOf(ctx);
		notePause(limiter, 1000, 503);
		expect(limiter.pausedUntil).toBe(0);
		const next = watch(acquire(ctx));
		await settle();
		expect(next.state()).toBe('resolved');
		notePause(limiter, 1000, 429);
		const after429 = watch(acquire(ctx));
		await expectHeldFor(after429, 1000);
	});

	it('counts the requests sent before one that are still unanswered (what the service held at its 503)', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 10 });
		const limiter = limiterOf(ctx);
		const sent: number[] = [];
		for (let i = 0; i < 6; i++) {
			await acquire(ctx);
			sent.push(markSent(limiter));
		}
		expect(sentAheadOf(limiter, sent[5])).toBe(5);
		// Answered: the first, and one sent after the fifth, neither of which the service holds any more.
		release(limiter, sent[0]);
		release(limiter, sent[5]);
		expect(sentAheadOf(limiter, sent[4])).toBe(3);
		expect(sentAheadOf(limiter, sent[1])).toBe(0);
		expect(limiter.active).toBe(4);
	});

	it('learns nothing from a refusal when one request at a time is sent', () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const limiter = limiterOf(ctx);
		for (let i = 0; i < 20; i++) noteAccepted(limiter);
		notePause(limiter, 1000, 429);
		expect(limiter.budget).toBeUndefined();
	});

	it('ignores a pause of zero or less, and never shortens a longer pause', async () => {
		const limiter = limiterOf(newContext());
		notePause(limiter, 0, 429);
		notePause(limiter, -5, 429);
		expect(limiter.pausedUntil).toBe(0);
		notePause(limiter, 5000, 429);
		notePause(limiter, 1000, 429);
		expect(limiter.pausedUntil).toBe(Date.now() + 5000);
	});

	it('waits no longer than the request\'s own deadline (waitUntil)', async () => {
		const ctx = newContext();
		notePause(limiterOf(ctx), 10_000, 429);
		const waiting = watch(acquire(ctx, undefined, undefined, Date.now() + 100));
		await expectHeldFor(waiting, 100);
	});

	it('ends the wait when the execution is stopped, handing over the slot (the attempt fails as canceled)', async () => {
		const ctx = newContext();
		notePause(limiterOf(ctx), 10_000, 429);
		const cancel = new AbortController();
		const waiting = watch(acquire(ctx, cancel.signal));
		await jest.advanceTimersByTimeAsync(10);
		expect(waiting.state()).toBe('pending');
		cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(waiting.state()).toBe('resolved');
		expect(limiterOf(ctx).active).toBe(1);
	});

	it('rejects with StoppedError, and frees its slot, a request whose stop signal aborts during the pause', async () => {
		const ctx = newContext();
		const limiter = limiterOf(ctx);
		const items = itemStops(6);
		notePause(limiter, 10_000, 429);
		const waiting = acquire(ctx, undefined, items.signal(5));
		await jest.advanceTimersByTimeAsync(10);
		expect(limiter.active).toBe(1);
		items.stopAfter(2);
		const error = await rejected(waiting);
		expect(error).toBeInstanceOf(StoppedError);
		expect(limiter.active).toBe(0);
	});
});

describe('limiter: requests whose stop signal aborts (the items after a failed one)', () => {
	it('rejects the queued requests whose stop signal aborts with StoppedError and keeps the others queued', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const items = itemStops(4);
		const limiter = await acquire(ctx, undefined, items.signal(0));
		const item1 = watch(acquire(ctx, undefined, items.signal(1)));
		const item2 = watch(acquire(ctx, undefined, items.signal(2)));
		const item3 = watch(acquire(ctx, undefined, items.signal(3)));
		await settle();
		items.stopAfter(1);
		await settle();
		expect(item2.state()).toBe('rejected');
		expect(item3.state()).toBe('rejected');
		expect(await rejected(item2.promise)).toBeInstanceOf(StoppedError);
		expect(item1.state()).toBe('pending');
		expect(limiter.active).toBe(1);
		release(limiter);
		await settle();
		expect(item1.state()).toBe('resolved');
		expect(limiter.active).toBe(1);
		expect(limiter.queue).toHaveLength(0);
	});

	it('refuses at once a request whose stop signal has aborted, and lets the others go on', async () => {
		const ctx = newContext();
		const items = itemStops(7);
		items.stopAfter(4);
		expect(items.signal(4).aborted).toBe(false);
		expect(items.signal(5).aborted).toBe(true);
		expect(await rejected(acquire(ctx, undefined, items.signal(6)))).toBeInstanceOf(StoppedError);
		await acquire(ctx, undefined, items.signal(3));
		await acquire(ctx);
		expect(limiterOf(ctx).active).toBe(2);
	});

	it('a request handed a slot just before its stop signal aborts gives the slot back', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const items = itemStops(2);
		const limiter = await acquire(ctx, undefined, items.signal(0));
		const next = watch(acquire(ctx, undefined, items.signal(1)));
		await settle();
		// The release hands item 1 the slot; it is stopped before it gets to send.
		release(limiter);
		items.stopAfter(0);
		expect(await rejected(next.promise)).toBeInstanceOf(StoppedError);
		expect(limiter.active).toBe(0);
		expect(limiter.queue).toHaveLength(0);
	});

	it('leaks no slot: after every request is released or stopped, none is held and none waits', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 2 });
		const limiter: Limiter = limiterOf(ctx);
		const items = itemStops(6);
		const taken = await Promise.all([acquire(ctx, undefined, items.signal(0)), acquire(ctx, undefined, items.signal(1))]);
		const waiting = [2, 3, 4, 5].map((item) => acquire(ctx, undefined, items.signal(item)).then(
			(held) => {
				release(held);
				return 'sent';
			},
			(error: Error) => error.name,
		));
		await settle();
		items.stopAfter(3);
		for (const held of taken) release(held);
		expect(await Promise.all(waiting)).toEqual(['sent', 'sent', 'StoppedError', 'StoppedError']);
		expect(limiter.active).toBe(0);
		expect(limiter.queue).toHaveLength(0);
	});
});
