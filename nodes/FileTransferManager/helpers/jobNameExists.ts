/**
 * "If a Job With This Name Exists": the job name as an idempotency marker the user can see. With "Use
 * the Existing Job" a re-run of the same item (n8n's Retry, a queue worker's stalled-job re-run) finds
 * the job the first run made instead of creating a second one; with "Fail" it stops with the job's ID.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { routes } from '../api/routes';
import type { Job, JobCreateAttributes } from '../api/types';
import { apiRequestAllItems } from '../transport';
import { operationError } from '../execution/operationError';
import type { CreatedJob } from './jobCreate';
import { createJobRecoverable, jobDifferences } from './jobCreate';
import { recordChecker } from './shape';
import { invalidInput, requireOneOf } from './validate';
import { perRun } from '../execution/perRun';

const IF_NAME_EXISTS = ['createAnother', 'useExisting', 'fail'] as const;
export type IfNameExists = (typeof IF_NAME_EXISTS)[number];

const FIELD = 'If a Job With This Name Exists';

/** The option, for the Additional Fields of the operations that create a job. */
export const ifNameExistsProperty: INodeProperties = {
	displayName: FIELD,
	name: 'ifNameExists',
	type: 'options',
	default: 'createAnother',
	options: [
		{
			name: 'Create Another',
			value: 'createAnother',
			description: 'Always create a new job; names need not be unique',
		},
		{
			name: 'Fail',
			value: 'fail',
			description: 'Fail the item, naming the existing job, and create nothing',
		},
		{
			name: 'Use the Existing Job',
			value: 'useExisting',
			description:
				'Output the newest job of this name (marked reusedExistingJob) instead of creating one, and wait for it if asked. A job of this name with other settings fails the item.',
		},
	],
	description:
		'Makes re-runs safe: with a Name unique to the input item (an expression on it, e.g. with the report ID it carries), a retried execution finds the job the first run created instead of starting a second one. Needs a Name.',
};

/**
 * The option of one item, read from an Additional Fields collection; anything but Create Another needs
 * a name (`name` undefined: none given), else an input error naming `nameField` and the item.
 */
export function readIfNameExists(
	ctx: IExecuteFunctions,
	itemIndex: number,
	collection: unknown,
	name: string | undefined,
	nameField: string,
): IfNameExists {
	const raw = collection !== null && typeof collection === 'object' ? (collection as IDataObject).ifNameExists : undefined;
	if (raw === undefined || raw === null || raw === '') return 'createAnother';
	const mode = requireOneOf(ctx, itemIndex, FIELD, raw, IF_NAME_EXISTS);
	if (mode !== 'createAnother' && name === undefined) {
		throw invalidInput(
			ctx,
			itemIndex,
			`"${nameField}"`,
			`is required when "${FIELD}" is "${mode === 'fail' ? 'Fail' : 'Use the Existing Job'}"`,
			`The job name is what a re-run looks for. Give a name unique to the input item, e.g. Nightly {{ $json.reportId }}, or set "${FIELD}" to "Create Another".`,
		);
	}
	return mode;
}

/** One execution's guarded creates: those of one name run one at a time in item order; what each created. */
interface Guarded {
	tails: Map<string, Promise<void>>;
	created: Map<string, Job[]>;
}

const guardedOf = perRun<IExecuteFunctions, Guarded>(() => ({ tails: new Map(), created: new Map() }));

interface Turn {
	/** Resolves when the look-and-create of every earlier item of the same name is over. */
	ready: Promise<void>;
	/** Ends this item's turn; safe to call more than once. */
	done: () => void;
}

/**
 * A place in the queue of look-and-create steps of this name in this execution. Taken before the item's
 * first request (the router starts items in order), so that two items with the same name meet in item
 * order: the later one finds the earlier one's job, whichever of them the service answers first. Items
 * of other names do not wait.
 */
function takeTurn(ctx: IExecuteFunctions, name: string): Turn {
	const guarded = guardedOf(ctx);
	const ready = guarded.tails.get(name) ?? Promise.resolve();
	let done: () => void = () => undefined;
	const mine = new Promise<void>((resolve) => {
		done = resolve;
	});
	guarded.tails.set(name, ready.then(async () => await mine));
	return { ready, done };
}

