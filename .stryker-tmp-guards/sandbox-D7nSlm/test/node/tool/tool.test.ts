/**
 * The action node as an AI agent's tool (docs/operations.md › As an AI agent tool), through n8n-core's own
 * tool path (test/harness/tool.ts) against the sandbox: what a model reads. Input errors name the parameter
 * as the model sent it, what it must be and where to find one, without "[item 0]" or editor hints; a 404
 * names the record; jobs come in the tool shape, summary first; lists stay bounded (Limit 50); and the
 * editor's output of the same operations is what it was.
 */
// @ts-nocheck

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { runNode } from '../../harness/engine';
import { rl } from '../../harness/locator';
import { callTool, type ToolCall } from '../../harness/tool';
import { useNodeSandbox } from '../../harness/sandbox';

const { jobIds, storageIds } = DEMO_IDS;
const fromAi = (key: string) => `={{ $fromAI('${key}', 'the ${key}', 'string') }}`;

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;
useNodeSandbox({ speed: 1000 }, (running) => ({ sandbox, credentials } = running));

const call = (parameters: INodeParameters, args: IDataObject): Promise<ToolCall> =>
	callTool({ credentials, parameters, args });

/** Requests the sandbox got for a path (the token request aside). */
const requestsTo = (path: string) => sandbox.requests.all().filter((request) => request.path === path).length;

describe('the tool as n8n 2.41.1 builds it at execution', () => {
	it('is named after the node; its automatic description is the editor node\'s action (n8n applies the replacements in the editor only)', async () => {
		const result = await call({ resource: 'job', operation: 'get', jobId: rl(fromAi('jobId')) }, { jobId: jobIds.copied });
		expect(result.name).toBe('File_Transfer_Manager');
		expect(result.description).toBe('Get a job in File Transfer Manager');
	});
});

describe('input errors a model can act on', () => {
	it('a job ID that is not a UUID: the parameter, what it must be, what it got, where to find one; nothing sent', async () => {
		sandbox.requests.clear();
		const result = await call({ resource: 'job', operation: 'get', jobId: rl(fromAi('jobId')) }, { jobId: 'abc' });
		expect(result.error).toBe(`jobId must be a job's UUID (got "abc"); list jobs with Job › Get Many to find one`);
		expect(sandbox.requests.all()).toEqual([]);
	});

	it('names the parameter by the key the model sent it under', async () => {
		const result = await call({ resource: 'job', operation: 'getTransfers', jobId: rl(fromAi('job_to_inspect')) }, { job_to_inspect: '' });
		expect(result.error).toBe(`job_to_inspect must be a job's UUID (got ""); list jobs with Job › Get Many to find one`);
	});

	it('a dry run to run: where to find a finished dry run', async () => {
		const result = await call({ resource: 'job', operation: 'runFromDryRun', jobId: rl(fromAi('jobId')) }, { jobId: 'the dry run' });
		expect(result.error).toBe(
			`jobId must be a finished dry run's UUID (got "the dry run"); list dry runs with Job › Get Many (filter Dry Run on) to find one`,
		);
	});

	it.each([
		['storage', { resource: 'storage', operation: 'get', storageId: rl(fromAi('storageId')) }, 'storageId', `storageId must be a storage's UUID (got "files"); list storages with Storage › Get Many to find one`],
		['user', { resource: 'user', operation: 'get', userId: rl(fromAi('userId')) }, 'userId', `userId must be a user's UUID (got "files"); list users with User › Get Many to find one`],
		['group', { resource: 'group', operation: 'deleteGroup', groupId: rl(fromAi('groupId')) }, 'groupId', `groupId must be a group's UUID (got "files"); list groups with Group › Get Many to find one`],
		['account', { resource: 'account', operation: 'get', accountId: rl(fromAi('accountId')) }, 'accountId', `accountId must be an account's UUID (got "files"); list accounts with Account › Get Many to find one`],
		[
			'account filter',
			{ resource: 'user', operation: 'getMany', filters: { accountId: rl(fromAi('accountId')) } },
			'accountId',
			`accountId must be an account's UUID (got "files"); list accounts with Account › Get Many to find one`,
		],
		[
			'group of a new user',
			{ resource: 'user', operation: 'create', accountId: rl(DEMO_IDS.accountId), email: 'ada@example.com', additionalFields: { groupId: rl(fromAi('group')) } },
			'group',
			`group must be a group's UUID (got "files"); list groups with Group › Get Many to find one`,
		],
	] as Array<[string, INodeParameters, string, string]>)('%s', async (_name, parameters, key, message) => {
		sandbox.requests.clear();
		const result = await call(parameters, { [key]: 'files' });
		expect(result.error).toBe(message);
		expect(sandbox.requests.all()).toEqual([]);
	});

	it('the source storage of a new job', async () => {
		const result = await call(
			{
				resource: 'job',
				operation: 'create',
				transferType: 'copy',
				sourceStorageId: rl(fromAi('sourceStorageId')),
				targetStorageId: rl(storageIds.archive),
				conflictHandling: 'skip',
				dryRun: true,
			},
			{ sourceStorageId: 'files' },
		);
		expect(result.error).toBe(`sourceStorageId must be a storage's UUID (got "files"); list storages with Storage › Get Many to find one`);
	});

	it('other input errors lose their item number, and keep their text', async () => {
		const result = await call(
			{
				resource: 'job',
				operation: 'create',
				transferType: 'copy',
				sourceStorageId: rl(storageIds.files),
				sourcePath: fromAi('sourcePath'),
				targetStorageId: rl(storageIds.archive),
				conflictHandling: 'skip',
				dryRun: true,
			},
			{ sourcePath: 'reports' },
		);
		expect(result.error).toMatch(/^"Source Path" must be an absolute path starting with "\/", got "reports"(\n|$)/);
		expect(result.error).not.toContain('[item');
	});

	it('in the editor the same input keeps its wording, its item number and its hint', async () => {
		const { error } = await runNode({ credentials, parameters: { resource: 'job', operation: 'get', jobId: rl('={{ "abc" }}') } });
		expect(error?.message).toBe('"Job" must be a UUID, got "abc" [item 0]');
		expect(error?.description).toContain('Pick the record from the list, or map an ID field.');
	});
});

