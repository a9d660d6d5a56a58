import { DEMO_IDS } from '../../sandbox/src';
import type { JobAttributes } from '../../nodes/shared/api/types';
import {
	createJobOk,
	emptyStats,
	expectError,
	expectJsonApi,
	readAll,
	uniq,
	useSandbox,
	waitFinal,
	type Res,
} from './helpers';

const h = useSandbox({ demo: true });

/** Inserts jobs sharing a unique source.path, so that `filter[source.path]` selects exactly them. */
function insertSet(specs: Array<Partial<JobAttributes>>): { setPath: string; ids: string[] } {
	const setPath = `/${uniq('set')}`;
	const ids: string[] = [];
	for (const spec of specs) {
		const [id] = h.sb.control.insertJobs(1, {
			...spec,
			source: { type: 'file', id: DEMO_IDS.storageIds.files, path: setPath },
		});
		ids.push(id);
	}
	return { setPath, ids };
}

const ids = (res: Res): string[] => res.data.data.map((r: { id: string }) => r.id);

/** The contract's ordering, as a reference: keys in order, `-` descending, nulls last both ways, then id asc. */
function referenceSort(records: any[], sort: string): string[] {
	const keys = sort.split(',').map((k) => ({ desc: k.startsWith('-'), path: k.replace(/^-/, '').split('.') }));
	const value = (r: any, path: string[]) => path.reduce((v, p) => (v == null ? v : v[p]), r.attributes);
	const cmp = (a: any, b: any): number => {
		for (const k of keys) {
			const va = value(a, k.path);
			const vb = value(b, k.path);
			if (va == null && vb == null) continue;
			if (va == null) return 1;
			if (vb == null) return -1;
			if (va === vb) continue;
			const c = va < vb ? -1 : 1;
			return k.desc ? -c : c;
		}
		return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
	};
	return [...records].sort(cmp).map((r) => r.id);
}

