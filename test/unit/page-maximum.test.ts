/**
 * Paging (transport/pagination.ts) and the page maximum a deployment states (transport/request.ts),
 * against a fake of n8n's request helper: the context answers from a list of canned answers, so nothing
 * goes over the network and no time passes.
 *
 * statedPageMaximum is private to request.ts; it is reached through apiRequest (a 400 that states a
 * maximum makes the request repeat with it) and read back with servedPageLimit.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { routes } from '../../nodes/shared/api/routes';
import type { ApiErrorObject } from '../../nodes/shared/api/types';
import { apiRequestAllItems, nextPageOf, pageRequest } from '../../nodes/shared/transport/pagination';
import { apiRequest } from '../../nodes/shared/transport/request';
import { servedPageLimit } from '../../nodes/shared/transport/adaptations';
import { NODE, rejected, thrown, uuid } from './fixtures';

const BASE = 'https://ftm.example.com/v2';
const JOBS = routes.listJobs();
/** No repeats: a fault the fake did not expect fails at once instead of waiting for a backoff. */
const SETTINGS = { maxRetries: 0 };

interface Answer {
	status: number;
	body: unknown;
}

const record = (n: number) => ({ id: uuid(n), type: 'jobs', attributes: { name: `job ${n}` } });
const records = (from: number, count: number) => Array.from({ length: count }, (_, i) => record(from + i));
const page = (data: unknown[], after: string | null, extra: IDataObject = {}) => ({
	data,
	meta: { page: { after, total: 999 } },
	...extra,
});
const refusal = (error: Partial<ApiErrorObject>): Answer => ({ status: 400, body: { errors: [{ status: '400', ...error }] } });

/**
 * A context whose request helper gives the answers in order and records what was asked. Answers of 400
 * and up are thrown as n8n's helper throws them (the answer under `response`).
 */
function fakeService(answers: Answer[]): { ctx: IExecuteFunctions; calls: IHttpRequestOptions[] } {
	const calls: IHttpRequestOptions[] = [];
	const ctx = {
		getNode: () => NODE,
		getCredentials: async () => ({ baseUrl: BASE, clientId: 'unit-client', clientSecret: 'unit-client-secret' }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				calls.push(options);
				const answer = answers.shift() ?? { status: 418, body: { errors: [{ title: 'The fake had no answer left' }] } };
				const data = JSON.stringify(answer.body);
				if (answer.status >= 400) {
					throw Object.assign(new Error(`HTTP ${answer.status}`), {
						response: { status: answer.status, headers: {}, data },
					});
				}
				return { statusCode: answer.status, headers: {}, body: data };
			},
		},
	};
	return { ctx: ctx as unknown as IExecuteFunctions, calls };
}

