// @ts-nocheck
import { useJobSandbox } from './helpers';

// No demo data: the sandbox holds exactly the jobs inserted here.
const t = useJobSandbox({ demo: false });

describe('job: get many over 10,000 jobs', () => {
	let ids: string[];

	beforeAll(() => {
		ids = t.sandbox.control.insertJobs(10_000);
		t.sandbox.requests.clear();
	});

	it('Return All returns all 10,000 with exactly ceil(10000 / 100) = 100 list requests', async () => {
		const { items, error } = await t.run({ operation: 'getMany', returnAll: true });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(10_000);
		const returned = items.map((item) => item.json.id as string);
		expect(new Set(returned).size).toBe(10_000);
		expect([...returned].sort()).toEqual([...ids].sort());
		expect(t.sandbox.requests.count({ method: 'GET', path: '/jobs' })).toBe(Math.ceil(10_000 / 100));
	});

	it('Limit 5 makes one request and returns the first five', async () => {
		t.sandbox.requests.clear();
		const { items } = await t.run({
			operation: 'getMany',
			returnAll: false,
			limit: 5,
			sort: { rules: [{ field: 'createdAt', direction: 'ascending' }] },
		});
		expect(t.sandbox.requests.count({ method: 'GET', path: '/jobs' })).toBe(1);
		const held = t.sandbox.state
			.jobs()
			.sort((a, b) => (a.attributes.createdAt < b.attributes.createdAt ? -1 : a.attributes.createdAt > b.attributes.createdAt ? 1 : a.id < b.id ? -1 : 1));
		expect(items.map((item) => item.json.id)).toEqual(held.slice(0, 5).map((job) => job.id));
	});
});
