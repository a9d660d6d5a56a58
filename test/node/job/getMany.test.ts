import type { Job, JobAttributes, JobStats } from '../../../nodes/shared/api/types';
import { ARCHIVE, BUCKET, DEMO_IDS, FILES, rl, uniq, useJobSandbox } from './helpers';

const t = useJobSandbox();

const GROUP = DEMO_IDS.groupIds[0];
const USER = DEMO_IDS.userIds[1];
const T1 = '2024-03-01T10:00:00.000Z';
const T2 = '2024-03-02T10:00:00.000Z';

const stats = (over: Partial<JobStats>) => over as JobStats;

/** Compares like the API: ascending unless desc, nulls last either way. */
function compareValues(a: unknown, b: unknown, desc: boolean): number {
	if (a === b) return 0;
	if (a === null || a === undefined) return 1;
	if (b === null || b === undefined) return -1;
	const order = (a as string | number) < (b as string | number) ? -1 : 1;
	return desc ? -order : order;
}

describe('job: get many', () => {
	let tag: string;
	let expected: Job[];

	beforeAll(() => {
		tag = uniq('gm');
		const matching: Partial<JobAttributes> = {
			transferType: 'move',
			dryRun: false,
			status: 'finished',
			groupId: GROUP,
			userId: USER,
			conflictHandling: 'overwrite',
			source: { type: 'file', id: FILES, path: `/${tag}` },
			target: { type: 'file', id: ARCHIVE, path: null },
		};
		const insert = (count: number, over: Partial<JobAttributes>) =>
			t.sandbox.control.insertJobs(count, { ...matching, ...over });
		insert(3, { name: 'b', stats: stats({ finishedAt: T1 }) });
		insert(2, { name: 'a', stats: stats({ finishedAt: T2 }) });
		insert(2, { name: 'c', stats: stats({ finishedAt: null }) });
		insert(1, { name: 'a', stats: stats({ finishedAt: T1 }) });
		// One attribute off each:
		insert(1, { name: 'x', dryRun: true });
		insert(1, { name: 'x', transferType: 'copy' });
		insert(1, { name: 'x', status: 'failed' });
		insert(1, { name: 'x', groupId: DEMO_IDS.groupIds[1] });
		insert(1, { name: 'x', userId: DEMO_IDS.userIds[0] });
		insert(1, { name: 'x', target: { type: 'object-aws', id: BUCKET, path: null } });
		insert(1, { name: 'x', source: { type: 'object-aws', id: BUCKET, path: null } });

		const matches = (job: Job) => {
			const a = job.attributes;
			return (
				a.transferType === 'move' &&
				a.dryRun === false &&
				a.status === 'finished' &&
				a.groupId === GROUP &&
				a.userId === USER &&
				a.accountId === DEMO_IDS.accountId &&
				a.source.id === FILES &&
				a.target.id === ARCHIVE
			);
		};
		expected = t.sandbox.state
			.jobs()
			.filter(matches)
			.sort(
				(x, y) =>
					compareValues(x.attributes.stats.finishedAt, y.attributes.stats.finishedAt, true) ||
					compareValues(x.attributes.name, y.attributes.name, false) ||
					compareValues(x.id, y.id, false),
			);
	});

	it('Filters and Sort (stats.finishedAt descending, then name): what the sandbox holds, in that order', async () => {
		// Guard against a vacuous comparison: the eight jobs inserted to match, and only them.
		expect(expected).toHaveLength(8);
		expect(expected.map((job) => job.attributes.source.path)).toEqual(Array(8).fill(`/${tag}`));

		const { items, error } = await t.run({
			operation: 'getMany',
			returnAll: true,
			filters: {
				status: 'finished',
				dryRun: false,
				transferType: 'move',
				accountId: rl(DEMO_IDS.accountId, 'list'),
				groupId: rl(GROUP),
				userId: rl(USER, 'list'),
				sourceStorageId: rl(FILES),
				targetStorageId: rl(ARCHIVE),
			},
			sort: {
				rules: [
					{ field: 'stats.finishedAt', direction: 'descending' },
					{ field: 'name', direction: 'ascending' },
				],
			},
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual(expected.map((job) => job.id));
		expect(items.map((item) => [item.json.name, (item.json.stats as JobStats).finishedAt])).toEqual([
			['a', T2],
			['a', T2],
			['a', T1],
			['b', T1],
			['b', T1],
			['b', T1],
			['c', null],
			['c', null],
		]);
		const query = t.sandbox.requests.all().filter((r) => r.method === 'GET' && r.path === '/jobs').pop()!.query;
		expect(query).toEqual(
			expect.objectContaining({
				'filter[status]': 'finished',
				'filter[dryRun]': 'false',
				'filter[transferType]': 'move',
				'filter[accountId]': DEMO_IDS.accountId,
				'filter[groupId]': GROUP,
				'filter[userId]': USER,
				'filter[source.id]': FILES,
				'filter[target.id]': ARCHIVE,
				sort: '-stats.finishedAt,name',
			}),
		);
	});

	it('Limit stops at the limit; Simplify off gives the full jobs', async () => {
		const { items } = await t.run({
			operation: 'getMany',
			returnAll: false,
			limit: 3,
			simplify: false,
			filters: { transferType: 'move', sourceStorageId: rl(FILES), groupId: rl(GROUP) },
			sort: { rules: [{ field: 'createdAt', direction: 'descending' }] },
		});
		const held = t.sandbox.state
			.jobs()
			.filter((job) => job.attributes.transferType === 'move' && job.attributes.source.id === FILES && job.attributes.groupId === GROUP)
			.sort((x, y) => compareValues(x.attributes.createdAt, y.attributes.createdAt, true) || compareValues(x.id, y.id, false));
		expect(held.length).toBeGreaterThan(3);
		expect(items.map((item) => item.json)).toEqual(held.slice(0, 3).map((job) => ({ id: job.id, ...job.attributes })));
	});

	it('a dry-run filter on: only dry runs', async () => {
		const { items } = await t.run({ operation: 'getMany', returnAll: true, filters: { dryRun: true } });
		const held = t.sandbox.state.jobs().filter((job) => job.attributes.dryRun);
		expect(held.length).toBeGreaterThan(0);
		expect(items.map((item) => item.json.id).sort()).toEqual(held.map((job) => job.id).sort());
	});
});