describe('nextPageOf', () => {
	const ctx = fakeService([]).ctx;

	it('follows links.next when the service gives one, before meta.page.after', () => {
		const doc = page(records(1, 2), 'c1', { links: { next: `${BASE}/jobs?page[after]=x` } });
		expect(nextPageOf(ctx, doc, 100, JOBS)).toEqual({ url: `${BASE}/jobs?page[after]=x` });
	});

	it('uses meta.page.after when there is no usable links.next', () => {
		expect(nextPageOf(ctx, page(records(1, 2), 'c1'), 100, JOBS)).toEqual({ after: 'c1' });
		expect(nextPageOf(ctx, page(records(1, 2), 'c1', { links: { next: '' } }), 100, JOBS)).toEqual({ after: 'c1' });
	});

	it('ends the list on after: null or links.next: null, even on a full page', () => {
		expect(nextPageOf(ctx, page(records(1, 3), null), 3, JOBS)).toBeNull();
		expect(nextPageOf(ctx, { data: records(1, 3), links: { next: null } }, 3, JOBS)).toBeNull();
	});

	it('ends the list on a short page that says nothing about a next one', () => {
		expect(nextPageOf(ctx, { data: records(1, 2) }, 3, JOBS)).toBeNull();
		expect(nextPageOf(ctx, undefined, 3, JOBS)).toBeNull();
	});

	it('refuses a full page that gives no way to the next one, naming the route and the item', () => {
		const error = thrown(() => nextPageOf(ctx, { data: records(1, 3), meta: { page: {} } }, 3, JOBS, 4));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('The service sent a full page of /jobs without a way to the next one [item 4]');
		const withoutItem = thrown(() => nextPageOf(ctx, { data: records(1, 3) }, 3, JOBS));
		expect(withoutItem.message).toBe('The service sent a full page of /jobs without a way to the next one');
		expect(withoutItem).toMatchObject({
			description: expect.stringMatching(/^The page has neither links\.next nor meta\.page\.after \(not even null\), .* run API › Check Compatibility\.$/),
			failure: { cause: 'configuration-invalid' },
		});
		expect((error as NodeOperationError & { context: IDataObject }).context.itemIndex).toBe(4);
	});

	it('reads an empty meta.page.after as saying nothing: no cursor to follow, and no end of the list either', () => {
		expect(nextPageOf(ctx, page(records(1, 2), ''), 3, JOBS)).toBeNull();
		expect(() => nextPageOf(ctx, page(records(1, 3), ''), 3, JOBS)).toThrow(/without a way to the next one/);
	});

	it('reads links and meta that are null, or not objects, as saying nothing', () => {
		expect(nextPageOf(ctx, { data: records(1, 2), links: null, meta: null }, 3, JOBS)).toBeNull();
		expect(nextPageOf(ctx, { data: records(1, 2), links: 'next', meta: { page: null } }, 3, JOBS)).toBeNull();
		expect(nextPageOf(ctx, { data: records(1, 2), meta: { page: 'c1' } }, 3, JOBS)).toBeNull();
		expect(() => nextPageOf(ctx, { data: records(1, 3), links: null, meta: null }, 3, JOBS)).toThrow(/without a way to the next one/);
	});
});

describe('pageRequest', () => {
	it('asks the first page with the query and the page size', () => {
		const qs = { 'filter[status]': 'failed' };
		expect(pageRequest(qs, 100, null)).toEqual({ qs: { 'filter[status]': 'failed', 'page[limit]': 100 } });
		expect(qs).toEqual({ 'filter[status]': 'failed' });
	});

	it('asks a next page by its cursor', () => {
		expect(pageRequest({ sort: '-updatedAt' }, 50, { after: 'c1' })).toEqual({
			qs: { sort: '-updatedAt', 'page[limit]': 50, 'page[after]': 'c1' },
		});
	});

	it('asks a next page by the service\'s link alone, without the query', () => {
		expect(pageRequest({ sort: '-updatedAt' }, 50, { url: `${BASE}/jobs?p=2` })).toEqual({ url: `${BASE}/jobs?p=2` });
	});
});

