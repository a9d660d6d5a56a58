import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { Money } from '../../../nodes/shared/api/types';
import { ARCHIVE, DEMO_IDS, FILES, createParameters, jobsNamed, listFiles, md5, rl, uniq, useJobSandbox } from './helpers';

const t = useJobSandbox();

describe('job: dry run, then run from dry run', () => {
	it('dry run + wait, read estimatedCost, Run From Dry Run + wait: the target holds the files with the md5 of the transfers', async () => {
		const name = uniq('chain');
		const targetPath = `/${uniq('chain-target')}`;
		const dry = await t.run(
			createParameters({
				dryRun: true,
				sourcePath: '/reports',
				targetPath,
				conflictHandling: 'overwrite',
				additionalFields: {
					name,
					failAfterErrors: 5,
					transferRateLimit: 50_000_000,
					groupId: rl(DEMO_IDS.groupIds[1]),
					userId: rl(DEMO_IDS.userIds[2]),
					scopeRules: { rules: [{ type: 'name', condition: 'matches', value: '\\.(csv|txt)$' }] },
				},
				waitForCompletion: true,
				pollInterval: 0.05,
			}),
		);
		expect(dry.error).toBeUndefined();
		const dryJob = dry.items[0].json;
		expect(dryJob.status).toBe('finished');
		const estimatedCost = (dryJob.stats as { estimatedCost: Money }).estimatedCost;
		expect(estimatedCost).toEqual({ amount: expect.stringMatching(/^\d+\.\d+$/), currency: 'USD' });
		// A dry run moves nothing.
		expect(listFiles(path.join(t.sandbox.state.storageDir(ARCHIVE), targetPath.slice(1)))).toEqual([]);

		const run = await t.run({
			operation: 'runFromDryRun',
			jobId: rl(dryJob.id as string, 'list'),
			waitForCompletion: true,
			pollInterval: 0.05,
		});
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		const out = run.items[0].json;
		expect(out).toEqual(
			expect.objectContaining({ dryRunJobId: dryJob.id, estimatedCost, status: 'finished', dryRun: false, name: `${name} (run)` }),
		);

		// The real job has the dry run's settings.
		const dryHeld = t.sandbox.state.job(dryJob.id as string)!.attributes;
		const real = t.sandbox.state.job(out.id as string)!.attributes;
		for (const key of [
			'transferType',
			'source',
			'target',
			'scope',
			'conflictHandling',
			'failureConditions',
			'transferRateLimit',
			'accountId',
			'userId',
			'groupId',
		] as const) {
			expect([key, real[key]]).toEqual([key, dryHeld[key]]);
		}
		expect(real.dryRun).toBe(false);

		// The files on disk are those the transfers name, with their md5.
		const transfers = await t.run({ operation: 'getTransfers', jobId: rl(out.id as string), returnAll: true });
		const records = transfers.items.map((item) => item.json as { path: string; hash: { md5: string }; status: number });
		expect(records.length).toBe(real.stats.filesCount);
		expect(records.length).toBeGreaterThan(0);
		const targetDir = t.sandbox.state.storageDir(ARCHIVE);
		const onDisk = listFiles(path.join(targetDir, targetPath.slice(1))).map((file) => `${targetPath}/${file}`);
		expect(onDisk).toEqual(records.map((record) => record.path).sort());
		for (const record of records) {
			expect(record.status).toBe(0);
			const content = readFileSync(path.join(targetDir, ...record.path.split('/').filter(Boolean)));
			expect([record.path, md5(content)]).toEqual([record.path, record.hash.md5]);
		}
		// ...and they are the source's files.
		const sourceFiles = listFiles(path.join(t.sandbox.state.storageDir(FILES), 'reports'));
		expect(onDisk.map((file) => file.slice(targetPath.length + 1)).sort()).toEqual(sourceFiles);
	});

	it('Name overrides the new job name; without waiting, the created job is output at once', async () => {
		const name = uniq('renamed');
		const { items, error } = await t.run({
			operation: 'runFromDryRun',
			jobId: rl(DEMO_IDS.jobIds.dryRun),
			name,
			simplify: false,
		});
		expect(error).toBeUndefined();
		const [created] = jobsNamed(t.sandbox, name);
		expect(created.attributes.dryRun).toBe(false);
		expect(items[0].json).toEqual(
			expect.objectContaining({
				id: created.id,
				name,
				dryRunJobId: DEMO_IDS.jobIds.dryRun,
				estimatedCost: t.sandbox.state.job(DEMO_IDS.jobIds.dryRun)!.attributes.stats.estimatedCost,
			}),
		);
		t.sandbox.control.setJobStatus(created.id, 'canceled');
	});

	it('refuses a job that is not a dry run, before creating anything', async () => {
		const posts = t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
		const jobs = t.sandbox.state.jobs().length;
		const result = await t.run({ operation: 'runFromDryRun', jobId: rl(DEMO_IDS.jobIds.copied) });
		expect(result.error?.message).toBe(`Job ${DEMO_IDS.jobIds.copied} is not a dry run [item 0]`);
		expect(t.sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(posts);
		expect(t.sandbox.state.jobs()).toHaveLength(jobs);
	});

	it('refuses a dry run that did not finish (running, failed), before creating anything', async () => {
		const [running] = t.sandbox.control.insertJobs(1, { dryRun: true, status: 'running' });
		const [failed] = t.sandbox.control.insertJobs(1, { dryRun: true, status: 'failed' });
		const posts = t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
		const jobs = t.sandbox.state.jobs().length;
		for (const [id, status] of [
			[running, 'running'],
			[failed, 'failed'],
		]) {
			const result = await t.run({ operation: 'runFromDryRun', jobId: rl(id) });
			expect(result.error?.message).toBe(`Dry-run job ${id} has status "${status}", not "finished" [item 0]`);
		}
		expect(t.sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(posts);
		expect(t.sandbox.state.jobs()).toHaveLength(jobs);
	});

	it('an unknown dry-run job: Entity Not Found', async () => {
		const result = await t.run({ operation: 'runFromDryRun', jobId: rl('0f0f0f0f-0000-4000-8000-000000000000') });
		expect([result.error?.message, result.error?.httpCode]).toEqual(['Entity Not Found', '404']);
	});
});
