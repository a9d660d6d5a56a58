/**
 * The OAuth 2.0 client-credentials token request, made by the package itself (the credential's
 * preAuthentication) rather than by n8n's generic OAuth2 client, so that it never follows a redirect,
 * is bounded in time and size, and stores nothing but a usable bearer token. One attempt per call: the
 * transport repeats it under the same rules as every request (TokenRequestError says why it failed).
 */
import type { ICredentialDataDecryptedObject, IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { routes, joinUrl } from '../api/routes';
import { BodyBoundError, discardBody, formatBytes, readBody } from './body';
import { egressRefusalOf, egressTexts } from './egress';
import type { TokenFailure } from './failure';
import { header, noteTokenFailure, TLS_CODES } from './failure';
import { rememberSecret, showUrl } from './secrets';

const headersOf = (headers: unknown): Record<string, unknown> =>
	headers && typeof headers === 'object' ? (headers as Record<string, unknown>) : {};

/** Bounds of one token request: it runs inside n8n's credential code, apart from the node's settings. */
export const TOKEN_TIMEOUT_MS = 30_000;
export const TOKEN_MAX_BYTES = 64 * 1024;

/** RFC 6750 b64token: what may follow "Bearer " in a header. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 8192;

/** Thrown by the token request; n8n wraps it, and the transport finds `tokenFailure` in the cause chain. */
class TokenRequestError extends Error {
	constructor(readonly tokenFailure: TokenFailure) {
		super(tokenMessage(tokenFailure));
	}
}

/** The one text for a failed token request, in workflow runs and in n8n's credential test alike. */
export function tokenMessage(failure: TokenFailure): string {
	if (failure.kind === 'blocked' && failure.refusal) return egressTexts(failure.refusal, failure.url ?? '', 'token request').message;
	if (noTokenEndpoint(failure) && failure.url) {
		return `Could not get an access token: ${failure.url} answered HTTP ${failure.status}, so the Base URL is not the service's API host; check the Base URL in the credential`;
	}
	return failure.kind === 'refused'
		? `Could not get an access token: check your Client ID and Client Secret in the credential (${failure.problem})`
		: `Could not get an access token from the service (${failure.problem})`;
}

/**
 * Whether the token URL is not a token endpoint at all: 404, 405 or 410 without an OAuth error. A token
 * endpoint that refuses a client answers 400 or 401 (RFC 6749 5.2), so these say the Base URL is wrong, not
 * the Client ID or Secret.
 */
export function noTokenEndpoint(failure: TokenFailure): boolean {
	return failure.kind === 'refused' && !failure.oauthError && [404, 405, 410].includes(failure.status ?? 0);
}


function codeOf(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current = error as { code?: unknown; cause?: unknown } | undefined;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		if (typeof current.code === 'string' && /^[A-Z_]+$/.test(current.code)) return current.code;
		current = current.cause as typeof current;
	}
	return undefined;
}

function fail(failure: TokenFailure): never {
	const error = new TokenRequestError(failure);
	noteTokenFailure(error.message, failure);
	throw error;
}

/** The normalised Base URL of a credential, or a failure naming the problem. */
function baseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	const baseUrl = String(credentials.baseUrl ?? '').trim();
	if (!/^https?:\/\/[^/\s?#@]+(\/[^\s?#]*)?$/i.test(baseUrl)) {
		fail({ kind: 'refused', problem: `the Base URL "${showUrl(baseUrl)}" is not an http(s) URL without query or user info` });
	}
	return baseUrl.replace(/\/+$/, '');
}

/**
 * Token requests of this process that are under way, by client (Base URL, Client ID and Secret): the
 * executions that need a token at the same moment share one request instead of each making its own.
 */
const inFlight = new Map<string, Promise<{ accessToken: string }>>();

/**
 * Tokens this process fetched to replace another one, by client and replaced token, for a few minutes:
 * an execution that still holds the replaced token (it read the credential before the renewal) and gets
 * 401 takes the replacement instead of renewing again.
 */
const replacements = new Map<string, { accessToken: string; at: number }>();
const REPLACEMENT_KEPT_MS = 5 * 60_000;
const REPLACEMENTS_KEPT = 100;

/**
 * The last token this process fetched, by client, for a few seconds after it arrived: n8n stores a new token
 * in the credential after the request that fetched it, so an execution that read the credential between the
 * token's arrival and that save has no token yet and would fetch another (seen under load: 3 token requests
 * for 100 executions on 2 workers). It takes this one instead. A caller that holds a token is renewing it
 * and never gets this one.
 */
const fresh = new Map<string, { accessToken: string; at: number }>();
export const FRESH_KEPT_MS = 10_000;

/**
 * Forgets the tokens kept for callers without one, as a new process starts: a new credential store (the
 * tests' harness) must not find a token another one fetched.
 */
export function forgetFetchedTokens(): void {
	fresh.clear();
}

/** Which client a credential is: its Base URL, Client ID and Secret. */
export function clientKey(credentials: ICredentialDataDecryptedObject): string {
	return [credentials.baseUrl, credentials.clientId, credentials.clientSecret].map((part) => String(part ?? '').trim()).join('\n');
}

/**
 * Lets the next caller start a new token request instead of joining the one under way: called when an
 * attempt that may have been waiting for it ran out of time, so that a repeat really asks again.
 */
export function forgetTokenRequest(client: string): void {
	inFlight.delete(client);
}

/**
 * The credential's preAuthentication: a token for the client, shared with any request for the same
 * client under way in this process, or the one that already replaced the token the caller holds.
 */
