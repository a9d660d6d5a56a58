// @ts-nocheck
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

/** A place in the newest-first job list (`sort=-updatedAt`, ties by id ascending): the job last handled there. */
export interface ListPosition {
	updatedAt: string;
	id: string;
}

/** Where a read of the job list goes on: the service's cursor or next-page link; null for the first page. */
export type PageToken = { after: string } | { url: string } | null;

/**
 * A part of the job list a poll did not reach before its time ran out (see sweep.ts): every job listed after
 * `after`, down to `until`. Jobs move only towards the front of the list (a change sets a newer updatedAt),
 * so what is in this part now was in it when the part was left, and a job that changes meanwhile leaves it
 * for the front, where the next poll's fresh read finds it.
 */
export interface Gap {
	/**
	 * Where the gap began: the last job the poll that left it handled. Fixed: it tells the part above the gap,
	 * when both share a millisecond, which ids at it are its own (those up to this id).
	 */
	top: ListPosition;
	/** The last job handled in the gap so far (`top` until a poll reads on); the rest of it is listed after it. */
	after: ListPosition;
	/**
	 * Jobs in a watched final status at `top`'s millisecond that the gap handled (ids after `top.id`): when the
	 * gap is read to its end, the part above it learns them, as the ids it must not deliver at that millisecond.
	 */
	atTop: string[];
	/** The page the read goes on from (it holds `after` or follows it); null: from the first page. */
	page: PageToken;
	/** The gap reaches down to this updatedAt, inclusive; null: to the end of the list. */
	until: string | null;
	/** Jobs at `until` in a watched final status that were handled before the gap was left. */
	atUntil: string[];
	/**
	 * Only for a gap left by a poll that healed a cursor ahead of the clock: final statuses at or before
	 * that cursor (and at it, in its ids) count as handled, as in the healing poll itself.
	 */
	handledUpTo?: { cursor: string; atCursor: string[] };
}

/**
 * What the trigger keeps in the workflow's static data between polls. Plain JSON, so it survives a
 * restart; its size depends on how many jobs share the newest millisecond, how many jobs are stuck
 * right now, how many are stamped ahead of the service's clock right now and, while a backlog is drained
 * across polls, how many gaps are left, never on how many events were delivered.
 */
export interface TriggerState {
	version: 3;
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
	/** The parts of the list older than the cursor that polls have yet to read, newest first (see sweep.ts). */
	gaps: Gap[];
}

/**
 * 2: `ahead` added, and the cursor never set from a job stamped ahead of the service's clock. A version 1
 * state is read with no `ahead` entries; if its cursor is ahead of the clock (set by a job stamped in the
 * future), the next poll heals it (see processWindow).
 * 3: `gaps` added: a poll stops reading when its time budget runs out and leaves the rest to the next
 * polls. A version 1 or 2 state is read with no gaps. (A release before version 3 reads a version 3 state as
 * none, and starts afresh, as at a first activation.)
 */
export const STATE_VERSION = 3;

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

const isTime = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

function isPageToken(value: unknown): value is PageToken {
	if (value === null) return true;
	if (!isObject(value) || Object.keys(value).length !== 1) return false;
	return typeof value.after === 'string' || typeof value.url === 'string';
}

const isPosition = (value: unknown): value is ListPosition =>
	isObject(value) && isTime(value.updatedAt) && typeof value.id === 'string';

function isGap(value: unknown): value is Gap {
	if (!isObject(value)) return false;
	const { top, after, atTop, page, until, atUntil, handledUpTo } = value;
	if (!isPosition(top) || !isPosition(after) || !isStringArray(atTop)) return false;
	if (!isPageToken(page) || (until !== null && !isTime(until)) || !isStringArray(atUntil)) return false;
	if (handledUpTo === undefined) return true;
	return isObject(handledUpTo) && isTime(handledUpTo.cursor) && isStringArray(handledUpTo.atCursor);
}

function copyGap(gap: Gap): Gap {
	const copy: Gap = {
		top: { updatedAt: gap.top.updatedAt, id: gap.top.id },
		after: { updatedAt: gap.after.updatedAt, id: gap.after.id },
		atTop: [...gap.atTop],
		page: gap.page === null ? null : 'url' in gap.page ? { url: gap.page.url } : { after: gap.page.after },
		until: gap.until,
		atUntil: [...gap.atUntil],
	};
	if (gap.handledUpTo) copy.handledUpTo = { cursor: gap.handledUpTo.cursor, atCursor: [...gap.handledUpTo.atCursor] };
	return copy;
}

/**
 * Reads the state from static data (version 3, or version 1 or 2 migrated); anything unexpected counts as
 * no state (a first activation).
 */
export function readState(data: IDataObject): TriggerState | undefined {
	if (data.version !== 1 && data.version !== 2 && data.version !== STATE_VERSION) return undefined;
	if (typeof data.fingerprint !== 'string') return undefined;
	if (data.cursor !== null && (typeof data.cursor !== 'string' || Number.isNaN(Date.parse(data.cursor)))) {
		return undefined;
	}
	if (!isStringArray(data.atCursor) || !isStringArray(data.stuck)) return undefined;
	const ahead = data.version === 1 ? [] : data.ahead;
	if (!isAheadList(ahead)) return undefined;
	const gaps = data.version === STATE_VERSION ? data.gaps : [];
	if (!Array.isArray(gaps) || !gaps.every(isGap)) return undefined;
	return {
		version: STATE_VERSION,
		fingerprint: data.fingerprint,
		cursor: data.cursor,
		atCursor: [...data.atCursor],
		stuck: [...data.stuck],
		ahead: ahead.map(({ id, status }) => ({ id, status })),
		gaps: gaps.map(copyGap),
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

/** JSON with every object's keys in order, so that the same data gives the same text however it was stored. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as IDataObject).filter(([, entry]) => entry !== undefined);
		entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * A fingerprint of the node's static data, the same for the same content whatever the order of its keys (a
 * database may store JSON with its keys reordered).
 */
export function stateFingerprint(data: IDataObject): string {
	return hashText(canonicalJson(data));
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
