/**
 * What a failed attempt tells about the request: the facts dug out of whatever n8n's request helper
 * threw, the verdict on whether repeating it is safe, and the cause n8n reads on the error (its section at
 * the end).
 */
import { BodyBoundError, readBody } from './body';
import type { EgressRefusal } from './egress';
import { egressRefusalOf } from './egress';
import type { FailureCause, TimedCause } from '../execution/declareFailure';
import { CONFIGURATION_INVALID } from '../execution/declareFailure';

/** What a failed token request tells (token.ts makes the request). */
export type TokenFailureKind =
	| 'refused'
	| 'unavailable'
	| 'redirect'
	| 'malformed'
	| 'timeout'
	| 'too-large'
	| 'network'
	| 'tls'
	/** n8n's SSRF protection refused to send it (egress.ts). */
	| 'blocked';

export interface TokenFailure {
	kind: TokenFailureKind;
	/** What went wrong, in our words only (never the answer's text). */
	problem: string;
	status?: number;
	retryAfter?: string;
	/** RFC 6749 error code (invalid_client, ...), when the endpoint gave one. */
	oauthError?: string;
	code?: string;
	/** What n8n's SSRF protection refused, and the URL it refused, for `blocked`. */
	refusal?: EgressRefusal;
	url?: string;
}

/** What a failed attempt tells about the request. */
export type Verdict =
	/** The server did not carry the request out (429, 503, connection refused): repeating is always safe. */
	| 'not-carried-out'
	/** It may have been carried out (500, 502, 504, broken connection, timeout, garbled answer). */
	| 'ambiguous'
	/** A definite answer (4xx, TLS failure, a refused redirect, n8n's SSRF refusal): repeating cannot help. */
	| 'final';

export interface FailureFacts {
	status?: number;
	headers: Record<string, unknown>;
	/** The answer's body, parsed when it was JSON, else its text (bounded). */
	body: unknown;
	/** Network error code (ECONNRESET, ECONNABORTED, ...) when no response came. */
	code?: string;
	/** The token request failed (not the API request). */
	token?: TokenFailure;
	/** A 2xx answer that was not a JSON document. */
	garbled?: boolean;
	/** The answer broke a bound while being read. */
	bound?: BodyBoundError['kind'];
	/** The attempt's deadline passed. */
	timedOut?: boolean;
	/** The execution was stopped. */
	canceled?: boolean;
	/** n8n's SSRF protection refused to send the request (or its token request): nothing was sent. */
	blocked?: EgressRefusal;
}

export const TLS_CODES =
	/^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_[A-Z_]+|EPROTO)$/;
/** The connection was never made, so nothing was sent. */
const NOT_CONNECTED_CODES = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/;
export const TIMEOUT_CODES = /^(ECONNABORTED|ETIMEDOUT|ESOCKETTIMEDOUT)$/;

/**
 * The latest token failures of this process, by the message they were thrown with. n8n 1.x wraps the
 * thrown error in a NodeApiError that keeps its message but not the error itself (its `cause` is
 * cleared), so the transport finds the failure again by that message.
 */
const tokenFailures = new Map<string, TokenFailure>();
const TOKEN_FAILURES_KEPT = 50;

/** Called by the token request as it fails. */
export function noteTokenFailure(message: string, failure: TokenFailure): void {
	tokenFailures.delete(message);
	tokenFailures.set(message, failure);
	if (tokenFailures.size > TOKEN_FAILURES_KEPT) tokenFailures.delete(tokenFailures.keys().next().value as string);
}

/** A token failure named by an error's message, or by one of the messages n8n collected on it. */
function tokenFailureByMessage(error: { message?: unknown; messages?: unknown }): TokenFailure | undefined {
	const messages = [error.message, ...(Array.isArray(error.messages) ? error.messages : [])];
	for (const message of messages) {
		const failure = typeof message === 'string' ? tokenFailures.get(message) : undefined;
		if (failure) return failure;
	}
	return undefined;
}

/**
 * The answer n8n 1.x keeps on the NodeApiError it throws for an HTTP error: it drops the request error
 * (`cause`) and with it `response`, but keeps the answer's body under `context.data`; with
 * `encoding: 'stream'` that body is the response stream itself, which carries the status and headers.
 */
