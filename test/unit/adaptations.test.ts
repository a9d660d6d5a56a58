/**
 * The server adaptations of the transport (transport/adaptations.ts), rule by rule, from plain facts: what
 * each meets and what it leaves to the retry policy and the error mapping. No request is made.
 */
import type { RequestState } from '../../nodes/shared/transport/adaptations';
import {
	ADAPTATIONS,
	deleteAlreadyDone,
	firstAdaptation,
	MAX_REDIRECTS,
	NOT_MINE,
	plainJsonAfter415,
	sameOriginRedirect,
	statedPageMaximum,
	statedPageMaximumRule,
} from '../../nodes/shared/transport/adaptations';
import type { FailureFacts } from '../../nodes/shared/transport/failure';

const ORIGIN = 'https://api.example.com';

const facts = (overrides: Partial<FailureFacts>): FailureFacts => ({ headers: {}, body: undefined, ...overrides });

const state = (overrides: Partial<RequestState> = {}): RequestState => ({
	method: 'GET',
	url: `${ORIGIN}/v1/jobs`,
	origin: ORIGIN,
	qs: undefined,
	hasBody: false,
	plainJson: false,
	pageRetried: false,
	mediaRetried: false,
	redirects: 0,
	ambiguousEarlier: false,
	policyRepeats: false,
	secrets: [],
	...overrides,
});

const redirect = (status: number, location?: string): FailureFacts =>
	facts({ status, headers: location === undefined ? {} : { Location: location } });

const apiError = (title: string, detail?: string, code?: string) => ({ errors: [{ status: '400', title, detail, code }] });

describe('the rule list', () => {
	it('names the rules in the order apiRequest asks them', () => {
		expect(ADAPTATIONS.map((rule) => rule.name)).toEqual([
			'same-origin redirect',
			'stated page maximum',
			'plain JSON after 415',
			'DELETE already done',
		]);
	});

	it('has no rule for answers the retry policy and the error mapping handle', () => {
		for (const status of [401, 403, 404, 409, 422, 429, 500, 502, 503, 504]) {
			expect(firstAdaptation(facts({ status }), state())).toBeUndefined();
		}
		expect(firstAdaptation(facts({ code: 'ECONNRESET' }), state())).toBeUndefined();
		expect(firstAdaptation(facts({ status: 200, garbled: true }), state({ method: 'DELETE', ambiguousEarlier: true }))).toBeUndefined();
	});

	it('names the rule that answered', () => {
		expect(firstAdaptation(redirect(302, '/v1/jobs/'), state())).toEqual({
			rule: 'same-origin redirect',
			adaptation: { kind: 'repeat', change: { follow: `${ORIGIN}/v1/jobs/` } },
		});
	});
});

