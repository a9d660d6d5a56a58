/**
 * Job › Create and Run From Dry Run with "If a Job With This Name Exists": the job name as an idempotency
 * marker. A re-run of the same item (n8n's Retry, a queue worker's stalled-job re-run) finds the job the
 * first run made instead of creating a second one. POST /jobs is counted in the sandbox's request log.
 */
// @ts-nocheck

import type { INodeParameters } from 'n8n-workflow';

import { createParameters, errorText, jobsNamed, rl, uniq, useJobSandbox } from './helpers';

const t = useJobSandbox();

const postJobs = () => t.sandbox.requests.count({ method: 'POST', path: '/jobs' });

afterEach(() => t.sandbox.deviations.clear());

/** Job Create parameters with a name, the option and a fixed target path (the same on every run). */
function named(name: string, ifNameExists: string | undefined, over: Parameters<typeof createParameters>[0] = {}) {
	const additionalFields: INodeParameters = { name };
	if (ifNameExists !== undefined) additionalFields.ifNameExists = ifNameExists;
	return createParameters({ targetPath: `/${name}`, additionalFields, ...over });
}

describe('job create: If a Job With This Name Exists', () => {
	it('Use the Existing Job: a second run with the same name outputs the first job (marked) and POSTs once in all', async () => {
		const name = uniq('reuse');
		const posts = postJobs();
		const first = await t.run(named(name, 'useExisting'));
		expect(first.error).toBeUndefined();
		expect(first.items[0].json.reusedExistingJob).toBeUndefined();

		const second = await t.run(named(name, 'useExisting', { waitForCompletion: true, pollInterval: 0.05 }));
		expect(second.error).toBeUndefined();
		const held = jobsNamed(t.sandbox, name);
		expect(held).toHaveLength(1);
		expect(second.items).toHaveLength(1);
		// Wait for Completion goes on with the existing job: it is output in its final state.
		expect(second.items[0].json).toEqual(
			expect.objectContaining({ id: held[0].id, name, status: 'finished', reusedExistingJob: true }),
		);
		expect(postJobs()).toBe(posts + 1);
	});

	it('Use the Existing Job: with several jobs of the name, the newest one is output', async () => {
		const name = uniq('newest');
		const first = await t.run(named(name, 'createAnother'));
		const second = await t.run(named(name, undefined));
		expect(jobsNamed(t.sandbox, name)).toHaveLength(2);
		const posts = postJobs();
		const third = await t.run(named(name, 'useExisting'));
		expect(third.error).toBeUndefined();
		expect(postJobs()).toBe(posts);
		const newest = [first, second]
			.map((run) => t.sandbox.state.job(run.items[0].json.id as string)!)
			.sort((a, b) => Date.parse(b.attributes.createdAt) - Date.parse(a.attributes.createdAt))[0];
		expect(third.items[0].json).toEqual(expect.objectContaining({ id: newest.id, reusedExistingJob: true }));
	});

	it('Use the Existing Job: a job of the name with other settings (a dry run) is not reused; the item fails naming it', async () => {
		const name = uniq('other-settings');
		const dry = await t.run(named(name, undefined, { dryRun: true }));
		const posts = postJobs();
		const result = await t.run(named(name, 'useExisting', { dryRun: false }));
		expect(result.error?.message).toContain(`A job named "${name}" exists with other settings: ${dry.items[0].json.id as string} differs in Dry Run`);
		expect(result.error?.message).toContain('[item 0]');
		expect(postJobs()).toBe(posts);
	});

	it('Fail: a second run fails with an error naming the existing job and the item, and creates nothing', async () => {
		const name = uniq('fail');
		const first = await t.run(named(name, 'fail'));
		expect(first.error).toBeUndefined();
		const posts = postJobs();
		const second = await t.run(named(name, 'fail'));
		expect(second.error?.message).toBe(`A job named "${name}" already exists: ${first.items[0].json.id as string} [item 0]`);
		expect(second.error?.description).toContain('No job was created');
		expect(postJobs()).toBe(posts);
		expect(jobsNamed(t.sandbox, name)).toHaveLength(1);
	});

	it.each([
		['useExisting', 'Use the Existing Job'],
		['fail', 'Fail'],
	])('%s without a name: an error naming the field and the item, before any request', async (mode, label) => {
		const requests = t.sandbox.requests.count();
		const result = await t.run(createParameters({ additionalFields: { ifNameExists: mode, name: '  ' } }));
		expect(result.error?.message).toBe(
			`"Additional Fields › Name" is required when "If a Job With This Name Exists" is "${label}" [item 0]`,
		);
		expect(t.sandbox.requests.count()).toBe(requests);
	});

	it('an unknown value of the option is an input error before any request', async () => {
		const requests = t.sandbox.requests.count();
		const result = await t.run(named(uniq('bad'), 'reuse'));
		expect(result.error?.message).toContain('"If a Job With This Name Exists" must be one of');
		expect(result.error?.message).toContain('[item 0]');
		expect(t.sandbox.requests.count()).toBe(requests);
	});

	it.each(['ignore-filters', 'ignore-filter:name'])(
		'a server that ignores filter[name] (%s): the name is matched here, the job is found and only it',
		async (deviation) => {
			const name = uniq('ignored-filter');
			// Other jobs with the same settings but other names: a service that ignores the filter lists them too.
			const decoy = await t.run(named(`${name}-other`, undefined, { targetPath: `/${name}` }));
			const first = await t.run(named(name, 'useExisting'));
			t.sandbox.deviations.set([deviation]);
			const posts = postJobs();
			const again = await t.run(named(name, 'useExisting'));
			expect(again.error).toBeUndefined();
			expect(again.items[0].json).toEqual(expect.objectContaining({ id: first.items[0].json.id, reusedExistingJob: true }));
			expect(again.items[0].json.id).not.toBe(decoy.items[0].json.id);
			expect(postJobs()).toBe(posts);

			// And a name nobody has yet is created (one POST), not matched to someone else's job.
			const fresh = uniq('ignored-filter-new');
			const created = await t.run(named(fresh, 'useExisting', { targetPath: `/${name}` }));
			expect(created.error).toBeUndefined();
			expect(created.items[0].json.reusedExistingJob).toBeUndefined();
			expect(jobsNamed(t.sandbox, fresh).map((job) => job.id)).toEqual([created.items[0].json.id]);
			expect(postJobs()).toBe(posts + 1);
		},
	);

	it('Create Another (the default, and when chosen): each run creates a job, as before', async () => {
		const name = uniq('another');
		const posts = postJobs();
		const runs = [await t.run(named(name, undefined)), await t.run(named(name, 'createAnother'))];
		for (const run of runs) {
			expect(run.error).toBeUndefined();
			expect(run.items[0].json.reusedExistingJob).toBeUndefined();
		}
		expect(postJobs()).toBe(posts + 2);
		expect(jobsNamed(t.sandbox, name)).toHaveLength(2);
	});

	it('two items of one execution with the same name (in parallel): the first creates, the second reuses its job', async () => {
		const name = uniq('twin-items');
		const posts = postJobs();
		const result = await t.run(named('={{ $json.name }}', 'useExisting', { targetPath: `/${name}` }), {
			items: [{ json: { name } }, { json: { name } }, { json: { name: `${name}-b` } }],
		});
		expect(result.error).toBeUndefined();
		expect(postJobs()).toBe(posts + 2);
		const [one, two, three] = result.items.map((item) => item.json);
		const held = jobsNamed(t.sandbox, name);
		expect(held).toHaveLength(1);
		expect(one).toEqual(expect.objectContaining({ id: held[0].id }));
		expect(one.reusedExistingJob).toBeUndefined();
		expect(two).toEqual(expect.objectContaining({ id: held[0].id, reusedExistingJob: true }));
		expect(three).toEqual(expect.objectContaining({ id: jobsNamed(t.sandbox, `${name}-b`)[0].id }));
	});

	it('two items of one execution with the same name, Fail: the second fails naming the first one\'s job', async () => {
		const name = uniq('twin-fail');
		const result = await t.run(named('={{ $json.name }}', 'fail', { targetPath: `/${name}` }), {
			items: [{ json: { name } }, { json: { name } }],
			continueOnFail: true,
		});
		const held = jobsNamed(t.sandbox, name);
		expect(held).toHaveLength(1);
		expect(result.items[0].json.id).toBe(held[0].id);
		expect(result.items[1].json.error).toBe(`A job named "${name}" already exists: ${held[0].id} [item 1]`);
	});
});

