/**
 * sweep.ts's Sweep, one part at a time: the polls that the drains of test/unit/trigger-drain.test.ts never make
 * (a poll that heals its cursor and leaves a gap, then the poll that reads that gap) and the bookkeeping of a
 * poll stopped in the middle of a part (what the next poll starts from: nothing lost, nothing delivered twice).
 * Each scenario is a few jobs, read through the module's own functions (place, eventOf, take, advance,
 * complete, result) the way drain.ts's sweepList reads them. docs/trigger.md says what the trigger promises.
 */
import type { Job, JobStatus } from '../../nodes/shared/api/types';
import type { Gap, PageToken, TriggerState } from '../../nodes/FileTransferManagerTrigger/state';
import type { WindowResult } from '../../nodes/FileTransferManagerTrigger/sweep';
import { Sweep } from '../../nodes/FileTransferManagerTrigger/sweep';
import type { ServiceClock, WatchedEvent } from '../../nodes/FileTransferManagerTrigger/watch';
import { serviceClock } from '../../nodes/FileTransferManagerTrigger/watch';
import { makeJob, uuid } from './fixtures';

/** The service's time during the polls: 2026-11-21T10:00:00.000Z. */
const NOW = Date.UTC(2026, 10, 21, 10, 0, 0, 0);
const CLOCK: ServiceClock = serviceClock(NOW, true);
/** The stamp `ms` milliseconds after NOW. */
const at = (ms: number): string => new Date(NOW + ms).toISOString();
/** A stored cursor an hour ahead of the service's clock (far past its 10 s of tolerance): it is healed. */
const AHEAD = at(3_600_000);

const WATCHED = new Set<WatchedEvent>(['finished', 'failed', 'stuck']);

const [A, B, C, D, E, F] = [0xa, 0xb, 0xc, 0xd, 0xe, 0xf].map(uuid);
const G = uuid(0x16);
const X = uuid(0x58);

const job = (id: string, status: JobStatus, updatedAt: string): Job => makeJob(id, { status, updatedAt });

function state(overrides: Partial<TriggerState> = {}): TriggerState {
	return { version: 3, fingerprint: 'fp', cursor: at(-60_000), atCursor: [], stuck: [], ahead: [], gaps: [], ...overrides };
}

/**
 * Reads part `index` of `sweep` from `jobs` (the part's listing, newest first, on page `page`) as sweepList does,
 * handling at most `takes` member jobs (a number, or a budget shared by several parts): 'stopped' when the
 * budget ended it before a further member, else 'complete' (a job that ends the part, or the end of the list).
 */
function read(sweep: Sweep, index: number, jobs: Job[], takes: number | { left: number } = Infinity, page: PageToken = null): 'complete' | 'stopped' {
	const budget = typeof takes === 'number' ? { left: takes } : takes;
	for (const listed of jobs) {
		const placement = sweep.place(index, listed);
		if (placement === 'skip') continue;
		if (placement === 'done') break;
		if (budget.left === 0) return 'stopped';
		sweep.take(index, listed, page);
		budget.left--;
	}
	sweep.complete(index);
	return 'complete';
}

/** The events of a poll as `id:event`, oldest first. */
const eventsOf = (result: WindowResult): string[] => result.events.map(({ job: j, event }) => `${j.id}:${event}`);

