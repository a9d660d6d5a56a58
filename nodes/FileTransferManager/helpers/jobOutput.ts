import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Job, JobError, JobStats, JobTransfer, Money } from '../../shared/api/types';
import { TRANSFER_STATUS } from '../../shared/api/types';
import { isToolUse } from '../../shared/execution/toolUse';
import { flatten } from '../../shared/answers/output';
import { amountOf, jobSummary, toolSummaryLine } from '../../shared/jobs/summary';
import { invalidInput, requireBoolean, requireOneOf, shown } from '../../shared/input/validate';

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
	// The tool variant has Output instead (jobToolOutputProperties).
	displayOptions: { hide: { '@tool': [true] } },
	description:
		'Whether to return a simplified version of the job (ID, name, status, transfer type, dry run, source, target, creation and update times, the main stats, and a "summary": files and bytes, duration, estimates with the cost as a number, and a one-line text) instead of the raw data',
};

/** The fields of the tool shape (toolJobJson), in its order; `id` is always output. */
const TOOL_SHAPE_FIELDS = [
	'summary',
	'name',
	'status',
	'transferType',
	'dryRun',
	'source',
	'target',
	'filesCount',
	'filesSize',
	'transferredCount',
	'transferredSize',
	'percentDone',
	'estimatedDurationSeconds',
	'estimatedCost',
	'startedAt',
	'finishedAt',
	'createdAt',
] as const;

/** Attributes the tool shape leaves out, as Raw outputs them. */
const RAW_ONLY_FIELDS = [
	'accountId',
	'userId',
	'groupId',
	'conflictHandling',
	'scope',
	'failureConditions',
	'transferRateLimit',
	'stats',
	'updatedAt',
] as const;

/** What Run From Dry Run adds to its job. */
const RUN_FROM_DRY_RUN_FIELDS = ['dryRunJobId', 'dryRunEstimatedCost'] as const;

/** Every field Selected Fields offers, in the order it outputs them (after `id`). */
const SELECTABLE_FIELDS: readonly string[] = [...TOOL_SHAPE_FIELDS, ...RAW_ONLY_FIELDS, ...RUN_FROM_DRY_RUN_FIELDS];

const FIELD_NOTES: Readonly<Record<string, string>> = {
	summary: 'One line that says what happened',
	estimatedCost: 'The estimate as a number with its currency',
	dryRunJobId: 'Run From Dry Run: the dry run the job was started from',
	dryRunEstimatedCost: "Run From Dry Run: the dry run's estimate as a number with its currency",
	stats: 'Every figure of the job as the service gives it',
};

const OUTPUT_FIELD = 'Output';

/**
 * Output, in the tool variant only (n8n shows a parameter with `@tool` only there): the UX guidelines' choice
 * for tool nodes whose output has more than 10 fields. Simplified is the tool shape; Raw every attribute;
 * Selected Fields the fields picked, always with the ID. Workflows keep Simplify.
 */
export const jobToolOutputProperties: INodeProperties[] = [
	{
		displayName: OUTPUT_FIELD,
		name: 'output',
		type: 'options',
		default: 'simplified',
		displayOptions: { show: { '@tool': [true] } },
		options: [
			{ name: 'Raw', value: 'raw', description: 'Every attribute of the job, as the service returns it' },
			{ name: 'Selected Fields', value: 'selected', description: 'Only the fields you pick; the ID is always kept' },
			{
				name: 'Simplified',
				value: 'simplified',
				description: 'A summary line first, then each figure once, without empty fields',
			},
		],
		description: 'What the tool returns to the model for each job',
	},
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'multiOptions',
		default: [],
		displayOptions: { show: { '@tool': [true], output: ['selected'] } },
		options: [...SELECTABLE_FIELDS]
			.sort((a, b) => a.localeCompare(b))
			.map((field) => ({ name: field, value: field, ...(FIELD_NOTES[field] ? { description: FIELD_NOTES[field] } : {}) })),
		description: 'The fields to return, besides the ID; a field without a value is left out',
	},
];