describe('API errors name the record', () => {
	const unknown = '00000000-0000-4000-8000-00000000abcd';

	it('a job that does not exist: which ID, where to find one, and the API\'s title and detail', async () => {
		const result = await call({ resource: 'job', operation: 'get', jobId: rl(fromAi('jobId')) }, { jobId: unknown });
		expect(result.error).toMatch(
			new RegExp(`^Entity Not Found: no job with ID ${unknown} exists; list jobs with Job › Get Many to find one\n\nDetails: .*Check the ID`),
		);
		// The editor keeps the API's title alone.
		const { error } = await runNode({ credentials, parameters: { resource: 'job', operation: 'get', jobId: rl(unknown) } });
		expect(error?.message).toBe('Entity Not Found');
	});

	it('a storage that does not exist', async () => {
		const result = await call({ resource: 'storage', operation: 'get', storageId: rl(fromAi('storageId')) }, { storageId: unknown });
		expect(result.error).toMatch(/^Entity Not Found: no storage with ID .* exists; list storages with Storage › Get Many to find one/);
	});

	it('the transfers of a job that does not exist', async () => {
		const result = await call({ resource: 'job', operation: 'getTransfers', jobId: rl(fromAi('jobId')) }, { jobId: unknown });
		expect(result.error).toMatch(/^Entity Not Found: no job with ID .* exists; list jobs with Job › Get Many/);
	});
});

