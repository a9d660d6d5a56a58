/**
 * The trigger's bookkeeping without a server: which jobs of a listed window become events (watch.ts), and
 * how the state between polls is read and written (state.ts). docs/trigger.md says what it promises.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Job, JobStatus } from '../../nodes/shared/api/types';
import type { TriggerState } from '../../nodes/FileTransferManagerTrigger/state';
import { hashText, readState, stateFingerprint, writeState } from '../../nodes/FileTransferManagerTrigger/state';
import type { Budget, ListSource } from '../../nodes/FileTransferManagerTrigger/drain';
import { sweepList } from '../../nodes/FileTransferManagerTrigger/drain';
import type { WindowResult } from '../../nodes/FileTransferManagerTrigger/sweep';
import { processWindow } from '../../nodes/FileTransferManagerTrigger/sweep';
import type { ServiceClock, WatchedEvent } from '../../nodes/FileTransferManagerTrigger/watch';
import { isAheadOf, serviceClock, startCursor, timeOf } from '../../nodes/FileTransferManagerTrigger/watch';
import { makeJob, uuid } from './fixtures';

/** The service's time during the poll: 2026-11-21T10:00:00.000Z. */
const NOW = Date.UTC(2026, 10, 21, 10, 0, 0, 0);
const CLOCK: ServiceClock = serviceClock(NOW, true);

const T0 = '2026-11-21T09:50:00.000Z';
const T1 = '2026-11-21T09:55:00.000Z';
const T2 = '2026-11-21T09:58:00.000Z';
const T3 = '2026-11-21T09:59:00.000Z';
const T4 = '2026-11-21T09:59:30.000Z';
const FUTURE = '9999-12-31T23:59:59.999Z';

const A = uuid(0xa);
const B = uuid(0xb);
const C = uuid(0xc);
const G = uuid(0x16);
const X = uuid(0x58);

const DEFAULT_EVENTS = new Set<WatchedEvent>(['finished', 'failed', 'stuck']);

const job = (id: string, status: JobStatus, updatedAt: string): Job => makeJob(id, { status, updatedAt });

function state(overrides: Partial<TriggerState> = {}): TriggerState {
	return { version: 3, fingerprint: 'fp', cursor: T0, atCursor: [], stuck: [], ahead: [], gaps: [], ...overrides };
}

/** The events of a window as `[id, event]`, `!` marking one flagged ahead of the service's clock. */
const eventsOf = (result: WindowResult): string[][] =>
	result.events.map(({ job: j, event, aheadOfClock }) => [j.id, aheadOfClock ? `${event}!` : event]);

describe('timeOf', () => {
	it('reads an ISO 8601 UTC timestamp with milliseconds as epoch milliseconds', () => {
		expect(timeOf('2026-11-21T09:14:03.120Z')).toBe(Date.UTC(2026, 10, 21, 9, 14, 3, 120));
	});

	it('gives NaN for something that is not a timestamp', () => {
		expect(timeOf('yesterday-ish')).toBeNaN();
	});
});

describe('serviceClock and isAheadOf', () => {
	it('allows 10 seconds of tolerance, as docs/trigger.md states', () => {
		expect(serviceClock(NOW, false)).toEqual({ now: NOW, limit: NOW + 10_000, fromService: false });
	});

	it('takes a job for ahead only when its updatedAt is more than the tolerance after the clock', () => {
		expect(isAheadOf(CLOCK, job(A, 'finished', '2026-11-21T10:00:05.000Z'))).toBe(false);
		expect(isAheadOf(CLOCK, job(A, 'finished', '2026-11-21T10:00:10.000Z'))).toBe(false);
		expect(isAheadOf(CLOCK, job(A, 'finished', '2026-11-21T10:00:10.001Z'))).toBe(true);
		expect(isAheadOf(CLOCK, job(A, 'finished', FUTURE))).toBe(true);
	});
});

