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