describe('a poll that heals its cursor and stops before the end of its window', () => {
	// Newest first. The stored cursor is an hour ahead: the poll lists from NOW. F (stamped two hours ahead) is
	// newer than the stored cursor: an event. A, B and C are older than it: handled by the polls that wrote it.
	const list = [
		job(F, 'finished', at(7_200_000)),
		job(A, 'finished', at(5_000)),
		job(G, 'stuck', at(4_000)),
		job(B, 'finished', at(3_000)),
		job(C, 'failed', at(1_000)),
		job(D, 'finished', at(-1_000)),
	];
	const stored = state({ cursor: AHEAD, atCursor: [E, D] });

	function healing(): WindowResult {
		const sweep = new Sweep(stored, WATCHED, CLOCK);
		expect(read(sweep, 0, list, 3, { after: 'page-1' })).toBe('stopped');
		return sweep.result();
	}

	it('leaves a gap that keeps the stored cursor as the bound of what was handled', () => {
		const result = healing();
		expect(eventsOf(result)).toEqual([`${G}:stuck`, `${F}:finished`]);
		const { next } = result;
		expect(next).toEqual<TriggerState>({
			...stored,
			cursor: at(5_000),
			atCursor: [A],
			stuck: [G],
			ahead: [{ id: F, status: 'finished' }],
			gaps: [
				{
					top: { updatedAt: at(4_000), id: G },
					after: { updatedAt: at(4_000), id: G },
					atTop: [],
					page: { after: 'page-1' },
					until: at(0),
					atUntil: [],
					handledUpTo: { cursor: AHEAD, atCursor: [D, E] },
				},
			],
		});
	});

	it('and the next poll reads that gap to its end without delivering what the stored cursor had handled', () => {
		const sweep = new Sweep(healing().next, WATCHED, CLOCK);
		expect(read(sweep, 0, list)).toBe('complete');
		expect(read(sweep, 1, list.slice(2))).toBe('complete');
		const { events, next } = sweep.result();
		expect(events).toEqual([]);
		expect(next).toEqual<TriggerState>({ ...stored, cursor: at(5_000), atCursor: [A], stuck: [G], ahead: [{ id: F, status: 'finished' }], gaps: [] });
	});
});

/** One poll of `list` from `from`: the fresh part, then each gap, handling at most `takes` member jobs in all. */
function poll(from: TriggerState, list: Job[], takes = Infinity): WindowResult {
	const sweep = new Sweep(from, WATCHED, CLOCK);
	const budget = { left: takes };
	for (let index = 0; index < sweep.regionCount; index++) {
		if (read(sweep, index, list, budget, sweep.pageOf(index)) === 'stopped') break;
	}
	return sweep.result();
}

describe('polls stopped inside the millisecond of the cursor they set', () => {
	const T0 = at(-60_000);
	const T2 = at(-30_000);
	// Newest first: three jobs finished in one millisecond, one older, one older than the stored cursor T0.
	const list = [job(A, 'finished', T2), job(B, 'finished', T2), job(C, 'finished', T2), job(D, 'failed', at(-45_000)), job(E, 'finished', at(-70_000))];

	it('deliver each job once, and the part above a gap learns the ids the gap handled at its top', () => {
		const poll1 = poll(state({ cursor: T0 }), list, 1);
		expect(eventsOf(poll1)).toEqual([`${A}:finished`]);
		const top = { updatedAt: T2, id: A };
		expect(poll1.next).toEqual(state({ cursor: T2, atCursor: [A], gaps: [{ top, after: top, atTop: [], page: null, until: T0, atUntil: [] }] }));

		const poll2 = poll(poll1.next, list, 2);
		expect(eventsOf(poll2)).toEqual([`${B}:finished`]);
		expect(poll2.next).toEqual(
			state({ cursor: T2, atCursor: [A], gaps: [{ top, after: { updatedAt: T2, id: B }, atTop: [B], page: null, until: T0, atUntil: [] }] }),
		);

		const poll3 = poll(poll2.next, list);
		expect(eventsOf(poll3)).toEqual([`${D}:failed`, `${C}:finished`]);
		expect(poll3.next).toEqual(state({ cursor: T2, atCursor: [A, B, C] }));

		expect(poll(poll3.next, list).events).toEqual([]);
	});
});