export async function requestToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken: string }> {
	const client = clientKey(credentials);
	const held = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
	const now = Date.now();
	for (const [key, value] of replacements) {
		if (now - value.at > REPLACEMENT_KEPT_MS) replacements.delete(key);
	}
	for (const [key, value] of fresh) {
		if (now - value.at > FRESH_KEPT_MS) fresh.delete(key);
	}
	if (held !== '') {
		const replacement = replacements.get(`${client}\n${held}`);
		if (replacement) return { accessToken: replacement.accessToken };
	} else {
		const last = fresh.get(client);
		if (last && now - last.at <= FRESH_KEPT_MS) return { accessToken: last.accessToken };
	}
	// A caller that joins the request under way notes its own replacement too: the caller that started it may
	// have held another token (or none), and a later renewal of the token this caller holds must find it.
	const pending = inFlight.get(client);
	const request = pending ?? fetchToken.call(this, credentials);
	if (!pending) inFlight.set(client, request);
	try {
		const result = await request;
		if (!pending) fresh.set(client, { accessToken: result.accessToken, at: Date.now() });
		if (held !== '') {
			replacements.set(`${client}\n${held}`, { accessToken: result.accessToken, at: Date.now() });
			if (replacements.size > REPLACEMENTS_KEPT) replacements.delete(replacements.keys().next().value as string);
		}
		return result;
	} finally {
		if (!pending && inFlight.get(client) === request) inFlight.delete(client);
	}
}

/** One token request: no redirect followed, bounded in time and size, the answer checked. */
async function fetchToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken: string }> {
	const url = joinUrl(baseUrlOf(credentials), routes.token().path);
	const body = new URLSearchParams({
		grant_type: 'client_credentials',
		client_id: String(credentials.clientId ?? ''),
		client_secret: String(credentials.clientSecret ?? ''),
	}).toString();
	const signal = AbortSignal.timeout(TOKEN_TIMEOUT_MS);
	const options: IHttpRequestOptions = {
		method: 'POST',
		url,
		body,
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
		disableFollowRedirect: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		encoding: 'stream',
		timeout: TOKEN_TIMEOUT_MS,
		abortSignal: signal,
	};
	if (credentials.ignoreSSLIssues === true) options.skipSslCertificateValidation = true;

	let response: { statusCode?: number; headers?: unknown; body?: unknown };
	try {
		response = (await this.helpers.httpRequest(options)) as typeof response;
	} catch (error) {
		// n8n refused to send it: no repeat can pass, so it is not a network failure to wait out.
		const refusal = egressRefusalOf(error);
		if (refusal) fail({ kind: 'blocked', problem: 'refused by n8n\'s SSRF protection', refusal, url });
		const code = codeOf(error);
		if (signal.aborted) fail({ kind: 'timeout', problem: `no answer within ${TOKEN_TIMEOUT_MS / 1000} seconds`, code });
		if (code && TLS_CODES.test(code)) fail({ kind: 'tls', problem: `TLS certificate not trusted: ${code}`, code });
		fail({ kind: 'network', problem: code ? `connection failed: ${code}` : 'connection failed', code });
	}
	const status = Number(response.statusCode);
	if (status >= 300 && status < 400) {
		discardBody(response.body);
		const location = header(headersOf(response.headers), 'location');
		let target = 'elsewhere';
		try {
			if (location) target = new URL(location, url).origin;
		} catch {
			target = 'an unreadable location';
		}
		fail({
			kind: 'redirect',
			status,
			problem: `the token endpoint redirected (HTTP ${status}) to ${target}; not followed, so that the client secret is sent nowhere else`,
		});
	}
	let text: string;
	try {
		text = await readBody(response.body, TOKEN_MAX_BYTES, signal);
	} catch (error) {
		if (error instanceof BodyBoundError && error.kind === 'too-large') {
			fail({ kind: 'too-large', status, problem: `the token answer was larger than ${formatBytes(TOKEN_MAX_BYTES)}` });
		}
		fail({ kind: 'timeout', status, problem: `the token answer did not arrive within ${TOKEN_TIMEOUT_MS / 1000} seconds` });
	}
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	const document = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
	const oauthError = typeof document?.error === 'string' && /^[\x20-\x7E]{1,64}$/.test(document.error) ? document.error : undefined;
	if (status === 429 || status >= 500) {
		fail({ kind: 'unavailable', status, retryAfter: header(headersOf(response.headers), 'retry-after'), problem: `HTTP ${status}`, oauthError });
	}
	if (status < 200 || status >= 300) {
		fail({ kind: 'refused', status, oauthError, problem: oauthError ? `HTTP ${status} ${oauthError}` : `HTTP ${status}`, url: showUrl(url) });
	}
	if (!document) {
		fail({ kind: 'malformed', status, problem: json === undefined ? 'the token answer was not JSON' : 'the token answer was not a JSON object' });
	}
	const token = document.access_token;
	if (typeof token !== 'string' || token === '') {
		fail({
			kind: 'malformed',
			status,
			problem:
				token === undefined
					? 'the token answer has no access_token'
					: `the token answer's access_token is ${token === null ? 'null' : Array.isArray(token) ? 'an array' : typeof token === 'string' ? 'empty' : `a ${typeof token}`}, not a token`,
		});
	}
	if (token.length > MAX_TOKEN_LENGTH || !B64TOKEN.test(token)) {
		fail({ kind: 'malformed', status, problem: 'the token answer\'s access_token has characters a bearer token cannot have' });
	}
	const type = document.token_type;
	if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
		fail({ kind: 'malformed', status, problem: `the token answer's token_type is ${JSON.stringify(String(type)).slice(0, 40)}, not Bearer` });
	}
	rememberSecret(token);
	return { accessToken: token };
}
