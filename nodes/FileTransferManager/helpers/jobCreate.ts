/**
 * Creating a job, the one way the operations do it (Job › Create, Run From Dry Run): the create request is
 * never repeated blindly (createRecord), and "If a Job With This Name Exists" (jobNameExists.ts) looks for a
 * job of the name first, one item of a name at a time, in item order.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { routes } from '../../shared/api/routes';
import type { CreateBody, Job, JobCreateAttributes } from '../../shared/api/types';
import type { ItemContext } from '../../shared/execution/item';
import { itemError } from '../../shared/execution/operationError';
import { perRun } from '../../shared/execution/perRun';
import { apiRequestAllItems } from '../../shared/transport';
import { samePath } from './jobBody';
import type { IfNameExists } from './jobNameExists';
import { IF_NAME_EXISTS_FIELD } from './jobNameExists';
import { createRecord } from './recordCreate';
import { recordChecker } from '../../shared/answers/shape';

export interface CreatedJob {
	job: Job;
	/** True when the create request failed ambiguously and the job was found afterwards. */
	recovered: boolean;
	/** True when a job of this name existed and is output instead of a new one. */
	reused: boolean;
}

/** Jobs that could be this create's: same storages, transfer type, dry run flag (and name when given). */
function candidateQuery(attributes: JobCreateAttributes): IDataObject {
	const qs: IDataObject = {
		'filter[source.id]': attributes.source.id,
		'filter[target.id]': attributes.target.id,
		'filter[transferType]': attributes.transferType,
		'filter[dryRun]': String(attributes.dryRun ?? false),
	};
	if (attributes.name !== undefined) qs['filter[name]'] = attributes.name;
	return qs;
}

