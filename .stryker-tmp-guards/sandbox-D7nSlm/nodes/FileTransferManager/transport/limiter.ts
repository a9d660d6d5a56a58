/**
 * One limiter per node context (one execution of the node, one poll): how many requests are in flight
 * at once, and a shared "paused until" that a 429 with Retry-After (without Auto, a 503 too) sets for every
 * request of the node, not just the one that got it. The retry budget stays per request (request.ts); waiting
 * here is not an attempt. A request whose stop signal aborts before it is sent leaves the line: the limiter knows
 * nothing of the items that the signals stand for.
 */
// @ts-nocheck

import type { AdaptiveLimit, Sample } from './adaptive';
import { newAdaptiveLimit, noteAnswer, resumeAt } from './adaptive';
import type { LearntLimits } from './learnt';
import { recall, remember } from './learnt';
import type { ApiContext, ParallelSetting } from './settings';
import { DEFAULT_PARALLEL } from './settings';
import { pause } from './retry';
import { perRun } from '../execution/perRun';

/**
 * A request that was never sent because its caller's stop signal aborted first (in the action node: an
 * earlier item failed). Its caller has no result and is not a failure of its own.
 */
export class StoppedError extends Error {
	constructor() {
		super('The node stopped before this request was sent');
		this.name = 'StoppedError';
	}
}

export interface Limiter {
	/** Requests in flight at most. */
	limit: number;
	/** With Parallel Requests "Auto": the limit learnt from the answers (adaptive.ts), copied into `limit`. */
	adaptive?: AdaptiveLimit;
	/** With Auto: the service (learnt.ts) this run started from what was learnt about, and tells what it learns. */
	service?: string;
	active: number;
	/** The requests on the wire by when they were sent (markSent), oldest first. */
	sent: Set<number>;
	sentCount: number;
	/** Requests waiting for a slot, first come first served. */
	queue: Array<{ resume: () => void }>;
	/** Local time before which no request is sent (Retry-After of a 429, or of a 503 without Auto). */
	pausedUntil: number;
	/**
	 * What the service accepts in one Retry-After window, learnt from a window that ended in a 429/503
	 * with Retry-After (see notePause): at most `budget` sends per `windowMs` from then on. A window that
	 * used its whole budget without such an answer raises it by one.
	 */
	budget?: number;
	windowMs: number;
	/** When the current window's first send went out; 0 before it. */
	windowStart: number;
	windowSent: number;
	/** A 429/503 with Retry-After arrived in the current window. */
	windowRefused: boolean;
	/** Sends that succeeded since the latest pause ended, and in the window before it. */
	acceptedSincePause: number;
	acceptedBefore?: number;
}

export const limiterOf = perRun<ApiContext, Limiter>(() => ({
	limit: DEFAULT_PARALLEL,
	active: 0,
	sent: new Set(),
	sentCount: 0,
	queue: [],
	pausedUntil: 0,
	windowMs: 0,
	windowStart: 0,
	windowSent: 0,
	windowRefused: false,
	acceptedSincePause: 0,
}));

/**
 * Sets how many requests of this context may be in flight at once (the router does, from Parallel
 * Requests): a fixed number, or Auto up to a cap.
 */
export function setParallel(ctx: ApiContext, parallel: ParallelSetting): void {
	const limiter = limiterOf(ctx);
	if (parallel.mode === 'auto') {
		limiter.adaptive = newAdaptiveLimit(parallel.max);
		limiter.limit = limiter.adaptive.limit;
	} else {
		limiter.adaptive = undefined;
		limiter.limit = Math.max(1, Math.floor(parallel.requests));
	}
	wake(limiter);
}

/**
 * With Auto, the service the run's requests go to (the transport says so before each request; one run has one
 * credential, so the first one stays): the run starts from what earlier executions learnt about it. A fixed
 * number neither reads nor writes what was learnt.
 */
export function useService(ctx: ApiContext, service: string): void {
	const limiter = limiterOf(ctx);
	if (!limiter.adaptive || limiter.service !== undefined) return;
	limiter.service = service;
	const known = recall(service);
	if (!known) return;
	resumeAt(limiter.adaptive, known.limit, known.slowStart, known.overload);
	limiter.limit = limiter.adaptive.limit;
	if (known.budget !== undefined) {
		limiter.budget = known.budget;
		limiter.windowMs = known.windowMs;
		// A window still open goes on; one that closed before this run neither raises the budget nor counts.
		if (Date.now() - known.windowStart < known.windowMs) {
			limiter.windowStart = known.windowStart;
			limiter.windowSent = known.windowSent;
			limiter.windowRefused = known.windowRefused;
		}
	}
	wake(limiter);
}

