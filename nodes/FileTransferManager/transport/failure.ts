/**
 * What a failed attempt tells about the request: the facts dug out of whatever n8n's request helper
 * threw, and the verdict on whether repeating it is safe.
 */
import { BodyLimitError, readBody } from './body';
import type { TokenFailure } from './token';

/** What a failed attempt tells about the request. */
export type Verdict =
	/** The server did not carry the request out (429, 503, connection refused): repeating is always safe. */
	| 'not-carried-out'
	/** It may have been carried out (500, 502, 504, broken connection, timeout, garbled answer). */
	| 'ambiguous'
	/** A definite answer (4xx, TLS failure, a refused redirect): repeating cannot help. */
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
	limit?: BodyLimitError['kind'];
	/** The attempt's deadline passed. */
	timedOut?: boolean;
	/** The execution was stopped. */
	canceled?: boolean;
}

export const TLS_CODES =
	/^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_[A-Z_]+|EPROTO)$/;
/** The connection was never made, so nothing was sent. */
const NOT_CONNECTED_CODES = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/;
export const TIMEOUT_CODES = /^(ECONNABORTED|ETIMEDOUT|ESOCKETTIMEDOUT)$/;

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
export async function failureFacts(error: unknown, maxBytes: number, signal: AbortSignal): Promise<FailureFacts> {
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
		};
		if (!facts.token && candidate.tokenFailure && typeof candidate.tokenFailure === 'object') {
			facts.token = candidate.tokenFailure;
		}
		if (!response && candidate.response && typeof candidate.response === 'object') {
			response = candidate.response;
		}
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
	if (response?.data !== undefined) {
		try {
			facts.body = parseJson(await readBody(response.data, maxBytes, signal));
		} catch (limit) {
			if (limit instanceof BodyLimitError) {
				if (limit.kind === 'timeout') facts.timedOut = true;
				else if (limit.kind === 'too-large') facts.limit = 'too-large';
			}
		}
	}
	return facts;
}

export function verdictOf(facts: FailureFacts): Verdict {
	if (facts.canceled) return 'final';
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
	if (facts.status !== undefined) return facts.limit === 'too-large' && facts.status < 300 ? 'ambiguous' : 'final';
	if (facts.code && NOT_CONNECTED_CODES.test(facts.code)) return 'not-carried-out';
	return 'ambiguous';
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return undefined;
}
