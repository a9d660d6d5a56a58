/**
 * The item loop of the action node (actions/itemRun.ts) on its own, with items that wait on promises the
 * test settles: results in item order, at most Parallel Requests items at work, the first failure stopping
 * the later items as one item at a time would, and an item that releases its slot letting the next one
 * start while it waits.
 */
import { runItems } from '../../nodes/FileTransferManager/actions/itemRun';
import type { ItemContext } from '../../nodes/shared/execution/item';
import { rejected } from './fixtures';

/** Lets every promise that can settle now settle. */
const settle = async (): Promise<void> => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
};

interface Gate<T> {
	promise: Promise<T>;
	open: (value: T) => void;
	fail: (error: unknown) => void;
}

function gate<T>(): Gate<T> {
	let open: (value: T) => void = () => undefined;
	let fail: (error: unknown) => void = () => undefined;
	const promise = new Promise<T>((resolve, reject) => {
		open = resolve;
		fail = reject;
	});
	return { promise, open, fail };
}

/**
 * Items that each wait for their own gate: which ones started, which are at work, the contexts they got. An
 * item's result is its gate's value.
 */
function gatedItems(count: number) {
	const gates = Array.from({ length: count }, () => gate<string>());
	const started: number[] = [];
	const contexts = new Map<number, ItemContext>();
	let atWork = 0;
	let mostAtWork = 0;
	const run = async (item: ItemContext): Promise<string> => {
		started.push(item.index);
		contexts.set(item.index, item);
		atWork++;
		mostAtWork = Math.max(mostAtWork, atWork);
		try {
			return await gates[item.index].promise;
		} finally {
			atWork--;
		}
	};
	return { gates, started, contexts, run, mostAtWork: () => mostAtWork };
}

/** Tracks whether a promise has settled. */
function watch<T>(promise: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
	let settled = false;
	promise.then(
		() => (settled = true),
		() => (settled = true),
	);
	return { settled: () => settled, promise };
}

describe('item loop: results and places', () => {
	it('resolves with every result in item order, whatever order the items end in', async () => {
		const items = gatedItems(5);
		const run = watch(runItems(5, 5, items.run));
		await settle();
		for (const index of [3, 0, 4, 1, 2]) {
			items.gates[index].open(`result ${index}`);
			await settle();
		}
		expect(await run.promise).toEqual(['result 0', 'result 1', 'result 2', 'result 3', 'result 4']);
	});

	it('has at most Parallel Requests items at work, starting the next one when one ends, in item order', async () => {
		const items = gatedItems(6);
		const run = watch(runItems(6, 2, items.run));
		await settle();
		expect(items.started).toEqual([0, 1]);
		items.gates[1].open('b');
		await settle();
		expect(items.started).toEqual([0, 1, 2]);
		for (const index of [0, 2, 3, 4, 5]) {
			items.gates[index].open('x');
			await settle();
		}
		await run.promise;
		expect(items.started).toEqual([0, 1, 2, 3, 4, 5]);
		expect(items.mostAtWork()).toBe(2);
	});

	it('starts 32 items, then lets what they queued leave before it starts more (one turn of the event loop)', async () => {
		const items = gatedItems(100);
		const run = watch(runItems(100, 100, items.run));
		await settle();
		expect(items.started).toHaveLength(32);
		// Another turn of the event loop: a timer set now fires after the loop's next start.
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(items.started.length).toBeGreaterThan(32);
		for (let i = 0; i < 100; i++) items.gates[i].open(String(i));
		await run.promise;
		expect(items.started).toEqual(Array.from({ length: 100 }, (_, i) => i));
		expect(items.mostAtWork()).toBeGreaterThan(32);
	});

	it('resolves at once with no result for no items', async () => {
		expect(await runItems(0, 4, async () => 'never')).toEqual([]);
	});
});

