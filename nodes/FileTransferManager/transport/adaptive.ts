/**
 * Parallel Requests "Auto": how many requests may be in flight at once, learnt from the answers. Pure
 * arithmetic on the samples the transport reports (no timers, no clock of its own), so that it is tested
 * alone (test/unit/adaptive.test.ts) and the limiter only reads `limit`.
 *
 * What it follows, and why:
 * - **Growth as TCP's slow start, with the guard of Netflix's concurrency-limits**: while answers come back
 *   fast and clean, every one of them adds half a request to the limit, so the limit grows ×1.5 per round trip
 *   (TCP's slow start with delayed acknowledgements), but only while at least half of it is in use. A node
 *   that sends one page after another never grows a limit it never tries. Half, not TCP's whole step: the
 *   first window of a rate limit ends in about as many refusals as the limit holds by then (they are on the
 *   wire before the first 429 comes back), and ×2 per round trip doubled those (bench/README.md).
 * - **Latency as the early signal (TCP Vegas, Netflix's Gradient2, Envoy's adaptive concurrency)**: a
 *   service that queues answers more slowly before it refuses. An answer that took more than
 *   `LATENCY_TOLERANCE` times the fastest one seen (plus `LATENCY_SLACK_MS`, so that a service on the same
 *   host, whose answers take a millisecond or two, is not read as queueing from scheduling noise) cuts the
 *   limit by the ratio of the two, at most by half, and ends slow start: from then on it grows by
 *   about √limit per round trip (Gradient2's queue allowance).
 * - **Refusals cut at once (AIMD, as TCP and the AWS SDKs' adaptive retry mode)**: a 429, a 503 or a
 *   timeout halves the limit.
 * - **A remembered limit that is refused is dropped**: a run may start from the limit an earlier execution
 *   ended with (learnt.ts, `resumeAt`). A refusal of a request sent before this run's first clean answer came
 *   back says the service no longer takes it (its capacity shrank, another client took it): the limit goes
 *   back to the start (8) or below, as a fresh run's would, instead of halving from a limit the service just
 *   refused, so that a memory that turned wrong costs one round trip of refusals, not one per halving. By when
 *   the request was sent, not by which answer is read first: a service that takes a few of the first round
 *   may answer one of them before its refusals are read.
 * - **One cut per round trip**: only answers to requests sent after the latest cut can cut again, so that
 *   the hundred answers of one overloaded round trip cut once, not a hundred times (TCP's one reduction
 *   per window).
 * - **Our own slowness is not the service's**: when the node's process was busy (its event loop in use
 *   `CLIENT_BUSY` of the time or more), a slow answer may have waited for us, not for the service: it
 *   neither cuts nor ends slow start. Without this, Auto reads the cost of handling hundreds of answers at
 *   once on a small machine as a queue at the service and stays far below what the service takes.
 * - **Latency alone never cuts below `AUTO_INITIAL`**: only refusals take the limit below a fixed Parallel
 *   Requests' default, so Auto is never slower than that default against a service that refuses nothing.
 */

import { DEFAULT_PARALLEL } from './settings';

/** The limit Auto starts at: a fixed Parallel Requests' default, so that Auto starts no slower than it. */
const AUTO_INITIAL = DEFAULT_PARALLEL;
/** The most Auto goes up to unless the node's Max Parallel Requests says otherwise. */
export const AUTO_DEFAULT_CAP = 1000;
/** An answer this many times slower than the fastest one seen means the service queues requests. */
const LATENCY_TOLERANCE = 2;
/** Absolute slack on that comparison, for services whose answers take a few milliseconds. */
const LATENCY_SLACK_MS = 10;
/** Growth per clean answer in slow start: ×1.5 per round trip, as TCP's slow start with delayed acknowledgements. */
const SLOW_START_STEP = 0.5;
/** Share of time the node's event loop was in use above which a slow answer says nothing about the service. */
const CLIENT_BUSY = 0.9;
/** How much a refusal (429, 503, timeout) keeps of the limit. */
const REFUSAL_KEEP = 0.5;
/** The most one latency cut takes away. */
const LATENCY_KEEP_AT_LEAST = 0.5;

export type Answer = 'clean' | 'refused' | 'neutral';

