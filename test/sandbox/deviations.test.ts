/**
 * Deviation modes (docs/api-contract.md, "Deviation modes"): each mode makes the sandbox depart from the
 * contract in its one way, over raw HTTP; modes combine; the option, the admin route and the CLI flag set them;
 * and with no mode the server keeps to the contract.
 */
import axios from 'axios';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import { DEVIATION_MODES, KNOWN_FILTERS, parseDeviations } from '../../sandbox/src/deviations';
import type { JobAttributes } from '../../nodes/shared/api/types';
import {
	Api,
	JSONAPI,
	createJob,
	createJobOk,
	expectError,
	expectJsonApi,
	uniq,
	useSandbox,
	waitFinal,
	type Res,
} from './helpers';

const h = useSandbox({ demo: true });

afterEach(() => h.sb.deviations.clear());

const JOB = DEMO_IDS.jobIds;
const ids = (res: Res): string[] => res.data.data.map((r: { id: string }) => r.id);

/** Inserts jobs sharing a unique source.path (so `filter[source.path]` selects exactly them), oldest first. */
function insertSet(specs: Array<Partial<JobAttributes>>): { setPath: string; ids: string[] } {
	const setPath = `/${uniq('dev')}`;
	const out: string[] = [];
	specs.forEach((spec, i) => {
		const at = new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
		const [id] = h.sb.control.insertJobs(1, {
			createdAt: at,
			updatedAt: at,
			...spec,
			source: { type: 'file', id: DEMO_IDS.storageIds.files, path: setPath },
		});
		out.push(id);
	});
	return { setPath, ids: out };
}

/** Ids of all jobs in creation order (createdAt, then id), as the sandbox holds them. */
function creationOrder(filter: (a: JobAttributes) => boolean = () => true): string[] {
	return h.sb.state
		.jobs()
		.filter((j) => filter(j.attributes))
		.sort((a, b) =>
			a.attributes.createdAt < b.attributes.createdAt ? -1 : a.attributes.createdAt > b.attributes.createdAt ? 1 : a.id < b.id ? -1 : 1,
		)
		.map((j) => j.id);
}

/** Follows `links.next` from a first URL until it is null; returns every record's id and the pages. */
async function followLinks(api: Api, first: string, query?: Record<string, string>): Promise<{ ids: string[]; pages: Res[] }> {
	const pages: Res[] = [];
	const all: string[] = [];
	let res = await api.get(first, query);
	for (let i = 0; i < 100; i++) {
		expect(res.status).toBe(200);
		pages.push(res);
		all.push(...res.data.data.map((r: { id?: string; attributes: { path?: string } }) => r.id ?? r.attributes.path));
		const next = res.data.links.next as string | null;
		if (next === null) return { ids: all, pages };
		expect(next.startsWith(`${h.sb.baseUrl}/`)).toBe(true);
		res = await api.get(next);
	}
	throw new Error('too many pages');
}

describe('no deviation: the contract', () => {
	it('none is set by default, and lists carry meta.page.after and total', async () => {
		expect(h.sb.deviations.list()).toEqual([]);
		const res = await h.api.get('/jobs', { 'page[limit]': 1 });
		expectJsonApi(res, 200);
		expect(Object.keys(res.data.meta.page).sort()).toEqual(['after', 'total']);
		expect(res.data.links).toBeUndefined();
	});

	it('set then cleared leaves nothing behind', async () => {
		h.sb.deviations.set(['no-total', 'json-only']);
		h.sb.deviations.clear();
		const res = await h.api.get('/jobs');
		expectJsonApi(res, 200);
		expect(typeof res.data.meta.page.total).toBe('number');
	});
});

describe('ignore-sort', () => {
	it('answers in creation order whatever sort says, unknown sort fields included', async () => {
		const set = insertSet([{ name: 'b' }, { name: 'c' }, { name: 'a' }]);
		h.sb.deviations.set(['ignore-sort']);
		for (const sort of ['-createdAt', 'name', '-name', 'no-such-field', undefined]) {
			const q: Record<string, string> = { 'filter[source.path]': set.setPath };
			if (sort) q.sort = sort;
			const res = await h.api.get('/jobs', q);
			expectJsonApi(res, 200);
			expect(ids(res)).toEqual(set.ids);
		}
	});

	it('pages stay consistent in creation order across cursors', async () => {
		h.sb.deviations.set('ignore-sort');
		const seen: string[] = [];
		let after: string | null = null;
		do {
			const q: Record<string, string> = { sort: '-updatedAt', 'page[limit]': '2' };
			if (after) q['page[after]'] = after;
			const res = await h.api.get('/jobs', q);
			expect(res.status).toBe(200);
			seen.push(...ids(res));
			after = res.data.meta.page.after;
		} while (after);
		expect(seen).toEqual(creationOrder());
	});

	it('without the mode the same sort is applied', async () => {
		const set = insertSet([{ name: 'b' }, { name: 'c' }, { name: 'a' }]);
		const res = await h.api.get('/jobs', { 'filter[source.path]': set.setPath, sort: 'name' });
		expect(ids(res)).toEqual([set.ids[2], set.ids[0], set.ids[1]]);
	});
});

