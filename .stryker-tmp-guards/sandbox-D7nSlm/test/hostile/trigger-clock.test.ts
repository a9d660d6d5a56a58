/**
 * One job stamped in the future could silence the trigger for good: were the cursor moved to the newest
 * updatedAt seen, every later change, stamped earlier, would never be listed again.
 *
 * Guarantee: a timestamp ahead of the service's own clock (its Date header) by more than the tolerance
 * never moves the cursor beyond that clock; the job is still delivered once. The hostile "service" in
 * front of the sandbox shows chosen jobs with chosen `updatedAt` values (sorted first, as the real list
 * would under sort=-updatedAt) and can send any Date header, or none. Each test watches jobs of its own
 * user (a filter), so that the tests do not see each other's jobs.
 */
// @ts-nocheck

import { randomUUID } from 'node:crypto';
import type * as http from 'node:http';

import type { IDataObject } from 'n8n-workflow';

import type { TriggerHandle } from '../harness/engine';
import { triggerHandle } from '../harness/engine';
import { keys, NODE_NAME, nextMillisecond, params, pollJson, triggerState } from '../trigger/helpers';
import { rl, useHostileSuite } from './helpers';
import { json } from './servers';

const FAR = '9999-12-31T23:59:59.999Z';
const YEAR_MS = 365.25 * 24 * 3600 * 1000;
const TOLERANCE_MS = 10_000;

const h = useHostileSuite();

interface ListRewrite {
	/** The updatedAt the service shows for these jobs (the others as the sandbox has them). */
	stamps: Map<string, string>;
	/** The Date header: undefined sends the real time, null sends none. */
	date?: () => string | null | undefined;
}

/** Every GET /jobs goes to the sandbox, and its answer is changed as `rewrite` says. */
function rewriteLists(rewrite: ListRewrite): void {
	h.service.on('GET', '/jobs', async (req: http.IncomingMessage, res: http.ServerResponse) => {
		const answer = await fetch(new URL(req.url ?? '/', h.sandbox.baseUrl), {
			headers: {
				authorization: String(req.headers.authorization ?? ''),
				accept: String(req.headers.accept ?? 'application/vnd.api+json'),
			},
		});
		const text = await answer.text();
		if (answer.status !== 200) {
			res.writeHead(answer.status, { 'Content-Type': 'application/vnd.api+json' });
			res.end(text);
			return;
		}
		const doc = JSON.parse(text) as { data: Array<{ id: string; attributes: IDataObject }> };
		for (const job of doc.data) {
			const stamp = rewrite.stamps.get(job.id);
			if (stamp !== undefined) job.attributes.updatedAt = stamp;
		}
		// Newest first, as the service sorts (stable, so ties keep the sandbox's order).
		doc.data.sort((a, b) => Date.parse(String(b.attributes.updatedAt)) - Date.parse(String(a.attributes.updatedAt)));
		const date = rewrite.date?.();
		if (date === null) res.sendDate = false;
		json(res, 200, doc, typeof date === 'string' ? { Date: date } : {});
	});
}

/** List requests the trigger sent to the service. */
const listRequests = (): number =>
	h.service.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/jobs?')).length;

/** Polls once: the items, and how many list requests the poll cost. */
async function polled(trigger: TriggerHandle): Promise<{ items: IDataObject[]; requests: number }> {
	const before = listRequests();
	const items = await pollJson(trigger);
	return { items, requests: listRequests() - before };
}

const stampOf = (id: string): string => h.sandbox.state.job(id)!.attributes.updatedAt;
const future = (ms: number): string => new Date(Date.now() + ms).toISOString();
const keysAndRequests = ({ items, requests }: { items: IDataObject[]; requests: number }) => ({ keys: keys(items), requests });
const snapshot = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

