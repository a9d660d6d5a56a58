/** Waiting: a pause, polling until a value comes, polling until a process serves. */
import type { ManagedProcess } from './processes';

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a value other than undefined; fails with `what` at the deadline. */
export async function until<T>(
	what: string,
	timeoutMs: number,
	check: () => Promise<T | undefined> | T | undefined,
	intervalMs = 1000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
		await sleep(intervalMs);
	}
}

/**
 * Checks `ready` every `intervalMs` until it holds ('ready'), the process exits first ('exited') or
 * `timeoutMs` passes ('timeout'). The caller says what failed and cleans up.
 */
export async function untilServing(
	proc: ManagedProcess | undefined,
	ready: () => Promise<boolean> | boolean,
	timeoutMs: number,
	intervalMs: number,
): Promise<'ready' | 'exited' | 'timeout'> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await ready()) return 'ready';
		if (proc && !proc.isRunning()) return 'exited';
		if (Date.now() > deadline) return 'timeout';
		await sleep(intervalMs);
	}
}