describe('collections: filter', () => {
	it('exact match on an attribute, on id, nested (source.id, source.path) and booleans; all must match', async () => {
		const { setPath, ids: setIds } = insertSet([
			{ name: 'alpha', dryRun: true, transferType: 'copy' },
			{ name: 'alpha', dryRun: false, transferType: 'move' },
			{ name: 'beta', dryRun: true, transferType: 'copy' },
			{ name: 'alphabet', dryRun: false, transferType: 'copy' },
		]);
		const q = (extra: Record<string, string>) => h.api.get('/jobs', { 'filter[source.path]': setPath, ...extra });

		const all = await q({});
		expectJsonApi(all, 200);
		expect(ids(all).sort()).toEqual([...setIds].sort());
		expect(all.data.meta.page.total).toBe(4);

		const alpha = await q({ 'filter[name]': 'alpha' });
		expect(ids(alpha).sort()).toEqual([setIds[0], setIds[1]].sort());
		expect(alpha.data.meta.page.total).toBe(2);

		const dry = await q({ 'filter[dryRun]': 'true' });
		expect(ids(dry).sort()).toEqual([setIds[0], setIds[2]].sort());
		const wet = await q({ 'filter[dryRun]': 'false' });
		expect(ids(wet).sort()).toEqual([setIds[1], setIds[3]].sort());

		const both = await q({ 'filter[name]': 'alpha', 'filter[dryRun]': 'true' });
		expect(ids(both)).toEqual([setIds[0]]);
		const three = await q({ 'filter[name]': 'alpha', 'filter[dryRun]': 'true', 'filter[transferType]': 'move' });
		expect(ids(three)).toEqual([]);
		expect(three.data.meta.page).toEqual({ after: null, total: 0 });

		const byId = await h.api.get('/jobs', { 'filter[id]': setIds[2] });
		expect(ids(byId)).toEqual([setIds[2]]);

		const bySource = await h.api.get('/jobs', { 'filter[source.id]': DEMO_IDS.storageIds.files, 'filter[source.path]': setPath });
		expect(ids(bySource).sort()).toEqual([...setIds].sort());
		const otherSource = await h.api.get('/jobs', { 'filter[source.id]': DEMO_IDS.storageIds.archive, 'filter[source.path]': setPath });
		expect(ids(otherSource)).toEqual([]);
	});

	it('filters every job in the whole store, not just a page: dryRun=true matches state', async () => {
		const res = await readAll(h, '/jobs', { 'filter[dryRun]': 'true' });
		const expected = h.sb.state.jobs().filter((j) => j.attributes.dryRun).map((j) => j.id);
		expect(res.map((r) => r.id).sort()).toEqual(expected.sort());
	});

	it('accepts brackets sent unencoded', async () => {
		const { setPath, ids: setIds } = insertSet([{ name: 'raw' }, { name: 'other' }]);
		const res = await h.api.get(`/jobs?filter[source.path]=${encodeURIComponent(setPath)}&filter[name]=raw`);
		expectJsonApi(res, 200);
		expect(ids(res)).toEqual([setIds[0]]);
	});

	it.each(['bogus', 'source.bogus', 'stats.nope', 'password'])('unknown filter field %s -> 400 invalid-filter', async (field) => {
		expectError(await h.api.get('/jobs', { [`filter[${field}]`]: 'x' }), 400, 'invalid-filter');
	});

	it('groups filter[accountId], users filter[deploymentId], accounts filter[name]', async () => {
		const groups = await h.api.get('/groups', { 'filter[accountId]': DEMO_IDS.accountId });
		expectJsonApi(groups, 200);
		expect(ids(groups).length).toBeGreaterThan(0);
		expect(groups.data.data.every((g: any) => g.attributes.accountId === DEMO_IDS.accountId)).toBe(true);
		expect(groups.data.meta.page.total).toBe(
			h.sb.state.groups().filter((g) => g.attributes.accountId === DEMO_IDS.accountId).length,
		);
		expect((await h.api.get('/groups', { 'filter[accountId]': 'no-such-account' })).data.data).toEqual([]);

		const users = await h.api.get('/users', { 'filter[deploymentId]': DEMO_IDS.accountId });
		expectJsonApi(users, 200);
		expect(ids(users).length).toBeGreaterThan(0);
		expect(users.data.data.every((u: any) => u.attributes.deploymentId === DEMO_IDS.accountId)).toBe(true);

		const account = h.sb.state.accounts().find((a) => a.id === DEMO_IDS.accountId)!;
		const accounts = await h.api.get('/accounts', { 'filter[name]': account.attributes.name });
		expect(ids(accounts)).toContain(DEMO_IDS.accountId);
		expect(accounts.data.data.every((a: any) => a.attributes.name === account.attributes.name)).toBe(true);
	});

	it('storages: filter[type] and filter[enabled]', async () => {
		const stored = h.sb.state.storages();
		for (const type of ['file', 'object-aws']) {
			const res = await h.api.get('/storages', { 'filter[type]': type });
			expectJsonApi(res, 200);
			expect(ids(res).sort()).toEqual(stored.filter((s) => s.attributes.type === type).map((s) => s.id).sort());
			expect(ids(res).length).toBeGreaterThan(0);
		}
		const enabled = await h.api.get('/storages', { 'filter[enabled]': 'true' });
		expectJsonApi(enabled, 200);
		expect(ids(enabled).sort()).toEqual(stored.map((s) => s.id).sort());
		const disabled = await h.api.get('/storages', { 'filter[enabled]': 'false' });
		expectJsonApi(disabled, 200);
		expect(ids(disabled)).toEqual([]);
		expectError(await h.api.get('/storages', { 'filter[bogus]': '1' }), 400, 'invalid-filter');
	});

	it('storages: a storage the sandbox made unavailable counts as filter[enabled]=false', async () => {
		const bucket = DEMO_IDS.storageIds.bucket;
		h.sb.control.setStorageAvailable(bucket, false);
		try {
			expect(ids(await h.api.get('/storages', { 'filter[enabled]': 'false' }))).toEqual([bucket]);
			expect(ids(await h.api.get('/storages', { 'filter[enabled]': 'true' }))).not.toContain(bucket);
		} finally {
			h.sb.control.setStorageAvailable(bucket, true);
		}
		expect(ids(await h.api.get('/storages', { 'filter[enabled]': 'true' }))).toContain(bucket);
	});
});

