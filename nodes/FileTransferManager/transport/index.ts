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

/** What the user can tune under a node's Request Options; the defaults are safe for unattended runs. */
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

/** Bounds of the Request Options; a value outside them is an input error, not silently replaced. */
const SETTING_RANGES = {
	timeout: { field: 'Timeout (Seconds)', min: 0.001, max: 3600, integer: false },
	maxRetries: { field: 'Max Retries', min: 0, max: 10, integer: true },
	maxRetryWait: { field: 'Max Wait Between Retries (Seconds)', min: 0, max: 3600, integer: false },
} as const;

/** First backoff step without Retry-After; it doubles per attempt (jittered, capped by maxRetryWait). */
export const BACKOFF_BASE_MS = 500;
const MEDIA_TYPE = 'application/vnd.api+json';

export interface RequestParams {
	body?: IDataObject;
	qs?: IDataObject;
	/** Item the request is made for; named in errors. */
	itemIndex?: number;
	/**
	 * Whether repeating the request after an ambiguous failure (500, 502, 504, dropped connection,
	 * timeout, an answer that is not JSON) is harmless. GET and DELETE always are; PATCH with absolute
	 * values is when the caller says so. POST never is.
	 */
	idempotent?: boolean;
	settings?: Partial<TransportSettings>;
}

/** An ambiguous failure: the request may or may not have been carried out by the server. */
export class AmbiguousRequestError extends NodeApiError {
	readonly ambiguous = true;
}

/** What a failed attempt tells about the request. */
type Verdict =
	/** The server did not carry the request out (429, 503, connection refused): repeating is always safe. */
	| 'not-carried-out'
	/** It may have been carried out (500, 502, 504, broken connection, timeout, garbled answer). */
	| 'ambiguous'
	/** A definite answer (4xx, TLS failure): repeating cannot help. */
	| 'final';

interface FailureFacts {
	status?: number;
	headers: Record<string, unknown>;
	body: unknown;
	/** Network error code (ECONNRESET, ECONNABORTED, ...) when no response came. */
	code?: string;
	message: string;
	/** The OAuth2 token request failed (not the API request). */
	token: boolean;
	/** RFC 6749 error code from the token endpoint (invalid_client, ...). */
	oauthError?: string;
	/** The answer came but was not JSON (token endpoint: answered with another content type). */
	garbled?: boolean;
}

const TLS_CODES =
	/^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_[A-Z_]+|EPROTO)$/;
/** The connection was never made, so nothing was sent. */
const NOT_CONNECTED_CODES = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/;
const TIMEOUT_CODES = /^(ECONNABORTED|ETIMEDOUT|ESOCKETTIMEDOUT)$/;
const CREDENTIAL_ERRORS = /^(invalid_client|unauthorized_client|invalid_grant|invalid_scope|unsupported_grant_type|invalid_request)$/;

/** Digs the HTTP facts out of whatever n8n's request helper threw, without keeping request headers. */
function failureFacts(error: unknown): FailureFacts {
	const seen = new Set<unknown>();
	let current: unknown = error;
	const facts: FailureFacts = { headers: {}, body: undefined, message: '', token: false };
	let response: { status?: unknown; headers?: unknown; data?: unknown } | undefined;
	let status: number | undefined;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as {
			response?: typeof response;
			code?: unknown;
			message?: unknown;
			httpCode?: unknown;
			status?: unknown;
			body?: unknown;
			cause?: unknown;
			name?: unknown;
		};
		if (!response && candidate.response && typeof candidate.response === 'object') {
			response = candidate.response;
		}
		if (typeof candidate.code === 'string') {
			if (!facts.code && (/^E[A-Z_]+$/.test(candidate.code) || TLS_CODES.test(candidate.code))) {
				if (candidate.code !== 'EAUTH' && candidate.code !== 'ESTATUS') facts.code = candidate.code;
			}
			// client-oauth2's errors: EAUTH carries the RFC 6749 error body, ESTATUS an unexpected answer.
			if (candidate.code === 'EAUTH' || candidate.code === 'ESTATUS') facts.token = true;
		}
		if (!facts.message && typeof candidate.message === 'string') facts.message = candidate.message;
		if (typeof candidate.message === 'string' && /acquire OAuth2 access token/i.test(candidate.message)) {
			facts.token = true;
		}
		if (typeof candidate.message === 'string' && /Expected JSON response from OAuth2 token endpoint/i.test(candidate.message)) {
			facts.garbled = true;
		}
		const body = candidate.body as { error?: unknown } | undefined;
		if (!facts.oauthError && body && typeof body === 'object' && typeof body.error === 'string') {
			facts.oauthError = body.error;
		}
		for (const value of [candidate.httpCode, candidate.status]) {
			if (status !== undefined || value === undefined || value === null) continue;
			const parsed = Number(value);
			if (Number.isInteger(parsed) && parsed >= 100 && parsed < 600) status = parsed;
		}
		current = candidate.cause;
	}
	const responseStatus = Number(response?.status);
	facts.status = Number.isInteger(responseStatus) && responseStatus >= 100 ? responseStatus : status;
	facts.headers = (response?.headers as Record<string, unknown>) ?? {};
	facts.body = response?.data;
	return facts;
}

