/**
 * Whether a failed attempt may be repeated (transport/failure.ts) and how long to wait before it
 * (transport/retry.ts), from plain facts: no request is made.
 */
import type { FailureFacts, TokenFailureKind } from '../../nodes/shared/transport/failure';
import { header, parseJson, verdictOf } from '../../nodes/shared/transport/failure';
import { retryAfterSeconds, retryDelayMs } from '../../nodes/shared/transport/retry';

const facts = (overrides: Partial<FailureFacts>): FailureFacts => ({ headers: {}, body: undefined, ...overrides });

describe('verdictOf', () => {
	it.each([429, 503])('HTTP %i was not carried out: always safe to repeat', (status) => {
		expect(verdictOf(facts({ status }))).toBe('not-carried-out');
	});

	it.each([429, 503])('HTTP %i is never ambiguous, even when it also timed out or was garbled', (status) => {
		expect(verdictOf(facts({ status, timedOut: true }))).toBe('not-carried-out');
		expect(verdictOf(facts({ status, garbled: true }))).toBe('not-carried-out');
		expect(verdictOf(facts({ status, code: 'ECONNRESET' }))).toBe('not-carried-out');
	});

	it.each([500, 502, 504])('HTTP %i may have been carried out: ambiguous', (status) => {
		expect(verdictOf(facts({ status }))).toBe('ambiguous');
	});

	it.each([400, 401, 403, 404, 405, 409, 415, 422, 501])('HTTP %i is a definite answer: final', (status) => {
		expect(verdictOf(facts({ status }))).toBe('final');
	});

	it.each([301, 302, 303, 307, 308])('a redirect (HTTP %i) not followed is final', (status) => {
		expect(verdictOf(facts({ status }))).toBe('final');
	});

	it('a timeout without an answer is ambiguous', () => {
		expect(verdictOf(facts({ timedOut: true }))).toBe('ambiguous');
		expect(verdictOf(facts({ code: 'ETIMEDOUT' }))).toBe('ambiguous');
		expect(verdictOf(facts({ code: 'ECONNABORTED' }))).toBe('ambiguous');
	});

	it('a body that timed out while reading a 200 is ambiguous, not a success', () => {
		expect(verdictOf(facts({ status: 200, timedOut: true }))).toBe('ambiguous');
	});

	it('a broken connection, or no facts at all, is ambiguous', () => {
		expect(verdictOf(facts({ code: 'ECONNRESET' }))).toBe('ambiguous');
		expect(verdictOf(facts({ code: 'EPIPE' }))).toBe('ambiguous');
		expect(verdictOf(facts({}))).toBe('ambiguous');
	});

	it('a 2xx answer that is not JSON is ambiguous', () => {
		expect(verdictOf(facts({ status: 200, garbled: true }))).toBe('ambiguous');
	});

	it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])(
		'%s (never connected, nothing sent) was not carried out',
		(code) => {
			expect(verdictOf(facts({ code }))).toBe('not-carried-out');
		},
	);

	it.each(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO'])(
		'a TLS failure (%s) is final, whatever status came with it',
		(code) => {
			expect(verdictOf(facts({ code }))).toBe('final');
			expect(verdictOf(facts({ code, status: 503 }))).toBe('final');
		},
	);

	it('an answer too large is ambiguous on 2xx (it may have been done) and final on an error status', () => {
		expect(verdictOf(facts({ status: 200, bound: 'too-large' }))).toBe('ambiguous');
		expect(verdictOf(facts({ status: 201, bound: 'too-large' }))).toBe('ambiguous');
		expect(verdictOf(facts({ status: 404, bound: 'too-large' }))).toBe('final');
	});

	it('a stopped execution is final, even on an answer that could otherwise be repeated', () => {
		expect(verdictOf(facts({ canceled: true }))).toBe('final');
		expect(verdictOf(facts({ canceled: true, status: 503 }))).toBe('final');
		expect(verdictOf(facts({ canceled: true, timedOut: true }))).toBe('final');
	});

	it.each<[TokenFailureKind, string]>([
		['refused', 'final'],
		['redirect', 'final'],
		['tls', 'final'],
		['unavailable', 'not-carried-out'],
		['malformed', 'not-carried-out'],
		['timeout', 'not-carried-out'],
		['too-large', 'not-carried-out'],
		['network', 'not-carried-out'],
	])('a failed token request of kind %s is %s (a token request creates nothing)', (kind, verdict) => {
		// The API status next to it does not matter: the API request was never sent.
		expect(verdictOf(facts({ status: 500, token: { kind, problem: 'p' } }))).toBe(verdict);
	});
});