describe('ignore-filter:<field> and ignore-filters', () => {
	it('ignore-filter:status accepts filter[status] and does not apply it; other filters still apply', async () => {
		const set = insertSet([{ status: 'finished' }, { status: 'failed' }, { status: 'stuck' }]);
		h.sb.deviations.set(['ignore-filter:status']);
		const res = await h.api.get('/jobs', { 'filter[source.path]': set.setPath, 'filter[status]': 'failed' });
		expectJsonApi(res, 200);
		expect(ids(res).sort()).toEqual([...set.ids].sort());
		expect(res.data.meta.page.total).toBe(3);
		const all = await h.api.get('/jobs', { 'filter[status]': 'failed' });
		expect(all.data.meta.page.total).toBe(h.sb.state.jobs().length);
	});

	it('ignore-filter:source.id names a nested field', async () => {
		h.sb.deviations.set('ignore-filter:source.id');
		const res = await h.api.get('/jobs', { 'filter[source.id]': DEMO_IDS.storageIds.bucket });
		expect(res.data.meta.page.total).toBe(h.sb.state.jobs().length);
		const status = await h.api.get('/jobs', { 'filter[status]': 'failed' });
		expect(status.data.meta.page.total).toBe(h.sb.state.jobs().filter((j) => j.attributes.status === 'failed').length);
	});

	it('ignore-filters accepts every filter, unknown fields and sub-lists included, and applies none', async () => {
		h.sb.deviations.set('ignore-filters');
		const total = h.sb.state.jobs().length;
		const queries: Record<string, string>[] = [{ 'filter[status]': 'failed' }, { 'filter[name]': 'nothing' }, { 'filter[no-such-field]': 'x' }];
		for (const q of queries) {
			const res = await h.api.get('/jobs', q);
			expectJsonApi(res, 200);
			expect(res.data.meta.page.total).toBe(total);
		}
		const users = await h.api.get('/users', { 'filter[email]': 'nobody@example.com' });
		expect(users.data.meta.page.total).toBe(h.sb.state.users().length);
		const transfers = await h.api.get(`/jobs/${JOB.copied}/transfers`, { 'filter[status]': '0' });
		expectJsonApi(transfers, 200);
		expect(transfers.data.data).toHaveLength(h.sb.state.jobTransfers(JOB.copied).length);
	});

	it('without the mode the filters apply and unknown ones are refused', async () => {
		const res = await h.api.get('/jobs', { 'filter[status]': 'failed' });
		expect(res.data.meta.page.total).toBe(h.sb.state.jobs().filter((j) => j.attributes.status === 'failed').length);
		expectError(await h.api.get('/jobs', { 'filter[no-such-field]': 'x' }), 400, 'invalid-filter');
	});
});

describe('reject-unknown-filters', () => {
	it('refuses filters outside the small known set with 400 invalid-filter naming the known ones', async () => {
		h.sb.deviations.set('reject-unknown-filters');
		const res = await h.api.get('/jobs', { 'filter[source.id]': DEMO_IDS.storageIds.files });
		expectError(res, 400, 'invalid-filter');
		expect(res.data.errors[0].detail).toBe('Unknown filter field "source.id"; jobs can be filtered by status, name, dryRun only.');
		expectError(await h.api.get('/jobs', { 'filter[id]': JOB.copied }), 400, 'invalid-filter');
		expectError(await h.api.get('/users', { 'filter[groupId]': DEMO_IDS.groupIds[0] }), 400, 'invalid-filter');
		expectError(await h.api.get('/storages', { 'filter[name]': 'files' }), 400, 'invalid-filter');
	});

	it('known filters work as in the contract', async () => {
		h.sb.deviations.set('reject-unknown-filters');
		expect(KNOWN_FILTERS.jobs).toEqual(['status', 'name', 'dryRun']);
		const failed = await h.api.get('/jobs', { 'filter[status]': 'failed', 'filter[dryRun]': 'false' });
		expectJsonApi(failed, 200);
		expect(failed.data.data.every((j: { attributes: { status: string } }) => j.attributes.status === 'failed')).toBe(true);
		const users = await h.api.get('/users', { 'filter[email]': 'bob.ops@example.com' });
		expect(users.data.data).toHaveLength(1);
		for (const [collection, fields] of Object.entries(KNOWN_FILTERS)) {
			for (const field of fields) {
				const res = await h.api.get(`/${collection}`, { [`filter[${field}]`]: 'x' });
				expect({ collection, field, status: res.status }).toEqual({ collection, field, status: 200 });
			}
		}
	});
});