describe('item loop: the first failure stops the later items', () => {
	it('starts no item after the failed one, stops those at work, lets earlier ones finish, and rejects with the failure once none is at work', async () => {
		const items = gatedItems(8);
		const run = watch(runItems(8, 4, items.run));
		await settle();
		expect(items.started).toEqual([0, 1, 2, 3]);
		const failure = new Error('item 1 failed');
		items.gates[1].fail(failure);
		await settle();
		// Items 2 and 3 are at work: stopped (they send nothing more); item 0 goes on. No item starts.
		expect(items.contexts.get(0)?.stop.aborted).toBe(false);
		expect(items.contexts.get(2)?.stop.aborted).toBe(true);
		expect(items.contexts.get(3)?.stop.aborted).toBe(true);
		expect(items.started).toEqual([0, 1, 2, 3]);
		// A stopped item's own error is not a failure of its own; an earlier item still at work holds the end.
		items.gates[2].fail(new Error('stopped item 2 gave up'));
		items.gates[3].open('late result of a stopped item');
		await settle();
		expect(run.settled()).toBe(false);
		items.gates[0].open('item 0 done');
		await settle();
		expect(run.settled()).toBe(true);
		expect(await rejected(run.promise)).toBe(failure);
		expect(items.started).toEqual([0, 1, 2, 3]);
	});

	it('the failure of the first item by index wins, and a later failure never moves the stop later', async () => {
		const items = gatedItems(8);
		const run = runItems(8, 8, items.run);
		await settle();
		const first = new Error('item 4 failed');
		items.gates[4].fail(first);
		await settle();
		// Item 7 was stopped by item 4; its failure changes nothing: items 5 and 6 stay stopped.
		items.gates[7].fail(new Error('item 7 failed'));
		await settle();
		expect(items.contexts.get(3)?.stop.aborted).toBe(false);
		expect(items.contexts.get(5)?.stop.aborted).toBe(true);
		expect(items.contexts.get(6)?.stop.aborted).toBe(true);
		// An earlier item failing afterwards moves the stop earlier, and its failure is the one thrown.
		const earlier = new Error('item 2 failed');
		items.gates[2].fail(earlier);
		await settle();
		expect(items.contexts.get(3)?.stop.aborted).toBe(true);
		expect(items.contexts.get(1)?.stop.aborted).toBe(false);
		// A stopped item failing last changes nothing either.
		items.gates[5].fail(new Error('item 5 failed'));
		await settle();
		for (const index of [0, 1, 3, 6]) items.gates[index].open('x');
		expect(await rejected(run)).toBe(earlier);
	});

	it('an item that throws before its first await stops the later items all the same', async () => {
		const started: number[] = [];
		const failure = new Error('bad input of item 1');
		const run = runItems(5, 1, async (item) => {
			started.push(item.index);
			if (item.index === 1) throw failure;
			return 'ok';
		});
		expect(await rejected(run)).toBe(failure);
		expect(started).toEqual([0, 1]);
	});
});

describe('item loop: an item that only waits releases its slot', () => {
	it('lets the next item start while it waits, and only once however often it releases', async () => {
		const started: number[] = [];
		const creates = [gate<void>(), gate<void>(), gate<void>()];
		const jobs = [gate<string>(), gate<string>(), gate<string>()];
		// Each item starts its job (one request), releases its slot, then only waits for the job to end.
		const run = watch(
			runItems(3, 1, async (item) => {
				started.push(item.index);
				await creates[item.index].promise;
				item.releaseSlot();
				item.releaseSlot();
				return await jobs[item.index].promise;
			}),
		);
		await settle();
		expect(started).toEqual([0]);
		creates[0].open();
		await settle();
		// Item 0 waits for its job and gave its one place to item 1 (once: item 2 does not start beside them).
		expect(started).toEqual([0, 1]);
		creates[1].open();
		await settle();
		expect(started).toEqual([0, 1, 2]);
		creates[2].open();
		for (const index of [2, 1, 0]) {
			jobs[index].open(`job ${index}`);
			await settle();
		}
		expect(await run.promise).toEqual(['job 0', 'job 1', 'job 2']);
	});

	it('a released slot does not let another item start beside one that still holds its own', async () => {
		const items = gatedItems(4);
		const run = runItems(4, 2, async (item) => {
			const result = items.run(item);
			if (item.index === 0) item.releaseSlot();
			return await result;
		});
		await settle();
		// Item 0 released its place: items 1 and 2 hold the two places; item 3 waits for one of them.
		expect(items.started).toEqual([0, 1, 2]);
		items.gates[0].open('a');
		await settle();
		expect(items.started).toEqual([0, 1, 2]);
		items.gates[1].open('b');
		await settle();
		expect(items.started).toEqual([0, 1, 2, 3]);
		items.gates[2].open('c');
		items.gates[3].open('d');
		expect(await run).toEqual(['a', 'b', 'c', 'd']);
	});
});