describe('same-origin redirect', () => {
	const decide = (f: FailureFacts, s: Partial<RequestState> = {}) => sameOriginRedirect.decide(f, state(s));

	it.each([301, 302, 303, 307, 308])('follows HTTP %i of a GET within the origin, relative or absolute', (status) => {
		expect(decide(redirect(status, '/v1/jobs/'))).toEqual({ kind: 'repeat', change: { follow: `${ORIGIN}/v1/jobs/` } });
		expect(decide(redirect(status, `${ORIGIN}/v2/jobs?page[limit]=100`))).toEqual({
			kind: 'repeat',
			change: { follow: `${ORIGIN}/v2/jobs?page[limit]=100` },
		});
	});

	it.each(['POST', 'PATCH', 'DELETE'])('follows 307 and 308 of a %s (they keep method and body)', (method) => {
		for (const status of [307, 308]) {
			expect(decide(redirect(status, '/v1/jobs/'), { method })).toEqual({ kind: 'repeat', change: { follow: `${ORIGIN}/v1/jobs/` } });
		}
	});

	it.each([301, 302, 303])('refuses HTTP %i of a POST, PATCH or DELETE: it would turn the request into GET', (status) => {
		for (const method of ['POST', 'PATCH', 'DELETE']) {
			expect(decide(redirect(status, '/v1/jobs/'), { method })).toEqual({
				kind: 'throw',
				error: 'redirect',
				why: `that would turn ${method} into GET`,
			});
		}
	});

	it('refuses another origin: another host, another port', () => {
		expect(decide(redirect(302, 'https://evil.example.net/v1/jobs'))).toEqual({
			kind: 'throw',
			error: 'redirect',
			why: 'to another origin (https://evil.example.net)',
		});
		expect(decide(redirect(307, 'https://api.example.com:8443/v1/jobs'))).toEqual({
			kind: 'throw',
			error: 'redirect',
			why: 'to another origin (https://api.example.com:8443)',
		});
	});

	it('refuses https to http, on the same host too', () => {
		expect(decide(redirect(301, 'http://api.example.com/v1/jobs'))).toEqual({
			kind: 'throw',
			error: 'redirect',
			why: 'from https to http (http://api.example.com)',
		});
	});

	it('refuses a redirect without a Location, or with one that is not a URL', () => {
		expect(decide(redirect(302))).toEqual({ kind: 'throw', error: 'redirect', why: 'without a Location' });
		expect(decide(redirect(302, 'http://[::1'))).toEqual({ kind: 'throw', error: 'redirect', why: 'to an unreadable Location' });
	});

	it(`follows ${MAX_REDIRECTS} redirects of one request, not more`, () => {
		expect(MAX_REDIRECTS).toBe(5);
		expect(decide(redirect(302, '/v1/jobs/'), { redirects: MAX_REDIRECTS - 1 })).toMatchObject({ kind: 'repeat' });
		expect(decide(redirect(302, '/v1/jobs/'), { redirects: MAX_REDIRECTS })).toEqual({
			kind: 'throw',
			error: 'redirect',
			why: `more than ${MAX_REDIRECTS} times`,
		});
	});

	it('names the refusal, not the count, when both apply', () => {
		expect(decide(redirect(302, 'https://evil.example.net/'), { redirects: MAX_REDIRECTS })).toMatchObject({
			why: 'to another origin (https://evil.example.net)',
		});
	});

	it('resolves a relative Location against the URL the redirect answered', () => {
		expect(decide(redirect(307, 'next'), { url: `${ORIGIN}/v1/jobs/` })).toEqual({ kind: 'repeat', change: { follow: `${ORIGIN}/v1/jobs/next` } });
	});

	it('declines what is not a redirect, and the token endpoint\'s redirects', () => {
		for (const status of [200, 299, 400, 404, 415, 500]) expect(decide(facts({ status, headers: { location: '/x' } }))).toBe(NOT_MINE);
		expect(decide(facts({ code: 'ECONNRESET' }))).toBe(NOT_MINE);
		expect(decide(facts({ status: 302, headers: { location: '/x' }, token: { kind: 'redirect', status: 302, problem: 'redirected' } }))).toBe(NOT_MINE);
	});
});

describe('stated page maximum', () => {
	const refusal = (title: string, detail?: string, code?: string) => facts({ status: 400, body: apiError(title, detail, code) });
	const listing = { qs: { 'page[limit]': 100 } };
	const decide = (f: FailureFacts, s: Partial<RequestState> = listing) => statedPageMaximumRule.decide(f, state(s));

	it.each([
		{ max: 50, title: 'page[limit] must be at most 50' },
		{ max: 25, title: 'Invalid page size', detail: 'The maximum page size is 25' },
		{ max: 10, title: 'Bad request', detail: 'max page size: 10', code: 'invalid-page' },
		{ max: 75, title: 'Invalid parameter', detail: 'page[limit] may be no more than 75' },
		{ max: 20, title: 'Invalid parameter', detail: 'limit up to 20', code: 'invalid-page' },
	])('repeats once with the stated maximum of $max ($title / $detail)', ({ max, title, detail, code }) => {
		expect(decide(refusal(title, detail, code))).toEqual({ kind: 'repeat', change: { pageLimit: max } });
	});

	it('declines when the stated maximum is not smaller than the page asked for', () => {
		expect(decide(refusal('page[limit] must be at most 100'))).toBe(NOT_MINE);
		expect(decide(refusal('page[limit] must be at most 500'))).toBe(NOT_MINE);
	});

	it('declines a request without page[limit]: a list followed by links.next, or after a redirect', () => {
		expect(decide(refusal('page[limit] must be at most 50'), { qs: undefined })).toBe(NOT_MINE);
		expect(decide(refusal('page[limit] must be at most 50'), { qs: { sort: '-updatedAt' } })).toBe(NOT_MINE);
	});

	it('declines a request already repeated with a stated maximum', () => {
		expect(decide(refusal('page[limit] must be at most 50'), { ...listing, pageRetried: true })).toBe(NOT_MINE);
	});

	it('declines a 400 that states no maximum, or no page', () => {
		expect(decide(refusal('Invalid filter', 'filter[color] is not a filter'))).toBe(NOT_MINE);
		expect(decide(refusal('Invalid value', 'name must be at most 50 characters'))).toBe(NOT_MINE);
		expect(decide(refusal('page[limit] must be at most 0'))).toBe(NOT_MINE);
		expect(decide(facts({ status: 400, body: 'page[limit] must be at most 50' }))).toBe(NOT_MINE);
		expect(decide(facts({ status: 400 }))).toBe(NOT_MINE);
	});

	it('declines every status but 400', () => {
		for (const status of [404, 413, 422, 500]) {
			expect(decide(facts({ status, body: apiError('page[limit] must be at most 50') }))).toBe(NOT_MINE);
		}
	});

	it('reads the maximum from the error\'s title and detail', () => {
		expect(statedPageMaximum(refusal('Invalid page', 'page[limit] must be at most 50'), [])).toBe(50);
		expect(statedPageMaximum(refusal('Invalid page', 'a page of at least 5'), [])).toBeUndefined();
	});
});

