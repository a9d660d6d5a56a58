import { NodeApiError } from 'n8n-workflow';

import type { Job, JobStats } from '../../nodes/shared/api/types';
import type { Sandbox } from '../../sandbox/src/api';
import { DEMO_IDS, handleFor, keys, nextMillisecond, params, pollJson, rl, sandboxForTrigger, triggerState } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await sandboxForTrigger();
});
afterAll(async () => {
	await sandbox.close();
});

const snapshot = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** A trigger that has taken its position (first activation done). */
async function activeHandle(parameters = params()) {
	const handle = handleFor(sandbox, parameters);
	expect(await handle.poll()).toBeNull();
	return handle;
}

describe('stuck', () => {
	it('stuck → running → stuck fires twice, once per entry', async () => {
		const handle = await activeHandle();
		const [id] = sandbox.control.insertJobs(1, { status: 'running' });
		sandbox.control.setJobStatus(id, 'stuck');
		expect(keys(await pollJson(handle))).toEqual([`${id}:stuck`]);
		sandbox.control.setJobStatus(id, 'running');
		expect(await pollJson(handle)).toEqual([]);
		expect(triggerState(handle).stuck).toEqual([]);
		sandbox.control.setJobStatus(id, 'stuck');
		expect(keys(await pollJson(handle))).toEqual([`${id}:stuck`]);
		sandbox.control.setJobStatus(id, 'finished');
		expect(keys(await pollJson(handle))).toEqual([`${id}:finished`]);
		expect(triggerState(handle).stuck).toEqual([]);
	});

	it('a stuck job that only gets updated (no status change) fires once', async () => {
		const handle = await activeHandle();
		const [id] = sandbox.control.insertJobs(1, { status: 'running' });
		sandbox.control.setJobStatus(id, 'stuck');
		expect(keys(await pollJson(handle))).toEqual([`${id}:stuck`]);
		for (let i = 0; i < 3; i++) {
			await nextMillisecond();
			const before = sandbox.state.job(id)!.attributes.updatedAt;
			sandbox.control.addJobError(id, { sourcePath: `/f${i}`, message: 'target unreachable', event: 'warning' });
			expect(sandbox.state.job(id)!.attributes.updatedAt > before).toBe(true);
			handle.restart();
			expect(await pollJson(handle)).toEqual([]);
		}
		expect(triggerState(handle).stuck).toEqual([id]);
	});

	it('is never filtered on the server, so that leaving stuck is seen', async () => {
		const handle = await activeHandle(params({ events: ['stuck'] }));
		const [id] = sandbox.control.insertJobs(1, { status: 'running' });
		sandbox.control.setJobStatus(id, 'stuck');
		await pollJson(handle);
		const last = sandbox.requests.all().filter((r) => r.path === '/jobs').pop()!;
		expect(last.query['filter[status]']).toBeUndefined();
		expect(last.query.sort).toBe('-updatedAt');
	});
});

describe('events', () => {
	it('canceled fires only when selected', async () => {
		const defaults = await activeHandle();
		const withCanceled = await activeHandle(params({ events: ['canceled', 'failed', 'finished', 'stuck'] }));
		const [id] = sandbox.control.insertJobs(1, { status: 'running' });
		sandbox.control.setJobStatus(id, 'canceled');
		expect(await pollJson(defaults)).toEqual([]);
		expect(keys(await pollJson(withCanceled))).toEqual([`${id}:canceled`]);
	});

	it('one watched final status is filtered on the server', async () => {
		const handle = await activeHandle(params({ events: ['failed'] }));
		const [a, b] = sandbox.control.insertJobs(2, { status: 'running' });
		sandbox.control.setJobStatus(a, 'failed');
		sandbox.control.setJobStatus(b, 'finished');
		expect(keys(await pollJson(handle))).toEqual([`${a}:failed`]);
		const last = sandbox.requests.all().filter((r) => r.path === '/jobs').pop()!;
		expect(last.query['filter[status]']).toBe('failed');
	});

	it('emits one item per event, oldest first: event, seenAt (server time) and the flattened job', async () => {
		const handle = await activeHandle();
		const [a, b] = sandbox.control.insertJobs(2, { status: 'running' });
		sandbox.control.setJobStatus(b, 'failed');
		await nextMillisecond();
		sandbox.control.setJobStatus(a, 'finished');
		const items = await pollJson(handle);
		expect(keys(items)).toEqual([`${b}:failed`, `${a}:finished`]);
		const job = sandbox.state.job(a)!;
		expect(items[1]).toEqual({ event: 'finished', seenAt: job.attributes.updatedAt, id: a, ...job.attributes });
	});
});

