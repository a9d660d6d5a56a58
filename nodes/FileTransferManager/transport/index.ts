import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiErrorObject, ListDocument } from '../api/types';
import { PAGE_LIMIT_MAX } from '../api/types';
import type { Route } from '../api/routes';
import { joinUrl } from '../api/routes';

export const CREDENTIAL_TYPE = 'fileTransferManagerOAuth2Api';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** What the user can tune under a node's Options; the defaults are safe for unattended runs. */
export interface TransportSettings {
	/** Milliseconds before a request is abandoned. */
	timeout: number;
	/** Repeats after the first attempt, for faults that allow a repeat. */
	maxRetries: number;
	/** Longest wait between attempts, in seconds, whatever Retry-After says. */
	maxRetryWait: number;
}

export const DEFAULT_TRANSPORT: TransportSettings = {
	timeout: 30_000,
	maxRetries: 3,
	maxRetryWait: 60,
};

const BACKOFF_BASE_MS = 500;
const MEDIA_TYPE = 'application/vnd.api+json';

export interface RequestParams {
	body?: IDataObject;
	qs?: IDataObject;
	/** Item the request is made for; named in errors. */
	itemIndex?: number;
	/**
	 * Whether repeating the request after an ambiguous failure (500, 502, dropped connection, timeout)
	 * is harmless. GET and DELETE always are; PATCH with absolute values is when the caller says so.
	 * POST never is.
	 */
	idempotent?: boolean;
	settings?: Partial<TransportSettings>;
}

/** An ambiguous failure: the request may or may not have been carried out by the server. */
export class AmbiguousRequestError extends NodeApiError {
	readonly ambiguous = true;
}

interface ResponseLike {
	status?: number;
	headers?: Record<string, unknown>;
	data?: unknown;
}

interface FailureFacts {
	status?: number;
	headers: Record<string, unknown>;
	body: unknown;
	/** Network error code (ECONNRESET, ECONNABORTED, ...) when no response came. */
	code?: string;
	message: string;
}


/** Digs the HTTP facts out of whatever n8n's request helper threw, without keeping request headers. */
function failureFacts(error: unknown): FailureFacts {
	const seen = new Set<unknown>();
	let current: unknown = error;
	let response: ResponseLike | undefined;
	let code: string | undefined;
	let message = '';
	let httpCode: number | undefined;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as {
			response?: ResponseLike;
			code?: unknown;
			message?: unknown;
			httpCode?: unknown;
			cause?: unknown;
		};
		if (!response && candidate.response && typeof candidate.response === 'object') {
			response = candidate.response;
		}
		if (!code && typeof candidate.code === 'string' && /^E[A-Z_]+$/.test(candidate.code)) {
			code = candidate.code;
		}
		if (!message && typeof candidate.message === 'string') message = candidate.message;
		if (httpCode === undefined && candidate.httpCode !== undefined && candidate.httpCode !== null) {
			const parsed = Number(candidate.httpCode);
			if (Number.isInteger(parsed) && parsed >= 100) httpCode = parsed;
		}
		current = candidate.cause;
	}
	return {
		status: response?.status ?? httpCode,
		headers: (response?.headers as Record<string, unknown>) ?? {},
		body: response?.data,
		code,
		message,
	};
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return undefined;
}