describe('a page maximum the service states in a 400 (statedPageMaximum, through apiRequest)', () => {
	it.each<[string, Partial<ApiErrorObject>, number]>([
		['"must be at most N"', { code: 'invalid-page', title: 'Invalid Page', detail: 'page[limit] must be at most 50' }, 50],
		['"maximum page size is N"', { title: 'Bad Request', detail: 'The maximum page size is 25.' }, 25],
		['"max=N"', { title: 'Bad Request', detail: 'page[limit]: max=30' }, 30],
		['"up to N"', { title: 'Bad page size', detail: 'Pages hold up to 40 records' }, 40],
		['"no more than N"', { title: 'Bad Request', detail: 'Ask no more than 10 per page' }, 10],
		['the invalid-page code when the text does not say "page"', { code: 'invalid-page', title: 'Invalid Value', detail: 'limit must be at most 20' }, 20],
	])('is read from %s, the request repeated with it, and kept for the route', async (_form, error, max) => {
		const { ctx, calls } = fakeService([refusal(error), { status: 200, body: page([], null) }]);
		await apiRequest(ctx, JOBS, { qs: { 'page[limit]': 100 }, settings: SETTINGS });
		expect(calls.map((call) => (call.qs as IDataObject)['page[limit]'])).toEqual([100, max]);
		expect(servedPageLimit(ctx, JOBS, 100)).toBe(max);
		expect(servedPageLimit(ctx, JOBS, 5)).toBe(5);
		expect(servedPageLimit(ctx, routes.listUsers(), 100)).toBe(100);
	});

	it.each<[string, Answer, IDataObject]>([
		['a refusal that is not about pages', refusal({ code: 'invalid-filter', title: 'Invalid Filter', detail: 'filter[name] must be at most 50 characters' }), { 'page[limit]': 100 }],
		['a stated maximum that is not below what was asked', refusal({ title: 'Invalid Page', detail: 'page[limit] must be at most 200' }), { 'page[limit]': 100 }],
		['a stated maximum of 0', refusal({ title: 'Invalid Page', detail: 'page[limit] must be at most 0' }), { 'page[limit]': 100 }],
		['a page refusal without a number', refusal({ title: 'Invalid Page', detail: 'page[limit] is not accepted' }), { 'page[limit]': 100 }],
		['a 422 that states a maximum', { status: 422, body: { errors: [{ status: '422', title: 'Invalid Page', detail: 'page[limit] must be at most 50' }] } }, { 'page[limit]': 100 }],
		['a request that asked no page size', refusal({ title: 'Invalid Page', detail: 'page[limit] must be at most 50' }), { sort: 'name' }],
	])('is not taken from %s: the error stands, after one request', async (_case, answer, qs) => {
		const { ctx, calls } = fakeService([answer, { status: 200, body: page([], null) }]);
		const error = await rejected(apiRequest(ctx, JOBS, { qs, settings: SETTINGS }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(calls).toHaveLength(1);
		expect(servedPageLimit(ctx, JOBS, 100)).toBe(100);
	});

	it('adapts once per request: a second refusal stands', async () => {
		const { ctx, calls } = fakeService([
			refusal({ title: 'Invalid Page', detail: 'page[limit] must be at most 50' }),
			refusal({ title: 'Invalid Page', detail: 'page[limit] must be at most 20' }),
		]);
		const error = await rejected(apiRequest(ctx, JOBS, { qs: { 'page[limit]': 100 }, settings: SETTINGS }));
		expect(error.message).toBe('Invalid Page');
		expect(calls).toHaveLength(2);
	});

	it('asks the learnt size at once on the next request of the same run', async () => {
		const { ctx, calls } = fakeService([
			refusal({ title: 'Invalid Page', detail: 'page[limit] must be at most 50' }),
			{ status: 200, body: page([], null) },
			{ status: 200, body: page([], null) },
		]);
		await apiRequest(ctx, JOBS, { qs: { 'page[limit]': 100 }, settings: SETTINGS });
		await apiRequest(ctx, JOBS, { qs: { 'page[limit]': 100 }, settings: SETTINGS });
		expect(calls.map((call) => (call.qs as IDataObject)['page[limit]'])).toEqual([100, 50, 50]);
	});
});

describe('apiRequestAllItems', () => {
	it('follows meta.page.after cursors to the last page, with the query on every page', async () => {
		const { ctx, calls } = fakeService([
			{ status: 200, body: page(records(1, 2), 'c1') },
			{ status: 200, body: page(records(3, 1), null) },
		]);
		const all = await apiRequestAllItems<{ id: string }>(ctx, JOBS, { sort: 'name' }, { settings: SETTINGS });
		expect(all.map((r) => r.id)).toEqual([uuid(1), uuid(2), uuid(3)]);
		expect(calls.map((call) => call.url)).toEqual([`${BASE}/jobs`, `${BASE}/jobs`]);
		expect(calls.map((call) => call.qs)).toEqual([
			{ sort: 'name', 'page[limit]': 100 },
			{ sort: 'name', 'page[limit]': 100, 'page[after]': 'c1' },
		]);
	});

	it('follows links.next by its URL, without adding the query again', async () => {
		const next = `${BASE}/jobs?page%5Bafter%5D=c1`;
		const { ctx, calls } = fakeService([
			{ status: 200, body: { data: records(1, 1), links: { next } } },
			{ status: 200, body: { data: records(2, 1), links: { next: null } } },
		]);
		const all = await apiRequestAllItems(ctx, JOBS, { sort: 'name' }, { settings: SETTINGS });
		expect(all).toHaveLength(2);
		expect(calls[1].url).toBe(next);
		expect(calls[1].qs).toBeUndefined();
	});

	it('refuses a links.next to another origin without following it', async () => {
		const { ctx, calls } = fakeService([
			{ status: 200, body: { data: records(1, 1), links: { next: 'https://elsewhere.example/jobs?p=2' } } },
		]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS }));
		expect(error.message).toBe(
			'The service\'s link to the next page of /jobs points to another origin (https://elsewhere.example); it was not followed',
		);
		expect(calls).toHaveLength(1);
	});

	it('stops with an error when a next page comes back a second time', async () => {
		const { ctx, calls } = fakeService([
			{ status: 200, body: page(records(1, 2), 'c1') },
			{ status: 200, body: page(records(3, 2), 'c1') },
			{ status: 200, body: page(records(5, 2), null) },
		]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS, item: { index: 2, stop: new AbortController().signal } }));
		expect(error.message).toBe('The service returned a page that does not advance; stopped to avoid an endless loop [item 2]');
		expect((error as NodeOperationError).description).toContain('The next page "c1" came back after 4 records.');
		expect(calls).toHaveLength(2);
	});

	it('stops with an error when a page only repeats records already listed', async () => {
		const { ctx } = fakeService([
			{ status: 200, body: page(records(1, 2), 'c1') },
			{ status: 200, body: page(records(1, 2), 'c2') },
		]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS }));
		expect(error.message).toBe('The service returned a page that does not advance; stopped to avoid an endless loop');
		expect((error as NodeOperationError).description).toContain('A page repeated records already listed, after 4 records.');
	});

	it('stops with an error when an empty page still points to a next one', async () => {
		const { ctx } = fakeService([
			{ status: 200, body: page(records(1, 2), 'c1') },
			{ status: 200, body: page([], 'c2') },
		]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS }));
		expect((error as NodeOperationError).description).toContain('An empty page still pointed to a next page after 2 records.');
	});

	it('refuses a full page without a way on, rather than return a list cut short', async () => {
		const { ctx } = fakeService([{ status: 200, body: { data: records(1, 100) } }]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS }));
		expect(error.message).toBe('The service sent a full page of /jobs without a way to the next one');
	});

	it('refuses an answer without a data array', async () => {
		const { ctx } = fakeService([{ status: 200, body: { meta: { page: { after: null } } } }]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS }));
		expect(error.message).toBe('The service answered GET /jobs with a list without a "data" array');
	});

	it('asks no more than the limit and stops once it has it', async () => {
		const { ctx, calls } = fakeService([{ status: 200, body: page(records(1, 5), 'c1') }]);
		const all = await apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS, limit: 3 });
		expect(all).toHaveLength(3);
		expect(calls).toHaveLength(1);
		expect((calls[0].qs as IDataObject)['page[limit]']).toBe(3);
	});

	it('asks for what is left of the limit on the next page', async () => {
		const { ctx, calls } = fakeService([
			{ status: 200, body: page(records(1, 100), 'c1') },
			{ status: 200, body: page(records(101, 50), 'c2') },
		]);
		const all = await apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS, limit: 150 });
		expect(all).toHaveLength(150);
		expect(calls.map((call) => (call.qs as IDataObject)['page[limit]'])).toEqual([100, 50]);
	});

	it('asks nothing for a limit of 0', async () => {
		const { ctx, calls } = fakeService([{ status: 200, body: page(records(1, 5), null) }]);
		expect(await apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS, limit: 0 })).toEqual([]);
		expect(calls).toHaveLength(0);
	});

	it('refuses an answer that is a list, naming the item', async () => {
		const { ctx } = fakeService([{ status: 200, body: [] }]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS, item: { index: 3, stop: new AbortController().signal } }));
		expect(error.message).toBe('The service answered GET /jobs with a list without a "data" array [item 3]');
		expect((error as NodeOperationError).description).toBe('The answer does not have the shape of a JSON:API list, so nothing was read from it.');
	});

	it('tells a cursor from a link of the same text, and pages on records without an id', async () => {
		const next = `${BASE}/jobs?p=2`;
		const { ctx, calls } = fakeService([
			{ status: 200, body: page(records(1, 1), next) },
			{ status: 200, body: { data: [{ type: 'jobs' }], links: { next } } },
			{ status: 200, body: { data: [{ type: 'jobs' }], links: { next: `${BASE}/jobs?p=3` } } },
			{ status: 200, body: { data: [{ type: 'jobs' }], links: { next: null } } },
		]);
		const all = await apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS });
		expect(all).toHaveLength(4);
		expect(calls).toHaveLength(4);
		expect((calls[1].qs as IDataObject)['page[after]']).toBe(next);
		expect(calls.slice(2).map((call) => call.url)).toEqual([next, `${BASE}/jobs?p=3`]);
	});

	it('names the repeated link in the stop when a links.next comes back a second time', async () => {
		const next = `${BASE}/jobs?p=2`;
		const { ctx } = fakeService([
			{ status: 200, body: { data: records(1, 1), links: { next } } },
			{ status: 200, body: { data: records(2, 1), links: { next } } },
		]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS }));
		expect((error as NodeOperationError).description).toBe(
			`The next page "${next}" came back after 2 records. Nothing was returned, so that no partial list passes for a complete one.`,
		);
	});

	it('stops at the limit on a page that ends it, without asking that page where the list goes on', async () => {
		// A page of exactly the records still wanted, with neither links.next nor meta.page.after: the list is
		// complete for the limit, so that the page gives no way on is no error.
		const { ctx, calls } = fakeService([{ status: 200, body: { data: records(1, 2) } }]);
		const all = await apiRequestAllItems<{ id: string }>(ctx, JOBS, {}, { settings: SETTINGS, limit: 2 });
		expect(all.map((r) => r.id)).toEqual([uuid(1), uuid(2)]);
		expect(calls).toHaveLength(1);
	});

	it('keeps a record that is null as it came, and pages on', async () => {
		const { ctx } = fakeService([
			{ status: 200, body: page([null, record(1)], 'c1') },
			{ status: 200, body: page([record(2)], null) },
		]);
		expect(await apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS })).toEqual([null, record(1), record(2)]);
	});

	it('says in the stop that nothing was returned', async () => {
		const { ctx } = fakeService([
			{ status: 200, body: page(records(1, 2), 'c1') },
			{ status: 200, body: page([], 'c2') },
		]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS }));
		expect((error as NodeOperationError).description).toBe(
			'An empty page still pointed to a next page after 2 records. Nothing was returned, so that no partial list passes for a complete one.',
		);
	});

	it('maps every record', async () => {
		const { ctx } = fakeService([{ status: 200, body: page(records(1, 2), null) }]);
		const names = await apiRequestAllItems<{ attributes: { name: string } }, string>(ctx, JOBS, {}, {
			settings: SETTINGS,
			map: (r) => r.attributes.name,
		});
		expect(names).toEqual(['job 1', 'job 2']);
	});

	it('pages on at a stated maximum: a page of that size counts as full', async () => {
		const { ctx, calls } = fakeService([
			refusal({ code: 'invalid-page', title: 'Invalid Page', detail: 'page[limit] must be at most 2' }),
			{ status: 200, body: { data: records(1, 2), meta: { page: {} }, links: { next: `${BASE}/jobs?p=2` } } },
			{ status: 200, body: page(records(3, 1), null) },
		]);
		const all = await apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS });
		expect(all).toHaveLength(3);
		expect(calls).toHaveLength(3);
		expect((calls[1].qs as IDataObject)['page[limit]']).toBe(2);
	});

	it('refuses a page of the stated maximum that gives no way on', async () => {
		const { ctx } = fakeService([
			refusal({ code: 'invalid-page', title: 'Invalid Page', detail: 'page[limit] must be at most 2' }),
			{ status: 200, body: { data: records(1, 2) } },
		]);
		const error = await rejected(apiRequestAllItems(ctx, JOBS, {}, { settings: SETTINGS }));
		expect(error.message).toBe('The service sent a full page of /jobs without a way to the next one');
	});
});
