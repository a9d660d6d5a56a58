/**
 * Why a request failed, as a cause in the words n8n 2.40 and later read on an error (`failure`,
 * ../execution/declareFailure.ts puts it there): n8n's poll back-off (durable poll scheduling) waits out a timed
 * cause and treats an actionable one as permanent. docs/reliability.md says what each cause makes n8n do.
 *
 * The rule here is to declare an actionable cause only where the failure cannot pass by itself: the
 * service's own word that the deployment differs from the contract, a refused redirect or link, a client
 * secret the token endpoint calls invalid, n8n's own SSRF protection refusing the service's address. Anything a proxy or a restart can cause (a page that is not
 * JSON, a malformed token answer, a TLS failure, HTTP 500) gets no cause, and n8n decides by its own rules.
 *
 * A cause carries no text of the answer.
 */
import type { FailureFacts } from './failure';
import { header, TIMEOUT_CODES } from './failure';
import type { FailureCause, TimedCause } from '../execution/declareFailure';
import { CONFIGURATION_INVALID } from '../execution/declareFailure';


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
