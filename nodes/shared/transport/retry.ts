import { sleep } from 'n8n-workflow';

import type { TransportSettings } from './settings';

/** First backoff step without Retry-After; it doubles per attempt (jittered, capped by maxRetryWait). */
export const BACKOFF_BASE_MS = 500;

/**
 * Seconds to wait from a Retry-After header (delta-seconds or HTTP date), if it has a usable one. A
 * negative or otherwise malformed value gives nothing, so the normal backoff applies instead of an
 * immediate repeat; a date in the past means now.
 */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
	if (/^[+-]?\d/.test(text)) return undefined;
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, (date - now) / 1000);
}

/**
 * Milliseconds to wait before repeat number `attempt` (0 for the first repeat): what Retry-After asks
 * when given, else exponential backoff with jitter (between half and all of 500 ms × 2^attempt); never
 * more than maxRetryWait.
 */
export function retryDelayMs(
	attempt: number,
	settings: Pick<TransportSettings, 'maxRetryWait'>,
	retryAfter?: number,
	random: () => number = Math.random,
): number {
	const cap = settings.maxRetryWait * 1000;
	if (retryAfter !== undefined) return Math.min(retryAfter * 1000, cap);
	const exponential = BACKOFF_BASE_MS * 2 ** attempt;
	return Math.min(exponential / 2 + random() * (exponential / 2), cap);
}

/** Waits `ms`, or less when `signal` aborts first (a stopped execution). */
export async function sleepUnless(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) return;
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<void>((resolve) => {
		onAbort = resolve;
		signal.addEventListener('abort', onAbort);
	});
	try {
		await Promise.race([sleep(ms), aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}
