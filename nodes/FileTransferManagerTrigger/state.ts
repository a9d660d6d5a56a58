import type { IDataObject } from 'n8n-workflow';

/**
 * A job the trigger saw in a watched final status while its `updatedAt` was ahead of the service's clock
 * (delivered then, or already there at activation). Kept only while the job is listed that far ahead.
 */
export interface AheadEntry {
	id: string;
	/** The final status it was seen in (finished, failed or canceled). */
	status: string;
}

/**
 * What the trigger keeps in the workflow's static data between polls. Plain JSON, so it survives a
 * restart; its size depends on how many jobs share the newest millisecond, how many jobs are stuck
 * right now and how many are stamped ahead of the service's clock right now, never on how many events
 * were delivered.
 */
export interface TriggerState {
	version: 2;
	/** Hash of the watched events and the server-side filters; a change resets the state. */
	fingerprint: string;
	/**
	 * The newest `updatedAt` (server time) the last successful poll saw among jobs not ahead of the
	 * service's clock; null when there was no such job at all.
	 */
	cursor: string | null;
	/** Jobs in a watched final status whose `updatedAt` equals the cursor, already handled. */
	atCursor: string[];
	/** Jobs whose entry into `stuck` was handled and that have not been seen leaving it since. */
	stuck: string[];
	/** Jobs handled in a watched final status while stamped ahead of the service's clock (see watch.ts). */
	ahead: AheadEntry[];
}

/**
 * 2: `ahead` added, and the cursor never set from a job stamped ahead of the service's clock. A version 1
 * state is read as version 2 with no `ahead` entries; if its cursor is ahead of the clock (set by a job
 * stamped in the future), the next poll heals it (see processWindow).
 */
export const STATE_VERSION = 2;

const isStringArray = (value: unknown): value is string[] =>
	Array.isArray(value) && value.every((entry) => typeof entry === 'string');

const isAheadList = (value: unknown): value is AheadEntry[] =>
	Array.isArray(value) &&
	value.every(
		(entry) =>
			entry !== null &&
			typeof entry === 'object' &&
			typeof (entry as IDataObject).id === 'string' &&
			typeof (entry as IDataObject).status === 'string',
	);

/**
 * Reads the state from static data (version 2, or version 1 migrated); anything unexpected counts as no
 * state (a first activation).
 */
export function readState(data: IDataObject): TriggerState | undefined {
	if (data.version !== 1 && data.version !== STATE_VERSION) return undefined;
	if (typeof data.fingerprint !== 'string') return undefined;
	if (data.cursor !== null && (typeof data.cursor !== 'string' || Number.isNaN(Date.parse(data.cursor)))) {
		return undefined;
	}
	if (!isStringArray(data.atCursor) || !isStringArray(data.stuck)) return undefined;
	const ahead = data.version === 1 ? [] : data.ahead;
	if (!isAheadList(ahead)) return undefined;
	return {
		version: STATE_VERSION,
		fingerprint: data.fingerprint,
		cursor: data.cursor,
		atCursor: [...data.atCursor],
		stuck: [...data.stuck],
		ahead: ahead.map(({ id, status }) => ({ id, status })),
	};
}

/**
 * Replaces the static data with the state, touching it only when something changed: n8n writes static
 * data back to its database whenever it was modified, and an idle poll should cost nothing there.
 */
export function writeState(data: IDataObject, state: TriggerState): void {
	const next = state as unknown as IDataObject;
	if (JSON.stringify(data) === JSON.stringify(next)) return;
	for (const key of Object.keys(data)) delete data[key];
	Object.assign(data, next);
}

/** A 53-bit string hash (cyrb53), as hex; enough to notice that the watched set changed. */
export function hashText(text: string): string {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const ch = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ ch, 2654435761);
		h2 = Math.imul(h2 ^ ch, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}
