/**
 * Turning a failed request into the error the user sees: the API's own title and detail (redacted and
 * trimmed), a hint from us, and never a secret or a raw upstream message.
 */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Route } from '../api/routes';
import { formatBytes } from './body';
import { egressTexts } from './egress';
import type { FailureFacts, Verdict } from './failure';
import { failureCauseOf, TIMEOUT_CODES, TLS_CODES } from './failure';
import { CONFIGURATION_INVALID, declareFailure } from '../execution/declareFailure';
import { redact } from './secrets';
import { noTokenEndpoint, tokenMessage } from './token';
import { isToolUse, notFoundInToolUse } from '../execution/toolUse';
import type { ApiContext, TransportSettings } from './settings';

/** An ambiguous failure: the request may or may not have been carried out by the server. */
export class AmbiguousRequestError extends NodeApiError {
	readonly ambiguous = true;
}

/**
 * n8n's SSRF protection refused to send a request of the node (or its token request): nothing reached the
 * service. API › Check Compatibility stops at it instead of reporting every check as failed.
 */
export class EgressBlockedError extends NodeApiError {
	readonly egressBlocked = true;
}

/** Longest API title and detail shown; the rest is cut (a server can send megabytes). */
export const MAX_TITLE = 200;
export const MAX_DETAIL = 2000;

const HINTS: Readonly<Record<string, string>> = {
	'entity-not-found':
		'Check the ID: the record may have been deleted, or it belongs to an account this client cannot see.',
	'invalid-status-transition':
		'Jobs move scanning → running → finished. Pause works while scanning, running or stuck; Resume only on a paused job; Cancel on any job that is not finished, failed or canceled.',
	unauthorized:
		'The access token was refused, also after fetching a new one. Check the credential: Base URL, Client ID and Client Secret.',
	conflict: 'A record with these values exists already (for users: the e-mail address within the account).',
	'read-only-attribute': 'Only the job status can be changed, and users have no password field in the API.',
	'invalid-filter':
		'The service refused a filter: your deployment may not filter on this field (it differs from the API contract). Remove the filter, and run API › Check Compatibility to see which filters it honours.',
	'invalid-sort':
		'The service refused the sort: your deployment may not sort on this field (it differs from the API contract). Remove the sort, and run API › Check Compatibility.',
	'invalid-page':
		'The service refused the page parameters (page[limit], page[after]): your deployment pages differently from the API contract. Run API › Check Compatibility.',
	'route-not-found':
		'Your deployment does not serve this route (it differs from the API contract). Run API › Check Compatibility; the HTTP Request node can reach other routes with this credential.',
	'unsupported-media-type':
		'Your deployment refused the request body\'s media type, also as application/json. Run API › Check Compatibility.',
};

/** 429 and 503: what the node did says whether it waited (more than one attempt) or sent the request once. */
const PASSING_HINTS: Readonly<Record<string, { retried: string; once: string }>> = {
	'rate-limited': {
		retried:
			'The service is rate limiting this client. The node waited and retried; raise "Max Retries" under Request Options or space out executions.',
		once: 'The service is rate limiting this client. The request was sent once and not repeated; raise "Max Retries" under Request Options to let the node wait and retry, or space out executions.',
	},
	unavailable: {
		retried:
			'The service is unavailable or restarting. The node waited and retried; raise "Max Retries" under Request Options, or turn on "Retry On Fail" in the node settings.',
		once: 'The service is unavailable or restarting. The request was sent once and not repeated; raise "Max Retries" under Request Options to let the node wait and retry, or turn on "Retry On Fail" in the node settings.',
	},
};

function hintFor(code: string | undefined, attempts: number): string | undefined {
	if (code === undefined) return undefined;
	if (Object.prototype.hasOwnProperty.call(PASSING_HINTS, code)) {
		return attempts > 1 ? PASSING_HINTS[code].retried : PASSING_HINTS[code].once;
	}
	return Object.prototype.hasOwnProperty.call(HINTS, code) ? HINTS[code] : undefined;
}

interface ApiErrorText {
	title: string;
	detail?: string;
	code?: string;
	status?: string;
	pointer?: string;
}