/** Every job of this name: all pages of `filter[name]`, with the name checked here (a service may ignore the filter). */
async function jobsNamed(ctx: IExecuteFunctions, name: string, itemIndex: number): Promise<Job[]> {
	const route = routes.listJobs();
	const check = recordChecker<Job>(ctx, 'jobs', { route, itemIndex });
	const listed = await apiRequestAllItems<unknown, Job>(ctx, route, { 'filter[name]': name }, {
		itemIndex,
		map: (record) => check(record),
	});
	return listed.filter((job) => job.attributes.name === name);
}

const newestFirst = (a: Job, b: Job) => Date.parse(b.attributes.createdAt) - Date.parse(a.attributes.createdAt);

export interface OnceCreatedJob extends CreatedJob {
	/** True when a job of this name existed and is output instead of a new one. */
	reused: boolean;
}

/**
 * Creates the job, or with Use the Existing Job / Fail first looks for a job of its name (all pages,
 * name checked locally, plus the jobs earlier items of this execution created). Use the Existing Job
 * takes the newest such job with the same settings; one of this name with other settings fails the item
 * (it is not this item's job: e.g. a dry run of the same name). Call it in the item's turn.
 */
async function createJobOnce(
	ctx: IExecuteFunctions,
	attributes: JobCreateAttributes,
	mode: IfNameExists,
	itemIndex: number,
): Promise<OnceCreatedJob> {
	const name = attributes.name;
	if (mode === 'createAnother' || name === undefined) {
		return { ...(await createJobRecoverable(ctx, attributes, itemIndex)), reused: false };
	}
	const guarded = guardedOf(ctx);
	const listed = await jobsNamed(ctx, name, itemIndex);
	const ids = new Set(listed.map((job) => job.id));
	// A service may list a job a moment after creating it: this execution's own count too.
	const existing = [...listed, ...(guarded.created.get(name) ?? []).filter((job) => !ids.has(job.id))].sort(newestFirst);
	const item = `[item ${itemIndex}]`;
	if (existing.length > 0 && mode === 'fail') {
		const others = existing.length > 1 ? ` (and ${existing.length - 1} more: ${existing.slice(1).map((job) => job.id).join(', ')})` : '';
		throw operationError(ctx.getNode(), `A job named "${name}" already exists: ${existing[0].id}${others} ${item}`, {
			itemIndex,
			description: `No job was created, because "${FIELD}" is "Fail". Look at it with Job → Get. To start another job anyway, give this item another name, or set "${FIELD}" to "Create Another".`,
		});
	}
	if (existing.length > 0) {
		const same = existing.find((job) => jobDifferences(job, attributes).length === 0);
		if (same) return { job: same, recovered: false, reused: true };
		const newest = existing[0];
		throw operationError(
			ctx.getNode(),
			`A job named "${name}" exists with other settings: ${newest.id} differs in ${jobDifferences(newest, attributes).join(', ')} ${item}`,
			{
				itemIndex,
				description: `No job was created and none is reused: a job of the same name with other settings is not this item's job (for example a dry run when this is a real job). Give each job a name of its own, e.g. from the input item.${existing.length > 1 ? ` Jobs of this name: ${existing.map((job) => job.id).join(', ')}.` : ''}`,
			},
		);
	}
	const created = await createJobRecoverable(ctx, attributes, itemIndex);
	guarded.created.set(name, [...(guarded.created.get(name) ?? []), created.job]);
	return { ...created, reused: false };
}

/**
 * Prepares the create attributes (the requests an operation needs first) and creates the job with
 * createJobOnce, in the item's turn for its name when the mode looks for one. Call it before the item's
 * first await: the turn is taken here, synchronously, so that items of one name look and create one by
 * one, in item order. `prepare`'s other results come back beside the created job.
 */
export async function createJobInTurn<T extends { attributes: JobCreateAttributes }>(
	ctx: IExecuteFunctions,
	mode: IfNameExists,
	name: string | undefined,
	itemIndex: number,
	prepare: () => Promise<T>,
): Promise<{ created: OnceCreatedJob; prepared: T }> {
	const turn = mode === 'createAnother' || name === undefined ? undefined : takeTurn(ctx, name);
	try {
		const prepared = await prepare();
		await turn?.ready;
		return { created: await createJobOnce(ctx, prepared.attributes, mode, itemIndex), prepared };
	} finally {
		turn?.done();
	}
}

/** Marks a job item with how its job came about: found after an unclear create, or reused by name. */
export function markCreated(json: IDataObject, created: OnceCreatedJob): void {
	if (created.recovered) json.recoveredAfterAmbiguousError = true;
	if (created.reused) json.reusedExistingJob = true;
}
