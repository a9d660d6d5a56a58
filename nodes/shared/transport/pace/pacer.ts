/**
 * The pacing's state of one node context (one execution of the node, one poll): what the mechanisms behind
 * pace/index.ts read and write. Each field names the file that owns it.
 */
import type { AutoState } from './auto';
import type { ApiContext } from '../settings';
import { DEFAULT_PARALLEL } from '../settings';
import { perRun } from '../../execution/perRun';

export interface Pacer {
	/** Requests in flight at most now: a fixed number (fixed.ts), or Auto's (auto.ts) copied here. */
	parallel: number;
	/** With Parallel Requests "Auto": its state (auto.ts). */
	auto?: AutoState;
	/** With Auto: the service (remembered.ts) this run started from what was remembered of, and tells what it learns. */
	service?: string;
	/** Places taken (line.ts): requests in flight, or about to be sent. */
	active: number;
	/** The requests on the wire by when they were sent (line.ts markSent), oldest first. */
	sent: Set<number>;
	sentCount: number;
	/** Requests waiting in line for a place (line.ts), first come first served. */
	queue: Array<{ resume: () => void }>;
	/** Local time before which no request is sent: the pause of a Retry-After (retryAfter.ts). */
	pausedUntil: number;
	/**
	 * What the service accepts in one Retry-After window, learnt from a window that ended in a 429 with
	 * Retry-After (retryAfter.ts notePause): at most `budget` sends per `windowMs` from then on. A window that
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

export const pacerOf = perRun<ApiContext, Pacer>(() => ({
	parallel: DEFAULT_PARALLEL,
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