describe('collections: sort', () => {
	const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
	let setPath = '';
	let records: any[] = [];

	beforeAll(async () => {
		const set = insertSet([
			{ name: 'b', transferType: 'copy', stats: emptyStats({ startedAt: t(2) }) },
			{ name: 'a', transferType: 'sync', stats: emptyStats() },
			{ name: 'c', transferType: 'copy', stats: emptyStats({ startedAt: t(1) }) },
			{ name: 'a', transferType: 'move', stats: emptyStats({ startedAt: t(3) }) },
			{ name: 'b', transferType: 'copy', stats: emptyStats() },
			{ name: 'a', transferType: 'copy', stats: emptyStats({ startedAt: t(1) }) },
			{ name: 'd', transferType: 'copy', stats: emptyStats() },
		]);
		setPath = set.setPath;
		const res = await h.api.get('/jobs', { 'filter[source.path]': setPath });
		records = res.data.data;
		expect(records).toHaveLength(7);
	});

	it.each([
		'name',
		'-name',
		'stats.startedAt',
		'-stats.startedAt',
		'name,-stats.startedAt',
		'-name,stats.startedAt',
		'transferType,name',
		'transferType,-name,stats.startedAt',
	])('sort=%s orders as the contract says (nulls last, ties by id asc)', async (sort) => {
		const res = await h.api.get('/jobs', { 'filter[source.path]': setPath, sort });
		expectJsonApi(res, 200);
		expect(ids(res)).toEqual(referenceSort(records, sort));
	});

	it('nulls come last in both directions', async () => {
		for (const sort of ['stats.startedAt', '-stats.startedAt']) {
			const res = await h.api.get('/jobs', { 'filter[source.path]': setPath, sort });
			const started = res.data.data.map((r: any) => r.attributes.stats.startedAt);
			expect(started.slice(4)).toEqual([null, null, null]);
			expect(started.slice(0, 4).every((s: unknown) => s !== null)).toBe(true);
		}
	});

	it('sorted paging with page[limit]=2 gives the same order as one page', async () => {
		const sort = '-name,stats.startedAt';
		const whole = ids(await h.api.get('/jobs', { 'filter[source.path]': setPath, sort }));
		const walked: string[] = [];
		let after: string | null = null;
		do {
			const q: Record<string, string> = { 'filter[source.path]': setPath, sort, 'page[limit]': '2' };
			if (after) q['page[after]'] = after;
			const res = await h.api.get('/jobs', q);
			expectJsonApi(res, 200);
			expect(res.data.meta.page.total).toBe(7);
			walked.push(...ids(res));
			after = res.data.meta.page.after;
		} while (after);
		expect(walked).toEqual(whole);
	});

	it('the described examples work: groups -accountId,name; users -deploymentId,email; storages createdAt', async () => {
		const groups = await h.api.get('/groups', { sort: '-accountId,name' });
		expectJsonApi(groups, 200);
		expect(ids(groups)).toEqual(referenceSort(groups.data.data, '-accountId,name'));
		const users = await h.api.get('/users', { sort: '-deploymentId,email' });
		expectJsonApi(users, 200);
		expect(ids(users)).toEqual(referenceSort(users.data.data, '-deploymentId,email'));
		const storages = await h.api.get('/storages', { sort: 'createdAt' });
		expectJsonApi(storages, 200);
		expect(ids(storages)).toEqual(referenceSort(storages.data.data, 'createdAt'));
	});

	it.each(['bogus', 'name,bogus', '-stats.nope', 'source.bogus'])('unknown sort field %s -> 400 invalid-sort', async (sort) => {
		expectError(await h.api.get('/jobs', { sort }), 400, 'invalid-sort');
	});
});