describe('progressed: whether a poll moved anything on (a poll stops only after it did)', () => {
	const T0 = at(-60_000);
	const gap: Gap = { top: { updatedAt: T0, id: A }, after: { updatedAt: T0, id: A }, atTop: [], page: { after: 'p' }, until: at(-90_000), atUntil: [] };

	it('is not going over jobs handled already at the cursor\'s millisecond, nor a fresh page turned', () => {
		const sweep = new Sweep(state({ cursor: T0, atCursor: [A] }), WATCHED, CLOCK);
		sweep.take(0, job(A, 'finished', T0), null);
		sweep.take(0, job(B, 'running', T0), null);
		sweep.advance(0, { after: 'p2' });
		expect(sweep.events).toEqual([]);
		expect(sweep.progressed).toBe(false);
	});

	it('is a job newer than the cursor, even without an event', () => {
		const sweep = new Sweep(state({ cursor: T0 }), WATCHED, CLOCK);
		sweep.take(0, job(B, 'running', at(-59_999)), null);
		expect(sweep.progressed).toBe(true);
	});

	it('is any job when there is no cursor yet', () => {
		const sweep = new Sweep(state({ cursor: null }), WATCHED, CLOCK);
		sweep.take(0, job(B, 'running', T0), null);
		expect(sweep.progressed).toBe(true);
	});

	it('is an event at the cursor\'s millisecond', () => {
		const sweep = new Sweep(state({ cursor: T0, atCursor: [A] }), WATCHED, CLOCK);
		sweep.take(0, job(B, 'finished', T0), null);
		expect(sweep.progressed).toBe(true);
	});

	it('is a stuck job seen in another status at the cursor\'s millisecond (its id is let go)', () => {
		const sweep = new Sweep(state({ cursor: T0, stuck: [B] }), WATCHED, CLOCK);
		sweep.take(0, job(B, 'running', T0), null);
		expect(sweep.progressed).toBe(true);
		expect(sweep.result().next.stuck).toEqual([]);
	});

	it('is a job of a gap handled, or a page of a gap turned, even with no event', () => {
		const taken = new Sweep(state({ cursor: T0, gaps: [gap] }), WATCHED, CLOCK);
		taken.take(1, job(B, 'running', at(-70_000)), { after: 'p' });
		expect(taken.progressed).toBe(true);
		const turned = new Sweep(state({ cursor: T0, gaps: [gap] }), WATCHED, CLOCK);
		turned.advance(1, { after: 'p2' });
		expect(turned.progressed).toBe(true);
		expect(turned.pageOf(1)).toEqual({ after: 'p2' });
	});
});

describe('a healing poll that does not get past the jobs stamped ahead of the clock', () => {
	it('keeps the stored cursor and its ids (sorted), and no gap: the next poll heals again', () => {
		const stored = state({ cursor: AHEAD, atCursor: [E, D], ahead: [{ id: C, status: 'failed' }] });
		const sweep = new Sweep(stored, WATCHED, CLOCK);
		const list = [job(F, 'finished', at(7_200_000)), job(A, 'finished', at(5_000))];
		expect(read(sweep, 0, list, 1)).toBe('stopped');
		const result = sweep.result();
		expect(eventsOf(result)).toEqual([`${F}:finished`]);
		const { next } = result;
		expect(next).toEqual(
			state({ cursor: AHEAD, atCursor: [D, E], ahead: [{ id: C, status: 'failed' }, { id: F, status: 'finished' }] }),
		);
	});
});

describe('a gap whose kept page cursor the service refused', () => {
	it('is read from the first page, and keeps that until a page of it is read', () => {
		const gap: Gap = { top: { updatedAt: at(-60_000), id: A }, after: { updatedAt: at(-60_000), id: A }, atTop: [], page: { after: 'old' }, until: null, atUntil: [] };
		const sweep = new Sweep(state({ cursor: at(-60_000), gaps: [gap] }), WATCHED, CLOCK);
		expect(sweep.pageOf(1)).toEqual({ after: 'old' });
		sweep.restartFromFront(1);
		expect(sweep.pageOf(1)).toBeNull();
		expect(read(sweep, 0, [])).toBe('complete');
		expect(sweep.result().next.gaps).toEqual([{ ...gap, page: null }]);
	});
});