describe('filters', () => {
	it('dry runs (only, exclude), transfer type and source/target storage are respected', async () => {
		const bucket = DEMO_IDS.storageIds.bucket;
		const handles = {
			all: await activeHandle(),
			dryOnly: await activeHandle(params({ filters: { dryRun: 'only' } })),
			dryExclude: await activeHandle(params({ filters: { dryRun: 'exclude' } })),
			moves: await activeHandle(params({ filters: { transferType: 'move' } })),
			fromBucket: await activeHandle(params({ filters: { sourceStorageId: rl(bucket) } })),
			toBucket: await activeHandle(params({ filters: { targetStorageId: rl(bucket), dryRun: 'only' } })),
		};
		const ids = [
			...sandbox.control.insertJobs(2, { status: 'running', dryRun: true }),
			...sandbox.control.insertJobs(2, { status: 'running', dryRun: false, transferType: 'move' }),
			...sandbox.control.insertJobs(2, {
				status: 'running',
				source: { type: 'object-aws', id: bucket, path: null },
			}),
			...sandbox.control.insertJobs(2, {
				status: 'running',
				dryRun: true,
				transferType: 'sync',
				conflictHandling: null,
				target: { id: bucket, path: '/mirror', type: 'object-aws' },
			}),
		];
		ids.forEach((id, i) => sandbox.control.setJobStatus(id, i % 2 ? 'failed' : 'finished'));
		const jobs = ids.map((id) => sandbox.state.job(id)!);
		const expected: Record<keyof typeof handles, (job: Job) => boolean> = {
			all: () => true,
			dryOnly: (job) => job.attributes.dryRun,
			dryExclude: (job) => !job.attributes.dryRun,
			moves: (job) => job.attributes.transferType === 'move',
			fromBucket: (job) => job.attributes.source.id === bucket,
			toBucket: (job) => job.attributes.target.id === bucket && job.attributes.dryRun,
		};
		for (const [name, handle] of Object.entries(handles)) {
			const want = jobs.filter(expected[name as keyof typeof handles]).map((job) => job.id);
			expect(want.length).toBeGreaterThan(0);
			const got = (await pollJson(handle)).map((json) => String(json.id));
			expect({ name, got: got.sort() }).toEqual({ name, got: want.sort() });
		}
	});

	it('rejects an id that is not a UUID before any request', async () => {
		const handle = handleFor(sandbox, params({ filters: { accountId: rl('acme') } }));
		const before = sandbox.requests.count();
		await expect(handle.poll()).rejects.toThrow('"Filters → Account" must be a UUID');
		expect(sandbox.requests.count()).toBe(before);
	});
});

