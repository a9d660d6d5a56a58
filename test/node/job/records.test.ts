import { DEMO_IDS, rl, useJobSandbox } from './helpers';
import type { JobError, JobTransfer } from '../../../nodes/shared/api/types';

const t = useJobSandbox();

const OUTCOME: Record<number, string> = { 0: 'transferred', 1: 'skipped', [-1]: 'failed' };
const transferItem = (jobId: string, transfer: JobTransfer) => ({
	jobId,
	...transfer.attributes,
	outcome: OUTCOME[transfer.attributes.status],
});
const errorItem = (jobId: string, error: JobError) => ({ id: error.id, jobId, ...error.attributes });

describe('job: get transfers', () => {
	it('one item per transfer record, with jobId and outcome, as the sandbox holds them', async () => {
		const jobId = DEMO_IDS.jobIds.failedSync;
		const held = t.sandbox.state.jobTransfers(jobId);
		expect(held.length).toBeGreaterThan(0);
		const { items, error } = await t.run({ operation: 'getTransfers', jobId: rl(jobId, 'list'), returnAll: true });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual(held.map((transfer) => transferItem(jobId, transfer)));
		expect(items.map((item) => item.pairedItem)).toEqual(held.map(() => ({ item: 0 })));
	});

	it('Limit returns the first records only', async () => {
		const jobId = DEMO_IDS.jobIds.copied;
		const held = t.sandbox.state.jobTransfers(jobId);
		expect(held.length).toBeGreaterThan(2);
		const { items } = await t.run({ operation: 'getTransfers', jobId: rl(jobId), returnAll: false, limit: 2 });
		expect(items.map((item) => item.json)).toEqual(held.slice(0, 2).map((transfer) => transferItem(jobId, transfer)));
	});

	it('several input items: each gets the records of its own job', async () => {
		const ids = [DEMO_IDS.jobIds.copied, DEMO_IDS.jobIds.failedSync];
		const { items } = await t.run(
			{ operation: 'getTransfers', jobId: rl('={{ $json.id }}'), returnAll: true },
			{ items: ids.map((id) => ({ json: { id } })) },
		);
		const expected = ids.flatMap((id, index) =>
			t.sandbox.state.jobTransfers(id).map((transfer) => ({ json: transferItem(id, transfer), pairedItem: { item: index } })),
		);
		expect(items.map((item) => ({ json: item.json, pairedItem: item.pairedItem }))).toEqual(expected);
	});

	it('an unknown job: Entity Not Found', async () => {
		const result = await t.run({ operation: 'getTransfers', jobId: rl('0f0f0f0f-0000-4000-8000-000000000000') });
		expect([result.error?.message, result.error?.httpCode]).toEqual(['Entity Not Found', '404']);
	});
});

describe('job: get errors', () => {
	it('one item per error or warning, with its id and jobId, as the sandbox holds them', async () => {
		const jobId = DEMO_IDS.jobIds.failedSync;
		const held = t.sandbox.state.jobErrors(jobId);
		expect(held.length).toBeGreaterThan(0);
		const { items, error } = await t.run({ operation: 'getErrors', jobId: rl(jobId), returnAll: true });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual(held.map((record) => errorItem(jobId, record)));
	});

	it('Return All follows the pages (250 records: 3 requests); Limit 5 makes one request', async () => {
		const [jobId] = t.sandbox.control.insertJobs(1, { status: 'finished' });
		for (let i = 0; i < 250; i++) {
			t.sandbox.control.addJobError(jobId, {
				sourcePath: `/data/file-${i}.csv`,
				message: `could not read file ${i}`,
				event: i % 3 === 0 ? 'warning' : 'error',
			});
		}
		const held = t.sandbox.state.jobErrors(jobId);
		expect(held).toHaveLength(250);

		const all = await t.run({ operation: 'getErrors', jobId: rl(jobId), returnAll: true });
		expect(all.items.map((item) => item.json)).toEqual(held.map((record) => errorItem(jobId, record)));
		expect(t.sandbox.requests.count({ method: 'GET', path: `/jobs/${jobId}/errors` })).toBe(3);

		const limited = await t.run({ operation: 'getErrors', jobId: rl(jobId), returnAll: false, limit: 5 });
		expect(limited.items.map((item) => item.json)).toEqual(held.slice(0, 5).map((record) => errorItem(jobId, record)));
		expect(t.sandbox.requests.count({ method: 'GET', path: `/jobs/${jobId}/errors` })).toBe(4);
	});

	it('a job without errors gives no items', async () => {
		const { items, error } = await t.run({ operation: 'getErrors', jobId: rl(DEMO_IDS.jobIds.copied), returnAll: true });
		expect(error).toBeUndefined();
		expect(t.sandbox.state.jobErrors(DEMO_IDS.jobIds.copied)).toEqual([]);
		expect(items).toEqual([]);
	});
});