describe('two gaps in one millisecond, read to their ends by one poll', () => {
	it('hand every id they handled up to the cursor: the next poll repeats none', () => {
		const T0 = at(-60_000);
		const T2 = at(-30_000);
		const Z = uuid(0x1);
		const older = [job(A, 'finished', T2), job(B, 'finished', T2), job(C, 'failed', T2), job(D, 'finished', T2), job(E, 'finished', at(-90_000))];
		// The first poll stops after A, in T2, and leaves a gap from A down to T0.
		const poll1 = poll(state({ cursor: T0 }), older, 1);
		expect(eventsOf(poll1)).toEqual([`${A}:finished`]);
		// Z finishes in the same millisecond (its id before A's); the second poll stops after it: a second gap, from Z
		// down to T2, over the first one.
		const list = [job(Z, 'finished', T2), ...older];
		const poll2 = poll(poll1.next, list, 1);
		expect(eventsOf(poll2)).toEqual([`${Z}:finished`]);
		const first = { top: { updatedAt: T2, id: A }, after: { updatedAt: T2, id: A }, atTop: [], page: null, until: T0, atUntil: [] };
		const second = { top: { updatedAt: T2, id: Z }, after: { updatedAt: T2, id: Z }, atTop: [], page: null, until: T2, atUntil: [A] };
		expect(poll2.next).toEqual(state({ cursor: T2, atCursor: [Z, A], gaps: [second, first] }));

		const poll3 = poll(poll2.next, list);
		expect(eventsOf(poll3)).toEqual([`${B}:finished`, `${C}:failed`, `${D}:finished`]);
		expect(poll3.next).toEqual(state({ cursor: T2, atCursor: [Z, A, B, C, D] }));
		expect(poll(poll3.next, list).events).toEqual([]);
	});
});

describe('what a part counts as handled', () => {
	const T1 = at(-70_000);
	const T2 = at(-30_000);
	const T3 = at(-20_000);

	it('a job handled at the cursor\'s millisecond that is listed again with a newer stamp, in a final status: an event again', () => {
		const result = poll(state({ cursor: T2, atCursor: [A] }), [job(A, 'failed', T3), job(B, 'finished', T2)]);
		expect(eventsOf(result)).toEqual([`${B}:finished`, `${A}:failed`]);
	});

	it('the cursor\'s millisecond belongs to the fresh part whole when the gap below it begins in an older one', () => {
		// B's gap begins at T1; the fresh part reaches down to T2 (the cursor), every id of it: C (after B's id) too.
		const gap: Gap = { top: { updatedAt: T1, id: B }, after: { updatedAt: T1, id: B }, atTop: [], page: null, until: null, atUntil: [] };
		const list = [job(A, 'finished', T2), job(C, 'finished', T2), job(B, 'finished', T1), job(D, 'finished', at(-80_000))];
		const result = poll(state({ cursor: T2, atCursor: [A], gaps: [gap] }), list);
		expect(eventsOf(result)).toEqual([`${D}:finished`, `${C}:finished`]);
		expect(result.next).toEqual(state({ cursor: T2, atCursor: [A, C] }));
	});

	it('a gap down to the end of the list that keeps a healed cursor\'s bound (as readState takes it): older jobs handled', () => {
		const gap: Gap = {
			top: { updatedAt: T2, id: A },
			after: { updatedAt: T2, id: A },
			atTop: [],
			page: null,
			until: null,
			atUntil: [],
			handledUpTo: { cursor: AHEAD, atCursor: [] },
		};
		const result = poll(state({ cursor: T2, atCursor: [A], gaps: [gap] }), [job(A, 'finished', T2), job(B, 'finished', T1)]);
		expect(result.events).toEqual([]);
		expect(result.next).toEqual(state({ cursor: T2, atCursor: [A] }));
	});
});

describe('a poll whose fresh part lists nothing at or after the cursor', () => {
	it('keeps the cursor where it was while it reads a gap (a gap\'s jobs are older)', () => {
		const T2 = at(-30_000);
		const gap: Gap = { top: { updatedAt: T2, id: A }, after: { updatedAt: T2, id: A }, atTop: [], page: null, until: at(-90_000), atUntil: [] };
		// A, at the cursor, is no longer listed (the list holds only what matches the filters).
		const result = poll(state({ cursor: T2, atCursor: [A], gaps: [gap] }), [job(B, 'finished', at(-40_000))]);
		expect(eventsOf(result)).toEqual([`${B}:finished`]);
		expect(result.next).toEqual(state({ cursor: T2, atCursor: [A] }));
	});

	it('drops the jobs kept as ahead of the clock once it has read its fresh part to the end, with no gap left', () => {
		const result = poll(state({ ahead: [{ id: F, status: 'finished' }] }), []);
		expect(result.next.ahead).toEqual([]);
	});
});