function clip(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters cut)` : text;
}

/** The first error object of a JSON:API error document, its texts redacted and trimmed. */
export function apiErrorOf(body: unknown, secrets: string[]): ApiErrorText | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const errors = (body as { errors?: unknown }).errors;
	if (!Array.isArray(errors) || errors.length === 0) return undefined;
	const first = errors[0] as Record<string, unknown> | null;
	if (!first || typeof first !== 'object' || typeof first.title !== 'string') return undefined;
	const text = (value: unknown, max: number) => (typeof value === 'string' ? clip(redact(value, secrets), max) : undefined);
	const source = first.source as { pointer?: unknown } | null | undefined;
	return {
		title: text(first.title, MAX_TITLE) ?? '',
		detail: text(first.detail, MAX_DETAIL),
		code: typeof first.code === 'string' ? clip(first.code, 100) : undefined,
		status: typeof first.status === 'string' ? clip(first.status, 10) : undefined,
		pointer: source && typeof source === 'object' ? text(source.pointer, 200) : undefined,
	};
}

function fieldOf(pointer: string | undefined): string | undefined {
	if (!pointer) return undefined;
	return pointer.replace(/^\/data\/attributes\//, '').replace(/\//g, '.');
}

function join(...parts: Array<string | undefined>): string {
	return parts.filter((part) => part !== undefined && part !== '').join(' ');
}

export interface ErrorOptions {
	itemIndex?: number;
	/** Attempts made, first one included. */
	attempts: number;
	/** An earlier attempt failed ambiguously, so the request may have been carried out already. */
	ambiguousEarlier: boolean;
	route: Route;
	secrets: string[];
}

function itemOptions(itemIndex: number | undefined): { itemIndex?: number } {
	return itemIndex === undefined ? {} : { itemIndex };
}

function retryNote(options: ErrorOptions): string | undefined {
	let note: string | undefined;
	if (options.attempts > 1) note = `The request was tried ${options.attempts} times.`;
	if (options.ambiguousEarlier) {
		note = join(
			note,
			'An earlier attempt got no clear answer and may have been carried out, which can explain this answer.',
		);
	}
	return note;
}

/**
 * A NodeApiError with exactly our message: NodeApiError swaps in n8n's generic texts for network codes
 * found in a message, and takes a network code for an HTTP status.
 */
function apiError(
	ctx: ApiContext,
	facts: FailureFacts,
	message: string,
	description: string,
	options: ErrorOptions,
	Kind: typeof NodeApiError = NodeApiError,
	code?: string,
): NodeApiError {
	const error = new Kind(ctx.getNode(), { code: code ?? facts.code ?? 'NETWORK' } as JsonObject, {
		message,
		description,
		httpCode: facts.status === undefined ? undefined : String(facts.status),
		...itemOptions(options.itemIndex),
	});
	error.message = message;
	error.description = description;
	if (facts.status === undefined) error.httpCode = null;
	return error;
}

/** The failure in a few words, from our own texts only (upstream messages may quote request data). */
function failureSummary(facts: FailureFacts, settings: TransportSettings, secrets: string[]): string {
	if (facts.bound === 'too-large') return `the answer was larger than ${formatBytes(settings.maxResponseBytes)}`;
	if (facts.timedOut) return `no complete answer within ${settings.timeout / 1000} seconds`;
	if (facts.garbled) return 'the answer was not JSON';
	if (facts.status !== undefined) {
		const title = apiErrorOf(facts.body, secrets)?.title;
		return title ? `HTTP ${facts.status} ${title}` : `HTTP ${facts.status}`;
	}
	if (facts.code && TIMEOUT_CODES.test(facts.code)) return `no answer within ${settings.timeout / 1000} seconds`;
	if (facts.code && TLS_CODES.test(facts.code)) return `TLS certificate not trusted: ${facts.code}`;
	return facts.code ? `connection failed: ${facts.code}` : 'connection failed';
}

/**
 * Turns a failed request into a NodeApiError that carries the API's own title and detail, and the cause n8n
 * reads (failure.ts failureCauseOf) when it is known.
 */
export function toNodeApiError(
	ctx: ApiContext,
	facts: FailureFacts,
	settings: TransportSettings,
	options: ErrorOptions,
): NodeApiError {
	return declareFailure(describedError(ctx, facts, settings, options), failureCauseOf(facts, apiErrorOf(facts.body, options.secrets)?.code));
}

function describedError(
	ctx: ApiContext,
	facts: FailureFacts,
	settings: TransportSettings,
	options: ErrorOptions,
): NodeApiError {
	const note = retryNote(options);
	const { method, path } = options.route;
	if (facts.canceled) {
		return apiError(ctx, facts, `${method} ${path} was stopped with the execution`, 'The execution was stopped while the request was under way.', options, NodeApiError, 'CANCELED');
	}
	if (facts.bound === 'too-large') {
		return apiError(
			ctx,
			facts,
			`The answer to ${method} ${path} was larger than ${formatBytes(settings.maxResponseBytes)} and was refused`,
			join(
				'Reading stopped at the limit (decompressed size). Raise "Max Response Size (MB)" under Request Options if such answers are expected, or ask for fewer records (Limit).',
				note,
			),
			options,
			NodeApiError,
			'TOO_LARGE',
		);
	}
	const apiErr = apiErrorOf(facts.body, options.secrets);
	if (apiErr) {
		const field = fieldOf(apiErr.pointer);
		const description = join(apiErr.detail, field ? `Field: ${field}.` : '', hintFor(apiErr.code, options.attempts), note);
		// In tool use a 404 of a record says which one, and where a model finds another (execution/toolUse.ts).
		const notFound = facts.status === 404 && isToolUse(ctx.getNode()) ? notFoundInToolUse(path) : undefined;
		const message = notFound ? `${apiErr.title}: ${notFound}` : apiErr.title;
		const error = new NodeApiError(ctx.getNode(), { code: apiErr.code ?? 'API', status: apiErr.status ?? '' } as JsonObject, {
			message,
			description,
			httpCode: String(facts.status ?? apiErr.status),
			...itemOptions(options.itemIndex),
		});
		error.message = message;
		error.description = description;
		return error;
	}
	if (facts.timedOut || (facts.code && TIMEOUT_CODES.test(facts.code))) {
		return apiError(
			ctx,
			facts,
			`The service did not answer ${method} ${path} completely within ${settings.timeout / 1000} seconds`,
			join(
				'The timeout bounds each attempt as a whole: connecting, the headers and the whole body. Raise "Timeout (Seconds)" under Request Options if the service is slow, or "Max Retries" to try more often.',
				note,
			),
			options,
			NodeApiError,
			'ETIMEDOUT_ATTEMPT',
		);
	}
	if (facts.status !== undefined) {
		return apiError(
			ctx,
			facts,
			`The service answered HTTP ${facts.status} without an error document`,
			join(
				'The answer did not follow the API (JSON:API errors). Check the Base URL of the credential: it must be the API host of your deployment.',
				note,
			),
			options,
		);
	}
	if (facts.code && TLS_CODES.test(facts.code)) {
		return apiError(
			ctx,
			facts,
			`The TLS certificate of the service could not be verified (${facts.code})`,
			'Check the Base URL of the credential. If your deployment uses a self-signed or private certificate, turn on "Ignore SSL Issues (Insecure)" in the credential.',
			options,
		);
	}
	return apiError(
		ctx,
		facts,
		facts.code ? `The connection to the service failed (${facts.code})` : 'The connection to the service failed',
		join(
			'The service may be restarting or unreachable. Check the Base URL of the credential; turn on "Retry On Fail" in the node settings to try again later.',
			note,
		),
		options,
	);
}

/** A request that may or may not have been carried out, and was not repeated. */
function ambiguousError(
	ctx: ApiContext,
	facts: FailureFacts,
	settings: TransportSettings,
	options: ErrorOptions,
): AmbiguousRequestError {
	const { method, path } = options.route;
	const error = apiError(
		ctx,
		facts,
		`No clear answer to ${method} ${path} (${failureSummary(facts, settings, options.secrets)}): the request may or may not have been carried out`,
		join(
			'It was sent once and not repeated, because repeating a create that did go through would make a second record.',
			'Check whether the record exists (e.g. with Get Many) before running this item again.',
		),
		options,
		AmbiguousRequestError,
		facts.code ?? (facts.status === undefined ? 'NETWORK' : String(facts.status)),
	) as AmbiguousRequestError;
	return declareFailure(error, failureCauseOf(facts));
}

/** A 2xx answer that is not a JSON document. */
function garbledError(ctx: ApiContext, facts: FailureFacts, options: ErrorOptions): NodeApiError {
	return apiError(
		ctx,
		{ ...facts, status: facts.status ?? 200 },
		'The service answered with something that is not JSON',
		join(
			'Expected a JSON:API document. Check the Base URL of the credential: it must be the API host of your deployment, not its web interface.',
			retryNote(options),
		),
		options,
		NodeApiError,
		'GARBLED',
	);
}

/** A next-page link to another origin: following it would send the token there. */
export function foreignLinkError(ctx: ApiContext, route: Route, origin: string, itemIndex?: number): NodeApiError {
	const message = `The service's link to the next page of ${route.path} points to another origin (${origin}); it was not followed`;
	const description =
		'Links are followed only within the origin of the credential\'s Base URL, so that the access token is never sent anywhere else. Nothing was returned, so that no partial list passes for a complete one.';
	const error = new NodeApiError(ctx.getNode(), { code: 'FOREIGN_LINK' } as JsonObject, {
		message,
		description,
		...itemOptions(itemIndex),
	});
	error.message = message;
	error.description = description;
	error.httpCode = null;
	return declareFailure(error, CONFIGURATION_INVALID);
}