describe('startCursor', () => {
	it('keeps no cursor, and a cursor that is not ahead of the clock, unchanged', () => {
		expect(startCursor(null, CLOCK)).toBeNull();
		expect(startCursor(T0, CLOCK)).toBe(T0);
		expect(startCursor('2026-11-21T10:00:10.000Z', CLOCK)).toBe('2026-11-21T10:00:10.000Z');
	});

	it('replaces a cursor ahead of the clock with the service\'s now (healing)', () => {
		expect(startCursor(FUTURE, CLOCK)).toBe('2026-11-21T10:00:00.000Z');
		expect(startCursor('2026-11-21T10:00:10.001Z', CLOCK)).toBe('2026-11-21T10:00:00.000Z');
	});
});

describe('processWindow: final statuses', () => {
	it('emits the jobs that entered a watched final status, oldest first, and moves the cursor to the newest', () => {
		const result = processWindow(state(), [job(A, 'finished', T2), job(B, 'failed', T1)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([
			[B, 'failed'],
			[A, 'finished'],
		]);
		expect(result.next).toEqual({
			version: 3,
			fingerprint: 'fp',
			cursor: T2,
			atCursor: [A],
			stuck: [],
			ahead: [],
			gaps: [],
		});
	});

	it('does not emit a job again when the next poll lists it again at the cursor\'s millisecond', () => {
		const first = processWindow(state(), [job(A, 'finished', T2)], DEFAULT_EVENTS, CLOCK);
		const second = processWindow(first.next, [job(A, 'finished', T2)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(first)).toEqual([[A, 'finished']]);
		expect(second.events).toEqual([]);
		expect(second.next).toEqual({ ...state(), cursor: T2, atCursor: [A] });
	});

	it('emits a job that changed within the cursor\'s millisecond after the last poll read it', () => {
		const result = processWindow(
			state({ cursor: T2, atCursor: [A] }),
			[job(C, 'finished', T2), job(A, 'finished', T2)],
			DEFAULT_EVENTS,
			CLOCK,
		);
		expect(eventsOf(result)).toEqual([[C, 'finished']]);
		expect(result.next.atCursor).toEqual([A, C]);
	});

	it('forgets the ids at the old cursor once the cursor moves on', () => {
		const result = processWindow(state({ cursor: T1, atCursor: [A] }), [job(B, 'failed', T2)], DEFAULT_EVENTS, CLOCK);
		expect(result.next.cursor).toBe(T2);
		expect(result.next.atCursor).toEqual([B]);
	});

	it('keeps the cursor and its ids when nothing changed', () => {
		const result = processWindow(state({ cursor: T1, atCursor: [A] }), [], DEFAULT_EVENTS, CLOCK);
		expect(result.events).toEqual([]);
		expect(result.next).toEqual(state({ cursor: T1, atCursor: [A] }));
	});

	it('emits nothing for statuses that are not watched or not final, but still moves the cursor past them', () => {
		const records = [job(C, 'canceled', T2), job(A, 'running', T1), job(B, 'paused', T1)];
		const result = processWindow(state(), records, DEFAULT_EVENTS, CLOCK);
		expect(result.events).toEqual([]);
		expect(result.next.cursor).toBe(T2);
		expect(result.next.atCursor).toEqual([]);
	});

	it('emits canceled only when it is watched', () => {
		const result = processWindow(state(), [job(C, 'canceled', T2)], new Set<WatchedEvent>(['canceled']), CLOCK);
		expect(eventsOf(result)).toEqual([[C, 'canceled']]);
	});

	it('emits a job listed twice in one window once', () => {
		const result = processWindow(state(), [job(A, 'finished', T2), job(A, 'finished', T2)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([[A, 'finished']]);
	});

	it('orders events of the same millisecond by id', () => {
		const result = processWindow(
			state(),
			[job(C, 'finished', T2), job(A, 'failed', T2), job(B, 'finished', T2)],
			DEFAULT_EVENTS,
			CLOCK,
		);
		expect(eventsOf(result)).toEqual([
			[A, 'failed'],
			[B, 'finished'],
			[C, 'finished'],
		]);
		expect(result.next.atCursor).toEqual([A, B, C]);
	});

	it('starts from no cursor: every listed final job is an event, and the cursor is the newest', () => {
		const result = processWindow(state({ cursor: null }), [job(A, 'finished', T1)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([[A, 'finished']]);
		expect(result.next.cursor).toBe(T1);
		expect(processWindow(state({ cursor: null }), [], DEFAULT_EVENTS, CLOCK).next.cursor).toBeNull();
	});
});

describe('processWindow: stuck', () => {
	it('emits each entry into stuck once: not again while it stays stuck, again after it left', () => {
		const poll1 = processWindow(state(), [job(G, 'stuck', T1)], DEFAULT_EVENTS, CLOCK);
		const poll2 = processWindow(poll1.next, [job(G, 'stuck', T2)], DEFAULT_EVENTS, CLOCK);
		const poll3 = processWindow(poll2.next, [job(G, 'running', T3)], DEFAULT_EVENTS, CLOCK);
		const poll4 = processWindow(poll3.next, [job(G, 'stuck', T4)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(poll1)).toEqual([[G, 'stuck']]);
		expect(poll1.next.stuck).toEqual([G]);
		expect(poll2.events).toEqual([]);
		expect(poll2.next.stuck).toEqual([G]);
		expect(poll3.events).toEqual([]);
		expect(poll3.next.stuck).toEqual([]);
		expect(eventsOf(poll4)).toEqual([[G, 'stuck']]);
	});

	it('keeps no stuck ids when stuck is not watched', () => {
		const result = processWindow(state(), [job(G, 'stuck', T1)], new Set<WatchedEvent>(['finished']), CLOCK);
		expect(result.events).toEqual([]);
		expect(result.next.stuck).toEqual([]);
	});

	it('drops a stuck id when the job is seen finished, and emits the finish', () => {
		const result = processWindow(state({ stuck: [G] }), [job(G, 'finished', T2)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([[G, 'finished']]);
		expect(result.next.stuck).toEqual([]);
	});
});

describe('processWindow: jobs ahead of the service\'s clock', () => {
	it('delivers such a job once, flagged, without moving the cursor to its stamp', () => {
		const result = processWindow(state(), [job(X, 'finished', FUTURE), job(A, 'finished', T1)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([
			[A, 'finished'],
			[X, 'finished!'],
		]);
		expect(result.next.cursor).toBe(T1);
		expect(result.next.atCursor).toEqual([A]);
		expect(result.next.ahead).toEqual([{ id: X, status: 'finished' }]);
	});

	it('leaves the cursor where it was when only jobs ahead of the clock are listed', () => {
		const result = processWindow(state(), [job(X, 'failed', FUTURE)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([[X, 'failed!']]);
		expect(result.next.cursor).toBe(T0);
	});

	it('does not deliver it again while it stays ahead, nor when it comes back with a normal stamp', () => {
		const poll1 = processWindow(state(), [job(X, 'finished', FUTURE)], DEFAULT_EVENTS, CLOCK);
		const poll2 = processWindow(poll1.next, [job(X, 'finished', FUTURE)], DEFAULT_EVENTS, CLOCK);
		const poll3 = processWindow(poll2.next, [job(X, 'finished', T2)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(poll1)).toEqual([[X, 'finished!']]);
		expect(poll2.events).toEqual([]);
		expect(poll2.next.ahead).toEqual([{ id: X, status: 'finished' }]);
		expect(poll3.events).toEqual([]);
		expect(poll3.next.ahead).toEqual([]);
		expect(poll3.next.cursor).toBe(T2);
	});

	it('lets a stamp within the tolerance move the cursor like any other', () => {
		const result = processWindow(state(), [job(A, 'finished', '2026-11-21T10:00:05.000Z')], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([[A, 'finished']]);
		expect(result.next.cursor).toBe('2026-11-21T10:00:05.000Z');
	});

	it('flags a stuck job stamped ahead, and keeps it out of the cursor', () => {
		const result = processWindow(state(), [job(G, 'stuck', FUTURE)], DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([[G, 'stuck!']]);
		expect(result.next.cursor).toBe(T0);
		expect(result.next.ahead).toEqual([]);
	});
});

describe('processWindow: the order of what it keeps, and where it stops', () => {
	it('keeps the stuck ids and the jobs ahead sorted by id, in whatever order they were listed', () => {
		const records = [
			job(C, 'finished', FUTURE),
			job(A, 'finished', '2031-01-01T00:00:00.000Z'),
			job(B, 'failed', '2030-01-01T00:00:00.000Z'),
			job(X, 'stuck', T2),
			job(G, 'stuck', T1),
		];
		const result = processWindow(state(), records, DEFAULT_EVENTS, CLOCK);
		expect(result.next.ahead).toEqual([
			{ id: A, status: 'finished' },
			{ id: B, status: 'failed' },
			{ id: C, status: 'finished' },
		]);
		expect(result.next.stuck).toEqual([G, X]);
	});

	it('stops at the first job older than the cursor: the list is newest first, what follows it was handled', () => {
		const records = [job(A, 'finished', T2), job(B, 'finished', '2026-11-21T09:40:00.000Z'), job(C, 'finished', T3)];
		const result = processWindow(state(), records, DEFAULT_EVENTS, CLOCK);
		expect(eventsOf(result)).toEqual([[A, 'finished']]);
	});

	it('moves the cursor to the newest stamp it saw, wherever in the list that job came', () => {
		const result = processWindow(state(), [job(A, 'finished', T1), job(B, 'finished', T2)], DEFAULT_EVENTS, CLOCK);
		expect(result.next.cursor).toBe(T2);
		expect(result.next.atCursor).toEqual([B]);
	});

	it('drops a job kept as ahead that a poll which got past the jobs ahead did not list again', () => {
		const result = processWindow(state({ ahead: [{ id: X, status: 'finished' }] }), [job(A, 'finished', T2)], DEFAULT_EVENTS, CLOCK);
		expect(result.next.ahead).toEqual([]);
	});
});

describe('sweepList: a poll stopped by its budget among the jobs ahead of the clock', () => {
	/** Two pages: a job stamped ahead of the clock, then one with a normal stamp. */
	const source: ListSource = {
		list: async (page) =>
			await Promise.resolve(
				page === null
					? { jobs: [job(B, 'finished', FUTURE)], next: { after: 'p2' } }
					: { jobs: [job(A, 'finished', T2)], next: null },
			),
		clock: () => CLOCK,
		needsRequest: () => false,
		item: async (event) => await Promise.resolve({ json: { id: event.job.id } }),
		refused: () => false,
		loop: () => new Error('page loop'),
		failure: (error) => error as Error,
	};
	/** One list request, then none. */
	const oneRequest = (): Budget => {
		let left = 1;
		return {
			allows: () => left > 0,
			timed: async <T>(request: () => Promise<T>): Promise<T> => {
				left--;
				return await request();
			},
		};
	};

	it('keeps the jobs it kept as ahead and did not list again: they may still come first in the next poll', async () => {
		const stored = state({ ahead: [{ id: X, status: 'finished' }] });
		const { items, next } = await sweepList(source, stored, DEFAULT_EVENTS, oneRequest());
		expect(items).toEqual([{ json: { id: B } }]);
		expect(next.ahead).toEqual([
			{ id: B, status: 'finished' },
			{ id: X, status: 'finished' },
		]);
		expect(next.cursor).toBe(T0);
		expect(next.gaps).toEqual([]);
	});
});

describe('processWindow: activation (deliver = false)', () => {
	it('emits nothing but records the cursor, the stuck jobs and the jobs ahead, so the next poll repeats none', () => {
		const records = [job(X, 'finished', FUTURE), job(A, 'finished', T1), job(G, 'stuck', T1)];
		const activation = processWindow(state({ cursor: null }), records, DEFAULT_EVENTS, CLOCK, false);
		expect(activation.events).toEqual([]);
		expect(activation.next).toEqual(
			state({ cursor: T1, atCursor: [A], stuck: [G], ahead: [{ id: X, status: 'finished' }] }),
		);
		expect(processWindow(activation.next, records, DEFAULT_EVENTS, CLOCK).events).toEqual([]);
	});
});

describe('processWindow: healing a stored cursor ahead of the clock', () => {
	it('moves the cursor back to the service\'s now, with no ids at it', () => {
		const result = processWindow(state({ cursor: FUTURE, atCursor: [X] }), [], DEFAULT_EVENTS, CLOCK);
		expect(result.next.cursor).toBe('2026-11-21T10:00:00.000Z');
		expect(result.next.atCursor).toEqual([]);
	});

	it('does not deliver again the job that pushed the cursor ahead, and delivers changes after the healing poll', () => {
		const healing = processWindow(state({ cursor: FUTURE, atCursor: [X] }), [job(X, 'finished', FUTURE)], DEFAULT_EVENTS, CLOCK);
		expect(healing.events).toEqual([]);
		expect(healing.next.ahead).toEqual([{ id: X, status: 'finished' }]);
		const later = serviceClock(NOW + 60_000, true);
		const next = processWindow(
			healing.next,
			[job(X, 'finished', FUTURE), job(B, 'failed', '2026-11-21T10:00:30.000Z')],
			DEFAULT_EVENTS,
			later,
		);
		expect(eventsOf(next)).toEqual([[B, 'failed']]);
		expect(next.next.cursor).toBe('2026-11-21T10:00:30.000Z');
	});
});

describe('readState and writeState', () => {
	const full = state({
		cursor: T2,
		atCursor: [A, B],
		stuck: [G],
		ahead: [{ id: X, status: 'finished' }],
		gaps: [
			{ top: { updatedAt: T2, id: B }, after: { updatedAt: T1, id: C }, atTop: [], page: { after: 'cursor-1' }, until: T0, atUntil: [G] },
			{ top: { updatedAt: T0, id: A }, after: { updatedAt: T0, id: A }, atTop: [G], page: null, until: null, atUntil: [], handledUpTo: { cursor: FUTURE, atCursor: [B] } },
			{ top: { updatedAt: T0, id: B }, after: { updatedAt: T0, id: C }, atTop: [], page: { url: 'https://api.example.com/jobs?page=2' }, until: null, atUntil: [] },
		],
	});

	it('round-trip a state through static data and JSON', () => {
		const data: IDataObject = {};
		writeState(data, full);
		expect(readState(JSON.parse(JSON.stringify(data)) as IDataObject)).toEqual(full);
	});

	it('read a state with no cursor', () => {
		expect(readState({ ...full, cursor: null } as unknown as IDataObject)).toEqual({ ...full, cursor: null });
	});

	it('read version 1 as version 3 with no ahead entries and no gaps', () => {
		const v1 = { version: 1, fingerprint: 'fp', cursor: T2, atCursor: [A], stuck: [] };
		expect(readState(v1)).toEqual({ version: 3, fingerprint: 'fp', cursor: T2, atCursor: [A], stuck: [], ahead: [], gaps: [] });
	});

	it('read version 2 as version 3 with no gaps', () => {
		const v2 = { version: 2, fingerprint: 'fp', cursor: T2, atCursor: [A], stuck: [G], ahead: [{ id: X, status: 'finished' }] };
		expect(readState(v2)).toEqual({ ...v2, version: 3, gaps: [] });
	});

	it('give copies: changing what was read leaves static data alone', () => {
		const data = JSON.parse(JSON.stringify(full)) as IDataObject;
		const read = readState(data);
		expect(read).toEqual(full);
		read!.atCursor.push(C);
		read!.ahead.push({ id: C, status: 'failed' });
		expect(data.atCursor).toEqual([A, B]);
		expect(data.ahead).toEqual([{ id: X, status: 'finished' }]);
	});

	it.each<[string, IDataObject]>([
		['empty static data', {}],
		['an unknown version', { ...full, version: 4 } as unknown as IDataObject],
		['a version given as text', { ...full, version: '2' } as unknown as IDataObject],
		['no fingerprint', { ...full, fingerprint: undefined } as unknown as IDataObject],
		['a cursor that is not a timestamp', { ...full, cursor: 'garbage' } as unknown as IDataObject],
		['a cursor that is missing', { ...full, cursor: undefined } as unknown as IDataObject],
		['a cursor that is a number', { ...full, cursor: 1795000000000 } as unknown as IDataObject],
		['atCursor with a number in it', { ...full, atCursor: [A, 7] } as unknown as IDataObject],
		['stuck that is not a list', { ...full, stuck: 'x' } as unknown as IDataObject],
		['version 3 without ahead', { ...full, ahead: undefined } as unknown as IDataObject],
		['version 3 without gaps', { ...full, gaps: undefined } as unknown as IDataObject],
		['a gap without a position', { ...full, gaps: [{ ...full.gaps[0], after: undefined }] } as unknown as IDataObject],
		['a gap without a top', { ...full, gaps: [{ ...full.gaps[0], top: { id: A } }] } as unknown as IDataObject],
		['a gap whose page is a number', { ...full, gaps: [{ ...full.gaps[0], page: 7 }] } as unknown as IDataObject],
		['a gap whose page has two ways on', { ...full, gaps: [{ ...full.gaps[0], page: { after: 'a', url: 'b' } }] } as unknown as IDataObject],
		['a gap whose end is not a timestamp', { ...full, gaps: [{ ...full.gaps[0], until: 'soon' }] } as unknown as IDataObject],
		['an ahead entry without status', { ...full, ahead: [{ id: X }] } as unknown as IDataObject],
		['an ahead entry that is null', { ...full, ahead: [null] } as unknown as IDataObject],
		['an ahead entry whose id is a number', { ...full, ahead: [{ id: 7, status: 'finished' }] } as unknown as IDataObject],
		['a version 2 state without ahead', { ...full, version: 2, ahead: undefined } as unknown as IDataObject],
		['stuck with a number in it', { ...full, stuck: [G, 7] } as unknown as IDataObject],
		['gaps that are no list', { ...full, gaps: 'none' } as unknown as IDataObject],
		['a gap that is null', { ...full, gaps: [null] } as unknown as IDataObject],
		['a gap that is a list', { ...full, gaps: [[full.gaps[0]]] } as unknown as IDataObject],
		['a gap whose top has no id', { ...full, gaps: [{ ...full.gaps[0], top: { updatedAt: T2 } }] } as unknown as IDataObject],
		['a gap whose after is not a timestamp', { ...full, gaps: [{ ...full.gaps[0], after: { updatedAt: 'then', id: C } }] } as unknown as IDataObject],
		['a gap whose atTop is no list of ids', { ...full, gaps: [{ ...full.gaps[0], atTop: [1] }] } as unknown as IDataObject],
		['a gap whose atUntil is missing', { ...full, gaps: [{ ...full.gaps[0], atUntil: undefined }] } as unknown as IDataObject],
		['a gap whose page is a list', { ...full, gaps: [{ ...full.gaps[0], page: ['a'] }] } as unknown as IDataObject],
		['a gap whose page is empty', { ...full, gaps: [{ ...full.gaps[0], page: {} }] } as unknown as IDataObject],
		['a gap whose page cursor is a number', { ...full, gaps: [{ ...full.gaps[0], page: { after: 7 } }] } as unknown as IDataObject],
		['a gap whose page has another key', { ...full, gaps: [{ ...full.gaps[0], page: { next: 'a' } }] } as unknown as IDataObject],
		['a gap whose end is missing', { ...full, gaps: [{ ...full.gaps[0], until: undefined }] } as unknown as IDataObject],
		['a gap whose handledUpTo is null', { ...full, gaps: [{ ...full.gaps[0], handledUpTo: null }] } as unknown as IDataObject],
		['a gap whose handledUpTo cursor is not a timestamp', { ...full, gaps: [{ ...full.gaps[0], handledUpTo: { cursor: 'x', atCursor: [] } }] } as unknown as IDataObject],
		['a gap whose handledUpTo has no ids', { ...full, gaps: [{ ...full.gaps[0], handledUpTo: { cursor: T0 } }] } as unknown as IDataObject],
		// Date.parse reads a number as the text of a year: a number is no timestamp all the same.
		['a cursor that is a number', { ...full, cursor: 2026 } as unknown as IDataObject],
		['a gap whose end is a number', { ...full, gaps: [{ ...full.gaps[0], until: 2026 }] } as unknown as IDataObject],
	])('count %s as no state', (_name, data) => {
		expect(readState(data)).toBeUndefined();
	});

	it('replace everything in static data, dropping keys the state does not have', () => {
		const data: IDataObject = { version: 1, fingerprint: 'old', leftover: true };
		writeState(data, full);
		expect(data).toEqual(full);
		expect(Object.keys(data)).not.toContain('leftover');
	});

	it('leave static data untouched when nothing changed (an idle poll writes nothing)', () => {
		const data = Object.freeze(JSON.parse(JSON.stringify(full)) as IDataObject);
		expect(() => writeState(data, full)).not.toThrow();
		const changed = Object.freeze(JSON.parse(JSON.stringify(full)) as IDataObject);
		expect(() => writeState(changed, { ...full, cursor: T3 })).toThrow(TypeError);
	});
});

describe('stateFingerprint', () => {
	it('hashes the static data as JSON with every object\'s keys in order, undefined entries left out', () => {
		const data = { b: 1, a: [true, null, 'x', undefined, { z: 2, y: [] }], c: undefined, d: { z: 'é', y: {} } } as unknown as IDataObject;
		expect(stateFingerprint(data)).toBe(hashText('{"a":[true,null,"x",null,{"y":[],"z":2}],"b":1,"d":{"y":{},"z":"é"}}'));
	});

	it('is the same whatever the order of the keys, and differs when a value or the order of a list does', () => {
		const one = stateFingerprint({ version: 3, cursor: T0, atCursor: [A, B] });
		expect(stateFingerprint({ atCursor: [A, B], cursor: T0, version: 3 })).toBe(one);
		expect(stateFingerprint({ version: 3, cursor: T0, atCursor: [B, A] })).not.toBe(one);
		expect(stateFingerprint({ version: 3, cursor: T1, atCursor: [A, B] })).not.toBe(one);
	});
});

describe('hashText', () => {
	it('is cyrb53 with seed 0: the reference values of its published description', () => {
		// cyrb53's own examples (bryc, "cyrb53: a simple but high quality 53-bit hash"), as hex.
		expect(hashText('a')).toBe((7929297801672961).toString(16));
		expect(hashText('b')).toBe((8684336938537663).toString(16));
		expect(hashText('revenge')).toBe((4051478007546757).toString(16));
		expect(hashText('revenue')).toBe((8309097637345594).toString(16));
	});


	it('is stable for the same text and differs for different texts', () => {
		const one = hashText('{"events":["failed","finished"]}');
		expect(one).toMatch(/^[0-9a-f]+$/);
		expect(hashText('{"events":["failed","finished"]}')).toBe(one);
		expect(hashText('{"events":["failed"]}')).not.toBe(one);
	});
});
