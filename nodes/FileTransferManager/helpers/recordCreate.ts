import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { Route } from '../../shared/api/routes';
import type { ResourceType, Timestamps } from '../../shared/api/types';
import { PAGE_LIMIT_MAX } from '../../shared/api/types';
import type { ItemContext } from '../../shared/execution/item';
import { itemError, operationError } from '../../shared/execution/operationError';
import { apiRequest, requestErrors, requestSettings } from '../../shared/transport';
import { checkDocument } from '../../shared/answers/shape';
import { requestPage } from '../../shared/answers/checkedRequests';
import { perRun } from '../../shared/execution/perRun';

/** Records remembered before the create; enough to tell apart records that share a creation millisecond. */
const SNAPSHOT_SIZE = 10;
/** First pause before looking for the record, for a service that stores it just after the connection broke. */
const SETTLE_MS = 1000;

interface Created {
	id: string;
	attributes: Timestamps;
}

export interface RecordCreate<T extends Created> {
	/** What is created, for messages: "job", "group", "user". */
	noun: string;
	/** The JSON:API type created, for the shape checks of the answers. */
	type: ResourceType;
	createRoute: Route;
	listRoute: Route;
	body: IDataObject;
	/** Filters that list the records this create could have made (exact matches on what is sent). */
	candidateFilters: IDataObject;
	/** Whether a listed record carries everything the create sent. */
	matches: (record: T) => boolean;
	/** Where the user can look, e.g. "Job → Get Many (filter by source and target storage)". */
	lookHint: string;
}

export interface CreatedRecord<T> {
	record: T;
	/** True when the create request failed ambiguously and the record was found afterwards. */
	recovered: boolean;
}

interface Snapshot {
	/** createdAt of the newest matching record before the request, if any. */
	newest?: string;
	ids: Set<string>;
}

/**
 * The creates of one execution, whose items run at once: a look for the record an unclear create may
 * have made waits until the others' answers are in, and leaves out the records they were answered with.
 */
interface Creates {
	inFlight: number;
	settled: Array<() => void>;
	claimed: Set<string>;
}

const createsOf = perRun<IExecuteFunctions, Creates>(() => ({ inFlight: 0, settled: [], claimed: new Set() }));

function createSettled(creates: Creates): void {
	creates.inFlight -= 1;
	if (creates.inFlight === 0) for (const resume of creates.settled.splice(0)) resume();
}

async function othersSettled(creates: Creates): Promise<void> {
	if (creates.inFlight > 0) await new Promise<void>((resume) => creates.settled.push(resume));
}

async function listCandidates<T extends Created>(
	ctx: IExecuteFunctions,
	spec: RecordCreate<T>,
	limit: number,
	item: ItemContext,
): Promise<T[]> {
	const page = await requestPage<T>(ctx, spec.listRoute, spec.type, {
		qs: { ...spec.candidateFilters, sort: '-createdAt', 'page[limit]': limit },
		item,
	});
	return page.data;
}

/**
 * Looks for the record an ambiguously failed create may have made: a matching record created since the
 * snapshot (by the server's own createdAt, so clock skew does not matter) that was not in it. A service
 * may still be storing it after the connection broke, so it looks again with growing pauses for as long
 * as one request may take (Request Options > Timeout).
 */
