import type { Job } from '../shared/api/types';

export const WATCHABLE_EVENTS = ['canceled', 'failed', 'finished', 'stuck'] as const;
export type WatchedEvent = (typeof WATCHABLE_EVENTS)[number];

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
 * of the service's time, and changes stamped in that gap are missed (as they would be without this check). So
 * the tolerance is kept small: the most a single bad stamp can hide is 10 seconds of changes.
 */
export const CLOCK_TOLERANCE_MS = 10_000;

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