describe('header', () => {
	const headers = { 'Retry-After': '120', 'set-cookie': ['a=1', 'b=2'], 'Content-Length': 42 };

	it('finds a header whatever its case in the answer (asked in lower case)', () => {
		expect(header(headers, 'retry-after')).toBe('120');
	});

	it('gives the first of a repeated header and a number as text', () => {
		expect(header(headers, 'set-cookie')).toBe('a=1');
		expect(header(headers, 'content-length')).toBe('42');
	});

	it('gives undefined for a header that is not there', () => {
		expect(header(headers, 'date')).toBeUndefined();
		expect(header({}, 'retry-after')).toBeUndefined();
	});
});

describe('parseJson', () => {
	it('gives undefined for an empty or blank body', () => {
		expect(parseJson('')).toBeUndefined();
		expect(parseJson(' \n\t ')).toBeUndefined();
	});

	it('parses JSON', () => {
		expect(parseJson('{"data":[1,2]}')).toEqual({ data: [1, 2] });
		expect(parseJson(' null ')).toBeNull();
	});

	it('gives the text itself when it is not JSON', () => {
		expect(parseJson('<html>maintenance</html>')).toBe('<html>maintenance</html>');
		expect(parseJson('{"cut": ')).toBe('{"cut": ');
	});
});

describe('retryAfterSeconds', () => {
	const NOW = Date.UTC(2015, 9, 21, 7, 27, 30);

	it('reads delta-seconds, also with a fraction and surrounding spaces', () => {
		expect(retryAfterSeconds('120')).toBe(120);
		expect(retryAfterSeconds('0')).toBe(0);
		expect(retryAfterSeconds(' 5 ')).toBe(5);
		expect(retryAfterSeconds('1.5')).toBe(1.5);
	});

	it('reads an HTTP date as the seconds from now until then', () => {
		expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:00 GMT', NOW)).toBe(30);
	});

	it('reads an HTTP date in the past as now', () => {
		expect(retryAfterSeconds('Wed, 21 Oct 2015 07:00:00 GMT', NOW)).toBe(0);
	});

	it.each(['-5', '+5', '5s', '1e3', '12abc', '-Infinity', 'soon', 'NaN'])(
		'gives nothing for %j, so the normal backoff applies',
		(value) => {
			expect(retryAfterSeconds(value, NOW)).toBeUndefined();
		},
	);

	it('gives nothing without a value', () => {
		expect(retryAfterSeconds(undefined)).toBeUndefined();
		expect(retryAfterSeconds('')).toBeUndefined();
		expect(retryAfterSeconds('   ')).toBeUndefined();
	});

	it('passes a huge value on as it is (retryDelayMs bounds it)', () => {
		expect(retryAfterSeconds('99999999999')).toBe(99_999_999_999);
	});
});

describe('retryDelayMs', () => {
	const settings = { maxRetryWait: 60 };

	it('waits what Retry-After asks', () => {
		expect(retryDelayMs(0, settings, 2)).toBe(2000);
		expect(retryDelayMs(5, settings, 0)).toBe(0);
		expect(retryDelayMs(0, settings, 1.5)).toBe(1500);
	});

	it('never waits longer than Max Wait Between Retries, whatever Retry-After says', () => {
		expect(retryDelayMs(0, settings, 99_999_999_999)).toBe(60_000);
		expect(retryDelayMs(0, { maxRetryWait: 0 }, 30)).toBe(0);
		expect(retryDelayMs(0, { maxRetryWait: 2.5 }, 30)).toBe(2500);
	});

	it('backs off from 500 ms, doubling per attempt, jittered between half and all of the step', () => {
		expect(retryDelayMs(0, settings, undefined, () => 0)).toBe(250);
		expect(retryDelayMs(0, settings, undefined, () => 1)).toBe(500);
		expect(retryDelayMs(1, settings, undefined, () => 0.5)).toBe(750);
		expect(retryDelayMs(3, settings, undefined, () => 0)).toBe(2000);
		expect(retryDelayMs(3, settings, undefined, () => 1)).toBe(4000);
	});

	it('caps the backoff at Max Wait Between Retries', () => {
		expect(retryDelayMs(20, settings, undefined, () => 0)).toBe(60_000);
		expect(retryDelayMs(2, { maxRetryWait: 1 }, undefined, () => 1)).toBe(1000);
	});

	it('stays within its bounds with the real random source', () => {
		for (let i = 0; i < 50; i++) {
			const delay = retryDelayMs(2, settings);
			expect(delay).toBeGreaterThanOrEqual(1000);
			expect(delay).toBeLessThanOrEqual(2000);
		}
	});
});
