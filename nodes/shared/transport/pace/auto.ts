/**
 * Parallel Requests "Auto" (one of the three mechanisms behind pace/index.ts): how many requests may be in
 * flight at once, learnt from the answers, and what an answer says about the service's load (`loadSignalOf`). Pure
 * arithmetic on the samples the transport reports (no timers, no clock of its own), so that it is tested
 * alone (test/unit/pace/auto.test.ts) and the pacing only reads `parallel`.
 *
 * What it follows, and why:
 * - **Growth as TCP's slow start**: while answers come back clean, every one of them adds half a request to the
 *   limit, so the limit grows ×1.5 per round trip (TCP's slow start with delayed acknowledgements), but only
 *   while at least half of it is in use. A node that sends one page after another never grows a limit it never
 *   tries. Half, not TCP's whole step: the first window of a rate limit ends in about as many refusals as the
 *   limit holds by then (they are on the wire before the first 429 comes back), and ×2 per round trip doubled
 *   those (bench/README.md).
 * - **Refusals cut at once (AIMD, as TCP and the AWS SDKs' adaptive retry mode)**: a 429, a 503 or a timeout
 *   halves the limit and ends slow start: from then on it grows by about √limit per round trip (the queue
 *   allowance of Netflix's Gradient2).
 * - **Where the service ran out of room is remembered**: a 503 is the contract's "cannot take more now". The
 *   fewest requests the service held with one it refused (the ones sent before it and still unanswered, plus
 *   itself; more than `OVERLOAD_LEARNT_ABOVE`: a 503 to a few requests says the service is down, not full) bound
 *   the limit at `OVERLOAD_KEEP` of them, for this run and, through remembered.ts, for the next executions until
 *   `KEPT_MS` after that 503. So an execution meets a service's capacity once, with a few refusals, and the ones
 *   after it stay just below it without any.
 * - **Latency is not a signal**: on a machine of a few cores, the node's own work on hundreds of answers slows
 *   them as much as a service's queue does, and no measure of the node's own load tells the two apart
 *   (bench/README.md tried four). Read as the service's queue, it held Auto far below what a healthy service
 *   takes. A service that queues without refusing meets at most the Auto Maximum at once, the Timeout still
 *   cuts, and a 503 teaches the bound above.
 * - **A remembered limit that is refused is dropped**: a run may start from the limit an earlier execution
 *   ended with (remembered.ts, `resumeAt`). A refusal of a request sent before this run's first clean answer came
 *   back says the service no longer takes it (its capacity shrank, another client took it): the limit goes
 *   back to the start (8) or below, as a fresh run's would, instead of halving from a limit the service just
 *   refused, so that a memory that turned wrong costs one round trip of refusals, not one per halving. By when
 *   the request was sent, not by which answer is read first: a service that takes a few of the first round
 *   may answer one of them before its refusals are read.
 * - **One cut per round trip**: only answers to requests sent after the latest cut can cut again, so that
 *   the hundred answers of one overloaded round trip cut once, not a hundred times (TCP's one reduction
 *   per window).
 */

import type { FailureFacts } from '../failure';
import { TIMEOUT_CODES } from '../failure';
import { AUTO_MAXIMUM_DEFAULT, DEFAULT_PARALLEL } from '../settings';

/** Where Auto starts: a fixed Parallel Requests' default, so that Auto starts no slower than it. */
const AUTO_INITIAL = DEFAULT_PARALLEL;
/** Growth per clean answer in slow start: ×1.5 per round trip, as TCP's slow start with delayed acknowledgements. */
const SLOW_START_STEP = 0.5;
/** How much a refusal (429, 503, timeout) keeps of the limit. */
const REFUSAL_KEEP = 0.5;
/** The share of the requests the service held at a 503 that the limit stays at or below from then on. */
export const OVERLOAD_KEEP = 0.8;
/**
 * A 503 with more requests than this held teaches where the service runs out of room; with fewer, the bound
 * would hold Auto below its start (8) for as long as it is remembered.
 */
export const OVERLOAD_LEARNT_ABOVE = Math.ceil(AUTO_INITIAL / OVERLOAD_KEEP);

/**
 * How the service answered, for Auto: clean (carried out or refused for its content); refused (429, 504, a
 * timeout, a dropped connection); overloaded (503: no room for it now); neutral (says nothing about load: a
 * redirect, a canceled attempt).
 */
export type Answer = 'clean' | 'refused' | 'overloaded' | 'neutral';

/** Where the service ran out of room: the requests it held with the one it refused (503), and when (local ms). */
export interface Overload {
	inFlight: number;
	at: number;
}

export interface AutoState {
	/** Requests in flight at most now (a whole number, 1 … maximum). */
	parallel: number;
	readonly maximum: number;
	/** Growing by half a request per clean answer (slow start) until the first cut. */
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
	/** The fewest requests the service held with one it refused with a 503, in this run or a remembered one. */
	overload?: Overload;
}