function same(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields (as the form names them) in which a job differs from the create attributes; only what was
 * sent is compared. Empty when the job carries every attribute the create request sent.
 */
function jobDifferences(job: Job, sent: JobCreateAttributes): string[] {
	const a = job.attributes;
	const differ: string[] = [];
	if (a.transferType !== sent.transferType) differ.push('Transfer Type');
	if (a.dryRun !== (sent.dryRun ?? false)) differ.push('Dry Run');
	if (a.source?.id !== sent.source.id || a.source?.type !== sent.source.type) differ.push('Source Storage');
	if (a.target?.id !== sent.target.id) differ.push('Target Storage');
	if (!samePath(a.source?.path, sent.source.path)) differ.push('Source Path');
	if (!samePath(a.target?.path, sent.target.path)) differ.push('Target Path');
	if (sent.source.retrievalType !== undefined && a.source?.retrievalType !== sent.source.retrievalType) differ.push('Retrieval Type');
	if ((a.conflictHandling ?? null) !== (sent.conflictHandling ?? null)) differ.push('Conflict Handling');
	// What the service lists is compared without trusting its shape: a rule that is not an object is kept as is.
	const rules = (rs: Array<{ type: string; condition: string; value: string }> | undefined) =>
		(Array.isArray(rs) ? rs : []).map((r) => (r && typeof r === 'object' ? [r.type, r.condition, r.value] : r));
	if (!same(rules(a.scope?.rules), rules(sent.scope?.rules))) differ.push('Scope Rules');
	if (sent.failureConditions !== undefined) {
		const conditions = (cs: Array<{ type: string; value: number }> | undefined) =>
			(Array.isArray(cs) ? cs : []).map((c) => (c && typeof c === 'object' ? [c.type, c.value] : c));
		if (!same(conditions(a.failureConditions), conditions(sent.failureConditions))) differ.push('Fail After Errors');
	}
	const labels = { name: 'Name', transferRateLimit: 'Transfer Rate Limit', accountId: 'Account', userId: 'User', groupId: 'Group' };
	for (const key of ['name', 'transferRateLimit', 'accountId', 'userId', 'groupId'] as const) {
		if (sent[key] !== undefined && a[key] !== sent[key]) differ.push(labels[key]);
	}
	return differ;
}

/**
 * The POST /jobs alone, through createRecord: when the request fails ambiguously, finds the job it may have
 * created instead of repeating it.
 */
async function postJob(
	ctx: IExecuteFunctions,
	attributes: JobCreateAttributes,
	item: ItemContext,
): Promise<Omit<CreatedJob, 'reused'>> {
	const body: CreateBody<'jobs', JobCreateAttributes> = { data: { type: 'jobs', attributes } };
	const { record, recovered } = await createRecord<Job>(
		ctx,
		{
			noun: 'job',
			type: 'jobs',
			createRoute: routes.createJob(),
			listRoute: routes.listJobs(),
			body: body as unknown as IDataObject,
			candidateFilters: candidateQuery(attributes),
			matches: (job) => jobDifferences(job, attributes).length === 0,
			lookHint: 'Job → Get Many (filter by source and target storage)',
		},
		item,
	);
	return { job: record, recovered };
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
async function jobsNamed(ctx: IExecuteFunctions, name: string, item: ItemContext): Promise<Job[]> {
	const route = routes.listJobs();
	const check = recordChecker<Job>(ctx, 'jobs', { route, itemIndex: item.index });
	const listed = await apiRequestAllItems<unknown, Job>(ctx, route, { 'filter[name]': name }, {
		item,
		map: (record) => check(record),
	});
	return listed.filter((job) => job.attributes.name === name);
}

const newestFirst = (a: Job, b: Job) => Date.parse(b.attributes.createdAt) - Date.parse(a.attributes.createdAt);

/**
 * With Use the Existing Job or Fail, the job of this name to output instead of creating one: it looks for
 * jobs of the name (all pages, name checked locally, plus the jobs earlier items of this execution created).
 * Use the Existing Job takes the newest such job with the same settings; one of this name with other
 * settings fails the item (it is not this item's job: e.g. a dry run of the same name), and so does any
 * with Fail. Undefined when there is none: the job is to be created.
 */
async function existingJobOfName(
	ctx: IExecuteFunctions,
	attributes: JobCreateAttributes,
	name: string,
	mode: Exclude<IfNameExists, 'createAnother'>,
	item: ItemContext,
): Promise<Job | undefined> {
	const itemIndex = item.index;
	const guarded = guardedOf(ctx);
	const listed = await jobsNamed(ctx, name, item);
	const ids = new Set(listed.map((job) => job.id));
	// A service may list a job a moment after creating it: this execution's own count too.
	const existing = [...listed, ...(guarded.created.get(name) ?? []).filter((job) => !ids.has(job.id))].sort(newestFirst);
	if (existing.length > 0 && mode === 'fail') {
		const others = existing.length > 1 ? ` (and ${existing.length - 1} more: ${existing.slice(1).map((job) => job.id).join(', ')})` : '';
		throw itemError(ctx.getNode(), `A job named "${name}" already exists: ${existing[0].id}${others}`, itemIndex, {
			description: `No job was created, because "${IF_NAME_EXISTS_FIELD}" is "Fail". Look at it with Job → Get. To start another job anyway, give this item another name, or set "${IF_NAME_EXISTS_FIELD}" to "Create Another".`,
		});
	}
	if (existing.length > 0) {
		const same = existing.find((job) => jobDifferences(job, attributes).length === 0);
		if (same) return same;
		const newest = existing[0];
		throw itemError(
			ctx.getNode(),
			`A job named "${name}" exists with other settings: ${newest.id} differs in ${jobDifferences(newest, attributes).join(', ')}`,
			itemIndex,
			{
				description: `No job was created and none is reused: a job of the same name with other settings is not this item's job (for example a dry run when this is a real job). Give each job a name of its own, e.g. from the input item.${existing.length > 1 ? ` Jobs of this name: ${existing.map((job) => job.id).join(', ')}.` : ''}`,
			},
		);
	}
	return undefined;
}

/**
 * Creates the job. `prepare` makes the create attributes (with the requests an operation needs first); its
 * other results come back beside the created job. With Use the Existing Job or Fail it first looks for a job
 * of the name (existingJobOfName), in the item's turn for that name. Call it before the item's first await:
 * the turn is taken here, synchronously, so that items of one name look and create one by one, in item
 * order.
 */
export async function createJob<T extends { attributes: JobCreateAttributes }>(
	ctx: IExecuteFunctions,
	mode: IfNameExists,
	name: string | undefined,
	item: ItemContext,
	prepare: () => Promise<T>,
): Promise<{ created: CreatedJob; prepared: T }> {
	const turn = mode === 'createAnother' || name === undefined ? undefined : takeTurn(ctx, name);
	try {
		const prepared = await prepare();
		await turn?.ready;
		const { attributes } = prepared;
		const jobName = attributes.name;
		if (mode === 'createAnother' || jobName === undefined) {
			return { created: { ...(await postJob(ctx, attributes, item)), reused: false }, prepared };
		}
		const existing = await existingJobOfName(ctx, attributes, jobName, mode, item);
		if (existing) return { created: { job: existing, recovered: false, reused: true }, prepared };
		const created = await postJob(ctx, attributes, item);
		const guarded = guardedOf(ctx);
		guarded.created.set(jobName, [...(guarded.created.get(jobName) ?? []), created.job]);
		return { created: { ...created, reused: false }, prepared };
	} finally {
		turn?.done();
	}
}

/** Marks a job item with how its job came about: found after an unclear create, or reused by name. */
export function markCreated(json: IDataObject, created: CreatedJob): void {
	if (created.recovered) json.recoveredAfterAmbiguousError = true;
	if (created.reused) json.reusedExistingJob = true;
}
