/**
 * The places of a node context's requests in flight, and the line of requests waiting for one, first come
 * first served. A request whose stop signal aborts while it waits leaves the line: the pacing knows nothing of
 * the items that the signals stand for.
 */
import type { Pacer } from './pacer';

/**
 * A request that was never sent because its caller's stop signal aborted first (in the action node: an
 * earlier item failed). Its caller has no result and is not a failure of its own.
 */
export class StoppedError extends Error {
	constructor() {
		super('The node stopped before this request was sent');
		this.name = 'StoppedError';
	}
}

/** Lets waiting requests take the places that are free. */
export function wake(pacer: Pacer): void {
	while (pacer.active < pacer.parallel && pacer.queue.length > 0) {
		pacer.active++;
		pacer.queue.shift()?.resume();
	}
}

/**
 * Waits in line for a place: true once it holds one, false when `stop` aborted first (it leaves the line
 * without a place, so that a stopped request never holds back the ones behind it).
 */
async function queueFor(pacer: Pacer, stop: AbortSignal | undefined): Promise<boolean> {
	return await new Promise<boolean>((settle) => {
		const onStop = () => {
			const at = pacer.queue.indexOf(waiter);
			if (at >= 0) pacer.queue.splice(at, 1);
			settle(false);
		};
		const waiter = {
			resume: () => {
				stop?.removeEventListener('abort', onStop);
				settle(true);
			},
		};
		pacer.queue.push(waiter);
		stop?.addEventListener('abort', onStop, { once: true });
	});
}

/** Takes a place, at once or after waiting in line; rejects with StoppedError when `stop` aborts first. */
export async function takePlace(pacer: Pacer, stop: AbortSignal | undefined): Promise<void> {
	// A stopped execution is not refused here: the attempt itself fails as canceled.
	if (stop?.aborted) throw new StoppedError();
	if (pacer.active < pacer.parallel && pacer.queue.length === 0) {
		pacer.active++;
	} else if (!(await queueFor(pacer, stop))) {
		throw new StoppedError();
	}
}

/** Gives back a place taken by `acquire`, and the request sent in it (`markSent`), if any. */
export function release(pacer: Pacer, sent?: number): void {
	if (sent !== undefined) pacer.sent.delete(sent);
	pacer.active = Math.max(0, pacer.active - 1);
	wake(pacer);
}

/** A request goes out in the place just taken; returns its place in the order of sending. */
export function markSent(pacer: Pacer): number {
	const sent = ++pacer.sentCount;
	pacer.sent.add(sent);
	return sent;
}

/**
 * The requests sent before `sent` that are still unanswered: when a 503 to it has just come, what the service
 * held (its answers to them are still to come). Not the requests in flight when it was sent: that count also
 * holds answers the service had already sent and the node had not read yet, many on a busy machine.
 */
export function sentAheadOf(pacer: Pacer, sent: number): number {
	let ahead = 0;
	for (const earlier of pacer.sent) {
		if (earlier >= sent) break;
		ahead++;
	}
	return ahead;
}
