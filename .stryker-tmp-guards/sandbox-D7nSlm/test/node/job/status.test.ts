// @ts-nocheck
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { startRecordingProxy } from '../../credential/proxy';
import { credentialsFor, runNode } from '../../harness/engine';
import { ARCHIVE, DEMO_IDS, createParameters, jobsNamed, md5, rl, uniq, useJobSandbox } from './helpers';

const t = useJobSandbox();

/** A job that the sandbox holds as running without working on it. */
const runningJob = () => t.sandbox.control.insertJobs(1, { status: 'running', name: uniq('inserted') })[0];

describe('job: pause, resume, cancel', () => {
	it('Pause sends PATCH {id, type, attributes: {status: paused}}; the sandbox holds the job paused', async () => {
		const id = runningJob();
		const proxy = await startRecordingProxy(t.sandbox.baseUrl);
		try {
			const { items, error } = await runNode({
				credentials: credentialsFor({ ...t.sandbox, baseUrl: proxy.baseUrl }),
				parameters: { resource: 'job', operation: 'pause', jobId: rl(id, 'list') },
			});
			expect(error).toBeUndefined();
			const patch = proxy.requests.filter((r) => r.method === 'PATCH');
			expect(patch.map((r) => [r.url, JSON.parse(r.body)])).toEqual([
				[`/jobs/${id}`, { data: { id, type: 'jobs', attributes: { status: 'paused' } } }],
			]);
			expect(t.sandbox.state.job(id)!.attributes.status).toBe('paused');
			expect(items.map((item) => [item.json.id, item.json.status])).toEqual([[id, 'paused']]);
		} finally {
			await proxy.close();
		}
	});

	it('Resume sets a paused job running again; Cancel cancels it', async () => {
		const id = runningJob();
		await t.run({ operation: 'pause', jobId: rl(id) });
		const resumed = await t.run({ operation: 'resume', jobId: rl(id) });
		expect(resumed.error).toBeUndefined();
		expect(t.sandbox.state.job(id)!.attributes.status).toBe('running');
		expect(resumed.items[0].json.status).toBe('running');

		const canceled = await t.run({ operation: 'cancel', jobId: rl(id) });
		expect(canceled.error).toBeUndefined();
		expect(t.sandbox.state.job(id)!.attributes.status).toBe('canceled');
		expect(canceled.items[0].json).toEqual(expect.objectContaining({ id, status: 'canceled' }));
		expect(canceled.items[0].json.stats).toEqual(expect.objectContaining({ finishedAt: expect.any(String) }));
	});

	it('Pause is repeated after a 500, since setting a status is idempotent', async () => {
		const id = runningJob();
		t.sandbox.faults.add({ kind: 'internal-error', method: 'PATCH', path: '/jobs/{id}' });
		const { items, error } = await t.run({ operation: 'pause', jobId: rl(id), requestOptions: { maxRetryWait: 0 } });
		expect(error).toBeUndefined();
		expect(t.sandbox.requests.count({ method: 'PATCH', path: `/jobs/${id}` })).toBe(2);
		expect(t.sandbox.state.job(id)!.attributes.status).toBe('paused');
		expect(items[0].json.status).toBe('paused');
	});

	it('pausing a paused job changes nothing and succeeds', async () => {
		const id = runningJob();
		await t.run({ operation: 'pause', jobId: rl(id) });
		const again = await t.run({ operation: 'pause', jobId: rl(id) });
		expect(again.error).toBeUndefined();
		expect(t.sandbox.state.job(id)!.attributes.status).toBe('paused');
	});

	it('pausing a finished job: NodeApiError with the API title, detail and a hint', async () => {
		const before = t.sandbox.state.job(DEMO_IDS.jobIds.copied)!;
		const result = await t.run({ operation: 'pause', jobId: rl(DEMO_IDS.jobIds.copied) });
		expect(result.error?.message).toBe('Invalid Status Transition');
		expect(result.error?.description).toContain('A job cannot go from "finished" to "paused".');
		expect(result.error?.description).toContain('Pause works while scanning, running or stuck');
		expect(result.error?.httpCode).toBe('409');
		expect(t.sandbox.state.job(DEMO_IDS.jobIds.copied)).toEqual(before);
	});

	it('resuming a failed job is refused by the API; canceling a canceled job is a no-op', async () => {
		const resume = await t.run({ operation: 'resume', jobId: rl(DEMO_IDS.jobIds.failedSync) });
		expect(resume.error?.message).toBe('Invalid Status Transition');
		expect(resume.error?.description).toContain('"failed"');
		const id = runningJob();
		await t.run({ operation: 'cancel', jobId: rl(id) });
		const again = await t.run({ operation: 'cancel', jobId: rl(id) });
		// Setting the status a job already has is a no-op answered 200 (docs/api-contract.md).
		expect(again.error).toBeUndefined();
		expect(t.sandbox.state.job(id)!.attributes.status).toBe('canceled');
	});

	it('an unknown job ID: Entity Not Found', async () => {
		for (const operation of ['pause', 'resume', 'cancel']) {
			const result = await t.run({ operation, jobId: rl('0f0f0f0f-0000-4000-8000-00000000abcd') });
			expect([operation, result.error?.message, result.error?.httpCode]).toEqual([operation, 'Entity Not Found', '404']);
		}
	});

	it('Resume with Wait for Completion: a real job paused mid-way is resumed and runs to the end', async () => {
		const name = uniq('resumable');
		const targetPath = `/${uniq('resumed')}`;
		// 1 byte per second: each file takes a while even at sandbox speed 1000, so the job can be paused.
		const created = await t.run(
			createParameters({ dryRun: false, targetPath, additionalFields: { name, transferRateLimit: 1 } }),
		);
		expect(created.error).toBeUndefined();
		const id = created.items[0].json.id as string;
		const paused = await t.run({ operation: 'pause', jobId: rl(id) });
		expect(paused.error).toBeUndefined();
		expect(t.sandbox.state.job(id)!.attributes.status).toBe('paused');

		const { items, error } = await t.run({
			operation: 'resume',
			jobId: rl(id),
			waitForCompletion: true,
			pollInterval: 0.05,
			maxWait: 60,
		});
		expect(error).toBeUndefined();
		const stored = t.sandbox.state.job(id)!;
		expect(stored.attributes.status).toBe('finished');
		expect(items.map((item) => [item.json.id, item.json.status])).toEqual([[id, 'finished']]);
		const transfers = t.sandbox.state.jobTransfers(id);
		expect(transfers.length).toBe(stored.attributes.stats.filesCount);
		for (const transfer of transfers) {
			const file = path.join(t.sandbox.state.storageDir(ARCHIVE), ...transfer.attributes.path.split('/').filter(Boolean));
			expect(md5(readFileSync(file))).toBe(transfer.attributes.hash.md5);
		}
		expect(jobsNamed(t.sandbox, name)).toHaveLength(1);
	});

	it('Resume with Wait for Completion fails the item when Max Wait runs out, naming the job and status', async () => {
		const id = t.sandbox.control.insertJobs(1, { status: 'paused', name: uniq('never-ends') })[0];
		const result = await t.run({
			operation: 'resume',
			jobId: rl(id),
			waitForCompletion: true,
			pollInterval: 0.05,
			maxWait: 0.15,
		});
		expect(result.error?.message).toBe(`Job ${id} did not end within 0.15 seconds; its last status was "running" [item 0]`);
		expect(t.sandbox.state.job(id)!.attributes.status).toBe('running');
	});
});