describe('collections: paging', () => {
	let setPath = '';
	let inserted: string[] = [];

	beforeAll(() => {
		setPath = `/${uniq('paging')}`;
		inserted = h.sb.control.insertJobs(250, {
			source: { type: 'file', id: DEMO_IDS.storageIds.files, path: setPath },
		});
		expect(inserted).toHaveLength(250);
	});

	it('page[limit] defaults to 20', async () => {
		const res = await h.api.get('/jobs', { 'filter[source.path]': setPath });
		expectJsonApi(res, 200);
		expect(res.data.data).toHaveLength(20);
		expect(res.data.meta.page).toEqual({ after: expect.any(String), total: 250 });
	});

	it('page[limit]=100 is the maximum accepted', async () => {
		const res = await h.api.get('/jobs', { 'filter[source.path]': setPath, 'page[limit]': '100' });
		expectJsonApi(res, 200);
		expect(res.data.data).toHaveLength(100);
		const one = await h.api.get('/jobs', { 'filter[source.path]': setPath, 'page[limit]': '1' });
		expect(one.data.data).toHaveLength(1);
	});

	it.each(['0', '101', 'abc', '-1', '1.5', '1e2'])('page[limit]=%s -> 400 invalid-page', async (limit) => {
		expectError(await h.api.get('/jobs', { 'page[limit]': limit }), 400, 'invalid-page');
	});

	it.each([10, 20, 100])('walking every page with page[limit]=%i returns each record exactly once', async (limit) => {
		const seen: string[] = [];
		let after: string | null = null;
		let pages = 0;
		do {
			const q: Record<string, string> = { 'filter[source.path]': setPath, 'page[limit]': String(limit) };
			if (after) q['page[after]'] = after;
			const res = await h.api.get('/jobs', q);
			expectJsonApi(res, 200);
			expect(res.data.meta.page.total).toBe(250);
			pages += 1;
			const expectedLength = Math.min(limit, 250 - seen.length);
			expect(res.data.data).toHaveLength(expectedLength);
			seen.push(...ids(res));
			after = res.data.meta.page.after;
			if (seen.length === 250) expect(after).toBeNull();
		} while (after && pages < 100);
		expect(pages).toBe(Math.ceil(250 / limit));
		expect(new Set(seen).size).toBe(250);
		expect([...seen].sort()).toEqual([...inserted].sort());
	});

	it('walking /jobs without filter returns every job in the store once', async () => {
		const all = await readAll(h, '/jobs');
		const got = all.map((r) => r.id);
		expect(new Set(got).size).toBe(got.length);
		expect(got.sort()).toEqual(h.sb.state.jobs().map((j) => j.id).sort());
	});

	it.each([
		['a word', 'forged'],
		['base64 JSON', Buffer.from(JSON.stringify({ id: '00000000-0000-4000-8000-000000000000' })).toString('base64url')],
		['base64 number', Buffer.from('20').toString('base64')],
	])('a cursor the server did not issue (%s) -> 400 invalid-page', async (_name, cursor) => {
		expectError(await h.api.get('/jobs', { 'filter[source.path]': setPath, 'page[after]': cursor }), 400, 'invalid-page');
	});
});

