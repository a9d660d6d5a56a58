import type { IDataObject, INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { routes } from '../shared/api/routes';
import type { Job, JobError } from '../shared/api/types';
import { operationError } from '../shared/execution/operationError';
import { flatten } from '../shared/answers/output';
import { subListFailure } from '../shared/jobs/jobSubList';
import type { CheckedPage } from '../shared/answers/shape';
import { requestPage } from '../shared/answers/checkedRequests';
import { jobSummary } from '../shared/jobs/summary';
import type { TriggerConfig } from './config';
import type { Observation } from './watch';

/** A client error that repeating will not cure (408 timeout and 429 rate limit will pass). */
function refused(error: NodeApiError): boolean {
	const status = Number(error.httpCode);
	return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * `errorsTotal` of a page of a job's errors: `meta.page.total` when the service sends it; else the records
 * read when the page says it is the last (`meta.page.after` or `links.next` null, neither pointing on), since
 * they are then all of them. Otherwise the total is unknown: null, and `errorsNote` says how many at least.
 */
function errorsCount(page: CheckedPage<JobError>): IDataObject {
	if (page.total !== undefined) return { errorsTotal: page.total };
	const pointsOn = typeof page.after === 'string' || typeof page.nextUrl === 'string';
	const last = !pointsOn && (page.after === null || page.nextUrl === null);
	if (last) return { errorsTotal: page.data.length };
	return {
		errorsTotal: null,
		errorsNote: `The service sent no total (meta.page.total) and there are more records: the job has at least ${page.data.length} error and warning records.`,
	};
}

async function firstErrors(ctx: IPollFunctions, job: Job, count: number): Promise<IDataObject> {
	const route = routes.listJobErrors(job.id);
	try {
		let page: CheckedPage<JobError>;
		try {
			page = await requestPage<JobError>(ctx, route, 'job-errors', { qs: { 'page[limit]': count } });
		} catch (error) {
			// A 404 or 405 for a job that exists: the deployment serves its errors at another route.
			throw await subListFailure(ctx, error, job.id, 'errors', route);
		}
		const errors = page.data.slice(0, count).map((record) => flatten(record));
		return { errors, ...errorsCount(page) };
	} catch (error) {
		// A malformed errors list would fail every poll from now on too: the event goes out with the reason.
		if (error instanceof NodeOperationError) {
			return { errors: [], errorsTotal: null, errorsUnavailable: error.message };
		}
		// A client error here (the job's errors are not visible, say) would fail every poll from now on;
		// the event itself matters more, so it is delivered with the reason instead of the errors.
		if (error instanceof NodeApiError && refused(error)) {
			return { errors: [], errorsTotal: null, errorsUnavailable: error.message };
		}
		throw error instanceof NodeApiError
			? new NodeApiError(ctx.getNode(), error as unknown as JsonObject)
			: operationError(ctx.getNode(), error as Error);
	}
}

/** Keys the trigger adds after a job's attributes (Attach Errors, Attach Transfer Summary). */
const TRIGGER_OUTPUT_KEYS = [
	'aheadOfServiceClock',
	'errors',
	'errorsNote',
	'errorsTotal',
	'errorsUnavailable',
	'transferSummary',
] as const;

/** Whether the item of an event costs a request (Attach Errors, on a failed or stuck job). */
export const itemNeedsRequest = (config: TriggerConfig, { event }: Observation): boolean =>
	config.attachErrors > 0 && (event === 'failed' || event === 'stuck');

/**
 * The item of one event: `event` (the status entered), `seenAt` (the job's updatedAt when the trigger saw
 * it in that status: server time), `aheadOfServiceClock: true` only when that updatedAt was ahead of the
 * service's own clock (see watch.ts), then the job flattened as the action node outputs it.
 */
export async function toItem(
	ctx: IPollFunctions,
	config: TriggerConfig,
	observation: Observation,
): Promise<INodeExecutionData> {
	const { job, event, aheadOfClock } = observation;
	// The trigger's own keys come first and win; a clashing attribute is under apiAttributes.
	const own: IDataObject = { event, seenAt: job.attributes.updatedAt };
	if (aheadOfClock) own.aheadOfServiceClock = true;
	const json = flatten(job, own, TRIGGER_OUTPUT_KEYS);
	if (itemNeedsRequest(config, observation)) Object.assign(json, await firstErrors(ctx, job, config.attachErrors));
	if (config.attachTransferSummary) json.transferSummary = jobSummary(job);
	return { json };
}

/** The items of several events, in their order, one request after the other. */
export async function toItems(
	ctx: IPollFunctions,
	config: TriggerConfig,
	observations: Observation[],
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (const observation of observations) items.push(await toItem(ctx, config, observation));
	return items;
}
