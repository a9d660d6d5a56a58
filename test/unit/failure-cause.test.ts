/**
 * The cause a failed request declares to n8n (transport/failure.ts failureCauseOf), from plain facts: timed causes
 * with the wait the service asked for, actionable ones only where the failure cannot pass by itself.
 */
import { ACTIONABLE_CAUSES, TIMED_CAUSES } from 'n8n-workflow';

import type { FailureFacts } from '../../nodes/shared/transport/failure';
import { declareFailure } from '../../nodes/shared/execution/declareFailure';
import { failureCauseOf, waitOf } from '../../nodes/shared/transport/failure';
import type { TokenFailure } from '../../nodes/shared/transport/failure';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const facts = (overrides: Partial<FailureFacts>): FailureFacts => ({ headers: {}, body: undefined, ...overrides });
const token = (failure: Partial<TokenFailure>): FailureFacts => facts({ token: { kind: 'refused', problem: 'p', ...failure } });

describe('failureCauseOf: timed causes', () => {
	it('429 is rate-limited, with the seconds of Retry-After as retryAfterMs', () => {
		expect(failureCauseOf(facts({ status: 429, headers: { 'Retry-After': '40' } }), 'rate-limited', NOW)).toEqual({ cause: 'rate-limited', retryAfterMs: 40000 });
	});

	it('503 is temporarily-unavailable, with an HTTP-date Retry-After as resetsAtEpochMs', () => {
		const at = 'Thu, 26 Nov 2026 12:05:00 GMT';
		expect(failureCauseOf(facts({ status: 503, headers: { 'retry-after': at } }), undefined, NOW)).toEqual({
			cause: 'temporarily-unavailable',
			resetsAtEpochMs: Date.parse(at),
		});
	});

	it('429 and 503 without a usable Retry-After carry no wait', () => {
		for (const value of [undefined, '', '0', '-5', 'soon', 'Thu, 26 Nov 2026 11:00:00 GMT']) {
			const headers = value === undefined ? {} : { 'retry-after': value };
			expect(failureCauseOf(facts({ status: 429, headers }), undefined, NOW)).toEqual({ cause: 'rate-limited' });
			expect(failureCauseOf(facts({ status: 503, headers }), undefined, NOW)).toEqual({ cause: 'temporarily-unavailable' });
		}
	});

	it.each([502, 504])('HTTP %i (a gateway) is temporarily-unavailable', (status) => {
		expect(failureCauseOf(facts({ status }))).toEqual({ cause: 'temporarily-unavailable' });
	});

	it.each(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNABORTED'])(
		'no answer (%s) is temporarily-unavailable',
		(code) => {
			expect(failureCauseOf(facts({ code }))).toEqual({ cause: 'temporarily-unavailable' });
		},
	);

	it('an attempt that ran out of time is temporarily-unavailable', () => {
		expect(failureCauseOf(facts({ timedOut: true }))).toEqual({ cause: 'temporarily-unavailable' });
		expect(failureCauseOf(facts({ status: 200, timedOut: true }))).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('the token endpoint: 429 rate-limited and 5xx unavailable with their wait, timeouts and network errors unavailable', () => {
		expect(failureCauseOf(token({ kind: 'unavailable', status: 429, retryAfter: '7' }), undefined, NOW)).toEqual({ cause: 'rate-limited', retryAfterMs: 7000 });
		expect(failureCauseOf(token({ kind: 'unavailable', status: 503 }))).toEqual({ cause: 'temporarily-unavailable' });
		expect(failureCauseOf(token({ kind: 'timeout' }))).toEqual({ cause: 'temporarily-unavailable' });
		expect(failureCauseOf(token({ kind: 'network', code: 'ECONNREFUSED' }))).toEqual({ cause: 'temporarily-unavailable' });
	});
});

describe('failureCauseOf: actionable causes only where the failure cannot pass', () => {
	it('a client the token endpoint calls invalid_client is credential-invalid', () => {
		expect(failureCauseOf(token({ kind: 'refused', status: 401, oauthError: 'invalid_client' }))).toEqual({ cause: 'credential-invalid' });
	});

	it('a redirect of the token endpoint is configuration-invalid', () => {
		expect(failureCauseOf(token({ kind: 'redirect', status: 302 }))).toEqual({ cause: 'configuration-invalid' });
	});

	it.each(['invalid-filter', 'invalid-sort', 'invalid-page', 'route-not-found', 'unsupported-media-type'])(
		'the service saying the deployment differs from the contract (%s) is configuration-invalid',
		(code) => {
			expect(failureCauseOf(facts({ status: 400 }), code)).toEqual({ cause: 'configuration-invalid' });
		},
	);

	it('anything a proxy, a restart or a passing fault can cause declares nothing', () => {
		const unknown: FailureFacts[] = [
			facts({ status: 200, garbled: true }),
			facts({ status: 200, bound: 'too-large' }),
			facts({ status: 500 }),
			facts({ status: 401 }),
			facts({ status: 403 }),
			facts({ status: 404 }),
			facts({ status: 400 }),
			facts({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
			facts({ code: 'EPROTO' }),
			facts({}),
			facts({ canceled: true }),
			facts({ canceled: true, status: 429 }),
			token({ kind: 'refused', status: 400, oauthError: 'invalid_grant' }),
			token({ kind: 'refused', status: 401 }),
			token({ kind: 'malformed', status: 200 }),
			token({ kind: 'too-large', status: 200 }),
			token({ kind: 'tls', code: 'CERT_HAS_EXPIRED' }),
		];
		for (const each of unknown) expect([each, failureCauseOf(each, 'entity-not-found')]).toEqual([each, undefined]);
		expect(failureCauseOf(facts({ status: 404 }), 'entity-not-found')).toBeUndefined();
	});

	it('a 429 or 503 stays timed whatever its error document says', () => {
		expect(failureCauseOf(facts({ status: 429 }), 'route-not-found')).toEqual({ cause: 'rate-limited' });
		expect(failureCauseOf(facts({ status: 503 }), 'invalid-filter')).toEqual({ cause: 'temporarily-unavailable' });
	});
});

describe('the declared causes are those n8n-workflow defines', () => {
	it('every cause declared above is one of n8n-workflow\'s TIMED_CAUSES or ACTIONABLE_CAUSES, in the right group', () => {
		const timed = ['rate-limited', 'temporarily-unavailable'];
		const actionable = ['credential-invalid', 'configuration-invalid'];
		for (const cause of timed) expect(TIMED_CAUSES).toContain(cause);
		for (const cause of actionable) expect(ACTIONABLE_CAUSES).toContain(cause);
	});
});

describe('waitOf', () => {
	it('reads delta-seconds (fractions rounded to ms) and future HTTP dates only', () => {
		expect(waitOf('1.5', NOW)).toEqual({ retryAfterMs: 1500 });
		expect(waitOf(' 3600 ', NOW)).toEqual({ retryAfterMs: 3600000 });
		expect(waitOf('Thu, 26 Nov 2026 12:00:30 GMT', NOW)).toEqual({ resetsAtEpochMs: NOW + 30000 });
		expect(waitOf('Thu, 26 Nov 2026 12:00:00 GMT', NOW)).toEqual({});
		expect(waitOf('1e3', NOW)).toEqual({});
		expect(waitOf('+10', NOW)).toEqual({});
		expect(waitOf(undefined, NOW)).toEqual({});
	});
});

describe('declareFailure', () => {
	it('sets a plain failure property (a copy) and leaves message and description alone', () => {
		const error = Object.assign(new Error('HTTP 429 Too Many Requests'), { description: 'd' });
		const cause = { cause: 'rate-limited' as const, retryAfterMs: 1000 };
		expect(declareFailure(error, cause)).toBe(error);
		expect((error as Error & { failure?: unknown }).failure).toEqual(cause);
		expect((error as Error & { failure?: unknown }).failure).not.toBe(cause);
		expect(error.message).toBe('HTTP 429 Too Many Requests');
		expect(error.description).toBe('d');
	});

	it('sets nothing for an unknown cause', () => {
		const error = new Error('x');
		declareFailure(error, undefined);
		expect('failure' in error).toBe(false);
	});
});
