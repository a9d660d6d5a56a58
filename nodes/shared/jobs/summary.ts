import type { IDataObject } from 'n8n-workflow';

import type { Job, JobStats } from '../api/types';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

function bytes(size: number): string {
	let value = size;
	let unit = 0;
	while (value >= 1000 && unit < UNITS.length - 1) {
		value /= 1000;
		unit++;
	}
	return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

function duration(seconds: number): string {
	const s = Math.round(seconds);
	const h = Math.floor(s / 3600);
	const m = Math.floor((s % 3600) / 60);
	const rest = s % 60;
	return [h ? `${h}h` : '', m ? `${m}m` : '', `${rest}s`].filter((part) => part !== '').join(' ');
}

const timeOf = (timestamp: string | null | undefined): number => (timestamp ? Date.parse(timestamp) : NaN);

/** The API's decimal string as a number, or null when it is not one. */
export function amountOf(amount: unknown): number | null {
	if (typeof amount !== 'string' || !/^-?\d+(\.\d+)?$/.test(amount.trim())) return null;
	const value = Number(amount);
	return Number.isFinite(value) ? value : null;
}

/**
 * How many, how big, how long, how much, from the job's stats (no request): files and bytes in scope,
 * done and left, duration and rate; for a dry run, its estimates, the cost as a number next to its
 * currency. `text` says it in one line, for alerts and reports.
 */
export function jobSummary(job: Job): IDataObject {
	const { dryRun } = job.attributes;
	const stats: Partial<JobStats> = job.attributes.stats ?? {};
	const filesCount = stats.filesCount ?? 0;
	const filesSize = stats.filesSize ?? 0;
	const transferredCount = stats.transferredCount ?? 0;
	const transferredSize = stats.transferredSize ?? 0;
	const start = timeOf(stats.startedAt);
	const end = timeOf(stats.finishedAt ?? job.attributes.updatedAt);
	const durationSeconds = Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, (end - start) / 1000);
	const percentDone =
		filesSize > 0
			? Math.round((transferredSize / filesSize) * 1000) / 10
			: filesCount > 0
				? Math.round((transferredCount / filesCount) * 1000) / 10
				: null;
	const estimatedDurationSeconds =
		typeof stats.estimatedDuration === 'number' && Number.isFinite(stats.estimatedDuration) ? stats.estimatedDuration : null;
	const cost = stats.estimatedCost && typeof stats.estimatedCost === 'object' ? stats.estimatedCost : null;
	const estimatedCost = amountOf(cost?.amount);
	const currency = typeof cost?.currency === 'string' ? cost.currency : null;
	// The line is built from parts and joined: joining gives one flat string, where `+=` and template
	// literals leave a tree of pieces that takes several times the memory (a Return All keeps 100,000).
	const parts: string[] = [];
	if (dryRun) {
		parts.push('Dry run: ', String(filesCount), ' files (', bytes(filesSize), ') in scope');
		if (estimatedDurationSeconds !== null) parts.push(', estimated duration ', duration(estimatedDurationSeconds));
		if (estimatedCost !== null) parts.push(', estimated cost ', String(cost?.amount), currency ? ` ${currency}` : '');
	} else {
		parts.push('Transferred ', String(transferredCount), ' of ', String(filesCount), ' files (');
		parts.push(bytes(transferredSize), ' of ', bytes(filesSize), ')');
		if (durationSeconds !== null) parts.push(' in ', duration(durationSeconds));
	}
	parts.push('.');
	const text = parts.join('');
	return {
		dryRun: dryRun === true,
		filesCount,
		filesSize,
		transferredCount,
		transferredSize,
		remainingCount: Math.max(0, filesCount - transferredCount),
		remainingSize: Math.max(0, filesSize - transferredSize),
		percentDone,
		startedAt: stats.startedAt ?? null,
		finishedAt: stats.finishedAt ?? null,
		durationSeconds,
		averageBytesPerSecond: durationSeconds && durationSeconds > 0 ? Math.round(transferredSize / durationSeconds) : null,
		estimatedDurationSeconds,
		estimatedCost,
		currency,
		text,
	};
}

const TRANSFER_NOUNS: Readonly<Record<string, string>> = { copy: 'Copy', move: 'Move', sync: 'Sync' };

const files = (count: number): string => `${count} ${count === 1 ? 'file' : 'files'}`;

/** A duration as the tool line says it: "under 1s" rather than "0s" for a fraction of a second. */
const toolDuration = (seconds: number): string => (seconds > 0 && seconds < 1 ? 'under 1s' : duration(seconds));

/**
 * The summary line of a job in tool use (docs/operations.md › As an AI agent tool): what a model needs to
 * answer "what happened" without reading the figures, its status named first. A dry run says so while it
 * is not finished ("Dry run (scanning): 3 files (1.2 KB) in scope so far."); a finished one says that it
 * transferred nothing by design, and how to run it for real, so that it never reads as a job that did
 * nothing. A real job says how much of what it found it transferred. `facts` is jobSummary's of the job.
 */
export function toolSummaryLine(job: Job, facts: IDataObject = jobSummary(job)): string {
	const { status, transferType } = job.attributes;
	const filesCount = facts.filesCount as number;
	const filesSize = facts.filesSize as number;
	const found = `${files(filesCount)} (${bytes(filesSize)})`;
	const estimates: string[] = [];
	if (typeof facts.estimatedDurationSeconds === 'number') estimates.push(`estimated duration ${toolDuration(facts.estimatedDurationSeconds)}`);
	const cost = job.attributes.stats?.estimatedCost;
	if (typeof facts.estimatedCost === 'number' && cost) {
		estimates.push(`estimated cost ${String(cost.amount)}${facts.currency ? ` ${String(facts.currency)}` : ''}`);
	}
	const withEstimates = estimates.length > 0 ? `, ${estimates.join(', ')}` : '';
	if (facts.dryRun === true) {
		if (status === 'finished') {
			return `Dry run finished: ${found} in scope${withEstimates}. A dry run only estimates and transfers nothing; Job › Run From Dry Run starts the real ${String(transferType)}.`;
		}
		if (status === 'failed' || status === 'canceled') {
			return `Dry run (${status}): ${found} in scope when it ended; the estimate is incomplete.`;
		}
		return `Dry run (${status}): ${found} in scope so far.`;
	}
	const noun = TRANSFER_NOUNS[String(transferType)] ?? 'Transfer';
	if (status === 'scanning') return `${noun} job scanning: ${found} found so far, none transferred yet.`;
	const transferredCount = facts.transferredCount as number;
	const transferredSize = facts.transferredSize as number;
	const percent = status !== 'finished' && typeof facts.percentDone === 'number' ? `, ${facts.percentDone}%` : '';
	const took = typeof facts.durationSeconds === 'number' ? ` in ${toolDuration(facts.durationSeconds)}` : '';
	const line = `${noun} job ${status}: transferred ${transferredCount} of ${files(filesCount)} (${bytes(transferredSize)} of ${bytes(filesSize)}${percent})${took}.`;
	if (status === 'failed') return `${line} Job › Get Errors lists what went wrong.`;
	if (status === 'stuck') return `${line} A storage is unavailable; Job › Get Errors may say which.`;
	return line;
}