describe('options', () => {
	it('attaches the first N errors to failed and stuck events, one request each, none for finished', async () => {
		const handle = await activeHandle(params({ options: { attachErrors: 2 } }));
		const [failed, stuck, finished] = sandbox.control.insertJobs(3, { status: 'running' });
		for (const [i, message] of ['disk full', 'checksum mismatch', 'permission denied'].entries()) {
			sandbox.control.addJobError(failed, { sourcePath: `/data/${i}.csv`, message });
		}
		sandbox.control.addJobError(stuck, { sourcePath: '/data/x', message: 'target unreachable', event: 'warning' });
		sandbox.control.addJobError(finished, { sourcePath: '/data/y', message: 'skipped a link', event: 'warning' });
		sandbox.control.setJobStatus(failed, 'failed');
		sandbox.control.setJobStatus(stuck, 'stuck');
		sandbox.control.setJobStatus(finished, 'finished');

		const before = sandbox.requests.count({ route: '/jobs/{id}/errors' });
		const items = await pollJson(handle);
		expect(sandbox.requests.count({ route: '/jobs/{id}/errors' }) - before).toBe(2);
		const byId = new Map(items.map((json) => [json.id, json]));
		const errorsOf = (id: string) =>
			sandbox.state.jobErrors(id).map((record) => ({ id: record.id, ...record.attributes }));
		expect(byId.get(failed)).toMatchObject({ event: 'failed', errorsTotal: 3, errors: errorsOf(failed).slice(0, 2) });
		expect(byId.get(stuck)).toMatchObject({ event: 'stuck', errorsTotal: 1, errors: errorsOf(stuck) });
		expect(byId.get(finished)).not.toHaveProperty('errors');
	});

	it('attaches a transfer summary computed from the stats, without a request', async () => {
		const handle = await activeHandle(params({ options: { attachTransferSummary: true } }));
		const startedAt = new Date(Date.now() - 90_000).toISOString();
		const stats: JobStats = {
			startedAt,
			finishedAt: null,
			estimatedDuration: null,
			estimatedCost: null,
			estimatedFinishedAt: null,
			scannedFilesCount: 12,
			filesCount: 10,
			filesSize: 2_000_000,
			transferredCount: 4,
			transferredSize: 500_000,
		};
		const [id] = sandbox.control.insertJobs(1, { status: 'running', stats });
		sandbox.control.setJobStatus(id, 'failed');
		const before = sandbox.requests.count();
		const [item] = await pollJson(handle);
		expect(sandbox.requests.count() - before).toBe(1);
		const job = sandbox.state.job(id)!;
		const seconds = (Date.parse(job.attributes.stats.finishedAt!) - Date.parse(startedAt)) / 1000;
		expect(item.transferSummary).toEqual({
			filesCount: 10,
			filesSize: 2_000_000,
			transferredCount: 4,
			transferredSize: 500_000,
			remainingCount: 6,
			remainingSize: 1_500_000,
			percentDone: 25,
			startedAt,
			finishedAt: job.attributes.stats.finishedAt,
			durationSeconds: seconds,
			averageBytesPerSecond: Math.round(500_000 / seconds),
			dryRun: false,
			estimatedDurationSeconds: job.attributes.stats.estimatedDuration ?? null,
			estimatedCost: null,
			currency: null,
			text: expect.stringMatching(/^Transferred 4 of 10 files \(500\.0 KB of 2\.0 MB\) in 1m 3\ds\.$/),
		});
	});
});

describe('a failing poll', () => {
	it('raises a clear error, saves nothing, and the next poll delivers what it would have', async () => {
		const handle = await activeHandle();
		const ids = sandbox.control.insertJobs(3, { status: 'running' });
		for (const id of ids) sandbox.control.setJobStatus(id, 'failed');
		const state = snapshot(handle.staticData());
		sandbox.faults.add({ kind: 'internal-error', path: '/jobs', times: 1 });
		const error = await handle.poll().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('500');
		expect((error as NodeApiError).description).toContain('Nothing from this poll was saved');
		expect(snapshot(handle.staticData())).toEqual(state);
		expect(keys(await pollJson(handle)).sort()).toEqual(ids.map((id) => `${id}:failed`).sort());
	});

	it('that fails on its second page saves nothing of the first', async () => {
		const handle = await activeHandle();
		const ids = sandbox.control.insertJobs(150, { status: 'running' });
		for (const id of ids) sandbox.control.setJobStatus(id, 'finished');
		const state = snapshot(handle.staticData());
		sandbox.faults.add({ kind: 'bad-gateway', path: '/jobs', after: 1, times: 1 });
		await expect(handle.poll()).rejects.toBeInstanceOf(NodeApiError);
		expect(snapshot(handle.staticData())).toEqual(state);
		const items = await pollJson(handle);
		expect(items).toHaveLength(150);
		expect(new Set(keys(items))).toEqual(new Set(ids.map((id) => `${id}:finished`)));
	});

	it('that fails while fetching errors to attach saves nothing either', async () => {
		const handle = await activeHandle(params({ options: { attachErrors: 5 } }));
		const [id] = sandbox.control.insertJobs(1, { status: 'running' });
		sandbox.control.addJobError(id, { sourcePath: '/a', message: 'disk full' });
		sandbox.control.setJobStatus(id, 'failed');
		const state = snapshot(handle.staticData());
		sandbox.faults.add({ kind: 'unavailable', path: '/jobs/{id}/errors', times: 1 });
		await expect(handle.poll()).rejects.toBeInstanceOf(NodeApiError);
		expect(snapshot(handle.staticData())).toEqual(state);
		const [item] = await pollJson(handle);
		expect(item).toMatchObject({ id, event: 'failed', errorsTotal: 1 });
	});
});