/** A redirect that was not followed: to another origin, from https to http, or too many. */
export function redirectError(
	ctx: ApiContext,
	facts: FailureFacts,
	why: string,
	options: ErrorOptions,
): NodeApiError {
	const { method, path } = options.route;
	const error = apiError(
		ctx,
		facts,
		`The service answered ${method} ${path} with a redirect (HTTP ${facts.status}) ${why}; it was not followed`,
		'Redirects are followed only within the origin of the credential\'s Base URL (same scheme, host and port), so that the access token is never sent anywhere else. Check the Base URL: it must be the API host itself, with https if the service uses it.',
		options,
		NodeApiError,
		'REDIRECT',
	);
	return declareFailure(error, CONFIGURATION_INVALID);
}

function tokenError(ctx: ApiContext, facts: FailureFacts, options: ErrorOptions): NodeApiError {
	const failure = facts.token!;
	const credentialProblem = failure.kind === 'refused';
	const message = tokenMessage(failure);
	const description = noTokenEndpoint(failure)
		? join(
				`The Base URL's token endpoint (<Base URL>/oauth/token) does not exist there (HTTP ${failure.status}), so no API request was made.`,
				'The Base URL must be the API host of your deployment (the "api." subdomain of its web address), with its path prefix if it has one.',
			)
		: credentialProblem
		? join(
				`The token endpoint refused the client (${failure.problem}).`,
				'The Client ID and Secret are generated together in the API section of the web interface; the Base URL must be the API host of the same deployment.',
			)
		: join(
				'The token endpoint of the service (<Base URL>/oauth/token) did not give a usable token, so no API request was made and nothing was stored.',
				failure.kind === 'malformed' || failure.kind === 'redirect'
					? 'Check the Base URL of the credential: it must be the API host of your deployment.'
					: 'The service may be restarting; turn on "Retry On Fail" in the node settings to try again later.',
				retryNote(options),
			);
	return declareFailure(apiError(ctx, facts, message, description, options, NodeApiError, 'TOKEN'), failureCauseOf(facts));
}