function verdictOf(facts: FailureFacts): Verdict {
	if (facts.code && TLS_CODES.test(facts.code)) return 'final';
	if (facts.token) {
		// A token request creates nothing, so any transient failure of it may be repeated.
		if (facts.oauthError && CREDENTIAL_ERRORS.test(facts.oauthError)) return 'final';
		if (facts.status === 400 || facts.status === 401 || facts.status === 403) return 'final';
		return 'not-carried-out';
	}
	if (facts.status === 429 || facts.status === 503) return 'not-carried-out';
	if (facts.status === 500 || facts.status === 502 || facts.status === 504) return 'ambiguous';
	if (facts.status !== undefined) return 'final';
	if (facts.code && NOT_CONNECTED_CODES.test(facts.code)) return 'not-carried-out';
	return 'ambiguous';
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

/**
 * Milliseconds to wait before repeat number `attempt` (0 for the first repeat): what Retry-After asks
 * when given, else exponential backoff with jitter (between half and all of 500 ms × 2^attempt); never
 * more than maxRetryWait.
 */
export function retryDelayMs(
	attempt: number,
	settings: Pick<TransportSettings, 'maxRetryWait'>,
	retryAfter?: number,
	random: () => number = Math.random,
): number {
	const cap = settings.maxRetryWait * 1000;
	if (retryAfter !== undefined) return Math.min(retryAfter * 1000, cap);
	const exponential = BACKOFF_BASE_MS * 2 ** attempt;
	return Math.min(exponential / 2 + random() * (exponential / 2), cap);
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
		'The service is rate limiting this client. The node already waited and retried; raise "Max Retries" under Request Options or space out executions.',
	unavailable:
		'The service is unavailable or restarting. The node already waited and retried; raise "Max Retries" under Request Options, or turn on "Retry On Fail" in the node settings.',
	unauthorized:
		'The access token was refused, also after fetching a new one. Check the credential: Base URL, Client ID and Client Secret.',
	conflict: 'A record with these values exists already (for users: the e-mail address within the account).',
	'read-only-attribute': 'Only the job status can be changed, and users have no password field in the API.',
};

function fieldOf(pointer: string | undefined): string | undefined {
	if (!pointer) return undefined;
	return pointer.replace(/^\/data\/attributes\//, '').replace(/\//g, '.');
}

function join(...parts: Array<string | undefined>): string {
	return parts.filter((part) => part !== undefined && part !== '').join(' ');
}

/** The failure in a few words, from our own texts only (upstream messages may quote request data). */
function failureSummary(facts: FailureFacts, settings: TransportSettings): string {
	if (facts.garbled) return 'the answer was not JSON';
	if (facts.status !== undefined) {
		const title = apiErrorOf(facts.body)?.title;
		return title ? `HTTP ${facts.status} ${title}` : `HTTP ${facts.status}`;
	}
	if (facts.code && TIMEOUT_CODES.test(facts.code)) {
		return `no answer within ${settings.timeout / 1000} seconds`;
	}
	if (facts.code && TLS_CODES.test(facts.code)) return `TLS certificate not trusted: ${facts.code}`;
	return facts.code ? `connection failed: ${facts.code}` : 'connection failed';
}

interface ErrorOptions {
	itemIndex?: number;
	/** Attempts made, first one included. */
	attempts: number;
	/** An earlier attempt failed ambiguously, so the request may have been carried out already. */
	ambiguousEarlier: boolean;
	route: Route;
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

/** Turns a failed request into a NodeApiError that carries the API's own title and detail. */
function toNodeApiError(
	ctx: ApiContext,
	facts: FailureFacts,
	settings: TransportSettings,
	options: ErrorOptions,
): NodeApiError {
	const node = ctx.getNode();
	const apiError = apiErrorOf(facts.body);
	const note = retryNote(options);
	if (apiError) {
		const field = fieldOf(apiError.source?.pointer);
		const description = join(apiError.detail, field ? `Field: ${field}.` : '', HINTS[apiError.code], note);
		return new NodeApiError(node, { code: apiError.code, status: apiError.status } as JsonObject, {
			message: apiError.title,
			description,
			httpCode: String(facts.status ?? apiError.status),
			...itemOptions(options.itemIndex),
		});
	}
	let message: string;
	let description: string;
	if (facts.status !== undefined) {
		message = `The service answered HTTP ${facts.status} without an error document`;
		description =
			'The answer did not follow the API (JSON:API errors). Check the Base URL of the credential: it must be the API host of your deployment.';
	} else if (facts.code && TIMEOUT_CODES.test(facts.code)) {
		message = `The service did not answer within ${settings.timeout / 1000} seconds`;
		description =
			'Raise "Timeout (Seconds)" under Request Options if the service is slow, or "Max Retries" to try more often.';
	} else if (facts.code && TLS_CODES.test(facts.code)) {
		message = `The TLS certificate of the service could not be verified (${facts.code})`;
		description =
			'Check the Base URL of the credential. If your deployment uses a self-signed or private certificate, turn on "Ignore SSL Issues (Insecure)" in the credential.';
	} else {
		message = facts.code
			? `The connection to the service failed (${facts.code})`
			: 'The connection to the service failed';
		description =
			'The service may be restarting or unreachable. Check the Base URL of the credential; turn on "Retry On Fail" in the node settings to try again later.';
	}
	const error = new NodeApiError(node, { code: facts.code ?? 'NETWORK' } as JsonObject, {
		message,
		description: join(description, note),
		httpCode: facts.status === undefined ? undefined : String(facts.status),
		...itemOptions(options.itemIndex),
	});
	// NodeApiError swaps in n8n's generic text for network codes; ours says what happened.
	error.message = message;
	// Without an HTTP status NodeApiError takes the network code for one.
	if (facts.status === undefined) error.httpCode = null;
	return error;
}

/** A request that may or may not have been carried out, and was not repeated. */
function ambiguousError(
	ctx: ApiContext,
	facts: FailureFacts,
	settings: TransportSettings,
	options: ErrorOptions,
): AmbiguousRequestError {
	const { method, path } = options.route;
	const message = `No clear answer to ${method} ${path} (${failureSummary(facts, settings)}): the request may or may not have been carried out`;
	const error = new AmbiguousRequestError(
		ctx.getNode(),
		{ code: facts.code ?? (facts.status === undefined ? 'NETWORK' : String(facts.status)) } as JsonObject,
		{
			message,
			description: join(
				'It was sent once and not repeated, because repeating a create that did go through would make a second record.',
				'Check whether the record exists (e.g. with Get Many) before running this item again.',
			),
			httpCode: facts.status === undefined ? undefined : String(facts.status),
			...itemOptions(options.itemIndex),
		},
	);
	error.message = message;
	// Without an HTTP status NodeApiError takes the network code for one.
	if (facts.status === undefined) error.httpCode = null;
	return error;
}

function tokenError(ctx: ApiContext, facts: FailureFacts, settings: TransportSettings, options: ErrorOptions): NodeApiError {
	const credentialProblem =
		(facts.oauthError !== undefined && CREDENTIAL_ERRORS.test(facts.oauthError)) ||
		facts.status === 400 ||
		facts.status === 401 ||
		facts.status === 403;
	const message = credentialProblem
		? 'Could not get an access token: check your Client ID and Client Secret in the credential'
		: `Could not get an access token from the service (${failureSummary(facts, settings)})`;
	const description = credentialProblem
		? join(
				facts.oauthError ? `The token endpoint refused the client (${facts.oauthError}).` : undefined,
				'The Client ID and Secret are generated together in the API section of the web interface; the Base URL must be the API host of the same deployment.',
			)
		: join(
				'The token endpoint of the service (<Base URL>/oauth/token) did not give a token, so no API request was made.',
				'The service may be restarting; turn on "Retry On Fail" in the node settings to try again later.',
				retryNote(options),
			);
	const error = new NodeApiError(ctx.getNode(), { failure: 'token-request' } as JsonObject, {
		message,
		description,
		httpCode: facts.status === undefined ? undefined : String(facts.status),
		...itemOptions(options.itemIndex),
	});
	error.message = message;
	// Without an HTTP status NodeApiError takes the network code for one.
	if (facts.status === undefined) error.httpCode = null;
	return error;
}

/** Removes anything that looks like a bearer token or a client secret from a text. */
export function redact(text: string): string {
	return text
		.replace(/Bearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]')
		.replace(/(client_secret|access_token|refresh_token)=([^&\s]+)/gi, '$1=[redacted]')
		.replace(/("(?:client_secret|access_token|refresh_token)"\s*:\s*)"[^"]*"/gi, '$1"[redacted]"');
}

function isJsonApiBody(body: unknown): boolean {
	return body !== null && typeof body === 'object';
}

function invalidSetting(ctx: ApiContext, field: string, problem: string, itemIndex?: number): NodeOperationError {
	const item = itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
	return new NodeOperationError(ctx.getNode(), `"Request Options → ${field}" ${problem}${item}`, {
		description: 'Nothing was sent. Leave the option out to use its default.',
		...itemOptions(itemIndex),
	});
}

interface Connection {
	baseUrl: string;
	/** The user turned on "Ignore SSL Issues" in the credential. */
	skipTls: boolean;
}

/**
 * The credential's connection settings, read once per node context (one execution of the node, one poll,
 * one list search): n8n resolves and decrypts a credential on every read, and its OAuth2 path reads it
 * again per request anyway.
 */
const connections = new WeakMap<ApiContext, Connection>();

async function connectionOf(ctx: ApiContext, itemIndex?: number): Promise<Connection> {
	const known = connections.get(ctx);
	if (known) return known;
	const connection = await readConnection(ctx, itemIndex);
	connections.set(ctx, connection);
	return connection;
}

async function readConnection(ctx: ApiContext, itemIndex?: number): Promise<Connection> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const baseUrl = String(credentials.baseUrl ?? '').trim();
	if (!/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/i.test(baseUrl)) {
		const item = itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential's Base URL "${baseUrl}" is not an http(s) URL${item}`,
			{
				description:
					'Set Base URL to the API host of your deployment, with its scheme, e.g. https://api.acme.example.com (a path prefix such as https://api.acme.example.com/v2/ is fine). Nothing was sent.',
				...itemOptions(itemIndex),
			},
		);
	}
	return { baseUrl, skipTls: credentials.ignoreSSLIssues === true };
}

/** The node's "Request Options" collection, where it has one; out-of-range values are input errors. */
export function settingsFromNode(ctx: ApiContext, itemIndex?: number): Partial<TransportSettings> {
	let raw: IDataObject;
	try {
		raw =
			'getInputData' in ctx
				? ((ctx as IExecuteFunctions).getNodeParameter('requestOptions', itemIndex ?? 0, {}) as IDataObject)
				: ((ctx as IPollFunctions).getNodeParameter('requestOptions', {}) as IDataObject);
	} catch {
		return {};
	}
	if (!raw || typeof raw !== 'object') return {};
	const settings: Partial<TransportSettings> = {};
	for (const key of Object.keys(SETTING_RANGES) as Array<keyof typeof SETTING_RANGES>) {
		const value = raw[key];
		if (value === undefined || value === null || value === '') continue;
		const range = SETTING_RANGES[key];
		const number = typeof value === 'string' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isFinite(number)) {
			throw invalidSetting(ctx, range.field, `must be a number, got ${JSON.stringify(value)}`, itemIndex);
		}
		if (number < range.min || number > range.max || (range.integer && !Number.isInteger(number))) {
			const kind = range.integer ? 'a whole number' : 'a number';
			const lower = key === 'timeout' ? 'above 0' : `from ${range.min}`;
			throw invalidSetting(
				ctx,
				range.field,
				`must be ${kind} ${lower} to ${range.max}, got ${JSON.stringify(value)}`,
				itemIndex,
			);
		}
		settings[key] = key === 'timeout' ? number * 1000 : number;
	}
	return settings;
}

