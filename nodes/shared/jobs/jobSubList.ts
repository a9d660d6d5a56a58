/**
 * A job's transfers or errors list that the deployment does not serve where the API contract puts it
 * (`GET /jobs/{id}/transfers`, `/errors`, docs/api-contract.md A16). Such a deployment answers our route
 * with 404 (often the same "Entity Not Found" an unknown job gets) or 405, and the error alone would say
 * "check the ID" or "check the Base URL" for a job that exists. So on that answer, and only then, the job
 * itself is asked for (one more request): when it exists, the error names the cause; when it does not, or
 * that cannot be told, the list's own error stands.
 */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Route } from '../api/routes';
import { routes } from '../api/routes';
import type { Job } from '../api/types';
import type { ApiContext } from '../transport';
import { CONFIGURATION_INVALID, declareFailure } from '../execution/declareFailure';
import type { ItemContext } from '../execution/item';
import { notFoundInToolUse } from '../execution/toolUse';
import { requestResource } from '../answers/checkedRequests';

type JobSubList = 'transfers' | 'errors';

/** Answers of a job's sub-list that may mean "not served here" rather than "no such job". */
const NOT_SERVED_HERE = ['404', '405'];

/** The API's title as the list's error carries it (in tool use, without the "no job with ID …" the 404 got). */
function apiTitleOf(error: NodeApiError, route: Route): string | undefined {
	// An answer without an error document has no title of the API's (transport/errors.ts says so in its message).
	if (/^The service answered HTTP \d+/.test(error.message)) return undefined;
	const toolSuffix = notFoundInToolUse(route.path);
	const message = toolSuffix && error.message.endsWith(`: ${toolSuffix}`) ? error.message.slice(0, -(toolSuffix.length + 2)) : error.message;
	return message === '' ? undefined : message;
}

function servedElsewhere(
	ctx: ApiContext,
	error: NodeApiError,
	jobId: string,
	kind: JobSubList,
	route: Route,
	itemIndex: number | undefined,
): NodeApiError {
	const status = String(error.httpCode);
	const title = apiTitleOf(error, route);
	const answer = `HTTP ${status}${title ? ` ${title}` : ''}`;
	const getJob = routes.getJob(jobId);
	const message = `The job ${jobId} exists, but this deployment serves its ${kind} elsewhere, not at ${route.method} ${route.path} (${answer}): run API › Check Compatibility`;
	const description = [
		`${getJob.method} ${getJob.path} found the job, so its ID is right; the list of its ${kind} at ${route.method} ${route.path} answered ${answer}.`,
		`Your deployment differs from the API contract (docs/api-contract.md): API › Check Compatibility tests where it serves a job's transfers and errors.`,
		`The HTTP Request node can read another route with this credential.`,
	].join(' ');
	const failure = new NodeApiError(ctx.getNode(), { code: 'SUB_LIST_ELSEWHERE', status } as JsonObject, {
		message,
		description,
		httpCode: status,
		...(itemIndex === undefined ? {} : { itemIndex }),
	});
	// NodeApiError swaps in n8n's generic texts for some messages and statuses: ours stand.
	failure.message = message;
	failure.description = description;
	// The deployment differs from the contract: it will not pass by itself (transport/failure.ts failureCauseOf).
	return declareFailure(failure, CONFIGURATION_INVALID);
}

/**
 * The error to raise for a failed read of a job's transfers or errors at `route`: after a 404 or 405, the
 * job is asked for, and if it exists the error says that the deployment serves the list elsewhere. Any
 * other failure, a job that is not found, or a job check that fails too, gives back `error` unchanged.
 */
export async function subListFailure(
	ctx: ApiContext,
	error: unknown,
	jobId: string,
	kind: JobSubList,
	route: Route,
	item?: ItemContext,
): Promise<unknown> {
	if (!(error instanceof NodeApiError) || !NOT_SERVED_HERE.includes(String(error.httpCode))) return error;
	try {
		await requestResource<Job>(ctx, routes.getJob(jobId), 'jobs', { item });
	} catch {
		// No such job (the list's 404 was right), or it cannot be told: the list's own error stands.
		return error;
	}
	return servedElsewhere(ctx, error, jobId, kind, route, item?.index);
}