/** Seconds to wait from a Retry-After header (delta-seconds or HTTP date), if it has one. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds;
	const date = Date.parse(value);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, (date - now) / 1000);
}

function backoffMs(attempt: number, settings: TransportSettings): number {
	const exponential = BACKOFF_BASE_MS * 2 ** attempt;
	const jittered = exponential / 2 + Math.random() * (exponential / 2);
	return Math.min(jittered, settings.maxRetryWait * 1000);
}

function apiErrorOf(body: unknown): ApiErrorObject | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const errors = (body as { errors?: unknown }).errors;
	if (!Array.isArray(errors) || errors.length === 0) return undefined;
	const first = errors[0] as Partial<ApiErrorObject>;
	if (typeof first?.title !== 'string') return undefined;
	return first as ApiErrorObject;
}

const HINTS: Partial<Record<string, string>> = {
	'entity-not-found':
		'Check the ID: the record may have been deleted, or it belongs to an account this client cannot see.',
	'invalid-status-transition':
		'Jobs move scanning → running → finished. Pause works while scanning, running or stuck; Resume only on a paused job; Cancel on any job that is not finished, failed or canceled.',
	'rate-limited':
		'The service is rate limiting this client. The node already waited and retried; raise "Max Retries" under Options or space out executions.',
	unauthorized:
		'The access token was refused. Check the credential: Base URL, Client ID and Client Secret.',
	conflict: 'A record with these values exists already (for users: the e-mail address within the account).',
	'read-only-attribute': 'Only the job status can be changed, and users have no password field in the API.',
};

function fieldOf(pointer: string | undefined): string | undefined {
	if (!pointer) return undefined;
	return pointer.replace(/^\/data\/attributes\//, '').replace(/\//g, '.');
}

/** Turns a failed request into a NodeApiError that carries the API's own title and detail. */
function toNodeApiError(
	ctx: ApiContext,
	facts: FailureFacts,
	itemIndex: number | undefined,
	ErrorClass: typeof NodeApiError = NodeApiError,
): NodeApiError {
	const node = ctx.getNode();
	const apiError = apiErrorOf(facts.body);
	const itemOptions = itemIndex === undefined ? {} : { itemIndex };
	if (apiError) {
		const field = fieldOf(apiError.source?.pointer);
		const hint = HINTS[apiError.code];
		const description = [apiError.detail, field ? `Field: ${field}.` : '', hint ?? '']
			.filter((part) => part !== '')
			.join(' ');
		return new ErrorClass(node, { code: apiError.code, status: apiError.status } as JsonObject, {
			message: apiError.title,
			description,
			httpCode: String(facts.status ?? apiError.status),
			...itemOptions,
		});
	}
	if (facts.status !== undefined) {
		return new ErrorClass(node, { status: facts.status } as JsonObject, {
			message: `The service answered HTTP ${facts.status} without an error document`,
			description:
				'The answer did not follow the API (JSON:API errors). Check the Base URL of the credential: it must be the API host of your deployment.',
			httpCode: String(facts.status),
			...itemOptions,
		});
	}
	return new ErrorClass(node, { code: facts.code ?? 'NETWORK' } as JsonObject, {
		message: facts.code
			? `The request to the service failed (${facts.code})`
			: 'The request to the service failed',
		description: facts.message ? redact(facts.message) : undefined,
		...itemOptions,
	});
}

/** Removes anything that looks like a bearer token or a client secret from a text. */
export function redact(text: string): string {
	return text
		.replace(/Bearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]')
		.replace(/(client_secret|access_token)=([^&\s]+)/gi, '$1=[redacted]');
}

function tokenFailure(ctx: ApiContext, facts: FailureFacts, itemIndex?: number): NodeApiError | undefined {
	if (!/acquire OAuth2 access token|invalid_client|unsupported_grant_type|invalid_request/i.test(facts.message)) {
		return undefined;
	}
	return new NodeApiError(ctx.getNode(), { failure: 'token-request' } as JsonObject, {
		message: 'Could not get an access token: check the Client ID and Client Secret of the credential',
		description: redact(facts.message),
		httpCode: facts.status === undefined ? undefined : String(facts.status),
		...(itemIndex === undefined ? {} : { itemIndex }),
	});
}

function isJsonApiBody(body: unknown): boolean {
	return body !== null && typeof body === 'object';
}

async function baseUrlOf(ctx: ApiContext, itemIndex?: number): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const baseUrl = String(credentials.baseUrl ?? '').trim();
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential's Base URL "${baseUrl}" is not an http(s) URL`,
			{
				description:
					'Set Base URL to the API host of your deployment, with its scheme, e.g. https://api.acme.example.com',
				...(itemIndex === undefined ? {} : { itemIndex }),
			},
		);
	}
	return baseUrl;
}

/** The node's "Request Options" collection, where it has one. */
export function settingsFromNode(ctx: ApiContext, itemIndex?: number): Partial<TransportSettings> {
	let raw: IDataObject = {};
	try {
		raw =
			'getInputData' in ctx
				? ((ctx as IExecuteFunctions).getNodeParameter('requestOptions', itemIndex ?? 0, {}) as IDataObject)
				: ((ctx as IPollFunctions).getNodeParameter('requestOptions', {}) as IDataObject);
	} catch {
		return {};
	}
	const settings: Partial<TransportSettings> = {};
	if (typeof raw.timeout === 'number' && raw.timeout > 0) settings.timeout = raw.timeout * 1000;
	if (typeof raw.maxRetries === 'number' && raw.maxRetries >= 0) settings.maxRetries = raw.maxRetries;
	if (typeof raw.maxRetryWait === 'number' && raw.maxRetryWait >= 0) settings.maxRetryWait = raw.maxRetryWait;
	return settings;
}

/**
 * Sends one API request with the credential, repeating it only when that is safe: 429 and 503 always
 * (the server did not carry them out), other faults only for idempotent requests.
 */