export function newAuto(maximum = AUTO_MAXIMUM_DEFAULT): AutoState {
	const bound = Math.max(1, Math.floor(maximum));
	return {
		parallel: Math.min(AUTO_INITIAL, bound),
		maximum: bound,
		slowStart: true,
		fraction: 0,
		cutAt: -Infinity,
		confirmedAt: -Infinity,
	};
}

export interface Sample {
	answer: Answer;
	/** When the request was sent, and when its answer came (local ms). */
	sentAt: number;
	answeredAt: number;
	/** Requests in flight when it was sent, itself included. */
	inFlight: number;
	/**
	 * For a refusal: the requests sent before it that were still unanswered when it came, which the service
	 * held (pace/line.ts sentAheadOf). Fewer than `inFlight` - 1 when the node read answers late.
	 */
	ahead?: number;
}

/** The most the limit may be: the run's maximum, and below where the service ran out of room. */
function ceiling(state: AutoState): number {
	if (!state.overload) return state.maximum;
	return Math.min(state.maximum, Math.floor(state.overload.inFlight * OVERLOAD_KEEP));
}

function set(state: AutoState, parallel: number): void {
	state.parallel = Math.max(1, Math.min(ceiling(state), Math.floor(parallel)));
}

function cut(state: AutoState, keep: number, now: number): void {
	state.slowStart = false;
	state.fraction = 0;
	state.cutAt = now;
	set(state, state.parallel * keep);
}

/**
 * Starts from where an earlier execution against the same service left its limit (remembered.ts), within this
 * run's maximum and below where the service ran out of room, if that is still remembered. No cut is pending,
 * so the first refusal cuts at once.
 */
export function resumeAt(state: AutoState, parallel: number, slowStart: boolean, overload?: Overload): void {
	state.overload = overload ? { ...overload } : undefined;
	set(state, parallel);
	state.slowStart = slowStart;
	state.confirmedAt = Infinity;
}

/** Takes one answer into account; returns whether the limit grew (the pacing then wakes waiting requests). */
export function noteAnswer(state: AutoState, sample: Sample): boolean {
	const before = state.parallel;
	const now = sample.answeredAt;
	if (sample.answer === 'neutral') return false;
	if (sample.answer === 'refused' || sample.answer === 'overloaded') {
		const held = sample.ahead === undefined ? sample.inFlight : sample.ahead + 1;
		if (sample.answer === 'overloaded' && held > OVERLOAD_LEARNT_ABOVE && held < (state.overload?.inFlight ?? Infinity)) {
			state.overload = { inFlight: held, at: now };
		}
		const rememberedRefused = sample.sentAt < state.confirmedAt;
		const keep = rememberedRefused ? Math.min(REFUSAL_KEEP, AUTO_INITIAL / state.parallel) : REFUSAL_KEEP;
		if (sample.sentAt >= state.cutAt) cut(state, keep, now);
		else set(state, state.parallel);
		return false;
	}
	if (state.confirmedAt === Infinity) state.confirmedAt = now;
	// Grow only a limit that is in use.
	if (sample.inFlight * 2 < state.parallel) return false;
	if (state.slowStart) {
		state.fraction += SLOW_START_STEP;
		if (state.fraction >= 1) {
			state.fraction -= 1;
			set(state, state.parallel + 1);
		}
	} else {
		state.fraction += Math.sqrt(state.parallel) / state.parallel;
		if (state.fraction >= 1) {
			const whole = Math.floor(state.fraction);
			state.fraction -= whole;
			set(state, state.parallel + whole);
		}
	}
	return state.parallel > before;
}

/** Connection failures that a service shedding load causes (it closes or refuses connections). */
const SHED_CODES = /^(ECONNRESET|ECONNREFUSED|EPIPE)$/;

/** What a 429, 503 or 504 tells Auto: a 503 is a service without room for more, the others refuse. */
export function refusalOf(status: number): Answer {
	return status === 503 ? 'overloaded' : 'refused';
}

/**
 * What a failed attempt says about the service's load: a 429, 503 or 504, a timeout or a shed connection is a
 * refusal (a 503 an overload); an answer with another status is clean (the service answered); what says nothing
 * about load (a canceled attempt, a token or TLS failure, a 500 or 502) is neutral.
 */
export function loadSignalOf(facts: FailureFacts): Answer {
	if (facts.canceled || facts.token || facts.blocked) return 'neutral';
	if (facts.timedOut || (facts.code !== undefined && (SHED_CODES.test(facts.code) || TIMEOUT_CODES.test(facts.code)))) {
		return 'refused';
	}
	if (facts.status === 429 || facts.status === 503 || facts.status === 504) return refusalOf(facts.status);
	if (facts.status === undefined || facts.status === 500 || facts.status === 502) return 'neutral';
	return 'clean';
}
