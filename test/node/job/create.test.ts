import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { Job } from '../../../nodes/shared/api/types';
import { startRecordingProxy } from '../../credential/proxy';
import { credentialsFor, runNode } from '../../harness/engine';
import { ARCHIVE, BUCKET, DEMO_IDS, FILES, createParameters, jobsNamed, md5, rl, uniq, useJobSandbox } from './helpers';

const t = useJobSandbox();

const flat = (job: Job) => ({ id: job.id, ...job.attributes });

describe('job: create', () => {
	it('sends every field of the API and the sandbox holds the job with them', async () => {
		const proxy = await startRecordingProxy(t.sandbox.baseUrl);
		const name = uniq('all-fields');
		const targetPath = `/${uniq('all')}`;
		try {
			const { items, error } = await runNode({
				credentials: credentialsFor({ ...t.sandbox, baseUrl: proxy.baseUrl }),
				parameters: {
					resource: 'job',
					...createParameters({
						transferType: 'copy',
						sourcePath: '/reports/',
						targetPath,
						conflictHandling: 'rename',
						dryRun: true,
						additionalFields: {
							name,
							accountId: rl(DEMO_IDS.accountId, 'list'),
							userId: rl(DEMO_IDS.userIds[1]),
							groupId: rl(DEMO_IDS.groupIds[0]),
							failAfterErrors: 3,
							transferRateLimit: 1048576,
							startStatus: 'running',
							scopeRules: {
								rules: [
									{ type: 'name', condition: 'ends-with', value: '.csv' },
									{ type: 'name', condition: 'matches', value: '^q\\d\\.csv$' },
								],
							},
						},
						simplify: false,
					}),
				},
			});
			expect(error).toBeUndefined();
			const sent = {
				name,
				status: 'running',
				accountId: DEMO_IDS.accountId,
				userId: DEMO_IDS.userIds[1],
				groupId: DEMO_IDS.groupIds[0],
				transferType: 'copy',
				source: { type: 'file', id: FILES, path: '/reports' },
				target: { id: ARCHIVE, path: targetPath },
				conflictHandling: 'rename',
				dryRun: true,
				scope: {
					type: 'rules',
					method: 'include-if-all',
					rules: [
						{ type: 'name', condition: 'ends-with', value: '.csv' },
						{ type: 'name', condition: 'matches', value: '^q\\d\\.csv$' },
					],
				},
				failureConditions: [{ type: 'error-count', value: 3 }],
				transferRateLimit: 1048576,
			};
			const post = proxy.requests.filter((r) => r.method === 'POST' && r.url === '/jobs');
			expect(post).toHaveLength(1);
			expect(JSON.parse(post[0].body)).toEqual({ data: { type: 'jobs', attributes: sent } });
			// The source storage was read first: its type goes into source.type.
			const storageRead = proxy.requests.findIndex((r) => r.method === 'GET' && r.url === `/storages/${FILES}`);
			expect(storageRead).toBeGreaterThanOrEqual(0);
			expect(storageRead).toBeLessThan(proxy.requests.indexOf(post[0]));

			const stored = t.sandbox.state.job(items[0].json.id as string)!;
			const { status: _status, ...sentWithoutStatus } = sent;
			expect(stored.attributes).toEqual(
				expect.objectContaining({ ...sentWithoutStatus, target: expect.objectContaining(sent.target) }),
			);
			expect(items).toHaveLength(1);
			expect(items[0].json).toEqual(expect.objectContaining({ id: stored.id, name, dryRun: true, transferType: 'copy' }));
			expect(Object.keys(items[0].json).sort()).toEqual(Object.keys(flat(stored)).sort());
		} finally {
			await proxy.close();
		}
	});

	it('sends the retrieval type for an object-aws source, with source.type object-aws', async () => {
		const name = uniq('s3');
		const { items, error } = await t.run(
			createParameters({
				sourceStorageId: rl(BUCKET, 'list'),
				sourcePath: '/incoming',
				additionalFields: { name, retrievalType: 'expedited' },
			}),
		);
		expect(error).toBeUndefined();
		const [stored] = jobsNamed(t.sandbox, name);
		expect(stored.attributes.source).toEqual(
			expect.objectContaining({ type: 'object-aws', id: BUCKET, path: '/incoming', retrievalType: 'expedited' }),
		);
		expect(items[0].json.id).toBe(stored.id);
	});

	it('a sync job is sent with conflictHandling null (the field is hidden for sync); empty paths are the roots', async () => {
		const proxy = await startRecordingProxy(t.sandbox.baseUrl);
		const name = uniq('sync');
		try {
			const { items, error } = await runNode({
				credentials: credentialsFor({ ...t.sandbox, baseUrl: proxy.baseUrl }),
				parameters: {
					resource: 'job',
					...createParameters({
						transferType: 'sync',
						conflictHandling: 'overwrite',
						sourcePath: '',
						targetPath: '  ',
						additionalFields: { name },
					}),
				},
			});
			expect(error).toBeUndefined();
			const body = JSON.parse(proxy.requests.find((r) => r.method === 'POST' && r.url === '/jobs')!.body);
			expect(body.data.attributes).toEqual(
				expect.objectContaining({
					transferType: 'sync',
					conflictHandling: null,
					source: { type: 'file', id: FILES, path: null },
					target: { id: ARCHIVE, path: null },
				}),
			);
			const stored = t.sandbox.state.job(items[0].json.id as string)!;
			expect(stored.attributes).toEqual(
				expect.objectContaining({ name, transferType: 'sync', conflictHandling: null, dryRun: true }),
			);
		} finally {
			await proxy.close();
		}
	});

	it('Simplify (default) keeps id, name, status, transferType, dryRun, source, target, a stats subset and the times', async () => {
		const name = uniq('simple');
		const { items, error } = await t.run(createParameters({ additionalFields: { name } }));
		expect(error).toBeUndefined();
		expect(Object.keys(items[0].json)).toEqual([
			'id',
			'name',
			'status',
			'transferType',
			'dryRun',
			'source',
			'target',
			'stats',
			'createdAt',
			'updatedAt',
			'summary',
		]);
		expect(Object.keys(items[0].json.stats as object)).toEqual([
			'startedAt',
			'finishedAt',
			'filesCount',
			'filesSize',
			'transferredCount',
			'transferredSize',
			'estimatedDuration',
			'estimatedCost',
		]);
		expect(items[0].json.summary).toEqual(expect.objectContaining({ dryRun: true, text: expect.stringMatching(/^Dry run: /) }));
		expect(items[0].json.id).toBe(jobsNamed(t.sandbox, name)[0].id);
	});

	it('Wait for Completion outputs the finished job; the files are on the target', async () => {
		const name = uniq('wait');
		const targetPath = `/${uniq('waited')}`;
		const { items, error } = await t.run(
			createParameters({
				dryRun: false,
				targetPath,
				additionalFields: { name },
				waitForCompletion: true,
				pollInterval: 0.05,
				maxWait: 30,
				simplify: false,
			}),
		);
		expect(error).toBeUndefined();
		const stored = t.sandbox.state.job(items[0].json.id as string)!;
		expect(stored.attributes.status).toBe('finished');
		expect(items[0].json).toEqual(flat(stored));
		const transfers = t.sandbox.state.jobTransfers(stored.id);
		expect(transfers.length).toBeGreaterThan(0);
		for (const transfer of transfers) {
			const onDisk = path.join(t.sandbox.state.storageDir(ARCHIVE), ...transfer.attributes.path.split('/').filter(Boolean));
			expect(transfer.attributes.path.startsWith(`${targetPath}/`)).toBe(true);
			expect(md5(readFileSync(onDisk))).toBe(transfer.attributes.hash.md5);
		}
	});

	it('a job that ends failed fails the item by default, naming the job', async () => {
		const name = uniq('fails');
		const result = await t.run(
			createParameters({
				dryRun: false,
				sourcePath: '/no-such-folder',
				additionalFields: { name },
				waitForCompletion: true,
				pollInterval: 0.05,
			}),
		);
		const [stored] = jobsNamed(t.sandbox, name);
		expect(stored.attributes.status).toBe('failed');
		expect(result.error?.message).toContain(`Job ${stored.id} ended with status "failed"`);
		expect(result.error?.description).toContain('Fail on Failed Job');
	});

	it('with Fail on Failed Job off, the failed job is output', async () => {
		const name = uniq('fails-quietly');
		const { items, error } = await t.run(
			createParameters({
				dryRun: false,
				sourcePath: '/no-such-folder',
				additionalFields: { name },
				waitForCompletion: true,
				pollInterval: 0.05,
				failOnFailedJob: false,
			}),
		);
		expect(error).toBeUndefined();
		const [stored] = jobsNamed(t.sandbox, name);
		expect(items.map((item) => [item.json.id, item.json.status])).toEqual([[stored.id, 'failed']]);
	});

	it('when Max Wait runs out, the item fails naming the job and its last status; the job goes on', async () => {
		const name = uniq('slow');
		const result = await t.run(
			createParameters({
				dryRun: false,
				additionalFields: { name, transferRateLimit: 1 },
				waitForCompletion: true,
				pollInterval: 0.05,
				maxWait: 0.2,
			}),
		);
		const [stored] = jobsNamed(t.sandbox, name);
		expect(['scanning', 'running']).toContain(stored.attributes.status);
		expect(result.error?.message).toMatch(
			new RegExp(`Job ${stored.id} did not end within 0.2 seconds; its last status was "(scanning|running)"`),
		);
		const polls = t.sandbox.requests.count({ method: 'GET', path: `/jobs/${stored.id}` });
		expect(polls).toBeGreaterThanOrEqual(1);
		t.sandbox.control.setJobStatus(stored.id, 'canceled');
	});

	it('a job that goes stuck ends the wait: it is output with status stuck, not as an error', async () => {
		const name = uniq('stuck');
		const posts = t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
		const running = t.run(
			createParameters({
				dryRun: false,
				additionalFields: { name, transferRateLimit: 1 },
				waitForCompletion: true,
				pollInterval: 0.05,
				maxWait: 30,
			}),
		);
		for (let i = 0; i < 2000 && t.sandbox.requests.count({ method: 'POST', path: '/jobs' }) === posts; i++) {
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		t.sandbox.control.setStorageAvailable(ARCHIVE, false);
		try {
			const { items, error } = await running;
			expect(error).toBeUndefined();
			const [stored] = jobsNamed(t.sandbox, name);
			expect(stored.attributes.status).toBe('stuck');
			expect(items.map((item) => [item.json.id, item.json.status])).toEqual([[stored.id, 'stuck']]);
			t.sandbox.control.setJobStatus(stored.id, 'canceled');
		} finally {
			t.sandbox.control.setStorageAvailable(ARCHIVE, true);
		}
	});

	it('an unknown source storage gives the API error, and no job is created', async () => {
		const posts = t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
		const result = await t.run(createParameters({ sourceStorageId: rl('00000000-0000-4000-8000-000000000000') }));
		expect(result.error?.message).toBe('Entity Not Found');
		expect(result.error?.description).toContain('The requested entity was not found.');
		expect(t.sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(posts);
	});

	it('an API validation error carries title and detail and names the field', async () => {
		// A target storage that does not exist is only known to the service.
		const result = await t.run(createParameters({ targetStorageId: rl('00000000-0000-4000-8000-000000000001') }));
		expect(result.error?.message).toBe('Validation Failed');
		expect(result.error?.description).toContain('Field: target.id.');
		expect(result.error?.httpCode).toBe('400');
	});
});

describe('job: get', () => {
	it('returns the job as the sandbox holds it (Simplify off: every field)', async () => {
		const { items, error } = await t.run({ operation: 'get', jobId: rl(DEMO_IDS.jobIds.copied, 'list'), simplify: false });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([flat(t.sandbox.state.job(DEMO_IDS.jobIds.copied)!)]);
	});

	it('Simplify on: the chosen fields, with the values the sandbox holds', async () => {
		const { items } = await t.run({ operation: 'get', jobId: rl(DEMO_IDS.jobIds.dryRun) });
		const a = t.sandbox.state.job(DEMO_IDS.jobIds.dryRun)!.attributes;
		expect(items[0].json).toEqual({
			id: DEMO_IDS.jobIds.dryRun,
			name: a.name,
			status: a.status,
			transferType: a.transferType,
			dryRun: a.dryRun,
			source: a.source,
			target: a.target,
			stats: {
				startedAt: a.stats.startedAt,
				finishedAt: a.stats.finishedAt,
				filesCount: a.stats.filesCount,
				filesSize: a.stats.filesSize,
				transferredCount: a.stats.transferredCount,
				transferredSize: a.stats.transferredSize,
				estimatedDuration: a.stats.estimatedDuration,
				estimatedCost: a.stats.estimatedCost,
			},
			createdAt: a.createdAt,
			updatedAt: a.updatedAt,
			summary: expect.objectContaining({
				dryRun: true,
				filesCount: a.stats.filesCount,
				filesSize: a.stats.filesSize,
				estimatedDurationSeconds: a.stats.estimatedDuration,
				// The cost as a number next to its currency, ready for an IF node.
				estimatedCost: Number(a.stats.estimatedCost!.amount),
				currency: a.stats.estimatedCost!.currency,
				text: expect.stringMatching(/^Dry run: \d+ files \(.+\) in scope, estimated duration .+, estimated cost [\d.]+ [A-Z]{3}\.$/),
			}),
		});
		expect(a.stats.estimatedCost).not.toBeNull();
		expect(typeof (items[0].json.summary as { estimatedCost: unknown }).estimatedCost).toBe('number');
	});

	it('an unknown ID gives NodeApiError "Entity Not Found" with the API detail', async () => {
		const result = await t.run({ operation: 'get', jobId: rl('0f0f0f0f-0000-4000-8000-000000000000') });
		expect(result.error?.message).toBe('Entity Not Found');
		expect(result.error?.description).toContain('The requested entity was not found.');
		expect(result.error?.httpCode).toBe('404');
	});

	it('continueOnFail: an error item per failed item, the others go on, every item paired', async () => {
		const unknown = '0f0f0f0f-0000-4000-8000-000000000000';
		const { items, error } = await t.run(
			{ operation: 'get', jobId: rl('={{ $json.id }}') },
			{
				continueOnFail: true,
				items: [
					{ json: { id: DEMO_IDS.jobIds.copied } },
					{ json: { id: unknown } },
					{ json: { id: 'not-a-job-id' } },
					{ json: { id: DEMO_IDS.jobIds.failedSync } },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json.id).toBe(DEMO_IDS.jobIds.copied);
		expect(items[1].json).toEqual({ error: 'Entity Not Found', description: expect.stringContaining('The requested entity was not found.') });
		expect(items[2].json.error).toContain('"Job" must be a UUID');
		expect(items[2].json.error).toContain('[item 2]');
		expect(items[3].json.id).toBe(DEMO_IDS.jobIds.failedSync);
	});

	it('continueOnFail on Create: the invalid item gets an error item, the valid ones create their jobs', async () => {
		const names = [uniq('cof'), uniq('cof'), uniq('cof')];
		const { items, error } = await t.run(
			createParameters({ sourcePath: '={{ $json.path }}', additionalFields: { name: '={{ $json.name }}' } }),
			{
				continueOnFail: true,
				items: [
					{ json: { name: names[0], path: '/reports' } },
					{ json: { name: names[1], path: 'relative/path' } },
					{ json: { name: names[2], path: '/data' } },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.id).toBe(jobsNamed(t.sandbox, names[0])[0].id);
		expect(items[1].json.error).toContain('"Source Path" must be an absolute path');
		expect(jobsNamed(t.sandbox, names[1])).toHaveLength(0);
		expect(items[2].json.id).toBe(jobsNamed(t.sandbox, names[2])[0].id);
	});
});