describe('jobs in the tool shape', () => {
	it('Get: the summary line first, each figure once, no nulls; the editor output is unchanged', async () => {
		const result = await call({ resource: 'job', operation: 'get', jobId: rl(fromAi('jobId')) }, { jobId: jobIds.copied });
		const [job] = result.items!;
		expect(Object.keys(job)[0]).toBe('summary');
		expect(job.summary).toMatch(/^Copy job finished: transferred \d+ of \d+ files \(.+\) in .+\.$/);
		expect(job).toMatchObject({ id: jobIds.copied, status: 'finished', transferType: 'copy', dryRun: false });
		expect(Object.values(job)).not.toContain(null);
		expect(job).not.toHaveProperty('stats');
		const editor = await runNode({ credentials, parameters: { resource: 'job', operation: 'get', jobId: rl(jobIds.copied) } });
		expect(Object.keys(editor.items[0].json)).toEqual([
			'id', 'name', 'status', 'transferType', 'dryRun', 'source', 'target', 'stats', 'createdAt', 'updatedAt', 'summary',
		]);
		expect((editor.items[0].json.summary as IDataObject).text).toMatch(/^Transferred /);
	});

	it('a finished dry run says it transferred nothing by design, with its cost once as a number', async () => {
		const result = await call({ resource: 'job', operation: 'get', jobId: rl(fromAi('jobId')) }, { jobId: jobIds.dryRun });
		const [job] = result.items!;
		expect(job.summary).toMatch(/^Dry run finished: \d+ files \(.+\) in scope, .*estimated cost [\d.]+ USD\. A dry run only estimates and transfers nothing; Job › Run From Dry Run starts the real copy\.$/);
		expect(job).not.toHaveProperty('transferredCount');
		expect(job).not.toHaveProperty('percentDone');
		expect(job.estimatedCost).toEqual({ amount: expect.any(Number), currency: 'USD' });
	});

	it('Create a dry run, wait, then Run From Dry Run: the dry run\'s cost as a number beside the real job', async () => {
		const dry = await call(
			{
				resource: 'job',
				operation: 'create',
				transferType: 'copy',
				sourceStorageId: rl(fromAi('sourceStorageId')),
				sourcePath: '/reports',
				targetStorageId: rl(fromAi('targetStorageId')),
				targetPath: '/tool-test',
				conflictHandling: 'skip',
				dryRun: true,
				waitForCompletion: true,
				pollInterval: 0.05,
				maxWait: 30,
			},
			{ sourceStorageId: storageIds.files, targetStorageId: storageIds.archive },
		);
		expect(dry.error).toBeUndefined();
		const [dryJob] = dry.items!;
		expect(dryJob.summary).toMatch(/^Dry run finished: /);
		const run = await call(
			{ resource: 'job', operation: 'runFromDryRun', jobId: rl(fromAi('jobId')), waitForCompletion: true, pollInterval: 0.05, maxWait: 30 },
			{ jobId: dryJob.id as string },
		);
		expect(run.error).toBeUndefined();
		const [job] = run.items!;
		expect(Object.keys(job)[0]).toBe('summary');
		expect(job).toMatchObject({ dryRun: false, status: 'finished', dryRunJobId: dryJob.id, dryRunEstimatedCost: dryJob.estimatedCost });
	});

	it('Pause: the job in the tool shape too (the editor outputs every attribute)', async () => {
		const [id] = sandbox.control.insertJobs(1, { status: 'running' });
		const result = await call({ resource: 'job', operation: 'pause', jobId: rl(fromAi('jobId')) }, { jobId: id });
		expect(result.items![0]).toMatchObject({ id, status: 'paused' });
		expect(Object.keys(result.items![0])[0]).toBe('summary');
	});
});

describe('lists stay bounded', () => {
	it('Get Many without Return All or Limit: at most 50 jobs, in one request of page[limit]=50', async () => {
		sandbox.control.insertJobs(60);
		sandbox.requests.clear();
		const result = await call({ resource: 'job', operation: 'getMany', filters: { name: fromAi('name') } }, { name: '' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(50);
		const lists = sandbox.requests.all().filter((request) => request.path === '/jobs');
		expect(lists.map((request) => request.query['page[limit]'])).toEqual(['50']);
		expect(requestsTo('/jobs')).toBe(1);
	});
});

describe('bytes per job item', () => {
	it('the tool shape is the smallest (printed for the demo jobs)', async () => {
		const ids = [jobIds.copied, jobIds.failedSync, jobIds.dryRun];
		const sizes = { tool: [] as number[], simplified: [] as number[], full: [] as number[] };
		for (const id of ids) {
			const tool = await call({ resource: 'job', operation: 'get', jobId: rl(fromAi('jobId')) }, { jobId: id });
			const simplified = await runNode({ credentials, parameters: { resource: 'job', operation: 'get', jobId: rl(id) } });
			const full = await runNode({ credentials, parameters: { resource: 'job', operation: 'get', jobId: rl(id), simplify: false } });
			sizes.tool.push(Buffer.byteLength(JSON.stringify(tool.items![0])));
			sizes.simplified.push(Buffer.byteLength(JSON.stringify(simplified.items[0].json)));
			sizes.full.push(Buffer.byteLength(JSON.stringify(full.items[0].json)));
		}
		process.stdout.write(
			`[tool bytes] demo jobs (copied, failedSync, dryRun), JSON bytes per item: tool ${sizes.tool.join(', ')}; simplified ${sizes.simplified.join(', ')}; full ${sizes.full.join(', ')}\n`,
		);
		for (let i = 0; i < ids.length; i++) {
			expect(sizes.tool[i]).toBeLessThan(sizes.simplified[i]);
			expect(sizes.tool[i]).toBeLessThan(sizes.full[i]);
		}
	});
});