describe('cursor-name', () => {
	it('pages with page[cursor] and meta.page.cursor; page[after] is ignored (page 1 again)', async () => {
		h.sb.deviations.set('cursor-name');
		const first = await h.api.get('/jobs', { 'page[limit]': 1 });
		expectJsonApi(first, 200);
		expect(Object.keys(first.data.meta.page)).toEqual(['cursor', 'total']);
		const cursor = first.data.meta.page.cursor as string;
		expect(typeof cursor).toBe('string');
		const second = await h.api.get('/jobs', { 'page[limit]': 1, 'page[cursor]': cursor });
		expect(second.status).toBe(200);
		expect(ids(second)).not.toEqual(ids(first));
		const again = await h.api.get('/jobs', { 'page[limit]': 1, 'page[after]': cursor });
		expect(again.status).toBe(200);
		expect(ids(again)).toEqual(ids(first));
		// every page by page[cursor]
		const seen: string[] = [];
		let c: string | null = null;
		do {
			const q: Record<string, string> = { 'page[limit]': '2' };
			if (c) q['page[cursor]'] = c;
			const res = await h.api.get('/jobs', q);
			seen.push(...ids(res));
			c = res.data.meta.page.cursor;
		} while (c);
		expect(seen.sort()).toEqual(h.sb.state.jobs().map((j) => j.id).sort());
	});

	it('a cursor it did not issue gets 400 invalid-page naming page[cursor]', async () => {
		h.sb.deviations.set('cursor-name');
		const res = await h.api.get('/jobs', { 'page[cursor]': 'forged.cursor' });
		expectError(res, 400, 'invalid-page');
		expect(res.data.errors[0].detail).toMatch(/page\[cursor\]/);
		expect(res.data.errors[0].detail).not.toMatch(/page\[after\]/);
	});

	it('links.next of job-transfers uses page[cursor] and leads to the next page', async () => {
		h.sb.deviations.set('cursor-name');
		const expected = h.sb.state.jobTransfers(JOB.copied).map((t) => t.attributes.path);
		const { ids: paths, pages } = await followLinks(h.api, `/jobs/${JOB.copied}/transfers`, { 'page[limit]': '1' });
		expect(paths).toEqual(expected);
		expect(pages[0].data.links.next).toContain('page[cursor]=');
		expect(pages[0].data.links.next).not.toContain('page[after]');
		expect(pages[0].data.links.next).toContain('page[limit]=1');
	});
});

describe('links-only', () => {
	it('lists carry links.next (absolute, same origin) and no meta.page.after; following it reads everything once', async () => {
		const set = insertSet([{}, {}, {}, {}, {}]);
		h.sb.deviations.set('links-only');
		const { ids: seen, pages } = await followLinks(h.api, '/jobs', {
			'filter[source.path]': set.setPath,
			sort: '-createdAt',
			'page[limit]': '2',
		});
		expect(pages).toHaveLength(3);
		expect(seen).toEqual([...set.ids].reverse());
		for (const page of pages) {
			expect(page.data.meta.page).toEqual({ total: 5 });
			expect('after' in page.data.meta.page).toBe(false);
		}
		const next = new URL(pages[0].data.links.next);
		expect(next.origin).toBe(h.sb.baseUrl);
		expect(next.pathname).toBe('/jobs');
		expect(next.searchParams.get('filter[source.path]')).toBe(set.setPath);
		expect(next.searchParams.get('sort')).toBe('-createdAt');
		expect(next.searchParams.get('page[limit]')).toBe('2');
		expect(pages[2].data.links.next).toBeNull();
	});

	it('applies to every collection and to job-errors', async () => {
		h.sb.deviations.set('links-only');
		for (const url of ['/accounts', '/groups', '/users', '/storages', `/jobs/${JOB.failedSync}/errors`]) {
			const res = await h.api.get(url, { 'page[limit]': 1 });
			expect({ url, status: res.status, hasAfter: 'after' in res.data.meta.page }).toEqual({ url, status: 200, hasAfter: false });
			expect(Object.keys(res.data.links)).toEqual(['next']);
		}
	});
});

describe('max-page:<n>', () => {
	it('max-page:50: page[limit] above 50 gets 400 invalid-page stating the maximum; 50 works', async () => {
		h.sb.deviations.set('max-page:50');
		const res = await h.api.get('/jobs', { 'page[limit]': 51 });
		expectError(res, 400, 'invalid-page');
		expect(res.data.errors[0].detail).toBe('page[limit] must be at most 50.');
		expectError(await h.api.get('/jobs', { 'page[limit]': 100 }), 400, 'invalid-page');
		expectError(await h.api.get(`/jobs/${JOB.copied}/transfers`, { 'page[limit]': 100 }), 400, 'invalid-page');
		expectJsonApi(await h.api.get('/jobs', { 'page[limit]': 50 }), 200);
		const zero = await h.api.get('/jobs', { 'page[limit]': 0 });
		expectError(zero, 400, 'invalid-page');
		expect(zero.data.errors[0].detail).toBe('page[limit] must be an integer from 1 to 50.');
	});

	it('a maximum under the default page size is also the default', async () => {
		insertSet([{}, {}, {}, {}]);
		h.sb.deviations.set('max-page:3');
		const res = await h.api.get('/jobs');
		expect(res.status).toBe(200);
		expect(res.data.data).toHaveLength(3);
		expect(res.data.meta.page.after).toEqual(expect.any(String));
	});

	it('the parameter is checked', () => {
		for (const bad of ['max-page', 'max-page:', 'max-page:0', 'max-page:x', 'max-page:101', 'max-page:5.5']) {
			expect(() => parseDeviations([bad])).toThrow(/max-page/);
		}
	});
});

