/**
 * Job Create when the connection breaks around POST /jobs: the node never repeats the create blindly; it
 * looks for the job the request may have made and outputs it only when exactly one new job matches.
 */
// @ts-nocheck

import { ARCHIVE, FILES, createParameters, jobsNamed, uniq, useJobSandbox } from './helpers';

const t = useJobSandbox();

/** Job Create with a short request timeout: the recovery looks for the job for as long as one timeout. */
const create = (over: Parameters<typeof createParameters>[0] = {}) =>
	createParameters({ requestOptions: { timeout: 2 }, ...over });

const postJobs = () => t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
const jobsAt = (targetPath: string) =>
	t.sandbox.state.jobs().filter((job) => job.attributes.target.id === ARCHIVE && job.attributes.target.path === targetPath);

afterEach(() => t.sandbox.faults.clear());

describe('job: create after an ambiguous failure', () => {
	it('drop-after-body: the job was created; exactly one exists and the output names it', async () => {
		const name = uniq('dropped-answer');
		const posts = postJobs();
		t.sandbox.faults.add({ kind: 'drop-after-body', method: 'POST', path: '/jobs' });
		const { items, error } = await t.run(create({ additionalFields: { name } }));
		expect(error).toBeUndefined();
		const held = jobsNamed(t.sandbox, name);
		expect(held).toHaveLength(1);
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual(expect.objectContaining({ id: held[0].id, name, recoveredAfterAmbiguousError: true }));
		expect(postJobs()).toBe(posts + 1);
	});

	it('drop-before-body: nothing was created; the item fails with a clear error and nothing is created', async () => {
		const name = uniq('dropped-request');
		const posts = postJobs();
		t.sandbox.faults.add({ kind: 'drop-before-body', method: 'POST', path: '/jobs' });
		const result = await t.run(create({ additionalFields: { name } }));
		expect(result.error?.message).toContain('The job may or may not have been created');
		expect(result.error?.message).toContain('no new matching job was found');
		expect(result.error?.description).toContain('did not repeat the request');
		expect(jobsNamed(t.sandbox, name)).toHaveLength(0);
		expect(postJobs()).toBe(posts + 1);
	});

	it('an identical job from before is not taken for the new one (drop-before-body)', async () => {
		const targetPath = `/${uniq('same')}`;
		const first = await t.run(create({ targetPath }));
		expect(first.error).toBeUndefined();
		t.sandbox.faults.add({ kind: 'drop-before-body', method: 'POST', path: '/jobs' });
		const result = await t.run(create({ targetPath }));
		expect(result.error?.message).toContain('no new matching job was found');
		expect(jobsAt(targetPath).map((job) => job.id)).toEqual([first.items[0].json.id]);
	});

	it('an identical job from before is not taken for the new one (drop-after-body: the new one is output)', async () => {
		const targetPath = `/${uniq('same-again')}`;
		const first = await t.run(create({ targetPath }));
		t.sandbox.faults.add({ kind: 'drop-after-body', method: 'POST', path: '/jobs' });
		const { items, error } = await t.run(create({ targetPath }));
		expect(error).toBeUndefined();
		const held = jobsAt(targetPath);
		expect(held).toHaveLength(2);
		const created = held.find((job) => job.id !== first.items[0].json.id)!;
		expect(items[0].json).toEqual(expect.objectContaining({ id: created.id, recoveredAfterAmbiguousError: true }));
	});

	it('two new jobs match (another client made the same one meanwhile): fails listing both, creates nothing more', async () => {
		const name = uniq('twins');
		const targetPath = `/${uniq('twins')}`;
		t.sandbox.faults.add({ kind: 'drop-after-body', method: 'POST', path: '/jobs' });
		const posts = postJobs();
		const running = t.run(create({ targetPath, additionalFields: { name } }));
		// While the node looks for its job, another client creates one with the same settings, and one
		// with the same storages but another target path (which does not count).
		for (let i = 0; i < 2000 && postJobs() === posts; i++) await new Promise((r) => setTimeout(r, 5));
		const same = {
			name,
			dryRun: true,
			transferType: 'copy' as const,
			conflictHandling: 'skip' as const,
			source: { type: 'file' as const, id: FILES, path: '/reports' },
			target: { type: 'file' as const, id: ARCHIVE, path: targetPath },
		};
		const [twin] = t.sandbox.control.insertJobs(1, same);
		t.sandbox.control.insertJobs(1, { ...same, target: { ...same.target, path: `${targetPath}-other` } });
		const result = await running;
		const ours = jobsNamed(t.sandbox, name).filter((job) => job.attributes.target.path === targetPath);
		expect(ours).toHaveLength(2);
		expect(ours.map((job) => job.id)).toContain(twin);
		expect(result.error?.message).toContain('The job may or may not have been created');
		for (const job of ours) expect(result.error?.message).toContain(job.id);
		expect(postJobs()).toBe(posts + 1);
	});

	it('a job of another client with the same storages but other settings does not stop the recovery', async () => {
		const name = uniq('neighbour');
		const targetPath = `/${uniq('neighbour')}`;
		t.sandbox.faults.add({ kind: 'drop-after-body', method: 'POST', path: '/jobs' });
		const posts = postJobs();
		const running = t.run(create({ targetPath, additionalFields: { name } }));
		for (let i = 0; i < 2000 && postJobs() === posts; i++) await new Promise((r) => setTimeout(r, 5));
		t.sandbox.control.insertJobs(1, {
			name,
			dryRun: true,
			transferType: 'copy',
			conflictHandling: 'overwrite',
			source: { type: 'file', id: FILES, path: '/reports' },
			target: { type: 'file', id: ARCHIVE, path: targetPath },
		});
		const { items, error } = await running;
		expect(error).toBeUndefined();
		const ours = jobsNamed(t.sandbox, name).filter((job) => job.attributes.conflictHandling === 'skip');
		expect(ours).toHaveLength(1);
		expect(items[0].json).toEqual(expect.objectContaining({ id: ours[0].id, recoveredAfterAmbiguousError: true }));
	});

	it('a 500 answer to the create is ambiguous too: not repeated, reported clearly when nothing was created', async () => {
		const name = uniq('server-error');
		const posts = postJobs();
		t.sandbox.faults.add({ kind: 'internal-error', method: 'POST', path: '/jobs' });
		const result = await t.run(create({ additionalFields: { name } }));
		expect(result.error?.message).toContain('The job may or may not have been created');
		expect(result.error?.description).toContain('Internal Server Error');
		expect(postJobs()).toBe(posts + 1);
		expect(jobsNamed(t.sandbox, name)).toHaveLength(0);
	});

	it('a 503 answer was not carried out: the transport repeats it, and exactly one job is created', async () => {
		const name = uniq('unavailable');
		const posts = postJobs();
		t.sandbox.faults.add({ kind: 'unavailable', method: 'POST', path: '/jobs', retryAfterSeconds: 0 });
		const { items, error } = await t.run(create({ additionalFields: { name } }));
		expect(error).toBeUndefined();
		expect(postJobs()).toBe(posts + 2);
		const held = jobsNamed(t.sandbox, name);
		expect(held).toHaveLength(1);
		expect(items[0].json.id).toBe(held[0].id);
		expect(items[0].json.recoveredAfterAmbiguousError).toBeUndefined();
	});

	it('a create the service carries out only after the node gave up waiting is still found, by looking again', async () => {
		const name = uniq('late-create');
		// The answer (and the job) comes 3.5 s after the request; the node gives up after 2 s, then looks
		// after 1 s (nothing yet) and again 1 s later (the job is there), within one timeout.
		t.sandbox.faults.add({ kind: 'slow', method: 'POST', path: '/jobs', delayMs: 3500 });
		const { items, error } = await t.run(
			create({ additionalFields: { name }, requestOptions: { timeout: 2, maxRetries: 0 } }),
		);
		expect(error).toBeUndefined();
		const held = jobsNamed(t.sandbox, name);
		expect(held).toHaveLength(1);
		expect(items[0].json).toEqual(expect.objectContaining({ id: held[0].id, recoveredAfterAmbiguousError: true }));
	});
});

