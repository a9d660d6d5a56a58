import type { Job, JobStatus } from '../shared/api/types';
import { FINAL_JOB_STATUSES } from '../shared/api/types';
import type { AheadEntry, Gap, ListPosition, PageToken, TriggerState } from './state';
import { STATE_VERSION } from './state';
import type { Observation, ServiceClock, WatchedEvent } from './watch';
import { isAheadOf, startCursor, timeOf } from './watch';

const isFinal = (status: JobStatus): boolean => (FINAL_JOB_STATUSES as readonly JobStatus[]).includes(status);

const aheadKey = (id: string, status: string): string => `${id} ${status}`;

/** Whether `job` comes after `position` in the list: older, or as old with a greater id (ties by id ascending). */
function isAfter(job: Job, position: ListPosition): boolean {
	const time = timeOf(job.attributes.updatedAt);
	const at = timeOf(position.updatedAt);
	return time < at || (time === at && job.id > position.id);
}

/** Final statuses at or before this time (and at it, these ids) were handled by an earlier poll. */
interface Handled {
	time: number;
	ids: ReadonlySet<string>;
}

const isHandled = (bound: Handled | undefined, time: number, id: string): boolean =>
	bound !== undefined && (time < bound.time || (time === bound.time && bound.ids.has(id)));

/** One part of the list a poll reads: the fresh part (index 0, from the front) or a gap left by earlier polls. */
interface Region {
	/** Where a gap began (see Gap.top). */
	top?: ListPosition;
	/** Jobs at or before this position are not in the region. */
	after?: ListPosition;
	/** Jobs older than this time end the region. */
	lower?: number;
	/** At `lower`, jobs with a greater id belong to the next region, and end this one. */
	limitId?: string;
	/** Which final statuses were handled already. */
	handled?: Handled;
	/** Final-status ids this poll handled at `top`'s millisecond (see Gap.atTop). */
	takenAtTop: Set<string>;
	/** Where a later poll goes on: the last job handled, the page it was on (or the page after it). */
	position?: ListPosition;
	page: PageToken;
	complete: boolean;
}

/** Oldest change first; ties by job id. */
export const byChange = (a: Observation, b: Observation): number =>
	timeOf(a.job.attributes.updatedAt) - timeOf(b.job.attributes.updatedAt) ||
	(a.job.id < b.job.id ? -1 : a.job.id > b.job.id ? 1 : 0);

export type Placement = 'skip' | 'member' | 'done';

export interface WindowResult {
	events: Observation[];
	next: TriggerState;
}

/**
 * One poll's walk through the job list, newest first: the fresh part (every job changed since the cursor),
 * then the gaps that earlier polls left when their time ran out, each from where it was left. The caller
 * lists the pages and hands each job to `place`, then `eventOf` and `take`; it may stop between any two jobs,
 * and `result` computes a state from which the next poll goes on. docs/trigger.md says why it has this shape.
 *
 * The list is one order of all matching jobs (updatedAt descending, ties by id ascending), and a job only ever
 * moves to its front (a change sets a newer updatedAt). So the state describes the list as parts: the front
 * down to the cursor (fresh: not read yet); then, when a drain is under way, parts read already and gaps
 * (`state.gaps`, newest first) down to the position where the drain began. A gap keeps the page cursor of the
 * read that left it, so that going on costs no re-read of what is above it; a job that changes while a gap
 * waits leaves it for the front, where the fresh read finds it. Where a poll stopped inside a millisecond,
 * the ids decide: the fresh part ends at the first gap's position when the two share that millisecond.
 *
 * Per job:
 * - Final statuses (finished, failed, canceled) are never left, so a job in one of them is an event exactly
 *   when it is listed in a part not read yet. Only at a part's lower millisecond can a job have been handled
 *   already (it was there when the part above it was read): the ids handled there are kept.
 * - `stuck` can be entered many times, and a stuck job's updatedAt can move without a status change. So
 *   "entered stuck" means "seen stuck, and not seen stuck since it was last seen in another status": the ids
 *   of jobs currently stuck and already reported are kept until they are seen in another status. That list
 *   is bounded by the number of jobs stuck at once, not by history.
 * - A job stamped ahead of the service's clock never moves the cursor: the cursor is the newest updatedAt
 *   among the other jobs, or stays. Such a job is listed first by every poll while it stays ahead, so a job in
 *   a watched final status is delivered once and kept in `ahead` (id and status) while it is listed ahead; when
 *   it is seen again with a normal stamp in the same status, it is not delivered again, and the entry goes.
 *   `ahead` holds the jobs listed ahead in this poll, and while a gap is left or the poll did not get past the
 *   jobs ahead, the entries not seen again too; so it is bounded by how many such jobs exist at once.
 * - Healing: a stored cursor ahead of the clock (see startCursor) is replaced by the service's now, with no
 *   ids at it, and the poll lists from there. A job listed then was handled already when it is older than the
 *   stored cursor, or at it and in its atCursor; newer ones are delivered. A gap left by that poll keeps that
 *   rule (`handledUpTo`).
 */