describe('json-only', () => {
	const group = (name: string) => ({ data: { type: 'groups', attributes: { accountId: DEMO_IDS.accountId, name } } });

	it('refuses application/vnd.api+json bodies with 415 unsupported-media-type; nothing is created', async () => {
		h.sb.deviations.set('json-only');
		const name = uniq('json');
		const res = await h.api.post('/groups', group(name), { contentType: JSONAPI });
		expect(res.status).toBe(415);
		expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
		expect(res.data.errors[0]).toEqual({
			status: '415',
			code: 'unsupported-media-type',
			title: 'Unsupported Media Type',
			detail: 'Content-Type "application/vnd.api+json" is not supported; send the request body as application/json.',
		});
		expect(h.sb.state.groups().some((g) => g.attributes.name === name)).toBe(false);
		const text = await h.api.post('/groups', group(name), { contentType: 'text/plain' });
		expect(text.status).toBe(415);
	});

	it('accepts application/json and answers everything as application/json', async () => {
		h.sb.deviations.set('json-only');
		const created = await h.api.post('/groups', group(uniq('json')), { contentType: 'application/json; charset=utf-8' });
		expect(created.status).toBe(201);
		expect(String(created.headers['content-type'])).toMatch(/^application\/json/);
		for (const url of ['/', '/jobs', `/jobs/${JOB.copied}`, '/jobs/00000000-0000-4000-8000-000000000000']) {
			const res = await h.api.get(url);
			expect({ url, type: String(res.headers['content-type']) }).toEqual({ url, type: expect.stringMatching(/^application\/json/) });
		}
		const unauthorized = await h.api.get('/jobs', undefined, { token: null });
		expect(unauthorized.status).toBe(401);
		expect(String(unauthorized.headers['content-type'])).toMatch(/^application\/json/);
		// requests without a body are not affected
		expect((await h.api.delete(`/groups/${created.data.data.id}`)).status).toBe(204);
	});

	it('the token is checked before the media type', async () => {
		h.sb.deviations.set('json-only');
		const res = await h.api.post('/groups', group('x'), { contentType: JSONAPI, token: 'nope' });
		expect(res.status).toBe(401);
	});
});

describe('sync-needs-conflict', () => {
	const sync = (extra: Record<string, unknown>) =>
		createJob(h, {
			transferType: 'sync',
			dryRun: true,
			source: { id: DEMO_IDS.storageIds.files, path: '/reports' },
			target: { id: DEMO_IDS.storageIds.archive, path: `/${uniq('sync')}` },
			...extra,
		});

	it('a sync job without conflict handling gets 400 validation-failed on conflictHandling', async () => {
		h.sb.deviations.set('sync-needs-conflict');
		for (const extra of [{}, { conflictHandling: null }, { conflictHandling: 'merge' }]) {
			const res = await sync(extra);
			expectError(res, 400, 'validation-failed', '/data/attributes/conflictHandling');
			expect(res.data.errors[0].detail).toBe('conflictHandling is required for every job, sync included: one of skip, rename, overwrite.');
		}
	});

	it('a sync job with conflict handling is created, keeps it and runs', async () => {
		h.sb.deviations.set('sync-needs-conflict');
		const res = await sync({ conflictHandling: 'overwrite' });
		expectJsonApi(res, 201);
		expect(res.data.data.attributes.conflictHandling).toBe('overwrite');
		const { job } = await waitFinal(h, res.data.data.id);
		expect(job.attributes).toEqual(expect.objectContaining({ status: 'finished', transferType: 'sync', conflictHandling: 'overwrite' }));
		const copy = await createJob(h, {
			transferType: 'copy',
			conflictHandling: 'skip',
			dryRun: true,
			source: { id: DEMO_IDS.storageIds.files, path: '/reports' },
			target: { id: DEMO_IDS.storageIds.archive, path: '/x' },
		});
		expectJsonApi(copy, 201);
	});

	it('without the mode the contract holds: sync needs null', async () => {
		expectError(await sync({ conflictHandling: 'overwrite' }), 400, 'validation-failed', '/data/attributes/conflictHandling');
		expectJsonApi(await sync({ conflictHandling: null }), 201);
	});
});

