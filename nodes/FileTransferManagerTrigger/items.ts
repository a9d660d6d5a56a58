import type { IDataObject, INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { routes } from '../FileTransferManager/api/routes';
import type { Job, JobError } from '../FileTransferManager/api/types';
import { operationError } from '../FileTransferManager/transport/operationError';
import { flatten } from '../FileTransferManager/helpers/output';
import { requestPage } from '../FileTransferManager/helpers/shape';
import { jobSummary } from '../FileTransferManager/helpers/summary';
import type { TriggerConfig } from './config';
import type { Observation } from './watch';

/** A client error that repeating will not cure (408 timeout and 429 rate limit will pass). */
function refused(error: NodeApiError): boolean {
	const status = Number(error.httpCode);
	return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

async function firstErrors(ctx: IPollFunctions, job: Job, count: number): Promise<IDataObject> {
	try {
		const page = await requestPage<JobError>(ctx, routes.listJobErrors(job.id), 'job-errors', {
			qs: { 'page[limit]': count },
		});
		const errors = page.data.slice(0, count).map((record) => flatten(record));
		return { errors, errorsTotal: page.total ?? errors.length };
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
	'errorsTotal',
	'errorsUnavailable',
	'transferSummary',
] as const;

/**
 * One item per event: `event` (the status entered), `seenAt` (the job's updatedAt when the trigger saw
 * it in that status: server time), `aheadOfServiceClock: true` only when that updatedAt was ahead of the
 * service's own clock (see watch.ts), then the job flattened as the action node outputs it.
 */
export async function toItems(
	ctx: IPollFunctions,
	config: TriggerConfig,
	observations: Observation[],
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (const { job, event, aheadOfClock } of observations) {
		// The trigger's own keys come first and win; a clashing attribute is under apiAttributes.
		const own: IDataObject = { event, seenAt: job.attributes.updatedAt };
		if (aheadOfClock) own.aheadOfServiceClock = true;
		const json = flatten(job, own, TRIGGER_OUTPUT_KEYS);
		if (config.attachErrors > 0 && (event === 'failed' || event === 'stuck')) {
			Object.assign(json, await firstErrors(ctx, job, config.attachErrors));
		}
		if (config.attachTransferSummary) json.transferSummary = jobSummary(job);
		items.push({ json });
	}
	return items;
}
