/**
 * Parallel Requests as a fixed number (transport/pace/fixed.ts, set through pace/index.ts setParallel): at most
 * that many requests hold a place. No request is made.
 */
import { acquire, setParallel } from '../../../nodes/shared/transport/pace/index';
import { release } from '../../../nodes/shared/transport/pace/line';
import { pacerOf } from '../../../nodes/shared/transport/pace/pacer';
import { newContext, settle, watch } from './helpers';

describe('pacing: Parallel Requests as a fixed number', () => {
	it('lets at most N requests hold a place; a release lets the next one in', async () => {
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

	it('wakes waiters when Parallel Requests is raised, and keeps at least one place', async () => {
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
		expect(pacerOf(ctx).parallel).toBe(1);
		setParallel(ctx, { mode: 'fixed', requests: 2.9 });
		expect(pacerOf(ctx).parallel).toBe(2);
	});
});
