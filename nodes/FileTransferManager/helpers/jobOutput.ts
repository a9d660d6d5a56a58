import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Job, JobError, JobStats, JobTransfer } from '../api/types';
import { TRANSFER_STATUS } from '../api/types';
import { flatten } from './output';
import { jobSummary } from './summary';
import { requireBoolean } from './validate';

/** Top-level fields a simplified job keeps. */
export const SIMPLIFIED_JOB_FIELDS = [
	'id',
	'name',
	'status',
	'transferType',
	'dryRun',
	'source',
	'target',
	'stats',
	'createdAt',
	'updatedAt',
] as const;

/** Fields of `stats` a simplified job keeps. */
export const SIMPLIFIED_STATS_FIELDS = [
	'startedAt',
	'finishedAt',
	'filesCount',
	'filesSize',
	'transferredCount',
	'transferredSize',
	'estimatedDuration',
	'estimatedCost',
] as const satisfies ReadonlyArray<keyof JobStats>;

export const simplifyJobProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a simplified version of the job (ID, name, status, transfer type, dry run, source, target, creation and update times, the main stats, and a "summary": files and bytes, duration, estimates with the cost as a number, and a one-line text) instead of the raw data',
};

/** The Simplify parameter of one item (default on). */
export function readSimplify(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return requireBoolean(ctx, itemIndex, 'Simplify', ctx.getNodeParameter('simplify', itemIndex, true));
}

/** Keys Create and Run From Dry Run add to a job item; attributes of these names go under apiAttributes. */
const JOB_OUTPUT_KEYS = ['recoveredAfterAmbiguousError', 'reusedExistingJob', 'dryRunJobId', 'estimatedCost'] as const;

/** The simplified job's attribute fields (all but `id`, `stats` and the added `summary`). */
const SIMPLIFIED_ATTRIBUTES = SIMPLIFIED_JOB_FIELDS.filter((field) => field !== 'id' && field !== 'stats');

/**
 * A job as an output item: flattened, and cut down to the simplified fields when asked (the simplified
 * item leaves out apiAttributes; Simplify off shows it).
 */
export function jobJson(job: Job, simplify: boolean): IDataObject {
	if (!simplify) return flatten(job, {}, JOB_OUTPUT_KEYS);
	// The simplified fields straight from the job, as flatten would place them (without building the
	// whole flat object first: a Return All maps 100,000 jobs). `id` is the record's; an attribute named
	// like one of the node's own keys would go under apiAttributes, which the simplified item leaves out.
	// Objects written as literals with every field at once take less memory than ones filled field by field.
	const a = job.attributes as unknown as IDataObject;
	const stats = (job.attributes.stats ?? {}) as Partial<JobStats>;
	const picked = {
		startedAt: stats.startedAt ?? null,
		finishedAt: stats.finishedAt ?? null,
		filesCount: stats.filesCount ?? null,
		filesSize: stats.filesSize ?? null,
		transferredCount: stats.transferredCount ?? null,
		transferredSize: stats.transferredSize ?? null,
		estimatedDuration: stats.estimatedDuration ?? null,
		estimatedCost: (stats.estimatedCost ?? null) as IDataObject | null,
	} satisfies Record<(typeof SIMPLIFIED_STATS_FIELDS)[number], unknown>;
	const summary = jobSummary(job);
	if (SIMPLIFIED_ATTRIBUTES.every((field) => Object.prototype.hasOwnProperty.call(a, field))) {
		return {
			id: job.id,
			name: a.name,
			status: a.status,
			transferType: a.transferType,
			dryRun: a.dryRun,
			source: a.source,
			target: a.target,
			stats: picked,
			createdAt: a.createdAt,
			updatedAt: a.updatedAt,
			summary,
		} satisfies Record<(typeof SIMPLIFIED_JOB_FIELDS)[number] | 'summary', unknown>;
	}
	// A service that leaves attributes out: only the fields it sent, in the same order.
	const out: IDataObject = {};
	for (const field of SIMPLIFIED_JOB_FIELDS) {
		if (field === 'id') out.id = job.id;
		else if (field === 'stats') out.stats = picked;
		else if (Object.prototype.hasOwnProperty.call(a, field)) out[field] = a[field];
	}
	out.summary = summary;
	return out;
}

const OUTCOME_BY_STATUS: Record<number, string> = Object.fromEntries(
	Object.entries(TRANSFER_STATUS).map(([name, value]) => [value, name]),
);

/** A job-transfer record as an item: its attributes, the job's id, and `outcome` naming the numeric status. */
export function transferJson(jobId: string, transfer: JobTransfer): IDataObject {
	const json = flatten(transfer, { jobId }, ['outcome']);
	json.outcome = OUTCOME_BY_STATUS[transfer.attributes.status] ?? 'unknown';
	return json;
}

/** A job-error record as an item: id, the job's id, then its attributes. */
export function jobErrorJson(jobId: string, error: JobError): IDataObject {
	return flatten(error, { id: error.id, jobId });
}