describe('plain JSON after 415', () => {
	const withBody = { method: 'PATCH', hasBody: true };
	const decide = (f: FailureFacts, s: Partial<RequestState> = withBody) => plainJsonAfter415.decide(f, state(s));

	it('repeats a request with a body once as application/json', () => {
		expect(decide(facts({ status: 415 }))).toEqual({ kind: 'repeat', change: { plainJson: true } });
		expect(decide(facts({ status: 415 }), { method: 'POST', hasBody: true })).toEqual({ kind: 'repeat', change: { plainJson: true } });
	});

	it('declines a request without a body', () => {
		expect(decide(facts({ status: 415 }), { method: 'GET', hasBody: false })).toBe(NOT_MINE);
	});

	it('declines a request already repeated as application/json, and an execution that sends it already', () => {
		expect(decide(facts({ status: 415 }), { ...withBody, mediaRetried: true })).toBe(NOT_MINE);
		expect(decide(facts({ status: 415 }), { ...withBody, plainJson: true })).toBe(NOT_MINE);
	});

	it('declines every status but 415', () => {
		for (const status of [400, 406, 422, 500]) expect(decide(facts({ status }))).toBe(NOT_MINE);
	});
});

describe('DELETE already done', () => {
	const repeated = { method: 'DELETE', ambiguousEarlier: true };
	const decide = (f: FailureFacts, s: Partial<RequestState> = repeated) => deleteAlreadyDone.decide(f, state(s));

	it('returns as a DELETE does when its repeat after an unclear answer finds the record gone', () => {
		expect(decide(facts({ status: 404 }))).toEqual({ kind: 'return', result: undefined });
	});

	it('declines a 404 that no ambiguous attempt preceded: the record was not there', () => {
		expect(decide(facts({ status: 404 }), { method: 'DELETE', ambiguousEarlier: false })).toBe(NOT_MINE);
	});

	it('declines a 404 of the token endpoint: the repeated DELETE was never sent', () => {
		const tokenFailure: FailureFacts['token'] = { kind: 'refused', problem: 'the token endpoint answered 404', status: 404 };
		expect(decide(facts({ status: 404, token: tokenFailure }))).toBe(NOT_MINE);
	});

	it('declines other methods', () => {
		for (const method of ['GET', 'PATCH', 'POST']) expect(decide(facts({ status: 404 }), { method, ambiguousEarlier: true })).toBe(NOT_MINE);
	});

	it('declines other statuses', () => {
		for (const status of [200, 400, 409, 410, 500]) expect(decide(facts({ status }))).toBe(NOT_MINE);
	});

	it('waits while the retry policy still repeats the request (a 404 whose body timed out)', () => {
		expect(decide(facts({ status: 404, timedOut: true }), { ...repeated, policyRepeats: true })).toBe(NOT_MINE);
		expect(decide(facts({ status: 404, timedOut: true }), { ...repeated, policyRepeats: false })).toEqual({ kind: 'return', result: undefined });
	});
});
