/**
 * The remembered limit (one of the three mechanisms behind pace/index.ts): what Parallel Requests "Auto"
 * learnt about a service, kept in this n8n process beyond the execution that learnt it, so that the next
 * execution starts where the last one ended instead of at 8: without it, every execution pays the climb from 8 again, and meets a rate limit's first window of refusals and a full
 * service's first 503s again (bench/README.md measures them).
 *
 * - **Keyed by the service and the client** (`serviceKey`, ../connection.ts): the credential's Base URL and
 *   Client ID, never its secret or a token. The same client on the same service meets the same capacity and the same rate limit, whichever
 *   workflow or credential entry it comes from.
 * - **Forgotten `KEPT_MS` after it was last confirmed**: the ages are checked with `Date.now()` when read, so
 *   no timer runs. Ten minutes covers a workflow that runs every few minutes and the executions of a burst;
 *   beyond that, the service's load or its limits may have changed, and measuring anew (a second or two of
 *   climbing) is cheaper than meeting a changed service with an old number. A refusal takes a remembered number
 *   back to the start at once (auto.ts), so a memory that has turned wrong costs one round trip of them.
 * - **Where the service ran out of room, `KEPT_MS` after the 503 that taught it**, even while later executions
 *   confirm the rest: a bound that every execution renewed would keep Auto below a service whose room has grown
 *   for as long as the workflow runs. Found again, it costs a few 503s once in that time.
 * - **At most `SERVICES_KEPT` services**: the one confirmed longest ago goes first.
 *
 * Each process learns on its own: in queue mode every worker keeps its own memory.
 */

import type { Overload } from './auto';
import { resumeAt } from './auto';
import type { Pacer } from './pacer';

/** What one execution left behind under Auto: its number of requests in flight and the rate budget of retryAfter.ts. */
export interface Remembered {
	/** Requests in flight at most. */
	parallel: number;
	/** No cut yet: Auto still grows as in slow start. */
	slowStart: boolean;
	/** Where the service ran out of room (a 503, auto.ts): forgotten KEPT_MS after that 503, however confirmed since. */
	overload?: Overload;
	/** The learnt rate budget: sends per window (retryAfter.ts notePause), and the current window. */
	budget?: number;
	windowMs: number;
	windowStart: number;
	windowSent: number;
	windowRefused: boolean;
}

/** How long what was learnt is kept after it was last confirmed. */
export const KEPT_MS = 10 * 60_000;
/** How many services are remembered at most. */
export const SERVICES_KEPT = 100;

/** By service key, oldest confirmation first (a confirmation moves an entry to the end). */
const services = new Map<string, { remembered: Remembered; at: number }>();

/** What was learnt about the service, if it was confirmed less than KEPT_MS ago (a copy). */
export function recall(service: string): Remembered | undefined {
	const known = services.get(service);
	if (!known) return undefined;
	if (Date.now() - known.at > KEPT_MS) {
		services.delete(service);
		return undefined;
	}
	const copy = { ...known.remembered };
	// Found again by the next 503 once its age has passed: the service's room may have grown.
	if (copy.overload && Date.now() - copy.overload.at > KEPT_MS) delete copy.overload;
	return copy;
}

/**
 * Keeps what an execution learnt (a copy) and dates it now. `maximum` is that execution's Auto maximum: a number
 * of requests held at it says nothing of what lies above, so a larger one learnt by another execution stays.
 */
export function remember(service: string, learnt: Remembered, maximum: number): void {
	const earlier = recall(service);
	const parallel = learnt.parallel >= maximum && earlier && earlier.parallel > learnt.parallel ? earlier.parallel : learnt.parallel;
	services.delete(service);
	services.set(service, { remembered: { ...learnt, parallel }, at: Date.now() });
	while (services.size > SERVICES_KEPT) services.delete(services.keys().next().value as string);
}

/** Forgets everything remembered, as a new process starts (the tests' harness and the benchmarks). */
export function forgetRemembered(): void {
	services.clear();
}

/**
 * With Auto, the service the run's requests go to (pace/index.ts says so as each request enters; one run has one
 * credential, so the first one stays): the run starts from what earlier executions remembered of it. A fixed
 * number neither reads nor writes it. Returns whether it changed the run's number (waiting requests may go).
 */
export function startFromRemembered(pacer: Pacer, service: string): boolean {
	if (!pacer.auto || pacer.service !== undefined) return false;
	pacer.service = service;
	const known = recall(service);
	if (!known) return false;
	resumeAt(pacer.auto, known.parallel, known.slowStart, known.overload);
	pacer.parallel = pacer.auto.parallel;
	if (known.budget !== undefined) {
		pacer.budget = known.budget;
		pacer.windowMs = known.windowMs;
		// A window still open goes on; one that closed before this run neither raises the budget nor counts.
		if (Date.now() - known.windowStart < known.windowMs) {
			pacer.windowStart = known.windowStart;
			pacer.windowSent = known.windowSent;
			pacer.windowRefused = known.windowRefused;
		}
	}
	return true;
}

/** Tells the service's memory what this run learnt so far (under Auto, once the run named its service). */
export function keepRemembered(pacer: Pacer): void {
	const auto = pacer.auto;
	if (!auto || pacer.service === undefined) return;
	remember(
		pacer.service,
		{
			parallel: auto.parallel,
			slowStart: auto.slowStart,
			overload: auto.overload,
			budget: pacer.budget,
			windowMs: pacer.windowMs,
			windowStart: pacer.windowStart,
			windowSent: pacer.windowSent,
			windowRefused: pacer.windowRefused,
		},
		auto.maximum,
	);
}