export class Sweep {
	readonly events: Observation[] = [];
	private readonly regions: Region[];
	private readonly start: string | null;
	private readonly startTime?: number;
	private readonly healed: boolean;
	private readonly handledAhead: ReadonlySet<string>;
	private readonly stuck: Set<string>;
	private readonly ahead = new Map<string, AheadEntry>();
	private readonly seen = new Set<string>();
	/** The newest updatedAt handled in the fresh part among jobs not ahead, and its final-status ids there. */
	private newest?: { time: number; updatedAt: string; ids: Set<string> };
	/** Whether the fresh part got past the jobs stamped ahead of the clock (reached one that is not). */
	private pastAhead = false;
	/**
	 * Whether this poll moved anything on: an event, a job newer than the cursor, a stuck job's bookkeeping, a
	 * gap read further. Going over jobs handled already at the cursor's millisecond is not progress.
	 */
	progressed = false;

	constructor(
		private readonly state: TriggerState,
		private readonly watched: ReadonlySet<WatchedEvent>,
		private readonly clock: ServiceClock,
		private readonly deliver = true,
	) {
		this.start = startCursor(state.cursor, clock);
		this.healed = this.start !== state.cursor;
		this.startTime = this.start === null ? undefined : timeOf(this.start);
		this.handledAhead = new Set(state.ahead.map(({ id, status }) => aheadKey(id, status)));
		this.stuck = new Set(state.stuck);
		const stored: Handled | undefined =
			state.cursor === null ? undefined : { time: timeOf(state.cursor), ids: new Set(state.atCursor) };
		const fresh: Region = { lower: this.startTime, handled: stored, takenAtTop: new Set(), page: null, complete: false };
		const gaps: Region[] = state.gaps.map((gap) => ({
			top: gap.top,
			after: gap.after,
			lower: gap.until === null ? undefined : timeOf(gap.until),
			handled: this.gapHandled(gap),
			takenAtTop: new Set<string>(),
			page: gap.page,
			complete: false,
		}));
		this.regions = [fresh, ...gaps];
		// Where two parts meet inside a millisecond, the ids above the lower part's top belong to it.
		for (let i = 0; i + 1 < this.regions.length; i++) {
			const region = this.regions[i];
			const below = this.regions[i + 1].top;
			if (below && region.lower !== undefined && timeOf(below.updatedAt) === region.lower) region.limitId = below.id;
		}
	}

	private gapHandled(gap: Gap): Handled | undefined {
		const bounds: Handled[] = [];
		if (gap.until !== null) bounds.push({ time: timeOf(gap.until), ids: new Set(gap.atUntil) });
		if (gap.handledUpTo) bounds.push({ time: timeOf(gap.handledUpTo.cursor), ids: new Set(gap.handledUpTo.atCursor) });
		// The later bound holds the earlier one (a job older than it is handled, at it only its ids).
		return bounds.sort((a, b) => b.time - a.time)[0];
	}