describe('run from dry run: If a Job With This Name Exists', () => {
	async function finishedDryRun(): Promise<string> {
		const dry = await t.run(named(uniq('dry'), undefined, { dryRun: true, waitForCompletion: true, pollInterval: 0.05 }));
		expect(dry.error).toBeUndefined();
		return dry.items[0].json.id as string;
	}

	it('Use the Existing Job: the second run outputs the first real job and POSTs nothing', async () => {
		const dryRunId = await finishedDryRun();
		const name = uniq('real-run');
		const parameters = {
			operation: 'runFromDryRun',
			jobId: rl(dryRunId),
			name,
			additionalFields: { ifNameExists: 'useExisting' },
		};
		const first = await t.run(parameters);
		expect(first.error).toBeUndefined();
		const posts = postJobs();
		const second = await t.run(parameters);
		expect(second.error).toBeUndefined();
		expect(second.items[0].json).toEqual(
			expect.objectContaining({ id: first.items[0].json.id, dryRunJobId: dryRunId, reusedExistingJob: true }),
		);
		expect(postJobs()).toBe(posts);
		expect(jobsNamed(t.sandbox, name)).toHaveLength(1);
	});

	it('without the Name field: an error naming it and the item, before any request', async () => {
		const requests = t.sandbox.requests.count();
		const result = await t.run({
			operation: 'runFromDryRun',
			jobId: rl('6f1c2d3e-0000-4000-8000-000000000000'),
			additionalFields: { ifNameExists: 'useExisting' },
		});
		expect(errorText(result)).toContain('"Name" is required when "If a Job With This Name Exists" is "Use the Existing Job" [item 0]');
		expect(t.sandbox.requests.count()).toBe(requests);
	});
});