function keptResponseOf(data: unknown): { status?: unknown; headers?: unknown; data?: unknown } | undefined {
	if (!data || typeof data !== 'object') return undefined;
	const stream = data as { statusCode?: unknown; headers?: unknown; pipe?: unknown };
	if (typeof stream.pipe !== 'function' || typeof stream.statusCode !== 'number') return undefined;
	if (!stream.headers || typeof stream.headers !== 'object') return undefined;
	return { status: stream.statusCode, headers: stream.headers, data };
}

export function parseJson(text: string): unknown {
	// A test for any non-blank character, not a trimmed copy of a page of 100 records.
	if (!/\S/.test(text)) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/**
 * Digs the HTTP facts out of whatever n8n's request helper threw, without keeping request headers; an
 * error body still streaming is read within the attempt's bounds.
 */
export async function failureFacts(
	error: unknown,
	maxBytes: number,
	signal: AbortSignal,
	/** Told the status and headers as soon as they are known, before the body is read. */
	onHeaders?: (status: number | undefined, headers: Record<string, unknown>) => void,
): Promise<FailureFacts> {
	const seen = new Set<unknown>();
	let current: unknown = error;
	const facts: FailureFacts = { headers: {}, body: undefined };
	let response: { status?: unknown; headers?: unknown; data?: unknown } | undefined;
	let status: number | undefined;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as {
			response?: typeof response;
			code?: unknown;
			httpCode?: unknown;
			status?: unknown;
			cause?: unknown;
			tokenFailure?: TokenFailure;
			message?: unknown;
			messages?: unknown;
			context?: { data?: unknown };
		};
		if (!facts.token && candidate.tokenFailure && typeof candidate.tokenFailure === 'object') {
			facts.token = candidate.tokenFailure;
		}
		facts.token ??= tokenFailureByMessage(candidate);
		if (!response && candidate.response && typeof candidate.response === 'object') {
			response = candidate.response;
		}
		response ??= keptResponseOf(candidate.context?.data);
		if (typeof candidate.code === 'string' && !facts.code) {
			if (/^E[A-Z_]+$/.test(candidate.code) || TLS_CODES.test(candidate.code)) facts.code = candidate.code;
		}
		for (const value of [candidate.httpCode, candidate.status]) {
			if (status !== undefined || value === undefined || value === null) continue;
			const parsed = Number(value);
			if (Number.isInteger(parsed) && parsed >= 100 && parsed < 600) status = parsed;
		}
		current = candidate.cause;
	}
	if (facts.token) {
		facts.status = facts.token.status;
		facts.code = facts.token.code;
		if (facts.token.kind === 'blocked') facts.blocked = facts.token.refusal;
		return facts;
	}
	const refusal = egressRefusalOf(error);
	if (refusal) {
		facts.blocked = refusal;
		return facts;
	}
	if (signal.aborted) {
		const reason = signal.reason as { name?: string } | undefined;
		if (reason?.name === 'TimeoutError') facts.timedOut = true;
		else facts.canceled = true;
	}
	const responseStatus = Number(response?.status);
	facts.status = Number.isInteger(responseStatus) && responseStatus >= 100 ? responseStatus : status;
	facts.headers = (response?.headers as Record<string, unknown>) ?? {};
	onHeaders?.(facts.status, facts.headers);
	if (response?.data !== undefined) {
		try {
			facts.body = parseJson(await readBody(response.data, maxBytes, signal));
		} catch (bound) {
			if (bound instanceof BodyBoundError) {
				if (bound.kind === 'timeout') facts.timedOut = true;
				else if (bound.kind === 'too-large') facts.bound = 'too-large';
			}
		}
	}
	return facts;
}

export function verdictOf(facts: FailureFacts): Verdict {
	// n8n refused to send it: nothing was carried out, and no repeat can pass.
	if (facts.canceled || facts.blocked) return 'final';
	if (facts.token) {
		// A token request creates nothing, so any transient failure of it may be repeated.
		const kind = facts.token.kind;
		return kind === 'refused' || kind === 'redirect' || kind === 'tls' ? 'final' : 'not-carried-out';
	}
	if (facts.code && TLS_CODES.test(facts.code)) return 'final';
	if (facts.status !== undefined && facts.status >= 300 && facts.status < 400) return 'final';
	if (facts.status === 429 || facts.status === 503) return 'not-carried-out';
	if (facts.status === 500 || facts.status === 502 || facts.status === 504) return 'ambiguous';
	if (facts.timedOut || facts.garbled) return 'ambiguous';
	if (facts.status !== undefined) return facts.bound === 'too-large' && facts.status < 300 ? 'ambiguous' : 'final';
	if (facts.code && NOT_CONNECTED_CODES.test(facts.code)) return 'not-carried-out';
	return 'ambiguous';
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return undefined;
}

