/**
 * Pacing: how many requests of a node context (one execution of the node, one poll) are in flight at once, and
 * when the next one may go. The request path (request.ts) meets it three times per attempt, and knows nothing
 * of which mechanism runs:
 * - `enter`: wait for a place, and for the pause a Retry-After set for all; honours the stop signal;
 * - `heard`: what the service answered, as soon as the headers are in (a success, or a refusal and its pause);
 * - `leave`: give the place back, with what the attempt came to (for Auto's load signal).
 *
 * Behind it, the three mechanisms that set the number of requests in flight, each one file:
 * - fixed.ts: Parallel Requests as a fixed number;
 * - auto.ts: Parallel Requests "Auto", learnt from the answers (and what an answer says about load);
 * - remembered.ts: what Auto learnt about a service, kept for the next executions of this process;
 * and what they share: pacer.ts (the state), line.ts (the places and the line of waiting requests, a stop
 * signal leaving it) and retryAfter.ts (the pause a Retry-After sets for all, and the rate budget a 429 teaches).
 *
 * Not to be confused with ../adaptations.ts: that file meets a deployment that deviates from the API contract
 * in what it answers (a redirect, a stated page maximum, a 415, a DELETE already done) by changing the request
 * itself; the pacing changes only when requests go, never what they are.
 */
import type { FailureFacts } from '../failure';
import type { ApiContext, ParallelSetting } from '../settings';
import type { Sample } from './auto';
import { loadSignalOf, newAuto, noteAnswer, refusalOf } from './auto';
import { setFixed } from './fixed';
import { markSent, release, sentAheadOf, StoppedError, takePlace, wake } from './line';
import type { Pacer } from './pacer';
import { pacerOf } from './pacer';
import { keepRemembered, startFromRemembered } from './remembered';
import { noteAccepted, notePause, waitForPause } from './retryAfter';

export { StoppedError };

/**
 * Sets how many requests of this context may be in flight at once (the router does, from Parallel
 * Requests): a fixed number, or Auto up to its maximum.
 */
export function setParallel(ctx: ApiContext, parallel: ParallelSetting): void {
	const pacer = pacerOf(ctx);
	if (parallel.mode === 'auto') {
		pacer.auto = newAuto(parallel.max);
		pacer.parallel = pacer.auto.parallel;
	} else {
		setFixed(pacer, parallel.requests);
	}
	wake(pacer);
}

/** With Auto, the service the run's requests go to: the run starts from what was remembered of it. */
export function useService(ctx: ApiContext, service: string): void {
	const pacer = pacerOf(ctx);
	if (startFromRemembered(pacer, service)) wake(pacer);
}

/**
 * Waits for a place, then for the shared pause (and the learnt window budget) to allow a send, at most until
 * `waitUntil` (local time, ms). Rejects with StoppedError when `stop` aborted before the send (the caller
 * has nothing more to send: what it queued is dropped), or goes on when the execution was stopped (the attempt
 * then fails as canceled). On success the caller holds a place and must `release` it.
 */
export async function acquire(
	ctx: ApiContext,
	cancel?: AbortSignal,
	stop?: AbortSignal,
	waitUntil = Infinity,
): Promise<Pacer> {
	const pacer = pacerOf(ctx);
	await takePlace(pacer, stop);
	let granted = false;
	try {
		if (!(await waitForPause(pacer, cancel, stop, waitUntil))) throw new StoppedError();
		granted = true;
	} finally {
		if (!granted) release(pacer);
	}
	return pacer;
}

/** An attempt's answer, for Auto (without Auto it changes nothing). */
export function noteLoad(pacer: Pacer, sample: Sample): void {
	const auto = pacer.auto;
	if (!auto) return;
	const before = auto.parallel;
	const grew = noteAnswer(auto, sample);
	pacer.parallel = auto.parallel;
	// An answer confirms the number only when it was in use (as for growing it) or changed it: a run that
	// sends one request at a time keeps an old number no longer alive than its age.
	if (auto.parallel !== before || sample.inFlight * 2 >= before) keepRemembered(pacer);
	if (grew) wake(pacer);
}

/** One attempt's place: held from `enter` to `leave`. */
export interface Place {
	readonly pacer: Pacer;
	/** Its place in the order of sending (line.ts markSent). */
	readonly sent: number;
	readonly sentAt: number;
	/** Requests in flight when it was sent, itself included. */
	readonly inFlight: number;
	/** The service's refusal (429, 503) was heard with the headers: Auto and the pause took it then. */
	refused: boolean;
	/** The service's success was heard with the headers, and counted as accepted then. */
	accepted: boolean;
}

/** Where and how long a request may wait before it is sent. */
export interface Bounds {
	/** The execution's cancel signal: waiting ends, and the attempt fails as canceled. */
	cancel?: AbortSignal;
	/** The caller's stop signal: a request not sent yet is dropped with StoppedError. */
	stop?: AbortSignal;
	/** Local time (ms) after which the request waits for no pause: it is sent then. */
	waitUntil?: number;
}

/** Waits for a place for one attempt to `service` (remembered under Auto), within `bounds`. */
export async function enter(ctx: ApiContext, service: string, bounds: Bounds): Promise<Place> {
	useService(ctx, service);
	const pacer = await acquire(ctx, bounds.cancel, bounds.stop, bounds.waitUntil);
	const sentAt = Date.now();
	const inFlight = pacer.active;
	return { pacer, sent: markSent(pacer), sentAt, inFlight, refused: false, accepted: false };
}

/**
 * What the service answered, as soon as its headers are in: a success, or an error status (none: no answer)
 * with the wait its Retry-After asks for. A 429 or 503 pauses the node's requests at once, not only after its
 * body is read: on a busy machine that read can come after many more requests went out into the same refusal.
 */
export function heard(place: Place, answer: { ok: true } | { ok: false; status: number | undefined; pauseMs?: number }): void {
	if (answer.ok) {
		// Counted as soon as the headers are in: a 429 that arrives after this answer must find it counted.
		place.accepted = true;
		noteAccepted(place.pacer);
		return;
	}
	if (answer.status !== 429 && answer.status !== 503) return;
	place.refused = true;
	const ahead = sentAheadOf(place.pacer, place.sent);
	noteLoad(place.pacer, { answer: refusalOf(answer.status), sentAt: place.sentAt, answeredAt: Date.now(), inFlight: place.inFlight, ahead });
	if (answer.pauseMs !== undefined) notePause(place.pacer, answer.pauseMs, answer.status);
}

/**
 * Gives the place back, with what the attempt came to: its load signal for Auto (unless its refusal was heard
 * already), whether the service accepted it, and the pause a Retry-After asked for that was not heard with the
 * headers (the token request's). Without an outcome (the attempt threw), the place is only given back.
 */
export function leave(place: Place, outcome?: { ok: true } | { ok: false; facts: FailureFacts }, pauseMs?: number): void {
	const pacer = place.pacer;
	release(pacer, place.sent);
	// An attempt that threw came to nothing the mechanisms can read.
	if (!outcome) return;
	if (!place.refused) {
		const answer = outcome.ok ? 'clean' : loadSignalOf(outcome.facts);
		noteLoad(pacer, { answer, sentAt: place.sentAt, answeredAt: Date.now(), inFlight: place.inFlight });
	}
	const status = outcome.ok ? undefined : outcome.facts.status;
	const refusedStatus = status === 429 || status === 503;
	if (!place.accepted && !refusedStatus && (outcome.ok || status !== undefined)) noteAccepted(pacer);
	if (pauseMs !== undefined && !place.refused) notePause(pacer, pauseMs, status);
}