describe('the jobs kept as ahead of the clock while a gap is left', () => {
	const T0 = at(-60_000);
	const stored = state({ cursor: T0, ahead: [{ id: X, status: 'finished' }] });

	it('keeps those not listed again: a later part may still list them', () => {
		const gap: Gap = { top: { updatedAt: T0, id: A }, after: { updatedAt: T0, id: A }, atTop: [], page: null, until: null, atUntil: [] };
		const sweep = new Sweep({ ...stored, gaps: [gap] }, WATCHED, CLOCK);
		expect(read(sweep, 0, [job(B, 'running', at(-1_000))])).toBe('complete');
		expect(read(sweep, 1, [job(C, 'running', at(-61_000))], 0)).toBe('stopped');
		expect(sweep.result().next.ahead).toEqual(stored.ahead);
	});

	it('drops one listed again with a normal stamp, whatever is left', () => {
		const list = [job(X, 'finished', at(-1_000)), job(B, 'finished', at(-2_000))];
		const result = poll(stored, list, 1);
		expect(result.events).toEqual([]);
		expect(result.next.gaps).toHaveLength(1);
		expect(result.next.ahead).toEqual([]);
	});
});

describe('the ids a gap read to its end hands up', () => {
	const T0 = at(-60_000);
	const T1 = at(-50_000);
	const T2 = at(-30_000);

	it('reach the part above only at the millisecond where the two meet', () => {
		const list = [job(A, 'finished', T2), job(B, 'finished', T1), job(C, 'finished', T1), job(D, 'finished', T0)];
		const poll1 = poll(state({ cursor: T0, atCursor: [D] }), list, 2);
		expect(eventsOf(poll1)).toEqual([`${B}:finished`, `${A}:finished`]);
		const top = { updatedAt: T1, id: B };
		expect(poll1.next).toEqual(state({ cursor: T2, atCursor: [A], gaps: [{ top, after: top, atTop: [], page: null, until: T0, atUntil: [D] }] }));
		const poll2 = poll(poll1.next, list);
		expect(eventsOf(poll2)).toEqual([`${C}:finished`]);
		expect(poll2.next).toEqual(state({ cursor: T2, atCursor: [A] }));
	});

	it('are its own at its top, not those at its end, where its end is another millisecond', () => {
		const list = [job(A, 'finished', T2), job(B, 'finished', T2), job(D, 'finished', T0)];
		const poll1 = poll(state({ cursor: T0, atCursor: [D] }), list, 1);
		const poll2 = poll(poll1.next, list);
		expect(eventsOf(poll2)).toEqual([`${B}:finished`]);
		expect(poll2.next).toEqual(state({ cursor: T2, atCursor: [A, B] }));
	});
});

describe('the lists of the state', () => {
	it('are written sorted by id, whatever order they were stored in (an idle poll then writes nothing)', () => {
		const T0 = at(-60_000);
		const gap: Gap = { top: { updatedAt: T0, id: A }, after: { updatedAt: T0, id: A }, atTop: [C, B], page: null, until: null, atUntil: [F, E] };
		const stored = state({ cursor: T0, atCursor: [E, D], gaps: [gap] });
		const result = poll(stored, [job(G, 'running', at(-1_000)), job(B, 'running', at(-2_000))], 1);
		expect(result.next.atCursor).toEqual([]);
		expect(result.next.gaps).toEqual([
			{ top: { updatedAt: at(-1_000), id: G }, after: { updatedAt: at(-1_000), id: G }, atTop: [], page: null, until: T0, atUntil: [D, E] },
			{ ...gap, atTop: [B, C], atUntil: [E, F] },
		]);
	});
});