/**
 * A request n8n's SSRF protection refused before sending it: the message names the host, the description the
 * n8n settings that allow it; tried once, since no repeat can pass.
 */
function blockedError(ctx: ApiContext, facts: FailureFacts, url: string, options: ErrorOptions): NodeApiError {
	const what = facts.token ? 'token request' : `request ${options.route.method} ${options.route.path}`;
	const { message, description } = egressTexts(facts.blocked!, facts.token?.url ?? url, what);
	const error = apiError(ctx, facts, message, description, options, EgressBlockedError, 'SSRF_BLOCKED');
	return declareFailure(error, failureCauseOf(facts));
}

/**
 * The error a failed request ends with once no adaptation meets it and the retry policy repeats it no more:
 * n8n's SSRF refusal, a token failure, a TLS failure, a request that may have been carried out, a garbled
 * answer, or the service's own error.
 */
export function finalError(
	ctx: ApiContext,
	facts: FailureFacts,
	verdict: Verdict,
	idempotent: boolean,
	url: string,
	settings: TransportSettings,
	options: ErrorOptions,
): NodeApiError {
	if (facts.blocked) return blockedError(ctx, facts, url, options);
	if (facts.token && facts.token.kind !== 'tls') return tokenError(ctx, facts, options);
	if (facts.code && TLS_CODES.test(facts.code)) return toNodeApiError(ctx, facts, settings, options);
	if (verdict === 'ambiguous' && !idempotent) return ambiguousError(ctx, facts, settings, options);
	if (facts.garbled) return garbledError(ctx, facts, options);
	return toNodeApiError(ctx, facts, settings, options);
}