/** Tells the service's memory (learnt.ts) what this run learnt so far. */
function keepLearnt(limiter: Limiter): void {
	const adaptive = limiter.adaptive;
	if (!adaptive || limiter.service === undefined) return;
	const learnt: LearntLimits = {
		limit: adaptive.limit,
		slowStart: adaptive.slowStart,
		overload: adaptive.overload,
		budget: limiter.budget,
		windowMs: limiter.windowMs,
		windowStart: limiter.windowStart,
		windowSent: limiter.windowSent,
		windowRefused: limiter.windowRefused,
	};
	remember(limiter.service, learnt, adaptive.cap);
}

/** An attempt's answer, for Auto (without Auto it changes nothing). */
export function noteLoad(limiter: Limiter, sample: Sample): void {
	const adaptive = limiter.adaptive;
	if (!adaptive) return;
	const before = adaptive.limit;
	const grew = noteAnswer(adaptive, sample);
	limiter.limit = adaptive.limit;
	// An answer confirms the limit only when the limit was in use (as for growing it) or changed it: a run that
	// sends one request at a time keeps an old limit no longer alive than its age.
	if (adaptive.limit !== before || sample.inFlight * 2 >= before) keepLearnt(limiter);
	if (grew) wake(limiter);
}

function wake(limiter: Limiter): void {
	while (limiter.active < limiter.limit && limiter.queue.length > 0) {
		limiter.active++;
		limiter.queue.shift()?.resume();
	}
}

/** Releases a slot taken by `acquire`, and the request sent in it (`markSent`), if any. */
export function release(limiter: Limiter, sent?: number): void {
	if (sent !== undefined) limiter.sent.delete(sent);
	limiter.active = Math.max(0, limiter.active - 1);
	wake(limiter);
}

/** A request goes out in the slot just acquired; returns its place in the order of sending. */
export function markSent(limiter: Limiter): number {
	const sent = ++limiter.sentCount;
	limiter.sent.add(sent);
	return sent;
}

/**
 * The requests sent before `sent` that are still unanswered: when a 503 to it has just come, what the service
 * held (its answers to them are still to come). Not the requests in flight when it was sent: that count also
 * holds answers the service had already sent and the node had not read yet, many on a busy machine.
 */
export function sentAheadOf(limiter: Limiter, sent: number): number {
	let ahead = 0;
	for (const earlier of limiter.sent) {
		if (earlier >= sent) break;
		ahead++;
	}
	return ahead;
}

/**
 * Waits in line for a slot: true once it holds one, false when `stop` aborted first (it leaves the line
 * without a slot, so that a stopped request never holds back the ones behind it).
 */
async function queueFor(limiter: Limiter, stop: AbortSignal | undefined): Promise<boolean> {
	return await new Promise<boolean>((settle) => {
		const onStop = () => {
			const at = limiter.queue.indexOf(waiter);
			if (at >= 0) limiter.queue.splice(at, 1);
			settle(false);
		};
		const waiter = {
			resume: () => {
				stop?.removeEventListener('abort', onStop);
				settle(true);
			},
		};
		limiter.queue.push(waiter);
		stop?.addEventListener('abort', onStop, { once: true });
	});
}

/**
 * Waits for a slot, then for the shared pause (and the learnt window budget) to allow a send, at most until
 * `waitUntil` (local time, ms). Rejects with StoppedError when `stop` aborted before the send (the caller
 * has nothing more to send: what it queued is dropped), or with the cancel reason when the execution was
 * stopped. On success the caller holds a slot and must `release` it.
 */
