// @ts-nocheck
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_IDS } from '../../sandbox/src/index';
import { harness, type Harness } from './helpers';

const { files, archive, bucket } = DEMO_IDS.storageIds;
const md5 = (file: string) => createHash('md5').update(fs.readFileSync(file)).digest('hex');

function jobBody(attributes: Record<string, unknown>) {
	return { data: { type: 'jobs', attributes } };
}

describe('sandbox job engine', () => {
	let h: Harness;
	beforeEach(async () => {
		h = await harness({ speed: 1000 });
	});
	afterEach(() => h.sandbox.close());

	async function run(attributes: Record<string, unknown>) {
		const created = await h.call('POST', '/jobs', jobBody(attributes));
		expect(created.status).toBe(201);
		expect(created.body.data.attributes.status).toBe('scanning');
		const job = await h.sandbox.control.waitForJob(created.body.data.id, 10000);
		return { job, transfers: h.sandbox.state.jobTransfers(job.id), errors: h.sandbox.state.jobErrors(job.id) };
	}

	it('copies files to an object-aws storage with md5 and quoted S3 ETag that match the disk', async () => {
		const { job, transfers } = await run({
			transferType: 'copy',
			conflictHandling: 'skip',
			source: { type: 'file', id: files, path: '/reports' },
			target: { id: bucket, path: '/copied' },
			scope: { type: 'rules', method: 'include-if-all', rules: [{ type: 'name', condition: 'ends-with', value: '.csv' }] },
		});
		expect(job.attributes.status).toBe('finished');
		expect(transfers.map((t) => t.attributes.path).sort()).toEqual(['/copied/2024/q1.csv', '/copied/2024/q2.csv']);
		const bucketDir = h.sandbox.state.storageDir(bucket);
		for (const t of transfers) {
			const onDisk = md5(path.join(bucketDir, t.attributes.path));
			expect(t.attributes.status).toBe(0);
			expect(t.attributes.hash.md5).toBe(onDisk);
			expect(t.attributes.hash.s3Etag).toBe(`"${onDisk}"`);
		}
		expect(job.attributes.stats).toMatchObject({ scannedFilesCount: 4, filesCount: 2, transferredCount: 2 });
		expect(fs.existsSync(path.join(h.sandbox.state.storageDir(files), 'reports/2024/q1.csv'))).toBe(true);
	});

	it('renames on conflict as <name>_copy-<n>.<ext> with the smallest free n', async () => {
		h.sandbox.control.writeFile(archive, '/reports/readme_copy-1.txt', 'taken');
		const { transfers } = await run({
			transferType: 'copy',
			conflictHandling: 'rename',
			source: { type: 'file', id: files, path: '/reports/readme.txt' },
			target: { id: archive, path: '/reports' },
		});
		expect(transfers.map((t) => t.attributes.path)).toEqual(['/reports/readme_copy-2.txt']);
	});

	it('moves files: the source loses them', async () => {
		const { job } = await run({
			transferType: 'move',
			conflictHandling: 'overwrite',
			source: { type: 'file', id: files, path: '/logs' },
			target: { id: archive, path: '/logs' },
		});
		expect(job.attributes.status).toBe('finished');
		expect(fs.existsSync(path.join(h.sandbox.state.storageDir(files), 'logs/app.log'))).toBe(false);
		expect(fs.existsSync(path.join(h.sandbox.state.storageDir(archive), 'logs/archive/app-2024-05.log'))).toBe(true);
	});

	it('syncs: unchanged files are skipped, extra target files deleted', async () => {
		h.sandbox.control.writeFile(archive, '/reports/extra.bin', 'not on source');
		const { transfers } = await run({
			transferType: 'sync',
			source: { type: 'file', id: files, path: '/reports' },
			target: { id: archive, path: '/reports' },
		});
		expect(transfers.every((t) => t.attributes.status === 1)).toBe(true);
		expect(transfers).toHaveLength(4);
		expect(fs.existsSync(path.join(h.sandbox.state.storageDir(archive), 'reports/extra.bin'))).toBe(false);
	});

	it('dry run estimates and moves nothing', async () => {
		const { job, transfers } = await run({
			transferType: 'copy',
			conflictHandling: 'skip',
			dryRun: true,
			source: { type: 'file', id: files, path: '/data' },
			target: { id: bucket, path: '/dry' },
		});
		expect(job.attributes.status).toBe('finished');
		expect(transfers).toHaveLength(0);
		expect(job.attributes.stats.filesCount).toBe(2);
		expect(job.attributes.stats.estimatedCost?.amount).toMatch(/^\d+\.\d+$/);
		expect(fs.existsSync(path.join(h.sandbox.state.storageDir(bucket), 'dry'))).toBe(false);
	});

	it('records unreadable files as errors and fails at the error-count condition', async () => {
		const dir = h.sandbox.state.storageDir(files);
		fs.mkdirSync(path.join(dir, 'broken'));
		fs.symlinkSync(path.join(dir, 'missing-1'), path.join(dir, 'broken/a.txt'));
		fs.symlinkSync(path.join(dir, 'missing-2'), path.join(dir, 'broken/b.txt'));
		const { job, transfers, errors } = await run({
			transferType: 'copy',
			conflictHandling: 'skip',
			failureConditions: [{ type: 'error-count', value: 2 }],
			source: { type: 'file', id: files, path: '/broken' },
			target: { id: archive, path: '/broken' },
		});
		expect(job.attributes.status).toBe('failed');
		expect(errors.map((e) => e.attributes.sourcePath)).toEqual(['/broken/a.txt', '/broken/b.txt']);
		expect(transfers.map((t) => t.attributes.status)).toEqual([-1, -1]);
	});

	it('goes stuck while a storage is away and finishes after it returns', async () => {
		h.sandbox.control.setStorageAvailable(archive, false);
		const created = await h.call('POST', '/jobs', jobBody({
			transferType: 'copy',
			conflictHandling: 'overwrite',
			source: { type: 'file', id: files, path: '/data' },
			target: { id: archive, path: '/data' },
		}));
		const stuck = await h.sandbox.control.waitForJob(created.body.data.id, 5000);
		expect(stuck.attributes.status).toBe('stuck');
		h.sandbox.control.setStorageAvailable(archive, true);
		const done = await h.sandbox.control.waitForJob(created.body.data.id, 5000);
		expect(done.attributes.status).toBe('finished');
	});

	it('pauses and resumes into the stage it was paused in, and cancels', async () => {
		const created = await h.call('POST', '/jobs', jobBody({
			transferType: 'copy',
			conflictHandling: 'overwrite',
			// about 100 ms per file at speed 1000, so the running stage can be caught
			transferRateLimit: 10,
			source: { type: 'file', id: files, path: '/data' },
			target: { id: archive, path: '/data' },
		}));
		const id = created.body.data.id;
		await new Promise<void>((resolve) => {
			const timer = setInterval(() => {
				if (h.sandbox.state.job(id)?.attributes.status === 'running') {
					clearInterval(timer);
					resolve();
				}
			}, 1);
		});
		const patch = (status: string) => h.call('PATCH', `/jobs/${id}`, { data: { id, type: 'jobs', attributes: { status } } });
		const paused = await patch('paused');
		expect(paused.status).toBe(200);
		expect(paused.body.data.attributes.status).toBe('paused');
		const resumed = await patch('running');
		expect(resumed.body.data.attributes.status).toBe('running');
		const canceled = await patch('canceled');
		expect(canceled.body.data.attributes.status).toBe('canceled');
		const again = await patch('paused');
		expect(again.status).toBe(409);
		expect(again.body.errors[0].code).toBe('invalid-status-transition');
	});

	it('resumes a job paused while scanning into scanning', async () => {
		const slow = await harness({ speed: 1 });
		try {
			const created = await slow.call('POST', '/jobs', jobBody({
				transferType: 'copy',
				conflictHandling: 'overwrite',
				source: { type: 'file', id: files, path: '/data' },
				target: { id: archive, path: '/data' },
			}));
			const id = created.body.data.id;
			const patch = (status: string) => slow.call('PATCH', `/jobs/${id}`, { data: { id, type: 'jobs', attributes: { status } } });
			expect((await patch('paused')).body.data.attributes.status).toBe('paused');
			expect((await patch('running')).body.data.attributes.status).toBe('scanning');
		} finally {
			await slow.sandbox.close();
		}
	});
});
