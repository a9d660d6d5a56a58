/**
 * The pause a Retry-After sets for every request of a node context, not just the one that got it (a 429 with
 * Retry-After; without Auto, a 503 too), and the rate budget a 429 teaches. Waiting here is not an attempt:
 * the retry budget stays per request (request.ts).
 */
import type { Pacer } from './pacer';
import { fixedParallel } from './fixed';
import { keepRemembered } from './remembered';
import { sleepUnless } from '../retry';
import { DEFAULT_PARALLEL } from '../settings';

/** Margin on a learnt window: the service's window starts when our first request arrives, a little later. */
export const WINDOW_MARGIN = 1.1;

/**
 * Waits, holding a place, until the pause (and the learnt window budget) allows a send, at most until
 * `waitUntil` (local time, ms), or until `cancel` aborts. Returns false when `stop` aborted first.
 */
export async function waitForPause(
	pacer: Pacer,
	cancel: AbortSignal | undefined,
	stop: AbortSignal | undefined,
	waitUntil: number,
): Promise<boolean> {
	for (;;) {
		if (stop?.aborted) return false;
		if (cancel?.aborted) return true;
		const now = Date.now();
		if (now >= waitUntil) return true;
		if (now < pacer.pausedUntil) {
			await sleepUnless(Math.min(pacer.pausedUntil, waitUntil) - now, anyOf(stop, cancel));
			continue;
		}
		if (pacer.budget !== undefined && pacer.windowMs > 0) {
			if (now - pacer.windowStart >= pacer.windowMs) {
				if (pacer.windowStart > 0 && !pacer.windowRefused && pacer.windowSent >= pacer.budget) {
					pacer.budget++;
				}
				pacer.windowStart = now;
				pacer.windowSent = 0;
				pacer.windowRefused = false;
			}
			if (pacer.windowSent >= pacer.budget) {
				await sleepUnless(Math.min(pacer.windowStart + pacer.windowMs, waitUntil) - now, anyOf(stop, cancel));
				continue;
			}
			pacer.windowSent++;
		}
		return true;
	}
}

function anyOf(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
	return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}

/** An attempt got an answer the service carried out or refused for its content: it was accepted. */
export function noteAccepted(pacer: Pacer): void {
	pacer.acceptedSincePause++;
}

/**
 * A 429 or 503 with Retry-After: no request of this context is sent before `waitMs` from now. Under Auto a 503
 * holds back only the refused request (request.ts waits before repeating it): Auto has just halved its number
 * and learnt where the service ran out of room (auto.ts), which bounds the others; holding them all would turn
 * each overload into a second without a request.
 *
 * A 429 (the answer's `status`) also teaches a rate budget. With more than one request at once, each window of a rate
 * limit would otherwise end in as many 429s as requests in flight; one at a time ends each in one 429 anyway,
 * and learns nothing. What the service accepted since the last such pause becomes the budget per window of
 * `waitMs` when it looks like a rate limit rather than a passing refusal: at least as many as the requests in
 * flight at once (and at least DEFAULT_PARALLEL), or a second such window in a row.
 *
 * A 503 teaches none: the contract's 503 is a service that cannot take more now, which Auto's number answers
 * (auto.ts). Read as a rate, an overload that passed would hold every later window to what one overloaded
 * window took, and the executions after it too (remembered.ts).
 */
export function notePause(pacer: Pacer, waitMs: number, status: number | undefined): void {
	if (waitMs <= 0 || (status === 503 && pacer.auto)) return;
	const now = Date.now();
	const until = now + waitMs;
	if (until <= pacer.pausedUntil) return;
	// A 429 that arrives while a pause is set was sent before it: the same window.
	const newWindow = pacer.pausedUntil < now;
	pacer.pausedUntil = until;
	if (!newWindow || status !== 429) return;
	const accepted = pacer.acceptedSincePause;
	pacer.acceptedSincePause = 0;
	pacer.windowRefused = true;
	const repeated = pacer.acceptedBefore !== undefined && pacer.acceptedBefore > 0;
	if (pacer.budget !== undefined) {
		// The budget that was raised last is one too many.
		pacer.budget = Math.max(1, Math.min(pacer.budget - 1, accepted));
	} else if (pacer.parallel > 1 && accepted > 0 && (accepted >= Math.max(fixedParallel(pacer), DEFAULT_PARALLEL) || repeated)) {
		pacer.budget = accepted;
		pacer.windowMs = Math.max(pacer.windowMs, waitMs * WINDOW_MARGIN);
		pacer.windowStart = 0;
		pacer.windowSent = 0;
	}
	pacer.acceptedBefore = accepted;
	keepRemembered(pacer);
}