describe('collections: job-transfers and job-errors accept only page', () => {
	it('job-errors: pages with links.next as an absolute URL, null at the end', async () => {
		const [jobId] = h.sb.control.insertJobs(1, { status: 'running' });
		for (let i = 0; i < 25; i++) {
			h.sb.control.addJobError(jobId, { sourcePath: `/e/${i}.txt`, message: `m${i}`, event: i % 2 ? 'warning' : 'error' });
		}
		const seen: string[] = [];
		let url: string | null = `${h.sb.baseUrl}/jobs/${jobId}/errors?page%5Blimit%5D=10`;
		let pages = 0;
		while (url && pages < 10) {
			const res = await h.api.get(url);
			expectJsonApi(res, 200);
			pages += 1;
			expect(res.data.meta.page.total).toBe(25);
			for (const e of res.data.data) {
				expect(e).toEqual({
					id: expect.any(String),
					type: 'job-errors',
					attributes: expect.objectContaining({ sourcePath: expect.any(String), message: expect.any(String) }),
				});
				expect(['error', 'warning']).toContain(e.attributes.event);
			}
			seen.push(...res.data.data.map((e: any) => e.attributes.sourcePath));
			url = res.data.links.next;
			if (url !== null) {
				expect(url.startsWith(`${h.sb.baseUrl}/jobs/${jobId}/errors?`)).toBe(true);
				expect(res.data.meta.page.after).toEqual(expect.any(String));
			} else {
				expect(res.data.meta.page.after).toBeNull();
			}
		}
		expect(pages).toBe(3);
		expect(seen.sort()).toEqual(Array.from({ length: 25 }, (_, i) => `/e/${i}.txt`).sort());
	});

	it('job-transfers: pages with links.next as an absolute URL, null at the end', async () => {
		const src = `/${uniq('tp-src')}`;
		for (let i = 0; i < 5; i++) h.sb.control.writeFile(DEMO_IDS.storageIds.files, `${src}/f${i}.txt`, `file ${i}`);
		const jobId = await createJobOk(h, {
			source: { id: DEMO_IDS.storageIds.files, path: src },
			target: { id: DEMO_IDS.storageIds.archive, path: `/${uniq('tp-dst')}` },
		});
		expect((await waitFinal(h, jobId)).job.attributes.status).toBe('finished');
		const seen: string[] = [];
		let url: string | null = `${h.sb.baseUrl}/jobs/${jobId}/transfers?page%5Blimit%5D=2`;
		let pages = 0;
		while (url && pages < 10) {
			const res = await h.api.get(url);
			expectJsonApi(res, 200);
			pages += 1;
			expect(res.data.meta.page.total).toBe(5);
			seen.push(...res.data.data.map((t: any) => t.attributes.path));
			url = res.data.links.next;
			if (url !== null) expect(url.startsWith(`${h.sb.baseUrl}/jobs/${jobId}/transfers?`)).toBe(true);
		}
		expect(pages).toBe(3);
		expect(new Set(seen).size).toBe(5);
	});

	it.each(['transfers', 'errors'])('/jobs/{id}/%s: filter -> invalid-filter, sort -> invalid-sort, bad page -> invalid-page', async (sub) => {
		const [jobId] = h.sb.control.insertJobs(1, { status: 'finished' });
		expectError(await h.api.get(`/jobs/${jobId}/${sub}`, { 'filter[path]': '/x' }), 400, 'invalid-filter');
		expectError(await h.api.get(`/jobs/${jobId}/${sub}`, { 'filter[event]': 'error' }), 400, 'invalid-filter');
		expectError(await h.api.get(`/jobs/${jobId}/${sub}`, { sort: 'path' }), 400, 'invalid-sort');
		expectError(await h.api.get(`/jobs/${jobId}/${sub}`, { sort: '-timestamp' }), 400, 'invalid-sort');
		expectError(await h.api.get(`/jobs/${jobId}/${sub}`, { 'page[limit]': '0' }), 400, 'invalid-page');
		expectError(await h.api.get(`/jobs/${jobId}/${sub}`, { 'page[after]': 'forged' }), 400, 'invalid-page');
		const ok = await h.api.get(`/jobs/${jobId}/${sub}`, { 'page[limit]': '5' });
		expectJsonApi(ok, 200);
		expect(ok.data).toEqual({ data: [], meta: { page: { after: null, total: 0 } }, links: { next: null } });
	});
});
