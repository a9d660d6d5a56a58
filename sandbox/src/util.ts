import { createHash, randomUUID } from 'node:crypto';

import type { JobStats } from '../../nodes/shared/api/types';

export const uuid = (): string => randomUUID();

export const iso = (ms: number): string => new Date(ms).toISOString();

let lastIssued = 0;

/**
 * The sandbox's clock for updatedAt and friends: one clock for all records that never goes back, so
 * that the order of timestamps across jobs is the order in which changes happened (what the trigger's
 * cursor relies on). It never runs ahead of real time either: changes within one millisecond share it.
 * `previous` is accepted for call sites that pass a record's last stamp; the result is never before it.
 */
export function nextTimestamp(previous?: string | null): string {
	const floor = previous ? Date.parse(previous) : 0;
	lastIssued = Math.max(Date.now(), lastIssued, Number.isNaN(floor) ? 0 : floor);
	return iso(lastIssued);
}

/** Seeded pseudo-random numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export const md5Hex = (data: Buffer): string => createHash('md5').update(data).digest('hex');

/** Part size the sandbox's object storage uses for multipart uploads. */
const MULTIPART_PART_SIZE = 8 * 1024 * 1024;

/**
 * S3-style ETag: the quoted md5 for a single-part object; for a multipart object the md5 of the parts'
 * binary md5s, then `-<parts>`.
 */
export function s3Etag(data: Buffer): string {
	if (data.length <= MULTIPART_PART_SIZE) return `"${md5Hex(data)}"`;
	const parts: Buffer[] = [];
	for (let offset = 0; offset < data.length; offset += MULTIPART_PART_SIZE) {
		parts.push(createHash('md5').update(data.subarray(offset, offset + MULTIPART_PART_SIZE)).digest());
	}
	return `"${createHash('md5').update(Buffer.concat(parts)).digest('hex')}-${parts.length}"`;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

export const clone = <T>(value: T): T => structuredClone(value);

/** A job's full stats object, nulls and zeros as the API sends for a new job; `over` sets some of them. */
export function emptyStats(over: Partial<JobStats> = {}): JobStats {
	return {
		startedAt: null,
		finishedAt: null,
		estimatedDuration: null,
		estimatedCost: null,
		estimatedFinishedAt: null,
		scannedFilesCount: 0,
		filesCount: 0,
		filesSize: 0,
		transferredCount: 0,
		transferredSize: 0,
		...over,
	};
}