	/** How many parts this poll may read: the fresh one, then each gap. */
	get regionCount(): number {
		return this.regions.length;
	}

	/** Where the read of part `index` starts: null for the first page of the list. */
	pageOf(index: number): PageToken {
		return this.regions[index].page;
	}

	/** A stored page cursor the service refused: the part is read from the first page instead. */
	restartFromFront(index: number): void {
		this.regions[index].page = null;
	}

	/** Whether a job listed while reading part `index` belongs to it, comes before it, or ends it. */
	place(index: number, job: Job): Placement {
		const region = this.regions[index];
		if (this.seen.has(job.id)) return 'skip';
		if (region.after && !isAfter(job, region.after)) return 'skip';
		if (region.lower !== undefined) {
			const time = timeOf(job.attributes.updatedAt);
			if (time < region.lower) return 'done';
			if (time === region.lower && region.limitId !== undefined && job.id > region.limitId) return 'done';
		}
		return 'member';
	}

	/** The event a member job of part `index` makes when taken, if any; changes nothing. */
	eventOf(index: number, job: Job): Observation | undefined {
		if (!this.deliver) return undefined;
		const { status } = job.attributes;
		const ahead = isAheadOf(this.clock, job) ? { aheadOfClock: true } : {};
		if (status === 'stuck') {
			return this.watched.has('stuck') && !this.stuck.has(job.id) ? { job, event: 'stuck', ...ahead } : undefined;
		}
		if (!isFinal(status) || !this.watched.has(status as WatchedEvent)) return undefined;
		const handled =
			isHandled(this.regions[index].handled, timeOf(job.attributes.updatedAt), job.id) ||
			this.handledAhead.has(aheadKey(job.id, status));
		return handled ? undefined : { job, event: status as WatchedEvent, ...ahead };
	}

	/** Handles a member job of part `index`, listed on `page`; returns its event, if any. */
	take(index: number, job: Job, page: PageToken): Observation | undefined {
		const event = this.eventOf(index, job);
		if (event) this.events.push(event);
		const region = this.regions[index];
		if (event || index > 0 || this.startTime === undefined || timeOf(job.attributes.updatedAt) > this.startTime) {
			this.progressed = true;
		}
		this.seen.add(job.id);
		region.position = { updatedAt: job.attributes.updatedAt, id: job.id };
		region.page = page;
		const { status, updatedAt } = job.attributes;
		const ahead = isAheadOf(this.clock, job);
		if (index === 0 && !ahead) {
			this.pastAhead = true;
			const time = timeOf(updatedAt);
			if (!this.newest || time > this.newest.time) this.newest = { time, updatedAt, ids: new Set() };
		}
		if (status === 'stuck') {
			if (this.watched.has('stuck')) this.stuck.add(job.id);
			return event;
		}
		if (this.stuck.delete(job.id)) this.progressed = true;
		if (!isFinal(status) || !this.watched.has(status as WatchedEvent)) return event;
		if (ahead) this.ahead.set(job.id, { id: job.id, status });
		else if (index === 0 && this.newest && timeOf(updatedAt) === this.newest.time) this.newest.ids.add(job.id);
		else if (region.top && timeOf(updatedAt) === timeOf(region.top.updatedAt)) region.takenAtTop.add(job.id);
		return event;
	}

	/** Every job of the page was handled or skipped: part `index` goes on at `next`. */
	advance(index: number, next: PageToken): void {
		this.regions[index].page = next;
		if (index > 0) this.progressed = true;
	}

	/** Part `index` was read to its end. */
	complete(index: number): void {
		this.regions[index].complete = true;
		if (index === 0) this.pastAhead = true;
	}