async function recover<T extends Created>(
	ctx: IExecuteFunctions,
	spec: RecordCreate<T>,
	before: Snapshot,
	cause: NodeApiError,
	item: ItemContext,
): Promise<T> {
	const itemIndex = item.index;
	const { noun, lookHint } = spec;
	const creates = createsOf(ctx);
	await othersSettled(creates);
	const window = requestSettings.fromNode(ctx, itemIndex).timeout ?? requestSettings.DEFAULTS.timeout;
	const isNew = (record: T) =>
		!before.ids.has(record.id) &&
		!creates.claimed.has(record.id) && (before.newest === undefined || record.attributes.createdAt >= before.newest);
	let candidates: T[] = [];
	for (let waited = 0, pause = SETTLE_MS; waited < window; waited += pause, pause *= 2) {
		await sleep(Math.min(pause, window - waited));
		let records: T[];
		try {
			records = await listCandidates(ctx, spec, PAGE_LIMIT_MAX, item);
		} catch (error) {
			throw itemError(
				ctx.getNode(),
				`The ${noun} may or may not have been created: the create request failed (${cause.message}) and the check for a new ${noun} failed too`,
				itemIndex,
				{
					description: `Check failed with: ${(error as Error).message}. The create request was not repeated, so that nothing is created twice. Look for it with ${lookHint} before running this again.`,
				},
			);
		}
		candidates = records.filter(isNew).filter(spec.matches);
		if (candidates.length > 0) break;
	}
	if (candidates.length === 1) {
		creates.claimed.add(candidates[0].id);
		return candidates[0];
	}
	const causeText = cause.description ? `${cause.message}: ${cause.description}` : cause.message;
	if (candidates.length === 0) {
		throw itemError(
			ctx.getNode(),
			`The ${noun} may or may not have been created: the service did not answer the create request, and no new matching ${noun} was found`,
			itemIndex,
			{
				description: `Cause: ${causeText}. Most likely the request never reached the service; it may also still be processing it. The node did not repeat the request, because repeating a create that did go through creates it twice. Look for it with ${lookHint} before running this again.`,
			},
		);
	}
	const ids = candidates.map((record) => record.id).join(', ');
	throw itemError(
		ctx.getNode(),
		`The ${noun} may or may not have been created: the service did not answer the create request, and ${candidates.length} new ${noun}s match it (${ids})`,
		itemIndex,
		{
			description: `Cause: ${causeText}. Candidate IDs: ${ids}. Other clients created the same at the same time, so the node cannot tell which one is this request's. Check them before running this again.`,
		},
	);
}

/**
 * Creates a record of any type (a group, a user, a job) with a POST that is never repeated blindly: when
 * the request fails ambiguously (dropped connection, timeout, 500, 502, an answer that is not JSON), finds
 * the record it may have created instead. Costs one list request before the create, which fixes what
 * "created since the request" means on the server's clock.
 */
export async function createRecord<T extends Created>(
	ctx: IExecuteFunctions,
	spec: RecordCreate<T>,
	item: ItemContext,
): Promise<CreatedRecord<T>> {
	const itemIndex = item.index;
	const known = await listCandidates(ctx, spec, SNAPSHOT_SIZE, item);
	const before: Snapshot = { newest: known[0]?.attributes.createdAt, ids: new Set(known.map((r) => r.id)) };
	let document: unknown;
	const creates = createsOf(ctx);
	creates.inFlight += 1;
	try {
		document = await apiRequest<unknown>(ctx, spec.createRoute, { body: spec.body, item });
		const id = (document as { data?: { id?: unknown } } | null)?.data?.id;
		if (typeof id === 'string') creates.claimed.add(id);
		createSettled(creates);
	} catch (error) {
		createSettled(creates);
		if (error instanceof requestErrors.AmbiguousRequestError) {
			return { record: await recover(ctx, spec, before, error, item), recovered: true };
		}
		// Any other failure is already a NodeApiError from the transport: passed on unchanged.
		throw error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: operationError(ctx.getNode(), error as Error, { itemIndex });
	}
	try {
		return { record: checkDocument<T>(ctx, document, spec.type, { route: spec.createRoute, itemIndex }), recovered: false };
	} catch (error) {
		// The service did answer the create: the record most likely exists, so a blind re-run would
		// make a second one.
		const failure = error as NodeOperationError;
		failure.description = `The create request was answered, so the ${spec.noun} was probably created. Look for it with ${spec.lookHint} before running this again.`;
		throw failure;
	}
}
