import { DEMO_IDS } from '../../sandbox/src';
import { JOB_STATUSES, type JobStatus } from '../../nodes/shared/api/types';
import {
	ISO_MS,
	createJobOk,
	eventually,
	expectError,
	expectJsonApi,
	getJob,
	pollJob,
	setStatus,
	sleep,
	uniq,
	useSandbox,
	type Harness,
} from './helpers';

// Real time (speed 1), so that a job can be caught while scanning or running.
const h = useSandbox({ demo: false, speed: 1 });

const FILES = () => DEMO_IDS.storageIds.files;
const ARCHIVE = () => DEMO_IDS.storageIds.archive;

/** A job with many small files: its scan takes seconds. */
async function scanHeavyJob(hh: Harness): Promise<string> {
	const src = `/${uniq('scan-heavy')}`;
	for (let i = 0; i < 80; i++) hh.sb.control.writeFile(FILES(), `${src}/f${String(i).padStart(3, '0')}.txt`, `${i}`);
	return createJobOk(hh, {
		source: { id: FILES(), path: src },
		target: { id: ARCHIVE(), path: `/${uniq('dst')}` },
		transferRateLimit: 1,
	});
}

/** A job with one file and a rate limit of 1 byte/s: it stays running for a long time. */
async function runHeavyJob(hh: Harness, targetId = ARCHIVE()): Promise<string> {
	const src = `/${uniq('run-heavy')}`;
	hh.sb.control.writeFile(FILES(), `${src}/big.bin`, Buffer.alloc(100_000, 7));
	const id = await createJobOk(hh, {
		source: { id: FILES(), path: src },
		target: { id: targetId, path: `/${uniq('dst')}` },
		transferRateLimit: 1,
	});
	await pollJob(hh, id, (s) => s === 'running');
	return id;
}

async function expectStatus(id: string, status: JobStatus): Promise<void> {
	expect((await getJob(h, id)).data.data.attributes.status).toBe(status);
}

describe('job states: system transitions', () => {
	it('a new job goes scanning -> running -> finished, with startedAt and finishedAt', async () => {
		const src = `/${uniq('life')}`;
		for (let i = 0; i < 5; i++) h.sb.control.writeFile(FILES(), `${src}/f${i}.txt`, 'x'.repeat(1000));
		const res = await h.api.post('/jobs', {
			data: {
				type: 'jobs',
				attributes: {
					transferType: 'copy',
					conflictHandling: 'skip',
					source: { type: 'file', id: FILES(), path: src },
					target: { id: ARCHIVE(), path: `/${uniq('life-dst')}` },
					transferRateLimit: 5000,
				},
			},
		});
		expectJsonApi(res, 201);
		expect(res.data.data.attributes.status).toBe('scanning');
		const { job, seen } = await pollJob(h, res.data.data.id, (s) => s === 'finished' || s === 'failed' || s === 'canceled');
		expect(['scanning', ...seen].filter((s, i, a) => a[i - 1] !== s)).toEqual(['scanning', 'running', 'finished']);
		expect(job.attributes.stats.startedAt).toMatch(ISO_MS);
		expect(job.attributes.stats.finishedAt).toMatch(ISO_MS);
		expect(Date.parse(job.attributes.stats.finishedAt)).toBeGreaterThanOrEqual(Date.parse(job.attributes.stats.startedAt));
		expect(job.attributes.stats).toEqual(
			expect.objectContaining({ scannedFilesCount: 5, filesCount: 5, filesSize: 5000, transferredCount: 5, transferredSize: 5000 }),
		);
	});

	it('a job is stuck while a storage is unavailable and back to running when it returns', async () => {
		for (const which of ['target', 'source'] as const) {
			const id = await runHeavyJob(h);
			const storage = which === 'target' ? ARCHIVE() : FILES();
			h.sb.control.setStorageAvailable(storage, false);
			try {
				await pollJob(h, id, (s) => s === 'stuck');
			} finally {
				h.sb.control.setStorageAvailable(storage, true);
			}
			await pollJob(h, id, (s) => s === 'running');
			expectJsonApi(await setStatus(h, id, 'canceled'), 200);
		}
	});

	it('a job stuck while scanning goes on when the storage returns', async () => {
		const id = await scanHeavyJob(h);
		h.sb.control.setStorageAvailable(FILES(), false);
		try {
			await pollJob(h, id, (s) => s === 'stuck');
		} finally {
			h.sb.control.setStorageAvailable(FILES(), true);
		}
		const { job } = await pollJob(h, id, (s) => s !== 'stuck');
		expect(['scanning', 'running']).toContain(job.attributes.status);
		expectJsonApi(await setStatus(h, id, 'canceled'), 200);
	});

	it('control.waitForJob returns on stuck', async () => {
		const id = await runHeavyJob(h);
		h.sb.control.setStorageAvailable(ARCHIVE(), false);
		try {
			const job = await h.sb.control.waitForJob(id, 10000);
			expect(job.attributes.status).toBe('stuck');
		} finally {
			h.sb.control.setStorageAvailable(ARCHIVE(), true);
		}
		await setStatus(h, id, 'canceled');
	});
});