async function nextSecond(): Promise<void> {
	const second = Math.floor(Date.now() / 1000);
	while (Math.floor(Date.now() / 1000) === second) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A user of its own for the test, with one finished job; the trigger watches that user's jobs. */
async function setUp(events = ['failed', 'finished', 'stuck']) {
	const user = randomUUID();
	const stamps = new Map<string, string>();
	const rewrite: ListRewrite = { stamps };
	rewriteLists(rewrite);
	const insert = (status: 'running' | 'finished' = 'running') => h.sandbox.control.insertJobs(1, { status, userId: user })[0];
	const [baseline] = [insert('finished')];
	const trigger = triggerHandle(h.credentials(), params({ events, filters: { userId: rl(user) } }));
	expect(await trigger.poll()).toBeNull();
	expect(triggerState(trigger).cursor).toBe(stampOf(baseline));
	/** A job that enters `status` now (a real stamp, one millisecond after the previous change). */
	const change = async (status: 'finished' | 'failed' | 'stuck' | 'running' | 'canceled', id = insert()) => {
		await nextMillisecond();
		h.sandbox.control.setJobStatus(id, status);
		return id;
	};
	return { user, stamps, rewrite, insert, trigger, change, baseline };
}

/** A finished and a failed job, then a poll: exactly those two, one request, the cursor at the newest. */
async function laterEventsFlow(t: Awaited<ReturnType<typeof setUp>>, rounds = 3): Promise<void> {
	for (let round = 0; round < rounds; round++) {
		const a = await t.change('finished');
		const b = await t.change('failed');
		const { items, requests } = await polled(t.trigger);
		expect(keys(items)).toEqual([`${a}:finished`, `${b}:failed`]);
		expect(items.every((item) => !('aheadOfServiceClock' in item))).toBe(true);
		expect(requests).toBe(1);
		expect(triggerState(t.trigger).cursor).toBe(stampOf(b));
	}
}

describe('a job stamped ahead of the service clock', () => {
	it('in a watched status (9999-12-31): delivered once, flagged; every later finished and failed event is delivered', async () => {
		const t = await setUp();
		const ahead = await t.change('finished');
		t.stamps.set(ahead, FAR);

		const first = await polled(t.trigger);
		expect(keys(first.items)).toEqual([`${ahead}:finished`]);
		expect(first.requests).toBe(1);
		expect(first.items[0]).toMatchObject({ seenAt: FAR, updatedAt: FAR, aheadOfServiceClock: true });
		expect(first.requests).toBe(1);
		// The cursor stays where the newest job with a sane stamp put it.
		expect(triggerState(t.trigger)).toMatchObject({
			version: 3,
			cursor: stampOf(t.baseline),
			ahead: [{ id: ahead, status: 'finished' }],
		});

		await laterEventsFlow(t);
		expect(triggerState(t.trigger).ahead).toEqual([{ id: ahead, status: 'finished' }]);
	});

	it('in an unwatched status (running, 9999-12-31): nothing for it, later events delivered, nothing kept', async () => {
		const t = await setUp();
		const running = await t.change('running');
		t.stamps.set(running, FAR);
		const first = await polled(t.trigger);
		expect(first).toEqual({ items: [], requests: 1 });
		expect(triggerState(t.trigger)).toMatchObject({ cursor: stampOf(t.baseline), ahead: [], atCursor: [t.baseline] });
		await laterEventsFlow(t);
	});

	it('10 years ahead: the same, for a failed job', async () => {
		const t = await setUp();
		const failed = await t.change('failed');
		const stamp = future(10 * YEAR_MS);
		t.stamps.set(failed, stamp);
		const first = await polled(t.trigger);
		expect(keys(first.items)).toEqual([`${failed}:failed`]);
		expect(first.requests).toBe(1);
		expect(first.items[0]).toMatchObject({ seenAt: stamp, aheadOfServiceClock: true });
		expect(triggerState(t.trigger)).toMatchObject({ cursor: stampOf(t.baseline), ahead: [{ id: failed, status: 'failed' }] });
		await laterEventsFlow(t, 2);
	});

	it('on top of the list: an idle poll still costs exactly one request and writes nothing', async () => {
		const t = await setUp();
		const ahead = await t.change('finished');
		t.stamps.set(ahead, FAR);
		expect(keysAndRequests(await polled(t.trigger))).toEqual({ keys: [`${ahead}:finished`], requests: 1 });
		const state = snapshot(t.trigger.staticData());
		for (let i = 0; i < 3; i++) {
			expect(await polled(t.trigger)).toEqual({ items: [], requests: 1 });
			expect(snapshot(t.trigger.staticData())).toEqual(state);
		}
		expect(triggerState(t.trigger)).toMatchObject({ cursor: stampOf(t.baseline), ahead: [{ id: ahead, status: 'finished' }] });
		// The page was read from the top, with no page cursor.
		const last = h.service.requests.filter((r) => r.url.startsWith('/jobs?')).pop()!;
		expect(new URL(last.url, 'http://x').searchParams.get('page[after]')).toBeNull();
	});

	it('survives a restart (JSON round trip of the static data) between every poll', async () => {
		const t = await setUp();
		const ahead = await t.change('finished');
		t.stamps.set(ahead, future(10 * YEAR_MS));
		t.trigger.restart();
		expect(keysAndRequests(await polled(t.trigger))).toEqual({ keys: [`${ahead}:finished`], requests: 1 });
		for (let round = 0; round < 3; round++) {
			t.trigger.restart();
			const a = await t.change('finished');
			const b = await t.change('failed');
			t.trigger.restart();
			const { items, requests } = await polled(t.trigger);
			expect(keys(items)).toEqual([`${a}:finished`, `${b}:failed`]);
			expect(requests).toBe(1);
			expect(triggerState(t.trigger)).toMatchObject({ cursor: stampOf(b), ahead: [{ id: ahead, status: 'finished' }] });
		}
	});

	it('stuck: delivered once while ahead, not again while it stays stuck', async () => {
		const t = await setUp();
		const stuck = await t.change('stuck');
		t.stamps.set(stuck, FAR);
		const first = await polled(t.trigger);
		expect(keys(first.items)).toEqual([`${stuck}:stuck`]);
		expect(first.requests).toBe(1);
		expect(first.items[0].aheadOfServiceClock).toBe(true);
		expect(await polled(t.trigger)).toEqual({ items: [], requests: 1 });
		expect(triggerState(t.trigger)).toMatchObject({ cursor: stampOf(t.baseline), stuck: [stuck], ahead: [] });
		await laterEventsFlow(t, 1);
	});

	it('already there at activation: the position is taken below it, it is never delivered, later events are', async () => {
		const user = randomUUID();
		const stamps = new Map<string, string>();
		rewriteLists({ stamps });
		const [ahead] = h.sandbox.control.insertJobs(1, { status: 'finished', userId: user });
		stamps.set(ahead, FAR);
		await nextMillisecond();
		const [sane] = h.sandbox.control.insertJobs(1, { status: 'running', userId: user });
		h.sandbox.control.setJobStatus(sane, 'failed');
		const trigger = triggerHandle(h.credentials(), params({ filters: { userId: rl(user) } }));
		const before = listRequests();
		expect(await trigger.poll()).toBeNull();
		// One page for the position, one for the jobs stuck already.
		expect(listRequests() - before).toBe(2);
		expect(triggerState(trigger)).toMatchObject({
			cursor: stampOf(sane),
			atCursor: [sane],
			ahead: [{ id: ahead, status: 'finished' }],
		});
		expect(await polled(trigger)).toEqual({ items: [], requests: 1 });
		const [later] = h.sandbox.control.insertJobs(1, { status: 'running', userId: user });
		await nextMillisecond();
		h.sandbox.control.setJobStatus(later, 'finished');
		expect(keysAndRequests(await polled(trigger))).toEqual({ keys: [`${later}:finished`], requests: 1 });
		expect(triggerState(trigger).cursor).toBe(stampOf(later));
	});
});

describe('the service corrects the timestamp later', () => {
	it('to a recent time (listed again): no repeat, the entry goes, nothing missed', async () => {
		const t = await setUp();
		const ahead = await t.change('finished');
		t.stamps.set(ahead, FAR);
		expect(keysAndRequests(await polled(t.trigger))).toEqual({ keys: [`${ahead}:finished`], requests: 1 });

		// Corrected to now: the newest sane job, so it becomes the cursor.
		await nextMillisecond();
		const corrected = new Date().toISOString();
		t.stamps.set(ahead, corrected);
		expect(await polled(t.trigger)).toEqual({ items: [], requests: 1 });
		expect(triggerState(t.trigger)).toMatchObject({ cursor: corrected, atCursor: [ahead], ahead: [] });
		// Listed again at the cursor's millisecond: still no repeat.
		expect(await polled(t.trigger)).toEqual({ items: [], requests: 1 });
		await laterEventsFlow(t, 2);
	});

	it('to its real, older time (no longer listed): the entry goes, nothing repeated, nothing missed', async () => {
		const t = await setUp();
		const ahead = await t.change('finished');
		t.stamps.set(ahead, FAR);
		expect(keysAndRequests(await polled(t.trigger))).toEqual({ keys: [`${ahead}:finished`], requests: 1 });
		await laterEventsFlow(t, 1);
		t.stamps.delete(ahead);
		expect(await polled(t.trigger)).toEqual({ items: [], requests: 1 });
		expect(triggerState(t.trigger).ahead).toEqual([]);
		await laterEventsFlow(t, 1);
	});
});

describe('the clock it is compared with', () => {
	it('within the tolerance (5 s ahead): an ordinary job, as before; 15 s ahead: ahead of the clock', async () => {
		const t = await setUp();
		const slightly = await t.change('finished');
		const beyond = await t.change('finished');
		const slightStamp = future(TOLERANCE_MS / 2);
		t.stamps.set(slightly, slightStamp);
		t.stamps.set(beyond, future(TOLERANCE_MS + 5_000));
		const { items, requests } = await polled(t.trigger);
		expect(keys(items)).toEqual([`${slightly}:finished`, `${beyond}:finished`]);
		expect(items[0]).not.toHaveProperty('aheadOfServiceClock');
		expect(items[1].aheadOfServiceClock).toBe(true);
		expect(requests).toBe(1);
		expect(triggerState(t.trigger)).toMatchObject({
			cursor: slightStamp,
			atCursor: [slightly],
			ahead: [{ id: beyond, status: 'finished' }],
		});
	});

	it("is the service's Date header, not n8n's: a service an hour ahead makes a stamp 30 min ahead ordinary", async () => {
		const t = await setUp();
		t.rewrite.date = () => new Date(Date.now() + 3600_000).toUTCString();
		const job = await t.change('finished');
		const stamp = future(1800_000);
		t.stamps.set(job, stamp);
		const { items, requests } = await polled(t.trigger);
		expect(keys(items)).toEqual([`${job}:finished`]);
		expect(requests).toBe(1);
		expect(items[0]).not.toHaveProperty('aheadOfServiceClock');
		expect(triggerState(t.trigger)).toMatchObject({ cursor: stamp, ahead: [] });
	});

	it('a Date header an hour behind: every fresh job looks ahead, each is delivered once; when the clock is right, none again', async () => {
		const t = await setUp();
		t.rewrite.date = () => new Date(Date.now() - 3600_000).toUTCString();
		const a = await t.change('finished');
		const b = await t.change('failed');
		const first = await polled(t.trigger);
		expect(keys(first.items)).toEqual([`${a}:finished`, `${b}:failed`]);
		expect(first.requests).toBe(1);
		expect(first.items.every((item) => item.aheadOfServiceClock === true)).toBe(true);
		// The stored cursor is ahead of that clock too: it comes back to the service's (wrong) now, and the
		// baseline job listed again is not repeated (it was handled at the stored cursor).
		expect(Date.parse(String(triggerState(t.trigger).cursor))).toBeLessThan(Date.now() - 3500_000);
		expect(triggerState(t.trigger).ahead).toHaveLength(3);
		expect(await polled(t.trigger)).toEqual({ items: [], requests: 1 });
		t.rewrite.date = undefined;
		expect(await polled(t.trigger)).toEqual({ items: [], requests: 1 });
		expect(triggerState(t.trigger)).toMatchObject({ cursor: stampOf(b), atCursor: [b], ahead: [] });
		await laterEventsFlow(t, 1);
	});

	it('a Date header that says 9999 for one poll: the cursor it allowed is healed at the next poll, later events flow', async () => {
		const t = await setUp();
		const ahead = await t.change('finished');
		t.stamps.set(ahead, FAR);
		t.rewrite.date = () => 'Fri, 31 Dec 9999 23:59:59 GMT';
		// By that clock the job is not ahead: it is delivered as an ordinary job and moves the cursor.
		const lied = await polled(t.trigger);
		expect(keys(lied.items)).toEqual([`${ahead}:finished`]);
		expect(lied.requests).toBe(1);
		expect(lied.items[0]).not.toHaveProperty('aheadOfServiceClock');
		expect(triggerState(t.trigger)).toMatchObject({ cursor: FAR, atCursor: [ahead] });
		t.rewrite.date = undefined;
		await nextSecond();
		const heal = await polled(t.trigger);
		expect(heal).toEqual({ items: [], requests: 1 });
		expect(Date.parse(String(triggerState(t.trigger).cursor))).toBeLessThanOrEqual(Date.now());
		expect(triggerState(t.trigger).ahead).toEqual([{ id: ahead, status: 'finished' }]);
		await laterEventsFlow(t, 2);
	});

	it('no Date header: the local clock stands in, and a future job is still held back', async () => {
		const t = await setUp();
		t.rewrite.date = () => null;
		const ahead = await t.change('finished');
		t.stamps.set(ahead, FAR);
		const first = await polled(t.trigger);
		expect(keys(first.items)).toEqual([`${ahead}:finished`]);
		expect(first.requests).toBe(1);
		expect(triggerState(t.trigger)).toMatchObject({ cursor: stampOf(t.baseline), ahead: [{ id: ahead, status: 'finished' }] });
		await laterEventsFlow(t, 2);
	});
});

describe('state written by version 1', () => {
	const key = `node:${NODE_NAME}`;
	/** Replaces the stored state with a version 1 one, then restarts. */
	function storeVersion1(trigger: TriggerHandle, v1: IDataObject): void {
		const data = trigger.staticData()[key] as IDataObject;
		for (const name of Object.keys(data)) delete data[name];
		Object.assign(data, v1);
		trigger.restart();
	}

	it('a sane one keeps working and is written back as version 3', async () => {
		const t = await setUp();
		const { fingerprint, cursor, atCursor, stuck } = triggerState(t.trigger);
		storeVersion1(t.trigger, { version: 1, fingerprint, cursor, atCursor, stuck });
		await laterEventsFlow(t, 1);
		expect(triggerState(t.trigger)).toMatchObject({ version: 3, ahead: [] });
	});

	it('one poisoned by a future job is healed: the cursor comes back to the service clock, the job is not repeated, nothing is missed after', async () => {
		const t = await setUp();
		const ahead = await t.change('finished');
		t.stamps.set(ahead, FAR);
		// What version 1 stored after delivering it: the cursor at its stamp, the job handled there.
		const { fingerprint } = triggerState(t.trigger);
		storeVersion1(t.trigger, { version: 1, fingerprint, cursor: FAR, atCursor: [ahead], stuck: [] });
		// A change made while the state was poisoned: version 1 never listed it; it is not recovered.
		const lost = await t.change('failed');
		await nextSecond();

		const before = Date.now();
		const heal = await polled(t.trigger);
		const after = Date.now();
		expect(heal).toEqual({ items: [], requests: 1 });
		const state = triggerState(t.trigger);
		expect(state).toMatchObject({ version: 3, atCursor: [], ahead: [{ id: ahead, status: 'finished' }] });
		// The service's now: its Date header (whole seconds) at the poll.
		const cursor = Date.parse(String(state.cursor));
		expect(cursor).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
		expect(cursor).toBeLessThanOrEqual(after);
		expect(cursor).toBeGreaterThan(Date.parse(stampOf(lost)));

		await laterEventsFlow(t);
		expect(triggerState(t.trigger).ahead).toEqual([{ id: ahead, status: 'finished' }]);
	});

	it('poisoned, with a newer future job that version 1 had not yet delivered: that one is delivered once', async () => {
		const t = await setUp();
		const [old, newer] = [await t.change('finished'), await t.change('failed')];
		t.stamps.set(old, '9999-01-01T00:00:00.000Z');
		t.stamps.set(newer, FAR);
		const { fingerprint } = triggerState(t.trigger);
		storeVersion1(t.trigger, { version: 1, fingerprint, cursor: '9999-01-01T00:00:00.000Z', atCursor: [old], stuck: [] });
		const heal = await polled(t.trigger);
		expect(keys(heal.items)).toEqual([`${newer}:failed`]);
		expect(heal.requests).toBe(1);
		expect(triggerState(t.trigger).ahead).toEqual(
			[
				{ id: old, status: 'finished' },
				{ id: newer, status: 'failed' },
			].sort((a, b) => (a.id < b.id ? -1 : 1)),
		);
		expect(await polled(t.trigger)).toEqual({ items: [], requests: 1 });
		await laterEventsFlow(t, 1);
	});
});