// ---- The cause n8n reads on the error ----
// Why a request failed, as a cause in the words n8n 2.40 and later read on an error (`failure`,
// ../execution/declareFailure.ts puts it there): n8n's poll back-off (durable poll scheduling) waits out a timed
// cause and treats an actionable one as permanent. docs/reliability.md says what each cause makes n8n do.
//
// The rule here is to declare an actionable cause only where the failure cannot pass by itself: the
// service's own word that the deployment differs from the contract, a refused redirect or link, a client
// secret the token endpoint calls invalid, n8n's own SSRF protection refusing the service's address. Anything a proxy or a restart can cause (a page that is not
// JSON, a malformed token answer, a TLS failure, HTTP 500) gets no cause, and n8n decides by its own rules.
//
// A cause carries no text of the answer.

/** Codes of API error documents by which the service says this deployment differs from the contract. */
const CONTRACT_CODES = new Set(['invalid-filter', 'invalid-sort', 'invalid-page', 'route-not-found', 'unsupported-media-type']);

/** Network errors of a connection that failed or broke: the service or the way to it is down right now. */
const CONNECTION_CODES = /^(ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|EHOSTDOWN|ENETUNREACH|ENETDOWN)$/;

/**
 * The wait a Retry-After value asks for: delta-seconds as `retryAfterMs`, an HTTP date as
 * `resetsAtEpochMs`; nothing for a missing, zero, past or unusable value (as retry.ts reads it).
 */
export function waitOf(value: string | undefined, now = Date.now()): { retryAfterMs?: number; resetsAtEpochMs?: number } {
	const text = value?.trim() ?? '';
	if (text === '') return {};
	if (/^\d+(\.\d+)?$/.test(text)) {
		const ms = Math.round(Number(text) * 1000);
		return ms > 0 && Number.isSafeInteger(ms) ? { retryAfterMs: ms } : {};
	}
	if (/^[+-]?\d/.test(text)) return {};
	const date = Date.parse(text);
	return Number.isNaN(date) || date <= now ? {} : { resetsAtEpochMs: date };
}

function timed(cause: TimedCause, retryAfter: string | undefined, now: number): FailureCause {
	return { cause, ...waitOf(retryAfter, now) };
}

/**
 * The cause of a failed request, from its facts and the code of the API's error document, or undefined when
 * it is not known for sure.
 */
export function failureCauseOf(facts: FailureFacts, apiCode?: string, now = Date.now()): FailureCause | undefined {
	if (facts.canceled) return undefined;
	// n8n's SSRF protection refused it: only the n8n administrator's setting can change that.
	if (facts.blocked) return CONFIGURATION_INVALID;
	const token = facts.token;
	if (token) {
		if (token.kind === 'refused') return token.oauthError === 'invalid_client' ? { cause: 'credential-invalid' } : undefined;
		if (token.kind === 'unavailable') return timed(token.status === 429 ? 'rate-limited' : 'temporarily-unavailable', token.retryAfter, now);
		if (token.kind === 'timeout' || token.kind === 'network') return { cause: 'temporarily-unavailable' };
		if (token.kind === 'redirect') return CONFIGURATION_INVALID;
		return undefined;
	}
	const retryAfter = header(facts.headers, 'retry-after');
	if (facts.status === 429) return timed('rate-limited', retryAfter, now);
	if (facts.status === 503) return timed('temporarily-unavailable', retryAfter, now);
	if (facts.status === 502 || facts.status === 504) return { cause: 'temporarily-unavailable' };
	if (facts.bound === 'too-large' || facts.garbled) return undefined;
	if (facts.timedOut) return { cause: 'temporarily-unavailable' };
	if (facts.status !== undefined) return apiCode !== undefined && CONTRACT_CODES.has(apiCode) ? CONFIGURATION_INVALID : undefined;
	// No answer at all: refused, reset, unreachable, a DNS failure or a timeout of the connection.
	if (facts.code && (TIMEOUT_CODES.test(facts.code) || CONNECTION_CODES.test(facts.code))) return { cause: 'temporarily-unavailable' };
	return undefined;
}