describe('extra-status', () => {
	// Slow enough that polling sees the extra status (it lasts 400 ms / speed).
	const slow = useSandbox({ demo: true, speed: 2, deviations: ['extra-status'] });

	const copy = () =>
		createJobOk(slow, {
			source: { id: DEMO_IDS.storageIds.files, path: '/reports' },
			target: { id: DEMO_IDS.storageIds.archive, path: `/${uniq('es')}` },
		});

	it('a job passes scanning -> analyzing -> running -> finished', async () => {
		const id = await copy();
		const seen: string[] = [];
		let listed = false;
		for (let i = 0; i < 2000; i++) {
			const res = await slow.api.get(`/jobs/${id}`);
			const status = res.data.data.attributes.status as string;
			if (seen[seen.length - 1] !== status) seen.push(status);
			if (status === 'finished' || status === 'failed') break;
			if (status === 'analyzing') {
				// the status is a plain attribute: filter[status] finds it (unless the job just moved on)
				listed ||= ids(await slow.api.get('/jobs', { 'filter[status]': 'analyzing' })).includes(id);
			}
			await new Promise((r) => setTimeout(r, 10));
		}
		expect(seen).toEqual(['scanning', 'analyzing', 'running', 'finished']);
		expect(listed).toBe(true);
		expect(slow.sb.state.jobTransfers(id)).toHaveLength(4);
	});

	it('a job in the extra status can be canceled and stays canceled', async () => {
		const id = await copy();
		let status = '';
		for (let i = 0; i < 1000 && status !== 'analyzing'; i++) {
			status = (await slow.api.get(`/jobs/${id}`)).data.data.attributes.status;
			if (status !== 'analyzing') await new Promise((r) => setTimeout(r, 5));
		}
		expect(status).toBe('analyzing');
		const paused = await slow.api.patch(`/jobs/${id}`, { data: { id, type: 'jobs', attributes: { status: 'paused' } } });
		expectError(paused, 409, 'invalid-status-transition');
		const res = await slow.api.patch(`/jobs/${id}`, { data: { id, type: 'jobs', attributes: { status: 'canceled' } } });
		expect(res.status).toBe(200);
		expect(res.data.data.attributes.status).toBe('canceled');
		await new Promise((r) => setTimeout(r, 600));
		expect((await slow.api.get(`/jobs/${id}`)).data.data.attributes.status).toBe('canceled');
	});

	it('extra-status:<name> names the status; dry runs end without it', async () => {
		slow.sb.deviations.set('extra-status:verifying');
		const id = await copy();
		const dry = await createJobOk(slow, {
			dryRun: true,
			source: { id: DEMO_IDS.storageIds.files, path: '/reports' },
			target: { id: DEMO_IDS.storageIds.archive, path: '/dry' },
		});
		const seen = new Set<string>();
		const drySeen = new Set<string>();
		for (let i = 0; i < 2000; i++) {
			const [a, b] = await Promise.all([slow.api.get(`/jobs/${id}`), slow.api.get(`/jobs/${dry}`)]);
			seen.add(a.data.data.attributes.status);
			drySeen.add(b.data.data.attributes.status);
			if (seen.has('finished') && drySeen.has('finished')) break;
			await new Promise((r) => setTimeout(r, 10));
		}
		expect(seen.has('verifying')).toBe(true);
		expect(seen.has('analyzing')).toBe(false);
		expect([...drySeen].sort()).toEqual(['finished', 'scanning']);
	});
});

describe('extra-attributes', () => {
	it('adds unknown attributes to every resource in answers, without changing what the sandbox holds', async () => {
		h.sb.deviations.set('extra-attributes');
		for (const url of ['/accounts', '/groups', '/users', '/jobs', '/storages', `/jobs/${JOB.copied}/transfers`, `/jobs/${JOB.failedSync}/errors`]) {
			const res = await h.api.get(url);
			expect(res.status).toBe(200);
			for (const r of res.data.data) {
				expect({ url, a: r.attributes }).toEqual({ url, a: expect.objectContaining({ 'x-region': 'eu-central-1', labels: { env: 'sandbox' } }) });
			}
		}
		const job = await h.api.get(`/jobs/${JOB.copied}`);
		expect(job.data.data.attributes['x-region']).toBe('eu-central-1');
		expect(job.data.data.attributes.stats['x-verifiedCount']).toBe(job.data.data.attributes.stats.transferredCount);
		expect(h.sb.state.job(JOB.copied)!.attributes).not.toHaveProperty('x-region');
		const created = await h.api.post('/groups', { data: { type: 'groups', attributes: { accountId: DEMO_IDS.accountId, name: uniq('ea') } } });
		expect(created.data.data.attributes.labels).toEqual({ env: 'sandbox' });
	});
});

describe('no-total', () => {
	it('omits meta.page.total on every list; the cursor stays', async () => {
		h.sb.deviations.set('no-total');
		for (const url of ['/users', '/jobs', `/jobs/${JOB.copied}/transfers`]) {
			const res = await h.api.get(url, { 'page[limit]': 1 });
			expect({ url, page: res.data.meta.page }).toEqual({ url, page: { after: expect.any(String) } });
		}
	});
});

