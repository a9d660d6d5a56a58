import type { Job, JobStatus } from '../FileTransferManager/api/types';
import { FINAL_JOB_STATUSES } from '../FileTransferManager/api/types';
import type { AheadEntry, TriggerState } from './state';
import { STATE_VERSION } from './state';

export const WATCHABLE_EVENTS = ['canceled', 'failed', 'finished', 'stuck'] as const;
export type WatchedEvent = (typeof WATCHABLE_EVENTS)[number];

const isFinal = (status: JobStatus): boolean => (FINAL_JOB_STATUSES as readonly JobStatus[]).includes(status);

/** Milliseconds of a server timestamp; the API sends ISO 8601 UTC with milliseconds. */
export function timeOf(timestamp: string): number {
	return Date.parse(timestamp);
}

/**
 * How far an `updatedAt` may be ahead of the service's own clock and still count as a normal stamp.
 *
 * Why 10 seconds, and not more: the Date header has whole seconds (an honest stamp can be up to 1 s
 * after it), the answer takes a moment, and the machine that stamps jobs may drift a little from the one
 * that sends the Date header. A job taken for "ahead" by mistake costs nothing: it is delivered once,
 * kept in `ahead`, and at the next poll, when the clock has passed it, it becomes an ordinary job again
 * without a second delivery. A stamp *within* the tolerance, on the other hand, moves the cursor ahead
 * of the service's time, and changes stamped in that gap are missed (as before this check existed). So
 * the tolerance is kept small: the most a single bad stamp can hide is 10 seconds of changes.
 */
const CLOCK_TOLERANCE_MS = 10_000;

/** The service's time during a poll, as the first page's answer showed it. */
export interface ServiceClock {
	/** Milliseconds: the service's Date header plus the local time elapsed since that answer arrived. */
	now: number;
	/** `now` + CLOCK_TOLERANCE_MS: a job whose updatedAt is after this is "ahead of the clock". */
	limit: number;
	/** false when the service sent no Date header and the local clock stood in for it. */
	fromService: boolean;
}

export function serviceClock(now: number, fromService: boolean): ServiceClock {
	return { now, limit: now + CLOCK_TOLERANCE_MS, fromService };
}

export const isAheadOf = (clock: ServiceClock, job: Job): boolean => timeOf(job.attributes.updatedAt) > clock.limit;

/**
 * Where a poll lists from: the stored cursor, or, when the stored cursor itself is ahead of the service's
 * clock (written by version 1 from a job stamped in the future, or the service's clock went back), the
 * service's now: the cursor is healed, and every change from then on is seen.
 */
export function startCursor(cursor: string | null, clock: ServiceClock): string | null {
	if (cursor !== null && timeOf(cursor) > clock.limit) return new Date(clock.now).toISOString();
	return cursor;
}

export interface Observation {
	job: Job;
	event: WatchedEvent;
	/** The job's updatedAt was ahead of the service's clock when it was delivered. */
	aheadOfClock?: boolean;
}

export interface WindowResult {
	events: Observation[];
	next: TriggerState;
}

const aheadKey = (id: string, status: string): string => `${id} ${status}`;

