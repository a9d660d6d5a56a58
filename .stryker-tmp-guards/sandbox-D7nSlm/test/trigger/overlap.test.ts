/**
 * Polls that overlap. n8n's legacy scheduler starts a poll on every tick, even while the previous one of the
 * same node still runs (a backlog, a slow service, a busy main); both would start from the same saved
 * position and emit the same events. The trigger runs one poll per node at a time: the second returns nothing
 * and touches nothing, and the next poll goes on from where the first ended.
 */
// @ts-nocheck

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src/api';
import { claimPoll, pollKey, SAVE_AWAITED_MS, STALE_AFTER_MS } from '../../nodes/FileTransferManagerTrigger/inFlight';
import { countBy, handleFor, keys, pollJson, sandboxForTrigger, triggerState } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await sandboxForTrigger();
});
afterAll(async () => {
	await sandbox.close();
});
afterEach(() => sandbox.faults.clear());

const snapshot = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

it('a poll that starts while another of the same node runs emits nothing and saves nothing; each event is delivered once', async () => {
	const handle = handleFor(sandbox);
	expect(await handle.poll()).toBeNull();
	const ids = sandbox.control.insertJobs(30, { status: 'failed' });
	// The first poll's list request is held for a while, so that the second starts while it runs.
	sandbox.faults.add({ kind: 'slow', method: 'GET', path: '/jobs', times: 1, delayMs: 1500 });
	const before = snapshot(triggerState(handle));
	const first = pollJson(handle);
	await new Promise((resolve) => setTimeout(resolve, 200));
	const listsBefore = sandbox.requests.count({ method: 'GET', path: '/jobs' });
	const second = await pollJson(handle);
	expect(second).toEqual([]);
	// It sent no request and left the state as it was.
	expect(sandbox.requests.count({ method: 'GET', path: '/jobs' })).toBe(listsBefore);
	expect(snapshot(triggerState(handle))).toEqual(before);

	const delivered = keys(await first);
	expect([...countBy(delivered).values()].every((n) => n === 1)).toBe(true);
	expect(new Set(delivered)).toEqual(new Set(ids.map((id) => `${id}:failed`)));
	// The claim is released: the next poll runs, and finds nothing new.
	expect(await pollJson(handle)).toEqual([]);
});

it('two trigger nodes (two workflows) poll side by side', async () => {
	const a = handleFor(sandbox);
	const b = handleFor(sandbox);
	await Promise.all([a.poll(), b.poll()]);
	const ids = sandbox.control.insertJobs(3, { status: 'finished' });
	const [fromA, fromB] = await Promise.all([pollJson(a), pollJson(b)]);
	const expected = new Set(ids.map((id) => `${id}:finished`));
	expect(new Set(keys(fromA))).toEqual(expected);
	expect(new Set(keys(fromB))).toEqual(expected);
});

it('a failed poll releases its claim', async () => {
	const handle = handleFor(sandbox);
	expect(await handle.poll()).toBeNull();
	const [id] = sandbox.control.insertJobs(1, { status: 'failed' });
	sandbox.faults.add({ kind: 'internal-error', method: 'GET', path: '/jobs', times: 1 });
	await expect(handle.poll()).rejects.toThrow();
	expect(keys(await pollJson(handle))).toEqual([`${id}:failed`]);
});

it('a claim older than the stale bound is taken over, and only its holder releases it', () => {
	const key = pollKey('wf-stale', 'node-1', 'Trigger');
	const t0 = 1_000_000;
	const releaseOld = claimPoll(key, t0);
	expect(releaseOld).toBeDefined();
	expect(claimPoll(key, t0 + STALE_AFTER_MS - 1)).toBeUndefined();
	const releaseNew = claimPoll(key, t0 + STALE_AFTER_MS);
	expect(releaseNew).toBeDefined();
	// The poll that lost its claim ends late: its release leaves the new claim in place.
	releaseOld!();
	expect(claimPoll(key, t0 + STALE_AFTER_MS + 1)).toBeUndefined();
	releaseNew!();
	expect(claimPoll(key, t0 + STALE_AFTER_MS + 2)).toBeDefined();
});

it('nodes without an id are told apart by name', () => {
	expect(pollKey('wf', undefined, 'A')).not.toBe(pollKey('wf', undefined, 'B'));
	expect(pollKey('wf', 'id-1', 'A')).toBe(pollKey('wf', 'id-1', 'B'));
});

