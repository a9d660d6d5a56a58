// @ts-nocheck
import { harness, type Harness } from './helpers';

describe('sandbox collections with 100,000 jobs', () => {
	let h: Harness;
	let finishedIds: string[];
	beforeAll(async () => {
		h = await harness({ demo: false });
		finishedIds = h.sandbox.control.insertJobs(60000, { status: 'finished' });
		h.sandbox.control.insertJobs(40000, { status: 'failed', stats: { startedAt: null } as never });
	});
	afterAll(() => h.sandbox.close());

	it('holds them all and counts the matching ones', async () => {
		expect(h.sandbox.state.jobs()).toHaveLength(100000);
		const res = await h.call('GET', '/jobs?filter[status]=failed&page[limit]=1');
		expect(res.body.meta.page.total).toBe(40000);
	});

	it('pages a filtered, sorted set with cursors and no repeats', async () => {
		const seen: string[] = [];
		let url = '/jobs?filter[status]=finished&sort=-updatedAt&page[limit]=100';
		for (let i = 0; i < 3; i++) {
			const res = await h.call('GET', url);
			expect(res.status).toBe(200);
			expect(res.body.data).toHaveLength(100);
			seen.push(...res.body.data.map((j: any) => j.id));
			url = `/jobs?filter[status]=finished&sort=-updatedAt&page[limit]=100&page[after]=${res.body.meta.page.after}`;
		}
		// inserted jobs have increasing updatedAt, so newest first is the reverse insertion order
		expect(seen).toEqual(finishedIds.slice(-300).reverse());
	});

	it('sorts nulls last in both directions', async () => {
		for (const sort of ['stats.startedAt', '-stats.startedAt']) {
			const res = await h.call('GET', `/jobs?sort=${sort}&page[limit]=100&page[after]=`);
			// an empty cursor was not issued by the server
			expect(res.status).toBe(400);
			const first = await h.call('GET', `/jobs?sort=${sort}&page[limit]=5`);
			expect(first.body.data.every((j: any) => j.attributes.stats.startedAt !== null)).toBe(true);
		}
	});

	it('refuses unknown filters, sorts, limits and foreign cursors', async () => {
		expect((await h.call('GET', '/jobs?filter[bogus]=1')).body.errors[0].code).toBe('invalid-filter');
		expect((await h.call('GET', '/jobs?sort=bogus')).body.errors[0].code).toBe('invalid-sort');
		expect((await h.call('GET', '/jobs?page[limit]=101')).body.errors[0].code).toBe('invalid-page');
		expect((await h.call('GET', '/jobs?page[after]=abc.def')).body.errors[0].code).toBe('invalid-page');
	});
});

describe('filter[status] reads the jobs filed under that status', () => {
	it('stays exact while the engine and the control API change statuses, also after a restart on a data folder', async () => {
		const fs = await import('node:fs');
		const os = await import('node:os');
		const path = await import('node:path');
		const { DEMO_IDS } = await import('../../sandbox/src/index');
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ftm-status-index-'));
		// Checked while nothing moves: the job created here waits 20 s before it scans (speed 0.01).
		const check = async (h: Harness) => {
			const all = h.sandbox.state.jobs();
			for (const status of ['scanning', 'running', 'paused', 'stuck', 'finished', 'failed', 'canceled', 'null', 'bogus']) {
				const res = await h.call('GET', `/jobs?filter[status]=${status}&sort=id&page[limit]=100`);
				expect(res.status).toBe(200);
				const expected = all.filter((j) => j.attributes.status === status).map((j) => j.id).sort();
				expect({ status, ids: res.body.data.map((j: { id: string }) => j.id) }).toEqual({ status, ids: expected.slice(0, 100) });
				expect(res.body.meta.page.total).toBe(expected.length);
			}
		};
		const patch = (h: Harness, id: string, status: string) =>
			h.call('PATCH', `/jobs/${id}`, { data: { type: 'jobs', id, attributes: { status } } });
		let h: Harness | undefined;
		try {
			h = await harness({ demo: true, dataDir, speed: 0.01 });
			const ids = h.sandbox.control.insertJobs(30, { status: 'running' });
			ids.slice(0, 10).forEach((id, i) => h!.sandbox.control.setJobStatus(id, (['paused', 'stuck', 'finished', 'failed', 'canceled'] as const)[i % 5]));
			const body = {
				data: {
					type: 'jobs',
					attributes: {
						transferType: 'copy',
						conflictHandling: 'overwrite',
						source: { id: DEMO_IDS.storageIds.files, type: 'file', path: '/reports' },
						target: { id: DEMO_IDS.storageIds.archive, path: '/index' },
					},
				},
			};
			const created = await h.call('POST', '/jobs', body);
			expect(created.status).toBe(201);
			const second = (await h.call('POST', '/jobs', body)).body.data.id as string;
			await check(h);
			expect((await patch(h, created.body.data.id, 'paused')).status).toBe(200);
			expect((await patch(h, second, 'canceled')).status).toBe(200);
			expect((await patch(h, ids[20], 'paused')).status).toBe(200);
			await check(h);
			await h.sandbox.close();
			h = await harness({ dataDir, speed: 0.01 });
			await check(h);
			expect((await patch(h, ids[20], 'running')).status).toBe(200);
			await check(h);
		} finally {
			await h?.sandbox.close();
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	});
});
