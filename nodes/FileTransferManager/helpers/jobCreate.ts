import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { routes } from '../api/routes';
import type { CreateBody, Document, Job, JobCreateAttributes, ListDocument } from '../api/types';
import { PAGE_LIMIT_MAX } from '../api/types';
import { AmbiguousRequestError, DEFAULT_TRANSPORT, apiRequest, settingsFromNode } from '../transport';
import { samePath } from './jobBody';

/** Jobs remembered before the create; enough to tell apart jobs that share a creation millisecond. */
const SNAPSHOT_SIZE = 10;
/** First pause before looking for the job, for a service that stores it just after the connection broke. */
const SETTLE_MS = 1000;

export interface CreatedJob {
	job: Job;
	/** True when the create request failed ambiguously and the job was found afterwards. */
	recovered: boolean;
}

/** Jobs that could be this create's: same storages, transfer type, dry run flag (and name when given). */
function candidateQuery(attributes: JobCreateAttributes): IDataObject {
	const qs: IDataObject = {
		'filter[source.id]': attributes.source.id,
		'filter[target.id]': attributes.target.id,
		'filter[transferType]': attributes.transferType,
		'filter[dryRun]': String(attributes.dryRun ?? false),
		sort: '-createdAt',
	};
	if (attributes.name !== undefined) qs['filter[name]'] = attributes.name;
	return qs;
}

interface Snapshot {
	/** createdAt of the newest matching job before the request, if any. */
	newest?: string;
	ids: Set<string>;
}

function same(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether a job carries every attribute the create request sent (and only compares what was sent). */
export function matchesSent(job: Job, sent: JobCreateAttributes): boolean {
	const a = job.attributes;
	if (a.transferType !== sent.transferType) return false;
	if (a.dryRun !== (sent.dryRun ?? false)) return false;
	if (a.source?.id !== sent.source.id || a.target?.id !== sent.target.id) return false;
	if (a.source.type !== sent.source.type) return false;
	if (!samePath(a.source.path, sent.source.path) || !samePath(a.target.path, sent.target.path)) return false;
	if (sent.source.retrievalType !== undefined && a.source.retrievalType !== sent.source.retrievalType) return false;
	if ((a.conflictHandling ?? null) !== (sent.conflictHandling ?? null)) return false;
	const rules = (rs: Array<{ type: string; condition: string; value: string }> | undefined) =>
		(rs ?? []).map((r) => [r.type, r.condition, r.value]);
	if (!same(rules(a.scope?.rules), rules(sent.scope?.rules))) return false;
	if (sent.failureConditions !== undefined) {
		const conditions = (cs: Array<{ type: string; value: number }> | undefined) =>
			(cs ?? []).map((c) => [c.type, c.value]);
		if (!same(conditions(a.failureConditions), conditions(sent.failureConditions))) return false;
	}
	for (const key of ['name', 'transferRateLimit', 'accountId', 'userId', 'groupId'] as const) {
		if (sent[key] !== undefined && a[key] !== sent[key]) return false;
	}
	return true;
}

async function snapshot(ctx: IExecuteFunctions, attributes: JobCreateAttributes, itemIndex: number): Promise<Snapshot> {
	const page = await apiRequest<ListDocument<Job>>(ctx, routes.listJobs(), {
		qs: { ...candidateQuery(attributes), 'page[limit]': SNAPSHOT_SIZE },
		itemIndex,
	});
	const jobs = Array.isArray(page.data) ? page.data : [];
	return { newest: jobs[0]?.attributes.createdAt, ids: new Set(jobs.map((job) => job.id)) };
}

/**
 * Looks for the job an ambiguously failed create may have made: a matching job created since the
 * snapshot (by the server's own createdAt, so clock skew does not matter) that was not in it.
 */
async function recover(
	ctx: IExecuteFunctions,
	attributes: JobCreateAttributes,
	before: Snapshot,
	cause: NodeApiError,
	itemIndex: number,
): Promise<Job> {
	// A service may still be storing the job after the connection broke: look again, with growing pauses,
	// for as long as one request may take (Request Options > Timeout), before saying none was found.
	const window = settingsFromNode(ctx, itemIndex).timeout ?? DEFAULT_TRANSPORT.timeout;
	const isNew = (job: Job) =>
		!before.ids.has(job.id) && (before.newest === undefined || job.attributes.createdAt >= before.newest);
	let candidates: Job[] = [];
	for (let waited = 0, pause = SETTLE_MS; waited < window; waited += pause, pause *= 2) {
		await sleep(Math.min(pause, window - waited));
		let jobs: Job[];
		try {
			const page = await apiRequest<ListDocument<Job>>(ctx, routes.listJobs(), {
				qs: { ...candidateQuery(attributes), 'page[limit]': PAGE_LIMIT_MAX },
				itemIndex,
			});
			jobs = Array.isArray(page.data) ? page.data : [];
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The job may or may not have been created: the create request failed (${cause.message}) and the check for a new job failed too [item ${itemIndex}]`,
				{
					itemIndex,
					description: `Check failed with: ${(error as Error).message}. The create request was not repeated, so that no job is started twice. Look for the job with Job → Get Many (filter by source and target storage) before running this again.`,
				},
			);
		}
		candidates = jobs.filter(isNew).filter((job) => matchesSent(job, attributes));
		if (candidates.length > 0) break;
	}
	if (candidates.length === 1) return candidates[0];
	const causeText = cause.description ? `${cause.message}: ${cause.description}` : cause.message;
	if (candidates.length === 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The job may or may not have been created: the service did not answer the create request, and no new matching job was found [item ${itemIndex}]`,
			{
				itemIndex,
				description: `Cause: ${causeText}. Most likely the request never reached the service; it may also still be processing it. The node did not repeat the request, because repeating a create that did go through starts the job twice. Look for the job with Job → Get Many (filter by source and target storage) before running this again.`,
			},
		);
	}
	const ids = candidates.map((job) => job.id).join(', ');
	throw new NodeOperationError(
		ctx.getNode(),
		`The job may or may not have been created: the service did not answer the create request, and ${candidates.length} new jobs match it (${ids}) [item ${itemIndex}]`,
		{
			itemIndex,
			description: `Cause: ${causeText}. Candidate job IDs: ${ids}. Other clients created jobs with the same settings at the same time, so the node cannot tell which one is this request's. Check them with Job → Get before running this again.`,
		},
	);
}

/**
 * POST /jobs without ever repeating it blindly: when the request fails ambiguously (dropped
 * connection, 500, 502), finds the job it may have created instead. Costs one list request before
 * the create, which fixes what "created since the request" means on the server's clock.
 */
export async function createJobRecoverable(
	ctx: IExecuteFunctions,
	attributes: JobCreateAttributes,
	itemIndex: number,
): Promise<CreatedJob> {
	const before = await snapshot(ctx, attributes, itemIndex);
	const body: CreateBody<'jobs', JobCreateAttributes> = { data: { type: 'jobs', attributes } };
	let failure: unknown;
	try {
		const document = await apiRequest<Document<Job>>(ctx, routes.createJob(), {
			body: body as unknown as IDataObject,
			itemIndex,
		});
		return { job: document.data, recovered: false };
	} catch (error) {
		if (error instanceof AmbiguousRequestError) {
			return { job: await recover(ctx, attributes, before, error, itemIndex), recovered: true };
		}
		failure = error;
	}
	// Any other failure is already a NodeApiError from the transport: passed on unchanged.
	throw failure;
}