export interface AdaptiveLimit {
	/** Requests in flight at most now (a whole number, 1 … cap). */
	limit: number;
	readonly cap: number;
	/** The fastest answer seen, in ms. */
	fastestMs: number;
	/** Growing by one per clean answer (slow start) until the first cut. */
	slowStart: boolean;
	/** The limit as a fraction between whole steps in congestion avoidance. */
	fraction: number;
	/** Local time of the latest cut; answers to requests sent before it cannot cut again. */
	cutAt: number;
	/**
	 * When the first clean answer of a run that was taken over from an earlier execution (resumeAt) came back
	 * (local ms): Infinity until then; -Infinity in a run that started afresh.
	 */
	confirmedAt: number;
}

export function newAdaptiveLimit(cap = AUTO_DEFAULT_CAP): AdaptiveLimit {
	const bound = Math.max(1, Math.floor(cap));
	return {
		limit: Math.min(AUTO_INITIAL, bound),
		cap: bound,
		fastestMs: Infinity,
		slowStart: true,
		fraction: 0,
		cutAt: -Infinity,
		confirmedAt: -Infinity,
	};
}

export interface Sample {
	/** How the service answered: clean (carried out or refused for its content), refused (429, 503, timeout,
	 * dropped connection), or neutral (says nothing about load: a redirect, a canceled attempt). */
	answer: Answer;
	/** When the request was sent, and when its answer came (local ms). */
	sentAt: number;
	answeredAt: number;
	/** Requests in flight when it was sent, itself included. */
	inFlight: number;
	/** Share of the recent time (0 … 1) the node's process was busy (its event loop in use). */
	clientBusy?: number;
}

function set(state: AdaptiveLimit, limit: number): void {
	state.limit = Math.max(1, Math.min(state.cap, Math.floor(limit)));
}

function cut(state: AdaptiveLimit, keep: number, floor: number, now: number): void {
	state.slowStart = false;
	state.fraction = 0;
	state.cutAt = now;
	set(state, Math.max(Math.min(floor, state.limit), state.limit * keep));
}

/**
 * Starts from where an earlier execution against the same service left its limit (learnt.ts), within this
 * run's maximum. Nothing else is taken over: the fastest answer is measured anew, so that a service that
 * became slower is not read as queueing; and no cut is pending, so the first refusal cuts at once.
 */
export function resumeAt(state: AdaptiveLimit, limit: number, slowStart: boolean): void {
	set(state, limit);
	state.slowStart = slowStart;
	state.confirmedAt = Infinity;
}

/** Takes one answer into account; returns whether the limit grew (the limiter then wakes waiting requests). */
export function noteAnswer(state: AdaptiveLimit, sample: Sample): boolean {
	const before = state.limit;
	const now = sample.answeredAt;
	const elapsed = Math.max(0, sample.answeredAt - sample.sentAt);
	const afterCut = sample.sentAt >= state.cutAt;
	if (sample.answer === 'neutral') return false;
	if (sample.answer === 'refused') {
		const rememberedRefused = sample.sentAt < state.confirmedAt;
		const keep = rememberedRefused ? Math.min(REFUSAL_KEEP, AUTO_INITIAL / state.limit) : REFUSAL_KEEP;
		if (afterCut) cut(state, keep, 1, now);
		return false;
	}
	if (state.confirmedAt === Infinity) state.confirmedAt = now;
	if (elapsed < state.fastestMs) state.fastestMs = elapsed;
	const queued = elapsed > state.fastestMs * LATENCY_TOLERANCE + LATENCY_SLACK_MS;
	if (queued && (sample.clientBusy ?? 0) < CLIENT_BUSY) {
		if (afterCut) {
			const ratio = (state.fastestMs * LATENCY_TOLERANCE + LATENCY_SLACK_MS) / elapsed;
			cut(state, Math.max(LATENCY_KEEP_AT_LEAST, ratio), AUTO_INITIAL, now);
		}
		return false;
	}
	// Grow only a limit that is in use.
	if (sample.inFlight * 2 < state.limit) return false;
	if (state.slowStart) {
		state.fraction += SLOW_START_STEP;
		if (state.fraction >= 1) {
			state.fraction -= 1;
			set(state, state.limit + 1);
		}
	} else {
		state.fraction += Math.sqrt(state.limit) / state.limit;
		if (state.fraction >= 1) {
			const whole = Math.floor(state.fraction);
			state.fraction -= whole;
			set(state, state.limit + whole);
		}
	}
	return state.limit > before;
}
