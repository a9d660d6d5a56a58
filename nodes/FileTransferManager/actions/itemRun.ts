/**
 * The item loop of the action node: runs one function per input item, several items at once, with the
 * outcome of one item at a time. It owns which items are at work, when an item gives its place to the next
 * one, and which items are stopped; the transport only sees each item's stop signal on its requests.
 */
import { sleep } from 'n8n-workflow';

import type { ItemContext } from '../../shared/execution/item';

/**
 * Items started in one go: then the loop waits for the event loop's next turn, so that the requests they queued
 * leave before more items read their parameters. Otherwise every item of a large input under Auto (whose items
 * all start at once) would read its parameters before the first request leaves, and a service that sets the pace
 * would wait for that (about 0.4 s for 1,000 items, bench/README.md).
 */
export const STARTS_PER_TURN = 32;

/** One item at work: its stop signal's controller and whether it still holds a place. */
interface AtWork {
	stop: AbortController;
	placed: boolean;
}

/**
 * Runs `run` for the items 0 … count - 1, in order, with at most `parallel` of them holding a place at once
 * (an item that calls `releaseSlot` gives its place to the next item while it goes on), starting at most
 * STARTS_PER_TURN of them in one go.
 *
 * Resolves with each item's result, in item order. When an item throws, the items after it are stopped as
 * with one item at a time: none of them starts any more, and those already at work get their stop signal
 * aborted, so they send nothing more (what they sent is answered as usual) and their outcome is dropped.
 * Items before it go on; the call rejects, once no item is at work any more, with the error of the first
 * item (by index) that threw. An error an item throws after it was stopped is not a failure of its own.
 */
export async function runItems<R>(count: number, parallel: number, run: (item: ItemContext) => Promise<R>): Promise<R[]> {
	const limit = Math.max(1, Math.floor(parallel));
	const results = new Array<R>(count);
	const atWork = new Map<number, AtWork>();
	let firstFailure: { index: number; error: unknown } | undefined;
	let next = 0;
	let placed = 0;
	let resumeLaunch = false;

	return await new Promise<R[]>((resolve, reject) => {
		const finish = () => {
			if (atWork.size > 0 || (next < count && firstFailure === undefined)) return;
			if (firstFailure) reject(firstFailure.error);
			else resolve(results);
		};
		const stopAfter = (index: number) => {
			for (const [later, work] of atWork) if (later > index) work.stop.abort();
		};
		const release = (work: AtWork) => {
			if (!work.placed) return;
			work.placed = false;
			placed--;
			launch();
		};
		const settle = (index: number, work: AtWork, outcome: { value: R } | { error: unknown }) => {
			atWork.delete(index);
			if ('value' in outcome) {
				results[index] = outcome.value;
			} else if (!firstFailure || index < firstFailure.index) {
				// A stopped item comes after the failure that stopped it: its own error is never the first.
				firstFailure = { index, error: outcome.error };
				stopAfter(index);
			}
			release(work);
			finish();
		};
		const launch = () => {
			let startedNow = 0;
			while (placed < limit && next < count && firstFailure === undefined) {
				if (startedNow++ === STARTS_PER_TURN) {
					if (!resumeLaunch) {
						resumeLaunch = true;
						void sleep(0).then(() => {
							resumeLaunch = false;
							launch();
						});
					}
					return;
				}
				const index = next++;
				const work: AtWork = { stop: new AbortController(), placed: true };
				placed++;
				atWork.set(index, work);
				const item: ItemContext = { index, stop: work.stop.signal, releaseSlot: () => release(work) };
				let started: Promise<R>;
				try {
					started = run(item);
				} catch (error) {
					started = Promise.reject(error);
				}
				void started.then(
					(value) => settle(index, work, { value }),
					(error: unknown) => settle(index, work, { error }),
				);
			}
			finish();
		};
		launch();
	});
}