export async function acquire(
	ctx: ApiContext,
	cancel?: AbortSignal,
	stop?: AbortSignal,
	waitUntil = Infinity,
): Promise<Limiter> {
	const limiter = limiterOf(ctx);
	// A stopped execution is not refused here: the attempt itself fails as canceled.
	if (stop?.aborted) throw new StoppedError();
	if (limiter.active < limiter.limit && limiter.queue.length === 0) {
		limiter.active++;
	} else if (!(await queueFor(limiter, stop))) {
		throw new StoppedError();
	}
	let granted = false;
	try {
		for (;;) {
			if (stop?.aborted) throw new StoppedError();
			if (cancel?.aborted) break;
			const now = Date.now();
			if (now >= waitUntil) break;
			if (now < limiter.pausedUntil) {
				await pause(Math.min(limiter.pausedUntil, waitUntil) - now, anyOf(stop, cancel));
				continue;
			}
			if (limiter.budget !== undefined && limiter.windowMs > 0) {
				if (now - limiter.windowStart >= limiter.windowMs) {
					if (limiter.windowStart > 0 && !limiter.windowRefused && limiter.windowSent >= limiter.budget) {
						limiter.budget++;
					}
					limiter.windowStart = now;
					limiter.windowSent = 0;
					limiter.windowRefused = false;
				}
				if (limiter.windowSent >= limiter.budget) {
					await pause(Math.min(limiter.windowStart + limiter.windowMs, waitUntil) - now, anyOf(stop, cancel));
					continue;
				}
				limiter.windowSent++;
			}
			break;
		}
		granted = true;
	} finally {
		if (!granted) release(limiter);
	}
	return limiter;
}

function anyOf(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
	return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}

/** An attempt got an answer the service carried out or refused for its content: it was accepted. */
export function noteAccepted(limiter: Limiter): void {
	limiter.acceptedSincePause++;
}

/** The limit a fixed Parallel Requests sets; with Auto (which has just cut its own limit on this refusal), the start. */
function fixedLimit(limiter: Limiter): number {
	return limiter.adaptive ? DEFAULT_PARALLEL : limiter.limit;
}

/** Margin on a learnt window: the service's window starts when our first request arrives, a little later. */
const WINDOW_MARGIN = 1.1;

/**
 * A 429 or 503 with Retry-After: no request of this context is sent before `waitMs` from now. Under Auto a 503
 * holds back only the refused request (request.ts waits before repeating it): Auto has just halved its limit and
 * learnt where the service ran out of room (adaptive.ts), which bounds the others; holding them all would turn
 * each overload into a second without a request.
 *
 * A 429 (the answer's `status`) also teaches a rate budget. With more than one request at once, each window of a rate
 * limit would otherwise end in as many 429s as requests in flight; one at a time ends each in one 429 anyway,
 * and learns nothing. What the service accepted since the last such pause becomes the budget per window of
 * `waitMs` when it looks like a rate limit rather than a passing refusal: at least as many as the requests in
 * flight at once (and at least DEFAULT_PARALLEL), or a second such window in a row.
 *
 * A 503 teaches none: the contract's 503 is a service that cannot take more now, which Auto's limit answers
 * (adaptive.ts). Read as a rate, an overload that passed would hold every later window to what one overloaded
 * window took, and the executions after it too (learnt.ts).
 */
export function notePause(limiter: Limiter, waitMs: number, status: number | undefined): void {
	if (waitMs <= 0 || (status === 503 && limiter.adaptive)) return;
	const now = Date.now();
	const until = now + waitMs;
	if (until <= limiter.pausedUntil) return;
	// A 429 that arrives while a pause is set was sent before it: the same window.
	const newWindow = limiter.pausedUntil < now;
	limiter.pausedUntil = until;
	if (!newWindow || status !== 429) return;
	const accepted = limiter.acceptedSincePause;
	limiter.acceptedSincePause = 0;
	limiter.windowRefused = true;
	const repeated = limiter.acceptedBefore !== undefined && limiter.acceptedBefore > 0;
	if (limiter.budget !== undefined) {
		// The budget that was raised last is one too many.
		limiter.budget = Math.max(1, Math.min(limiter.budget - 1, accepted));
	} else if (limiter.limit > 1 && accepted > 0 && (accepted >= Math.max(fixedLimit(limiter), DEFAULT_PARALLEL) || repeated)) {
		limiter.budget = accepted;
		limiter.windowMs = Math.max(limiter.windowMs, waitMs * WINDOW_MARGIN);
		limiter.windowStart = 0;
		limiter.windowSent = 0;
	}
	limiter.acceptedBefore = accepted;
	keepLearnt(limiter);
}