describe('other-routes', () => {
	it('our sub-list routes get 404 route-not-found', async () => {
		h.sb.deviations.set('other-routes');
		for (const url of [`/jobs/${JOB.copied}/transfers`, `/jobs/${JOB.copied}/errors`]) {
			const res = await h.api.get(url);
			expectError(res, 404, 'route-not-found' as never);
			expect(res.data.errors[0]).toEqual({
				status: '404',
				code: 'route-not-found',
				title: 'Route Not Found',
				detail: `No route matches GET ${url}.`,
			});
		}
	});

	it('serves transfers and errors under /job-transfers and /job-errors with filter[job.id], paged by links.next', async () => {
		h.sb.deviations.set('other-routes');
		const transfers = await followLinks(h.api, '/job-transfers', { 'filter[job.id]': JOB.copied, 'page[limit]': '1' });
		expect(transfers.ids).toEqual(h.sb.state.jobTransfers(JOB.copied).map((t) => t.attributes.path));
		const next = new URL(transfers.pages[0].data.links.next);
		expect(next.pathname).toBe('/job-transfers');
		expect(next.searchParams.get('filter[job.id]')).toBe(JOB.copied);
		expect(transfers.pages[0].data.meta.page.total).toBe(h.sb.state.jobTransfers(JOB.copied).length);
		const errors = await h.api.get('/job-errors', { 'filter[job.id]': JOB.failedSync });
		expectJsonApi(errors, 200);
		expect(ids(errors)).toEqual(h.sb.state.jobErrors(JOB.failedSync).map((e) => e.id));
	});

	it('needs filter[job.id]; an unknown job matches nothing; only GET', async () => {
		h.sb.deviations.set('other-routes');
		const missing = await h.api.get('/job-transfers');
		expectError(missing, 400, 'invalid-filter');
		expect(missing.data.errors[0].detail).toBe('filter[job.id] is required on /job-transfers.');
		const unknown = await h.api.get('/job-errors', { 'filter[job.id]': '00000000-0000-4000-8000-000000000000' });
		expect(unknown.status).toBe(200);
		expect(unknown.data).toEqual({ data: [], meta: { page: { after: null, total: 0 } }, links: { next: null } });
		expectError(await h.api.post('/job-transfers', {}), 405, 'method-not-allowed');
		expectError(await h.api.get('/job-transfers', { 'filter[job.id]': JOB.copied, 'filter[status]': '0' }), 400, 'invalid-filter');
	});

	it('without the mode the new routes do not exist', async () => {
		expectError(await h.api.get('/job-transfers', { 'filter[job.id]': JOB.copied }), 404, 'entity-not-found');
	});
});

describe('moved-subroutes', () => {
	it('our sub-list routes of a job that exists get 404 entity-not-found, as an unknown job does', async () => {
		h.sb.deviations.set('moved-subroutes');
		expect(h.sb.state.job(JOB.copied)).toBeDefined();
		for (const url of [`/jobs/${JOB.copied}/transfers`, `/jobs/${JOB.copied}/errors`]) {
			const res = await h.api.get(url);
			expectError(res, 404, 'entity-not-found');
			expect(res.data.errors[0]).toEqual({ status: '404', code: 'entity-not-found', title: 'Entity Not Found', detail: `No route matches GET ${url}.` });
		}
		// The job itself is still there.
		expectJsonApi(await h.api.get(`/jobs/${JOB.copied}`), 200);
	});

	it('serves them under /job-transfers and /job-errors with filter[job.id], as other-routes does', async () => {
		h.sb.deviations.set('moved-subroutes');
		const transfers = await followLinks(h.api, '/job-transfers', { 'filter[job.id]': JOB.copied, 'page[limit]': '1' });
		expect(transfers.ids).toEqual(h.sb.state.jobTransfers(JOB.copied).map((t) => t.attributes.path));
		const errors = await h.api.get('/job-errors', { 'filter[job.id]': JOB.failedSync });
		expect(ids(errors)).toEqual(h.sb.state.jobErrors(JOB.failedSync).map((e) => e.id));
	});

	it('without the mode our sub-list routes answer', async () => {
		expectJsonApi(await h.api.get(`/jobs/${JOB.copied}/transfers`), 200);
	});
});

