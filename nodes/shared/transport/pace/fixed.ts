/**
 * Parallel Requests as a fixed number (one of the three mechanisms behind pace/index.ts): that many requests
 * in flight at most, whatever the service answers. It neither reads nor writes what Auto remembers.
 */
import type { Pacer } from './pacer';
import { DEFAULT_PARALLEL } from '../settings';

/** Sets a fixed number of requests in flight at most (at least one). */
export function setFixed(pacer: Pacer, requests: number): void {
	pacer.auto = undefined;
	pacer.parallel = Math.max(1, Math.floor(requests));
}

/** The fixed number in force; under Auto (which has just cut its own number on a refusal), the start. */
export function fixedParallel(pacer: Pacer): number {
	return pacer.auto ? DEFAULT_PARALLEL : pacer.parallel;
}