	/**
	 * The ids handled at each part's lower millisecond by the parts below it: the stored ones, and those a gap
	 * read to its end in this poll hands up to the part above it where the two shared a millisecond (while
	 * the gap was there, its top kept them apart; see the constructor).
	 */
	private lowerIds(): Array<Set<string>> {
		const { state } = this;
		const sets = this.regions.map(
			(_, i) => new Set(i === 0 ? (this.healed ? [] : state.atCursor) : state.gaps[i - 1].atUntil),
		);
		let carry: Handled | undefined;
		for (let i = this.regions.length - 1; i >= 0; i--) {
			const region = this.regions[i];
			if (carry && region.lower === carry.time) for (const id of carry.ids) sets[i].add(id);
			carry = undefined;
			if (i === 0 || !region.complete) continue;
			const gap = state.gaps[i - 1];
			const time = timeOf(gap.top.updatedAt);
			const ids = new Set([...gap.atTop, ...region.takenAtTop]);
			if (region.lower === time) for (const id of sets[i]) ids.add(id);
			carry = { time, ids };
		}
		return sets;
	}

	/** The events, oldest first, and the state the next poll goes on from. */
	result(): WindowResult {
		const { state } = this;
		const fresh = this.regions[0];
		const reachedJobs = this.newest !== undefined;
		const lowerIds = this.lowerIds();
		// The fresh part moves the cursor to the newest job it handled that is not ahead of the clock; with no
		// such job it lists from `start` next time (healed, when the stored cursor was ahead), once read whole.
		let cursor = state.cursor;
		let atCursor = this.healed ? new Set(state.atCursor) : lowerIds[0];
		if (this.newest) {
			cursor = this.newest.updatedAt;
			atCursor = new Set(this.newest.time === this.startTime && !this.healed ? lowerIds[0] : []);
			for (const id of this.newest.ids) atCursor.add(id);
		} else if (fresh.complete && this.healed) {
			cursor = this.start;
			atCursor = new Set();
		}

		const gaps: Gap[] = [];
		if (!fresh.complete && reachedJobs && fresh.position) {
			const gap: Gap = {
				top: fresh.position,
				after: fresh.position,
				atTop: [],
				page: fresh.page,
				until: this.start,
				atUntil: [...lowerIds[0]].sort(),
			};
			if (this.healed && state.cursor !== null) gap.handledUpTo = { cursor: state.cursor, atCursor: [...state.atCursor].sort() };
			gaps.push(gap);
		}
		state.gaps.forEach((gap, i) => {
			const region = this.regions[i + 1];
			if (region.complete) return;
			gaps.push({
				...gap,
				after: region.position ?? gap.after,
				atTop: [...new Set([...gap.atTop, ...region.takenAtTop])].sort(),
				page: region.page,
				atUntil: [...lowerIds[i + 1]].sort(),
			});
		});

		const ahead = new Map(this.ahead);
		if (!this.pastAhead || gaps.length > 0) {
			for (const entry of state.ahead) if (!this.seen.has(entry.id) && !ahead.has(entry.id)) ahead.set(entry.id, entry);
		}

		return {
			events: [...this.events].sort(byChange),
			next: {
				version: STATE_VERSION,
				fingerprint: state.fingerprint,
				cursor,
				atCursor: [...atCursor].sort(),
				stuck: [...this.stuck].sort(),
				ahead: [...ahead.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
				gaps,
			},
		};
	}
}

/**
 * Turns a whole window of the fresh part (the jobs listed newest first from the front down to
 * `startCursor(state.cursor, clock)`, as listSince reads it) into events and the next state: a Sweep that
 * reads its fresh part to the end. The activation uses it with `deliver` false.
 */
export function processWindow(
	state: TriggerState,
	records: Job[],
	watched: ReadonlySet<WatchedEvent>,
	clock: ServiceClock,
	deliver = true,
): WindowResult {
	const sweep = new Sweep(state, watched, clock, deliver);
	for (const job of records) {
		const placement = sweep.place(0, job);
		if (placement === 'done') break;
		if (placement === 'member') sweep.take(0, job, null);
	}
	sweep.complete(0);
	return sweep.result();
}
