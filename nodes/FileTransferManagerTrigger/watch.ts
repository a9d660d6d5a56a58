import type { Job, JobStatus } from '../FileTransferManager/api/types';
import { FINAL_JOB_STATUSES } from '../FileTransferManager/api/types';
import type { TriggerState } from './state';

export const WATCHABLE_EVENTS = ['canceled', 'failed', 'finished', 'stuck'] as const;
export type WatchedEvent = (typeof WATCHABLE_EVENTS)[number];

const isFinal = (status: JobStatus): boolean => (FINAL_JOB_STATUSES as readonly JobStatus[]).includes(status);

/** Milliseconds of a server timestamp; the API sends ISO 8601 UTC with milliseconds. */
export function timeOf(timestamp: string): number {
	return Date.parse(timestamp);
}

export interface Observation {
	job: Job;
	event: WatchedEvent;
}

export interface WindowResult {
	events: Observation[];
	next: TriggerState;
}

/**
 * Turns the jobs changed since the cursor (newest first, as listed with `sort=-updatedAt`, every job
 * whose updatedAt is at or after the cursor) into events, and computes the next state.
 *
 * Why this shape: polling sees only each job's latest state.
 * - Final statuses (finished, failed, canceled) are never left, so a job in one of them is an event
 *   exactly when it shows up after the cursor. Only at the cursor's own millisecond can a job be
 *   listed twice (it was already there last time), so the ids handled at that millisecond are kept.
 * - `stuck` can be entered many times, and a stuck job's updatedAt can move without a status change.
 *   So "entered stuck" means "seen stuck, and not seen stuck since it was last seen in another
 *   status": the ids of jobs currently stuck and already reported are kept until they are seen in
 *   another status. That list is bounded by the number of jobs stuck at once, not by history.
 */
export function processWindow(
	state: TriggerState,
	records: Job[],
	watched: ReadonlySet<WatchedEvent>,
	deliver = true,
): WindowResult {
	const oldCursor = state.cursor === null ? undefined : timeOf(state.cursor);
	const handledAtCursor = new Set(state.atCursor);
	const stuck = new Set(state.stuck);
	const seen = new Set<string>();
	const events: Observation[] = [];

	let newest: Job | undefined;
	for (const job of records) {
		if (!newest || timeOf(job.attributes.updatedAt) > timeOf(newest.attributes.updatedAt)) newest = job;
	}
	const cursor = newest ? newest.attributes.updatedAt : state.cursor;
	const cursorTime = cursor === null ? undefined : timeOf(cursor);
	const atCursor = new Set(cursorTime === oldCursor ? state.atCursor : []);

	for (const job of records) {
		// A job updated while the pages were read is listed once only (keyset paging), but be safe.
		if (seen.has(job.id)) continue;
		seen.add(job.id);
		const { status, updatedAt } = job.attributes;
		const time = timeOf(updatedAt);
		if (status === 'stuck') {
			if (watched.has('stuck') && !stuck.has(job.id)) {
				stuck.add(job.id);
				if (deliver) events.push({ job, event: 'stuck' });
			}
			continue;
		}
		stuck.delete(job.id);
		if (!isFinal(status) || !watched.has(status as WatchedEvent)) continue;
		if (time === cursorTime) atCursor.add(job.id);
		if (time === oldCursor && handledAtCursor.has(job.id)) continue;
		if (deliver) events.push({ job, event: status as WatchedEvent });
	}

	events.sort(
		(a, b) =>
			timeOf(a.job.attributes.updatedAt) - timeOf(b.job.attributes.updatedAt) ||
			(a.job.id < b.job.id ? -1 : a.job.id > b.job.id ? 1 : 0),
	);
	return {
		events,
		next: {
			version: state.version,
			fingerprint: state.fingerprint,
			cursor,
			atCursor: [...atCursor].sort(),
			stuck: [...stuck].sort(),
		},
	};
}
