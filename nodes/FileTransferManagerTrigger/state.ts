import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps in the workflow's static data between polls. Plain JSON, so it survives a
 * restart; its size depends on how many jobs share the newest millisecond and how many jobs are
 * stuck right now, never on how many events were delivered.
 */
export interface TriggerState {
	version: 1;
	/** Hash of the watched events and the server-side filters; a change resets the state. */
	fingerprint: string;
	/** The newest `updatedAt` (server time) the last successful poll saw; null when there was no job at all. */
	cursor: string | null;
	/** Jobs in a watched final status whose `updatedAt` equals the cursor, already handled. */
	atCursor: string[];
	/** Jobs whose entry into `stuck` was handled and that have not been seen leaving it since. */
	stuck: string[];
}

export const STATE_VERSION = 1;

const isStringArray = (value: unknown): value is string[] =>
	Array.isArray(value) && value.every((entry) => typeof entry === 'string');

/** Reads the state from static data; anything unexpected counts as no state (a first activation). */
export function readState(data: IDataObject): TriggerState | undefined {
	if (data.version !== STATE_VERSION) return undefined;
	if (typeof data.fingerprint !== 'string') return undefined;
	if (data.cursor !== null && (typeof data.cursor !== 'string' || Number.isNaN(Date.parse(data.cursor)))) {
		return undefined;
	}
	if (!isStringArray(data.atCursor) || !isStringArray(data.stuck)) return undefined;
	return {
		version: STATE_VERSION,
		fingerprint: data.fingerprint,
		cursor: data.cursor,
		atCursor: [...data.atCursor],
		stuck: [...data.stuck],
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