/**
 * Sends one API request with the credential, repeating it only when that is safe: 429 and 503 always
 * (the server did not carry them out), other faults only for idempotent requests. 401 is handled by
 * n8n's OAuth2 path (one new token, one repeat).
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
	const { baseUrl, skipTls } = await connectionOf(ctx, params.itemIndex);
	const idempotent = params.idempotent ?? (route.method === 'GET' || route.method === 'DELETE');
	const options: IHttpRequestOptions = {
		method: route.method,
		url: joinUrl(baseUrl, route.path),
		headers: { Accept: MEDIA_TYPE },
		json: true,
		timeout: settings.timeout,
	};
	if (skipTls) options.skipSslCertificateValidation = true;
	if (params.qs && Object.keys(params.qs).length > 0) options.qs = params.qs;
	if (params.body !== undefined) {
		options.body = params.body;
		options.headers = { ...options.headers, 'Content-Type': MEDIA_TYPE };
	}

	let ambiguousEarlier = false;
	for (let attempt = 0; ; attempt++) {
		let facts: FailureFacts;
		try {
			const response: unknown = await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, {
				...options,
				headers: { ...options.headers },
			});
			if (route.method === 'DELETE' && (response === '' || response === undefined)) {
				return undefined as T;
			}
			if (isJsonApiBody(response)) return response as T;
			// A 2xx answer that is not JSON (a proxy's maintenance page, a cut-off body): the request
			// may have been carried out.
			facts = { status: undefined, headers: {}, body: undefined, message: '', token: false, garbled: true };
		} catch (error) {
			facts = failureFacts(error);
		}

		const verdict = facts.garbled && !facts.token ? 'ambiguous' : verdictOf(facts);
		const errorOptions: ErrorOptions = {
			itemIndex: params.itemIndex,
			attempts: attempt + 1,
			ambiguousEarlier,
			route,
		};
		const canRepeat = verdict === 'not-carried-out' || (verdict === 'ambiguous' && idempotent);
		if (canRepeat && attempt < settings.maxRetries) {
			const after = verdict === 'not-carried-out' ? retryAfterSeconds(header(facts.headers, 'retry-after')) : undefined;
			await sleep(retryDelayMs(attempt, settings, after));
			if (verdict === 'ambiguous') ambiguousEarlier = true;
			continue;
		}
		// A DELETE repeated after an unclear answer finds the record gone: the earlier attempt did it.
		if (ambiguousEarlier && route.method === 'DELETE' && facts.status === 404) {
			return undefined as T;
		}
		if (facts.code && TLS_CODES.test(facts.code)) throw toNodeApiError(ctx, facts, settings, errorOptions);
		if (facts.token) throw tokenError(ctx, facts, settings, errorOptions);
		if (verdict === 'ambiguous' && !idempotent) throw ambiguousError(ctx, facts, settings, errorOptions);
		if (facts.garbled) {
			const error = new NodeApiError(ctx.getNode(), { status: 200 } as JsonObject, {
				message: 'The service answered with something that is not JSON',
				description: join(
					'Expected a JSON:API document. Check the Base URL of the credential: it must be the API host of your deployment, not its web interface.',
					retryNote(errorOptions),
				),
				...itemOptions(params.itemIndex),
			});
			error.message = 'The service answered with something that is not JSON';
			throw error;
		}
		throw toNodeApiError(ctx, facts, settings, errorOptions);
	}
}

export interface PageOptions<T = unknown, U = T> {
	/** Stop once this many records are collected; undefined for all. */
	limit?: number;
	itemIndex?: number;
	settings?: Partial<TransportSettings>;
	/** Turns each record into what is kept, page by page, so that the raw pages need not all stay in memory. */
	map?: (record: T) => U;
}