export async function apiRequest<T = IDataObject>(
	ctx: ApiContext,
	route: Route,
	params: RequestParams = {},
): Promise<T> {
	const settings: TransportSettings = {
		...DEFAULT_TRANSPORT,
		...(params.settings ?? settingsFromNode(ctx, params.itemIndex)),
	};
	const baseUrl = await baseUrlOf(ctx, params.itemIndex);
	const idempotent = params.idempotent ?? (route.method === 'GET' || route.method === 'DELETE');
	const options: IHttpRequestOptions = {
		method: route.method,
		url: joinUrl(baseUrl, route.path),
		headers: { Accept: MEDIA_TYPE },
		json: true,
		timeout: settings.timeout,
	};
	if (params.qs && Object.keys(params.qs).length > 0) options.qs = params.qs;
	if (params.body !== undefined) {
		options.body = params.body;
		options.headers = { ...options.headers, 'Content-Type': MEDIA_TYPE };
	}

	for (let attempt = 0; ; attempt++) {
		let response: unknown;
		try {
			response = await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, {
				...options,
				headers: { ...options.headers },
			});
		} catch (error) {
			const facts = failureFacts(error);
			const token = tokenFailure(ctx, facts, params.itemIndex);
			if (token) throw token;

			const notCarriedOut = facts.status === 429 || facts.status === 503;
			const ambiguous =
				facts.status === undefined
					? true
					: facts.status === 500 || facts.status === 502 || facts.status === 504;
			const canRepeat = notCarriedOut || (ambiguous && idempotent);
			if (canRepeat && attempt < settings.maxRetries) {
				const after = retryAfterSeconds(header(facts.headers, 'retry-after'));
				const waitMs =
					notCarriedOut && after !== undefined
						? Math.min(after, settings.maxRetryWait) * 1000
						: backoffMs(attempt, settings);
				await sleep(waitMs);
				continue;
			}
			// A DELETE repeated after an ambiguous failure finds the record gone: the first attempt did it.
			if (attempt > 0 && route.method === 'DELETE' && facts.status === 404) {
				return undefined as T;
			}
			if (ambiguous && !idempotent) {
				throw toNodeApiError(ctx, facts, params.itemIndex, AmbiguousRequestError);
			}
			throw toNodeApiError(ctx, facts, params.itemIndex);
		}
		if (route.method === 'DELETE' && (response === '' || response === undefined)) {
			return undefined as T;
		}
		if (!isJsonApiBody(response)) {
			const malformed = {
				status: 200,
				headers: {},
				body: undefined,
				message: '',
			};
			if (idempotent && attempt < settings.maxRetries) {
				await sleep(backoffMs(attempt, settings));
				continue;
			}
			const error = toNodeApiError(ctx, malformed, params.itemIndex);
			error.message = 'The service answered with something that is not JSON';
			error.description =
				'Expected a JSON:API document. Check the Base URL of the credential: it must be the API host of your deployment, not its web interface.';
			throw error;
		}
		return response as T;
	}
}

export interface PageOptions {
	/** Stop once this many records are collected; undefined for all. */
	limit?: number;
	itemIndex?: number;
	settings?: Partial<TransportSettings>;
}

/**
 * Follows `meta.page.after` cursors. Requests pages of 100 (or fewer when a limit is near) and stops as
 * soon as it has enough; a cursor seen twice stops with an error instead of looping.
 */
export async function apiRequestAllItems<T>(
	ctx: ApiContext,
	route: Route,
	qs: IDataObject = {},
	options: PageOptions = {},
): Promise<T[]> {
	const results: T[] = [];
	const seen = new Set<string>();
	let after: string | null = null;
	for (;;) {
		const remaining = options.limit === undefined ? PAGE_LIMIT_MAX : options.limit - results.length;
		if (remaining <= 0) break;
		const pageQs: IDataObject = { ...qs, 'page[limit]': Math.min(PAGE_LIMIT_MAX, remaining) };
		if (after !== null) pageQs['page[after]'] = after;
		const page = await apiRequest<ListDocument<T>>(ctx, route, {
			qs: pageQs,
			itemIndex: options.itemIndex,
			settings: options.settings,
		});
		if (!Array.isArray(page.data) || !page.meta?.page) {
			throw new NodeOperationError(ctx.getNode(), 'The service answered a list without data or meta.page', {
				...(options.itemIndex === undefined ? {} : { itemIndex: options.itemIndex }),
			});
		}
		for (const record of page.data) {
			if (options.limit !== undefined && results.length >= options.limit) break;
			results.push(record);
		}
		const next = page.meta.page.after;
		if (next === null || next === undefined) break;
		if (seen.has(next) || (page.data.length === 0 && options.limit === undefined)) {
			throw new NodeOperationError(
				ctx.getNode(),
				'The service returned a page cursor that does not advance; stopped to avoid an endless loop',
				{
					description: `Cursor "${next}" came back after ${results.length} records. Nothing was returned, so that no partial list passes for a complete one.`,
					...(options.itemIndex === undefined ? {} : { itemIndex: options.itemIndex }),
				},
			);
		}
		seen.add(next);
		after = next;
	}
	return results;
}