describe('job states: client transitions on running jobs', () => {
	it('paused from scanning; resume returns to scanning', async () => {
		const id = await scanHeavyJob(h);
		const paused = await setStatus(h, id, 'paused');
		expectJsonApi(paused, 200);
		expect(paused.data.data.attributes.status).toBe('paused');
		const scanned = paused.data.data.attributes.stats.scannedFilesCount;
		await sleep(300);
		const still = (await getJob(h, id)).data.data.attributes;
		expect(still.status).toBe('paused');
		expect(still.stats.scannedFilesCount).toBe(scanned);
		const resumed = await setStatus(h, id, 'running');
		expectJsonApi(resumed, 200);
		expect(resumed.data.data.attributes.status).toBe('scanning');
		await eventually(async () => (await getJob(h, id)).data.data.attributes.stats.scannedFilesCount > scanned, 'the scan to go on');
		expectJsonApi(await setStatus(h, id, 'canceled'), 200);
	});

	it('paused from running; resume returns to running', async () => {
		const id = await runHeavyJob(h);
		const paused = await setStatus(h, id, 'paused');
		expectJsonApi(paused, 200);
		expect(paused.data.data.attributes.status).toBe('paused');
		await expectStatus(id, 'paused');
		const resumed = await setStatus(h, id, 'running');
		expectJsonApi(resumed, 200);
		expect(resumed.data.data.attributes.status).toBe('running');
		await expectStatus(id, 'running');
		expectJsonApi(await setStatus(h, id, 'canceled'), 200);
	});

	it('paused from stuck; stays paused when the storage returns; resume -> running', async () => {
		const id = await runHeavyJob(h);
		h.sb.control.setStorageAvailable(ARCHIVE(), false);
		try {
			await pollJob(h, id, (s) => s === 'stuck');
			const paused = await setStatus(h, id, 'paused');
			expectJsonApi(paused, 200);
			expect(paused.data.data.attributes.status).toBe('paused');
		} finally {
			h.sb.control.setStorageAvailable(ARCHIVE(), true);
		}
		await expectStatus(id, 'paused');
		const resumed = await setStatus(h, id, 'running');
		expectJsonApi(resumed, 200);
		expect(resumed.data.data.attributes.status).toBe('running');
		expectJsonApi(await setStatus(h, id, 'canceled'), 200);
	});

	it('resuming while the storage is still away leads to stuck', async () => {
		const id = await runHeavyJob(h);
		expectJsonApi(await setStatus(h, id, 'paused'), 200);
		h.sb.control.setStorageAvailable(ARCHIVE(), false);
		try {
			expectJsonApi(await setStatus(h, id, 'running'), 200);
			await pollJob(h, id, (s) => s === 'stuck');
		} finally {
			h.sb.control.setStorageAvailable(ARCHIVE(), true);
		}
		await pollJob(h, id, (s) => s === 'running');
		await setStatus(h, id, 'canceled');
	});

	it('canceled from scanning, running, paused and stuck; a canceled job does no more work', async () => {
		const BUCKET = DEMO_IDS.storageIds.bucket;
		const running = await runHeavyJob(h);
		const paused = await runHeavyJob(h);
		expectJsonApi(await setStatus(h, paused, 'paused'), 200);
		const stuck = await runHeavyJob(h, BUCKET);
		h.sb.control.setStorageAvailable(BUCKET, false);
		try {
			await pollJob(h, stuck, (s) => s === 'stuck');
			const scanning = await scanHeavyJob(h);
			for (const [id, from] of [
				[scanning, 'scanning'],
				[running, 'running'],
				[paused, 'paused'],
				[stuck, 'stuck'],
			]) {
				const before = (await getJob(h, id)).data.data.attributes;
				expect(before.status).toBe(from);
				const res = await setStatus(h, id, 'canceled');
				expectJsonApi(res, 200);
				expect(res.data.data.attributes.status).toBe('canceled');
			}
			const ids = [scanning, running, paused, stuck];
			const snapshot = await Promise.all(ids.map(async (id) => (await getJob(h, id)).data.data));
			h.sb.control.setStorageAvailable(BUCKET, true);
			await sleep(300);
			for (const job of snapshot) {
				const now = (await getJob(h, job.id)).data.data;
				expect(now.attributes.status).toBe('canceled');
				expect(now.attributes.stats.scannedFilesCount).toBe(job.attributes.stats.scannedFilesCount);
				expect(now.attributes.stats.transferredCount).toBe(job.attributes.stats.transferredCount);
			}
		} finally {
			h.sb.control.setStorageAvailable(BUCKET, true);
		}
	});

	it('a real finished job refuses paused, running and canceled (409), accepts finished (no-op)', async () => {
		const src = `/${uniq('done')}`;
		h.sb.control.writeFile(FILES(), `${src}/a.txt`, 'a');
		const id = await createJobOk(h, { source: { id: FILES(), path: src }, target: { id: ARCHIVE(), path: `/${uniq('d')}` } });
		await pollJob(h, id, (s) => s === 'finished');
		for (const to of ['paused', 'running', 'canceled']) expectError(await setStatus(h, id, to), 409, 'invalid-status-transition');
		const same = await setStatus(h, id, 'finished');
		expectJsonApi(same, 200);
		expect(same.data.data.attributes.status).toBe('finished');
	});

	it('other attributes -> 400 read-only-attribute, checked before the status (400 before 409)', async () => {
		const id = await runHeavyJob(h);
		expectError(await setStatus(h, id, 'paused', { name: 'x' }), 400, 'read-only-attribute', '/data/attributes/name');
		await expectStatus(id, 'running');
		expectError(await setStatus(h, id, 'running', { transferRateLimit: 5 }), 400, 'read-only-attribute', '/data/attributes/transferRateLimit');
		const res = await h.api.patch(`/jobs/${id}`, { data: { id, type: 'jobs', attributes: { dryRun: true } } });
		expectError(res, 400, 'read-only-attribute', '/data/attributes/dryRun');
		await expectStatus(id, 'running');
		await setStatus(h, id, 'canceled');
		// A final job with a forbidden status change AND another attribute: 400, not 409.
		expectError(await setStatus(h, id, 'running', { name: 'x' }), 400, 'read-only-attribute', '/data/attributes/name');
		expectError(await setStatus(h, id, 'paused', { source: { id: FILES(), type: 'file', path: '/' } }), 400, 'read-only-attribute');
		await expectStatus(id, 'canceled');
	});
});

