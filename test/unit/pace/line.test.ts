/**
 * The places of a node context's requests and the line of waiters (transport/pace/line.ts, through
 * pace/index.ts acquire) with a bare context object: the order of waiters, and dropping the requests whose stop
 * signal aborts (which items are stopped is the item loop's: test/unit/item-run.test.ts). No request is made.
 */
import type { Pacer } from '../../../nodes/shared/transport/pace/pacer';
import { acquire, setParallel } from '../../../nodes/shared/transport/pace/index';
import { markSent, release, sentAheadOf, StoppedError } from '../../../nodes/shared/transport/pace/line';
import { pacerOf } from '../../../nodes/shared/transport/pace/pacer';
import { newContext, settle, itemStops, watch } from './helpers';
import { rejected } from '../fixtures';

describe('pacing: places, and the line of requests waiting for one', () => {
	it('starts with DEFAULT_PARALLEL (8) places', async () => {
		const ctx = newContext();
		for (let i = 0; i < 8; i++) await acquire(ctx);
		const ninth = watch(acquire(ctx));
		await settle();
		expect(ninth.state()).toBe('pending');
		expect(pacerOf(ctx).active).toBe(8);
	});

	it('refuses a request whose stop signal aborted already, even with a place free, with the StoppedError text', async () => {
		const ctx = newContext();
		const stopped = new AbortController();
		stopped.abort();
		const error = await rejected(acquire(ctx, undefined, stopped.signal));
		expect(error).toBeInstanceOf(StoppedError);
		expect(error.message).toBe('The node stopped before this request was sent');
		expect(pacerOf(ctx).active).toBe(0);
	});

	it('a waiter first in line whose stop aborts leaves the line: the place goes to the one behind it', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const pacer = await acquire(ctx);
		const first = new AbortController();
		const stopped = watch(acquire(ctx, undefined, first.signal));
		const behind = watch(acquire(ctx));
		await settle();
		first.abort();
		await settle();
		expect(stopped.state()).toBe('rejected');
		expect(pacer.queue).toHaveLength(1);
		release(pacer);
		await settle();
		expect(behind.state()).toBe('resolved');
	});

	it('hands places to waiters first come, first served', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const pacer = await acquire(ctx);
		const order: number[] = [];
		const waiters = [1, 2, 3].map((n) => acquire(ctx).then(() => order.push(n)));
		await settle();
		expect(order).toEqual([]);
		release(pacer);
		await settle();
		expect(order).toEqual([1]);
		release(pacer);
		await settle();
		expect(order).toEqual([1, 2]);
		release(pacer);
		await Promise.all(waiters);
		expect(order).toEqual([1, 2, 3]);
	});

	it('does not let a newcomer pass waiters while a place is free for them', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const pacer = await acquire(ctx);
		const order: string[] = [];
		const waiter = acquire(ctx).then(() => order.push('waiter'));
		release(pacer);
		const newcomer = acquire(ctx).then(() => order.push('newcomer'));
		await settle();
		expect(order).toEqual(['waiter']);
		release(pacer);
		await Promise.all([waiter, newcomer]);
		expect(order).toEqual(['waiter', 'newcomer']);
	});

	it('never counts below zero when released once too often', async () => {
		const ctx = newContext();
		const pacer = await acquire(ctx);
		release(pacer);
		release(pacer);
		expect(pacer.active).toBe(0);
	});

	it('keeps one pacer per context', async () => {
		const one = newContext();
		const other = newContext();
		setParallel(one, { mode: 'fixed', requests: 1 });
		await acquire(one);
		expect(pacerOf(one)).toBe(pacerOf(one));
		expect(pacerOf(other)).not.toBe(pacerOf(one));
		expect(pacerOf(other).active).toBe(0);
		expect(pacerOf(other).parallel).toBe(8);
	});

	it('counts the requests sent before one that are still unanswered (what the service held at its 503)', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 10 });
		const pacer = pacerOf(ctx);
		const sent: number[] = [];
		for (let i = 0; i < 6; i++) {
			await acquire(ctx);
			sent.push(markSent(pacer));
		}
		expect(sentAheadOf(pacer, sent[5])).toBe(5);
		// Answered: the first, and one sent after the fifth, neither of which the service holds any more.
		release(pacer, sent[0]);
		release(pacer, sent[5]);
		expect(sentAheadOf(pacer, sent[4])).toBe(3);
		expect(sentAheadOf(pacer, sent[1])).toBe(0);
		expect(pacer.active).toBe(4);
	});
});

describe('pacing: requests whose stop signal aborts (the items after a failed one)', () => {
	it('rejects the queued requests whose stop signal aborts with StoppedError and keeps the others queued', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const items = itemStops(4);
		const pacer = await acquire(ctx, undefined, items.signal(0));
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
		expect(pacer.active).toBe(1);
		release(pacer);
		await settle();
		expect(item1.state()).toBe('resolved');
		expect(pacer.active).toBe(1);
		expect(pacer.queue).toHaveLength(0);
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
		expect(pacerOf(ctx).active).toBe(2);
	});

	it('a request handed a place just before its stop signal aborts gives the place back', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 1 });
		const items = itemStops(2);
		const pacer = await acquire(ctx, undefined, items.signal(0));
		const next = watch(acquire(ctx, undefined, items.signal(1)));
		await settle();
		// The release hands item 1 the place; it is stopped before it gets to send.
		release(pacer);
		items.stopAfter(0);
		expect(await rejected(next.promise)).toBeInstanceOf(StoppedError);
		expect(pacer.active).toBe(0);
		expect(pacer.queue).toHaveLength(0);
	});

	it('leaks no place: after every request is released or stopped, none is held and none waits', async () => {
		const ctx = newContext();
		setParallel(ctx, { mode: 'fixed', requests: 2 });
		const pacer: Pacer = pacerOf(ctx);
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
		expect(pacer.active).toBe(0);
		expect(pacer.queue).toHaveLength(0);
	});
});
