import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Job, JobError, JobStats, JobTransfer, Money } from '../api/types';
import { TRANSFER_STATUS } from '../api/types';
import { isToolUse } from '../transport/toolUse';
import { flatten } from './output';
import { amountOf, jobSummary, toolSummaryLine } from './summary';
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

/**
 * How a job is output: `full` (every attribute, Simplify off), `simplified` (Simplify on, in workflows) or
 * `tool` (Simplify on, when the node runs as an AI agent's tool: toolJobJson).
 */
export type JobShape = 'full' | 'simplified' | 'tool';

/** The shape of one item's job: Simplify (default on), and whether the node runs as a tool. */
export function readJobShape(ctx: IExecuteFunctions, itemIndex: number): JobShape {
	const simplify = requireBoolean(ctx, itemIndex, 'Simplify', ctx.getNodeParameter('simplify', itemIndex, true));
	if (!simplify) return 'full';
	return isToolUse(ctx.getNode()) ? 'tool' : 'simplified';
}

/**
 * The job Pause, Resume and Cancel output (they have no Simplify): every attribute in workflows, as always;
 * the tool shape in tool use.
 */
export function statusJobJson(ctx: IExecuteFunctions, job: Job): IDataObject {
	return isToolUse(ctx.getNode()) ? toolJobJson(job) : flatten(job);
}

/** A job as an output item in the given shape. */
export function jobItemJson(job: Job, shape: JobShape): IDataObject {
	if (shape === 'tool') return toolJobJson(job);
	return jobJson(job, shape === 'simplified');
}

/** An amount of money for a model: the amount as a number, with its currency; null when it is none. */
export function toolMoney(money: Money | null | undefined): IDataObject | null {
	if (!money || typeof money !== 'object') return null;
	const amount = amountOf(money.amount);
	if (amount === null) return null;
	return { amount, currency: typeof money.currency === 'string' ? money.currency : null };
}

/** The object without its null and undefined values (the tool shape leaves out what has no value). */
function present(fields: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined) out[key] = value;
	return out;
}

/**
 * A job for a model (docs/operations.md › As an AI agent tool): the summary line first, then each figure
 * once, without nulls. A dry run has no transferred figures (it transfers nothing by design); a real job
 * has them with its percentage done. The cost once, as a number with its currency. No `updatedAt`: the
 * status, `finishedAt` and the figures say what changed.
 */
function toolJobJson(job: Job): IDataObject {
	const a = job.attributes;
	const facts = jobSummary(job);
	const dryRun = a.dryRun === true;
	return present({
		summary: toolSummaryLine(job, facts),
		id: job.id,
		name: a.name,
		status: a.status,
		transferType: a.transferType,
		dryRun: a.dryRun,
		source: a.source as unknown as IDataObject,
		target: a.target as unknown as IDataObject,
		filesCount: facts.filesCount,
		filesSize: facts.filesSize,
		transferredCount: dryRun ? undefined : facts.transferredCount,
		transferredSize: dryRun ? undefined : facts.transferredSize,
		percentDone: dryRun ? undefined : facts.percentDone,
		estimatedDurationSeconds: facts.estimatedDurationSeconds,
		estimatedCost: toolMoney(a.stats?.estimatedCost),
		startedAt: facts.startedAt,
		finishedAt: facts.finishedAt,
		createdAt: a.createdAt,
	});
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