/**
 * Follows `meta.page.after` cursors. Requests pages of 100 (or fewer when a limit is near) and stops as
 * soon as it has enough. A cursor seen twice, or a page that brings no new record, stops with an error
 * instead of looping; a page that fails after its retries fails the whole list (never a partial one).
 */
export async function apiRequestAllItems<T, U = T>(
	ctx: ApiContext,
	route: Route,
	qs: IDataObject = {},
	options: PageOptions<T, U> = {},
): Promise<U[]> {
	const map = options.map ?? ((record: T) => record as unknown as U);
	const results: U[] = [];
	const cursors = new Set<string>();
	const ids = new Set<string>();
	let after: string | null = null;
	const stop = (description: string) =>
		new NodeOperationError(
			ctx.getNode(),
			`The service returned a page that does not advance; stopped to avoid an endless loop${
				options.itemIndex === undefined ? '' : ` [item ${options.itemIndex}]`
			}`,
			{
				description: `${description} Nothing was returned, so that no partial list passes for a complete one.`,
				...itemOptions(options.itemIndex),
			},
		);
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
				...itemOptions(options.itemIndex),
			});
		}
		let fresh = 0;
		for (const record of page.data) {
			const id = (record as { id?: unknown })?.id;
			if (typeof id !== 'string' || !ids.has(id)) fresh++;
			if (typeof id === 'string') ids.add(id);
			if (options.limit !== undefined && results.length >= options.limit) continue;
			results.push(map(record));
		}
		const next = page.meta.page.after;
		if (next === null || next === undefined) break;
		if (options.limit !== undefined && results.length >= options.limit) break;
		if (cursors.has(next)) {
			throw stop(`Cursor "${next}" came back after ${results.length} records.`);
		}
		if (fresh === 0) {
			throw stop(
				page.data.length === 0
					? `An empty page still pointed to a next page after ${results.length} records.`
					: `A page repeated records already listed, after ${results.length} records.`,
			);
		}
		cursors.add(next);
		after = next;
	}
	return results;
}