describe('modes the API description suggests', () => {
	it('no-deployment-id: resources carry accountId only; create still accepts deploymentId', async () => {
		h.sb.deviations.set('no-deployment-id');
		for (const url of ['/groups', '/users', '/jobs']) {
			const res = await h.api.get(url);
			for (const r of res.data.data) {
				expect(r.attributes).not.toHaveProperty('deploymentId');
				expect(r.attributes.accountId).toBe(DEMO_IDS.accountId);
			}
		}
		const created = await h.api.post('/groups', { data: { type: 'groups', attributes: { deploymentId: DEMO_IDS.accountId, name: uniq('nd') } } });
		expect(created.status).toBe(201);
		expect(created.data.data.attributes).not.toHaveProperty('deploymentId');
		expect(h.sb.state.groups().find((g) => g.id === created.data.data.id)!.attributes.deploymentId).toBe(DEMO_IDS.accountId);
	});

	it('root-shape: GET / reports the version as meta.version', async () => {
		h.sb.deviations.set('root-shape');
		const res = await h.api.get('/');
		expectJsonApi(res, 200);
		expect(res.data).toEqual({ jsonapi: { version: '1.0' }, meta: { version: '2024-06-01' } });
	});

	it('delete-200: a delete answers 200 with a meta document', async () => {
		h.sb.deviations.set('delete-200');
		const created = await h.api.post('/groups', { data: { type: 'groups', attributes: { accountId: DEMO_IDS.accountId, name: uniq('d') } } });
		const res = await h.api.delete(`/groups/${created.data.data.id}`);
		expectJsonApi(res, 200);
		expect(res.data).toEqual({ meta: { deleted: true } });
		expect((await h.api.get(`/groups/${created.data.data.id}`)).status).toBe(404);
	});

	it('auth-403: a missing, unknown or expired token gets 403 forbidden without WWW-Authenticate', async () => {
		h.sb.deviations.set('auth-403');
		for (const token of [null, 'unknown-token']) {
			const res = await h.api.get('/jobs', undefined, { token });
			expectError(res, 403, 'forbidden' as never);
			expect(res.headers['www-authenticate']).toBeUndefined();
		}
		expectJsonApi(await h.api.get('/jobs'), 200);
		const bad = await h.api.tokenRequest({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' });
		expect(bad.status).toBe(401); // the token endpoint keeps RFC 6749
	});
});

describe('modes combine', () => {
	it('cursor-name + links-only + no-total + other-routes + extra-attributes', async () => {
		h.sb.deviations.set(['cursor-name', 'links-only', 'no-total', 'other-routes', 'extra-attributes']);
		const { ids: paths, pages } = await followLinks(h.api, '/job-transfers', { 'filter[job.id]': JOB.copied, 'page[limit]': '3' });
		expect(paths).toEqual(h.sb.state.jobTransfers(JOB.copied).map((t) => t.attributes.path));
		expect(pages[0].data.meta.page).toEqual({});
		expect(pages[0].data.links.next).toContain('page[cursor]=');
		expect(pages[0].data.data[0].attributes['x-region']).toBe('eu-central-1');
		const jobs = await followLinks(h.api, '/jobs', { 'page[limit]': '2' });
		expect(jobs.ids.sort()).toEqual(h.sb.state.jobs().map((j) => j.id).sort());
	});

	it('ignore-sort + max-page:2 + reject-unknown-filters + json-only', async () => {
		h.sb.deviations.set('ignore-sort,max-page:2,reject-unknown-filters,json-only');
		const res = await h.api.get('/jobs', { sort: '-name', 'filter[status]': 'finished' });
		expect(res.status).toBe(200);
		expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
		expect(ids(res)).toEqual(creationOrder((a) => a.status === 'finished').slice(0, 2));
		expect((await h.api.get('/jobs', { 'page[limit]': 3 })).data.errors[0].detail).toBe('page[limit] must be at most 2.');
		expect((await h.api.get('/jobs', { 'filter[userId]': 'x' })).status).toBe(400);
	});

	it('ignore-filters + reject-unknown-filters: unknown fields are refused, known ones ignored', async () => {
		h.sb.deviations.set(['reject-unknown-filters', 'ignore-filters']);
		expect((await h.api.get('/jobs', { 'filter[userId]': 'x' })).status).toBe(400);
		const res = await h.api.get('/jobs', { 'filter[status]': 'failed' });
		expect(res.data.meta.page.total).toBe(h.sb.state.jobs().length);
	});
});

describe('setting the modes', () => {
	it('parseDeviations: comma lists, duplicates dropped, unknown or malformed modes refused', () => {
		expect(parseDeviations(['ignore-sort,no-total', ' no-total ', 'max-page:50']).list).toEqual(['ignore-sort', 'no-total', 'max-page:50']);
		expect(() => parseDeviations(['ignore-everything'])).toThrow('Unknown deviation "ignore-everything"');
		expect(() => parseDeviations(['ignore-filter'])).toThrow(/ignore-filter:status/);
		expect(() => parseDeviations(['no-total:1'])).toThrow(/takes no parameter/);
		expect(() => parseDeviations(['max-page:5', 'max-page:6'])).toThrow(/twice/);
		expect(() => parseDeviations(['extra-status:Bad Name'])).toThrow(/lower-case/);
	});

	it('sandbox.deviations: set replaces, add adds, a bad mode keeps the old ones', () => {
		expect(h.sb.deviations.set(['no-total'])).toEqual(['no-total']);
		expect(h.sb.deviations.add('ignore-sort')).toEqual(['no-total', 'ignore-sort']);
		expect(() => h.sb.deviations.set(['nope'])).toThrow();
		expect(h.sb.deviations.list()).toEqual(['no-total', 'ignore-sort']);
	});

	it('the admin route reads, sets and clears them (not logged, no token)', async () => {
		const admin = `${h.sb.baseUrl}/__sandbox/deviations`;
		const before = h.sb.requests.all().length;
		const set = await axios.post(admin, { deviations: 'no-total,cursor-name' });
		expect(set.data.deviations).toEqual(['no-total', 'cursor-name']);
		expect(set.data.known).toContain('max-page:<n>');
		const res = await h.api.get('/jobs', { 'page[limit]': 1 });
		expect(Object.keys(res.data.meta.page)).toEqual(['cursor']);
		expect((await axios.get(admin)).data.deviations).toEqual(['no-total', 'cursor-name']);
		const bad = await axios.post(admin, { deviations: ['nope'] }, { validateStatus: () => true });
		expect(bad.status).toBe(400);
		expect(bad.data.error).toMatch(/Unknown deviation "nope"/);
		expect((await axios.post(admin, ['max-page:7'])).data.deviations).toEqual(['max-page:7']);
		expect((await axios.delete(admin)).data.deviations).toEqual([]);
		expect(h.sb.requests.all().length - before).toBe(1); // only the GET /jobs
	});

	it('the startSandbox option sets them; an unknown one fails the start', async () => {
		const sb = await startSandbox({ port: 0, demo: false, deviations: ['no-total', 'max-page:5'] });
		const api = new Api(sb.baseUrl);
		try {
			api.token = await api.fetchToken(sb.clientId, sb.clientSecret);
			expect(sb.deviations.list()).toEqual(['no-total', 'max-page:5']);
			const res = await api.get('/accounts', { 'page[limit]': 6 });
			expect(res.data.errors[0].detail).toBe('page[limit] must be at most 5.');
			expect((await api.get('/accounts')).data.meta.page).toEqual({ after: null });
		} finally {
			api.close();
			await sb.close();
		}
		await expect(startSandbox({ port: 0, deviations: ['nope'] })).rejects.toThrow(/Unknown deviation/);
	});

	it('the CLI flag --deviate sets them (comma list, repeatable)', async () => {
		const root = path.resolve(__dirname, '../..');
		const child = spawn(
			path.join(root, 'node_modules/.bin/tsx'),
			['sandbox/src/cli.ts', '--port', '0', '--no-demo', '--deviate', 'ignore-sort,no-total', '--deviate', 'max-page:5'],
			{ cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			let out = '';
			const baseUrl = await new Promise<string>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 30000);
				child.stdout.on('data', (d: Buffer) => {
					out += d.toString();
					const m = /Sandbox listening on (\S+)/.exec(out);
					if (m && out.includes('Press Ctrl+C')) {
						clearTimeout(timer);
						resolve(m[1]);
					}
				});
				child.stderr.on('data', (d: Buffer) => (out += d.toString()));
				child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
			});
			expect(out).toContain('deviations:    ignore-sort, no-total, max-page:5');
			expect((await axios.get(`${baseUrl}/__sandbox/deviations`)).data.deviations).toEqual(['ignore-sort', 'no-total', 'max-page:5']);
		} finally {
			await new Promise<void>((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
			});
		}
	});

	it('the CLI refuses an unknown mode', async () => {
		const root = path.resolve(__dirname, '../..');
		const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['sandbox/src/cli.ts', '--port', '0', '--deviate', 'nope'], {
			cwd: root,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let err = '';
		child.stderr.on('data', (d: Buffer) => (err += d.toString()));
		const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
		expect(code).toBe(1);
		expect(err).toContain('Unknown deviation "nope"');
	});
});


describe('docs/api-contract.md', () => {
	const doc = readFileSync(path.resolve(__dirname, '../../docs/api-contract.md'), 'utf8');
	const section = (title: string) => doc.split(/^## /m).find((s) => s.startsWith(title))!;
	const firstCells = (text: string) =>
		text
			.split('\n')
			.filter((l) => /^\| `/.test(l))
			.map((l) => /^\| `([^`]+)`/.exec(l)![1]);

	it('documents every deviation mode, and no other', () => {
		expect(firstCells(section('Deviation modes')).sort()).toEqual([...DEVIATION_MODES].sort());
	});

	it('names only known modes and checks in its tables', () => {
		const checks = firstCells(section('Checks'));
		expect(checks.length).toBeGreaterThan(15);
		for (const id of ['token', 'root', 'list-routes', 'cursor-paging', 'page-size', 'sort-updatedAt', 'filter-status', 'filter-source', 'transfers-route', 'errors-route', 'media-type']) {
			expect(checks).toContain(id);
		}
		const modeNames = new Set(DEVIATION_MODES.map((m) => m.replace(/[:[].*$/, '')));
		const names = (cell: string) =>
			[...cell.replace(/\([^)]*\)/g, '').matchAll(/`([a-zA-Z0-9-]+)(?::<[^>]+>|:[a-zA-Z.]+|\[[^\]]*\])?`/g)].map((m) => m[1]);
		const cells = (line: string) => line.split('|').slice(1, -1).map((c) => c.trim());
		const assumptions = doc.split('\n').filter((l) => /^\| A\d+ \|/.test(l));
		expect(assumptions.length).toBeGreaterThan(40);
		for (const line of assumptions) {
			const [id, , source, deviation, check] = cells(line);
			expect({ id, source: /description|assumed/.test(source) }).toEqual({ id, source: true });
			for (const name of names(deviation)) expect({ id, deviation: name, known: modeNames.has(name) }).toEqual({ id, deviation: name, known: true });
			for (const name of names(check)) expect({ id, check: name, known: checks.includes(name) }).toEqual({ id, check: name, known: true });
		}
		for (const line of section('Checks').split('\n').filter((l) => /^\| `/.test(l))) {
			const found = cells(line)[4];
			for (const name of names(found)) expect({ line: cells(line)[0], deviation: name, known: modeNames.has(name) }).toEqual({ line: cells(line)[0], deviation: name, known: true });
		}
	});

	it('refers to nothing outside the repository', () => {
		expect(doc).not.toMatch(/shared\/spec|CONTRACT\.md|\.\.\/shared/);
		expect(readFileSync(path.resolve(__dirname, '../../sandbox/README.md'), 'utf8')).not.toMatch(/shared\/spec|CONTRACT\.md|\.\.\/shared/);
	});
});