describe('job states: the whole transition table (inserted jobs, no engine timing)', () => {
	const FINAL: JobStatus[] = ['finished', 'failed', 'canceled'];

	/** The contract's rule for PATCH status `to` on a job in `from`. */
	function allowed(from: JobStatus, to: JobStatus): boolean {
		if (from === to) return true;
		if (to === 'paused') return ['scanning', 'running', 'stuck'].includes(from);
		if (to === 'running') return from === 'paused';
		if (to === 'canceled') return !FINAL.includes(from);
		return false;
	}

	const cases: Array<[JobStatus, JobStatus, boolean]> = [];
	for (const from of JOB_STATUSES) for (const to of JOB_STATUSES) cases.push([from, to, allowed(from, to)]);

	it.each(cases)('%s -> %s: allowed %s', async (from, to, ok) => {
		const [id] = h.sb.control.insertJobs(1, { status: from, name: uniq('matrix') });
		const before = (await getJob(h, id)).data.data;
		expect(before.attributes.status).toBe(from);
		const res = await setStatus(h, id, to);
		if (!ok) {
			expectError(res, 409, 'invalid-status-transition');
			expect((await getJob(h, id)).data.data).toEqual(before);
			return;
		}
		expectJsonApi(res, 200);
		const after = (await getJob(h, id)).data.data;
		if (from === to) {
			// no-op: nothing changes
			expect(res.data.data).toEqual(before);
			expect(after).toEqual(before);
		} else if (from === 'paused' && to === 'running') {
			expect(['scanning', 'running']).toContain(res.data.data.attributes.status);
		} else {
			expect(res.data.data.attributes.status).toBe(to);
			expect(after.attributes.status).toBe(to);
		}
	});

	it.each(['scanning', 'running'] as const)('an inserted job paused while %s resumes to that stage', async (stage) => {
		const [id] = h.sb.control.insertJobs(1, { status: stage });
		expect((await setStatus(h, id, 'paused')).data.data.attributes.status).toBe('paused');
		const res = await setStatus(h, id, 'running');
		expectJsonApi(res, 200);
		expect(res.data.data.attributes.status).toBe(stage);
	});

	it.each(['finished', 'failed', 'canceled'] as const)('final %s: every other status -> 409', async (from) => {
		const [id] = h.sb.control.insertJobs(1, { status: from });
		for (const to of JOB_STATUSES.filter((s) => s !== from)) {
			expectError(await setStatus(h, id, to), 409, 'invalid-status-transition');
		}
		await expectStatus(id, from);
	});
});