describe("n8n's durable scheduler: a poll handed the position from before the previous poll, whose save is on its way", () => {
	// n8n saves the position a poll left together with its execution, after the poll returned; the next poll's
	// task may have read the position from its database before that.
	it('returns nothing and changes nothing; the poll after the save goes on from there; each event once', async () => {
		const handle = handleFor(sandbox);
		expect(await handle.poll()).toBeNull();
		const saved = snapshot(handle.staticData()) as IDataObject;
		const first = sandbox.control.insertJobs(5, { status: 'failed' });
		const delivered = keys(await pollJson(handle));
		expect(new Set(delivered)).toEqual(new Set(first.map((id) => `${id}:failed`)));
		const left = snapshot(handle.staticData()) as IDataObject;

		// The next task read the database before the save: it is handed the position from before (its keys in
		// another order, as a database may return them).
		handle.load(reordered(saved));
		const lists = sandbox.requests.count({ method: 'GET', path: '/jobs' });
		expect(await pollJson(handle)).toEqual([]);
		expect(sandbox.requests.count({ method: 'GET', path: '/jobs' })).toBe(lists);
		expect(snapshot(handle.staticData())).toEqual(saved);

		// The save landed (and its keys came back in another order, as a database may return them).
		const second = sandbox.control.insertJobs(3, { status: 'finished' });
		handle.load(reordered(left));
		expect(new Set(keys(await pollJson(handle)))).toEqual(new Set(second.map((id) => `${id}:finished`)));
	});

	it('a position n8n never saved (its execution not stored, or the poll abandoned) is read again once the wait is over', async () => {
		const handle = handleFor(sandbox);
		expect(await handle.poll()).toBeNull();
		const saved = snapshot(handle.staticData()) as IDataObject;
		const ids = sandbox.control.insertJobs(4, { status: 'failed' });
		const expected = new Set(ids.map((id) => `${id}:failed`));
		const now = jest.spyOn(Date, 'now');
		try {
			const t0 = Date.now();
			now.mockReturnValue(t0);
			expect(new Set(keys(await pollJson(handle)))).toEqual(expected);
			// n8n discarded those items and kept the old position.
			handle.load(saved);
			now.mockReturnValue(t0 + SAVE_AWAITED_MS - 1);
			expect(await pollJson(handle)).toEqual([]);
			handle.load(saved);
			now.mockReturnValue(t0 + SAVE_AWAITED_MS);
			expect(new Set(keys(await pollJson(handle)))).toEqual(expected);
		} finally {
			now.mockRestore();
		}
	});
});

/** The same data with every object's keys in reverse order. */
function reordered(value: unknown): IDataObject {
	const flip = (entry: unknown): unknown => {
		if (Array.isArray(entry)) return entry.map(flip);
		if (entry !== null && typeof entry === 'object') {
			return Object.fromEntries(Object.entries(entry as IDataObject).reverse().map(([k, v]) => [k, flip(v)]));
		}
		return entry;
	};
	return flip(value) as IDataObject;
}

it("a poll that delivered nothing is not awaited: handed the position from before it, the next poll reads (n8n saved that poll's position before its turn ended)", async () => {
	const handle = handleFor(sandbox);
	expect(await handle.poll()).toBeNull();
	const atActivation = snapshot(handle.staticData()) as IDataObject;
	expect(await handle.poll()).toBeNull();
	handle.load(atActivation);
	const lists = sandbox.requests.count({ method: 'GET', path: '/jobs' });
	expect(await handle.poll()).toBeNull();
	expect(sandbox.requests.count({ method: 'GET', path: '/jobs' })).toBeGreaterThan(lists);
	const [id] = sandbox.control.insertJobs(1, { status: 'finished' });
	expect(keys(await pollJson(handle))).toEqual([`${id}:finished`]);
});

describe("n8n's durable scheduler: the poll at activation is a test whose position n8n does not save", () => {
	it('the first scheduled poll, handed no position, starts from where the activation stood: a job that failed in between is delivered, once', async () => {
		const handle = handleFor(sandbox);
		expect(await handle.poll()).toBeNull();
		const [between] = sandbox.control.insertJobs(1, { status: 'failed' });
		handle.load({});
		expect(keys(await pollJson(handle))).toEqual([`${between}:failed`]);
		const left = snapshot(handle.staticData()) as IDataObject;
		// The save of that poll's position is on its way: the next poll is handed none again.
		handle.load({});
		expect(await pollJson(handle)).toEqual([]);
		const [later] = sandbox.control.insertJobs(1, { status: 'finished' });
		handle.load(left);
		expect(keys(await pollJson(handle))).toEqual([`${later}:finished`]);
	});

	it('once n8n hands a saved position, a poll handed none again (the workflow started afresh) takes a new position', async () => {
		const handle = handleFor(sandbox);
		expect(await handle.poll()).toBeNull();
		handle.load({});
		expect(await handle.poll()).toBeNull();
		handle.load(snapshot(handle.staticData()) as IDataObject);
		expect(await handle.poll()).toBeNull();
		// A job that failed before the workflow started afresh: the new position is taken after it.
		sandbox.control.insertJobs(1, { status: 'failed' });
		handle.load({});
		expect(await handle.poll()).toBeNull();
		const [after] = sandbox.control.insertJobs(1, { status: 'failed' });
		expect(keys(await pollJson(handle))).toEqual([`${after}:failed`]);
	});
});