/** The fields of Selected Fields. */
interface SelectedFields {
	selected: readonly string[];
}

/**
 * How a job is output: `full` (every attribute: Simplify off, or Output › Raw in tool use), `simplified`
 * (Simplify on, in workflows), `tool` (Output › Simplified in tool use: toolJobJson) or the picked fields of
 * Output › Selected Fields in tool use.
 */
export type JobShape = 'full' | 'simplified' | 'tool' | SelectedFields;

/** Whether a shape is for a model: the tool shape or selected fields from it. */
export function isToolShape(shape: JobShape): boolean {
	return shape === 'tool' || typeof shape === 'object';
}

/**
 * The shape of one item's job. In workflows: Simplify (default on). In tool use: Output (default
 * Simplified); Simplify off still gives every attribute where n8n shows Simplify to a tool node (an n8n
 * without `@tool` display conditions).
 */
export function readJobShape(ctx: IExecuteFunctions, itemIndex: number): JobShape {
	const simplify = requireBoolean(ctx, itemIndex, 'Simplify', ctx.getNodeParameter('simplify', itemIndex, true));
	if (!simplify) return 'full';
	if (!isToolUse(ctx.getNode())) return 'simplified';
	const output = requireOneOf(ctx, itemIndex, OUTPUT_FIELD, ctx.getNodeParameter('output', itemIndex, 'simplified'), [
		'simplified',
		'raw',
		'selected',
	] as const);
	if (output === 'raw') return 'full';
	if (output === 'simplified') return 'tool';
	const fields = ctx.getNodeParameter('fields', itemIndex, []) as unknown;
	const list = Array.isArray(fields) ? fields : [fields];
	const unknown = list.filter((field) => typeof field !== 'string' || (field !== 'id' && !SELECTABLE_FIELDS.includes(field)));
	if (unknown.length > 0 || !Array.isArray(fields)) {
		throw invalidInput(
			ctx,
			itemIndex,
			'"Fields"',
			`must be a list of job fields, got ${shown(unknown.length > 0 ? unknown : fields)}`,
			`The fields Selected Fields offers: id, ${SELECTABLE_FIELDS.join(', ')}.`,
		);
	}
	return { selected: list as string[] };
}

/**
 * The job Pause, Resume and Cancel output (they have no Simplify): every attribute in workflows, as always;
 * in tool use as Output says.
 */
export function statusJobJson(ctx: IExecuteFunctions, job: Job, itemIndex = 0): IDataObject {
	return isToolUse(ctx.getNode()) ? jobItemJson(job, readJobShape(ctx, itemIndex)) : flatten(job);
}

/**
 * A job as an output item in the given shape, with what the operation adds (`extra`, after the job's
 * fields; Selected Fields keeps only the picked ones of them).
 */
export function jobItemJson(job: Job, shape: JobShape, extra: IDataObject = {}): IDataObject {
	if (typeof shape === 'object') return selectedJobJson(job, shape.selected, extra);
	const json = shape === 'tool' ? toolJobJson(job) : jobJson(job, shape === 'simplified');
	return Object.keys(extra).length === 0 ? json : { ...json, ...extra };
}

/**
 * Output › Selected Fields: `id`, then each picked field that has a value, from the tool shape, else from
 * the raw attributes, else from what the operation adds; in the order of SELECTABLE_FIELDS.
 */
function selectedJobJson(job: Job, fields: readonly string[], extra: IDataObject): IDataObject {
	const picked = new Set(fields);
	const tool = toolJobJson(job);
	const raw = flatten(job, {}, JOB_OUTPUT_KEYS);
	const out: IDataObject = { id: job.id };
	for (const field of SELECTABLE_FIELDS) {
		if (!picked.has(field)) continue;
		const value = field in tool ? tool[field] : field in extra ? extra[field] : raw[field];
		if (value !== null && value !== undefined) out[field] = value;
	}
	return out;
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