/**
 * Turns the jobs changed since the cursor (newest first, as listed with `sort=-updatedAt`, every job
 * whose updatedAt is at or after `startCursor(state.cursor, clock)`) into events, and computes the next
 * state.
 *
 * Why this shape: polling sees only each job's latest state.
 * - Final statuses (finished, failed, canceled) are never left, so a job in one of them is an event
 *   exactly when it shows up after the cursor. Only at the cursor's own millisecond can a job be
 *   listed twice (it was already there last time), so the ids handled at that millisecond are kept.
 * - `stuck` can be entered many times, and a stuck job's updatedAt can move without a status change.
 *   So "entered stuck" means "seen stuck, and not seen stuck since it was last seen in another
 *   status": the ids of jobs currently stuck and already reported are kept until they are seen in
 *   another status. That list is bounded by the number of jobs stuck at once, not by history.
 * - A job stamped ahead of the service's clock (one job at 9999-12-31 used to move the cursor
 *   there, and every later change, stamped earlier, was never listed again) never moves the cursor: the
 *   cursor is the newest updatedAt among the other jobs, or stays. Such a job is listed by every poll
 *   while it stays ahead (it is after any cursor), so a job in a watched final status is delivered once
 *   and kept in `ahead` (id and status) while it is listed ahead; when it is seen again with a normal
 *   stamp in the same status (the service corrected it, or its time came), it is not delivered again,
 *   and the entry goes. `ahead` holds only jobs listed ahead in this poll, so it is bounded by how many
 *   such jobs exist at once. Stuck needs nothing more: its bookkeeping does not depend on time.
 * - Healing: a stored cursor ahead of the clock (see startCursor) is replaced by the service's now, with
 *   no ids at it, and the poll lists from there. A job listed then was handled already when it is older
 *   than the stored cursor, or at it and in its atCursor (what version 1 did, and what a clock that went
 *   back would otherwise repeat); newer ones are delivered. Changes made between the moment the cursor
 *   was pushed ahead and the healing poll were never listed by version 1 and are not recovered; every
 *   change after the healing poll is.
 */
export function processWindow(
	state: TriggerState,
	records: Job[],
	watched: ReadonlySet<WatchedEvent>,
	clock: ServiceClock,
	deliver = true,
): WindowResult {
	const storedCursor = state.cursor === null ? undefined : timeOf(state.cursor);
	const storedAtCursor = new Set(state.atCursor);
	const start = startCursor(state.cursor, clock);
	const healed = start !== state.cursor;
	const startTime = start === null ? undefined : timeOf(start);
	const handledAhead = new Set(state.ahead.map(({ id, status }) => aheadKey(id, status)));
	const stuck = new Set(state.stuck);
	const ahead = new Map<string, AheadEntry>();
	const seen = new Set<string>();
	const events: Observation[] = [];

	let newest: Job | undefined;
	for (const job of records) {
		if (isAheadOf(clock, job)) continue;
		if (!newest || timeOf(job.attributes.updatedAt) > timeOf(newest.attributes.updatedAt)) newest = job;
	}
	const cursor = newest ? newest.attributes.updatedAt : start;
	const cursorTime = cursor === null ? undefined : timeOf(cursor);
	const atCursor = new Set(cursorTime === startTime && !healed ? state.atCursor : []);

	for (const job of records) {
		// A job updated while the pages were read is listed once only (keyset paging), but be safe.
		if (seen.has(job.id)) continue;
		seen.add(job.id);
		const { status, updatedAt } = job.attributes;
		const time = timeOf(updatedAt);
		if (status === 'stuck') {
			if (watched.has('stuck') && !stuck.has(job.id)) {
				stuck.add(job.id);
				if (deliver) events.push({ job, event: 'stuck', ...(isAheadOf(clock, job) ? { aheadOfClock: true } : {}) });
			}
			continue;
		}
		stuck.delete(job.id);
		if (!isFinal(status) || !watched.has(status as WatchedEvent)) continue;
		// Handled already: at or before the stored cursor (before it only when healing: otherwise nothing
		// older is listed), or delivered while ahead of the clock in this same status.
		const handled =
			(storedCursor !== undefined &&
				(time < storedCursor || (time === storedCursor && storedAtCursor.has(job.id)))) ||
			handledAhead.has(aheadKey(job.id, status));
		if (isAheadOf(clock, job)) {
			ahead.set(job.id, { id: job.id, status });
			if (!handled && deliver) events.push({ job, event: status as WatchedEvent, aheadOfClock: true });
			continue;
		}
		if (time === cursorTime) atCursor.add(job.id);
		if (!handled && deliver) events.push({ job, event: status as WatchedEvent });
	}

	events.sort(
		(a, b) =>
			timeOf(a.job.attributes.updatedAt) - timeOf(b.job.attributes.updatedAt) ||
			(a.job.id < b.job.id ? -1 : a.job.id > b.job.id ? 1 : 0),
	);
	return {
		events,
		next: {
			version: STATE_VERSION,
			fingerprint: state.fingerprint,
			cursor,
			atCursor: [...atCursor].sort(),
			stuck: [...stuck].sort(),
			ahead: [...ahead.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
		},
	};
}
