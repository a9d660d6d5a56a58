/** What the pacing's unit tests share: a bare context, a fake clock's waits, and per-item stop signals. */
import type { ApiContext } from '../../../nodes/shared/transport/settings';

/** A node context as the pacing sees it: only an object to key its per-run state by. */
export const newContext = (): ApiContext => ({}) as unknown as ApiContext;

/** Lets every promise that can settle now settle. */
export const settle = async (): Promise<void> => {
	for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** One stop signal per item, as the item loop gives them; `stopAfter(n)` aborts those after item n. */
export function itemStops(count: number): { signal: (item: number) => AbortSignal; stopAfter: (item: number) => void } {
	const controllers = Array.from({ length: count }, () => new AbortController());
	return {
		signal: (item) => controllers[item].signal,
		stopAfter: (item) => controllers.slice(item + 1).forEach((controller) => controller.abort()),
	};
}

/** Tracks whether a promise has settled, and how. */
export function watch<T>(promise: Promise<T>): { state: () => 'pending' | 'resolved' | 'rejected'; promise: Promise<T> } {
	let state: 'pending' | 'resolved' | 'rejected' = 'pending';
	promise.then(
		() => (state = 'resolved'),
		() => (state = 'rejected'),
	);
	return { state: () => state, promise };
}

/** On jest's fake clock: `waiting` is still pending `ms` - 1 after now, and resolved at `ms`. */
export async function expectHeldFor(waiting: { state: () => string }, ms: number): Promise<void> {
	await jest.advanceTimersByTimeAsync(ms - 1);
	expect(waiting.state()).toBe('pending');
	await jest.advanceTimersByTimeAsync(1);
	expect(waiting.state()).toBe('resolved');
}
