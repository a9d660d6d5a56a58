/**
 * The tool variant's Output (docs/operations.md › As an AI agent tool): Simplified (the tool shape, the
 * default), Raw (every attribute) or Selected Fields (the ID always kept), on the job operations, through
 * n8n-core's own tool path; Simplify stays the workflows' switch and their output does not change. And Max
 * Estimated Cost as a model reads its refusal.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { JobStats } from '../../../nodes/shared/api/types';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { runNode } from '../../harness/engine';
import { rl } from '../../harness/locator';
import { callTool, type ToolCall } from '../../harness/tool';
import { useNodeSandbox } from '../../harness/sandbox';

const { jobIds } = DEMO_IDS;
const fromAi = (key: string) => `={{ $fromAI('${key}', 'the ${key}', 'string') }}`;

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;
useNodeSandbox({ speed: 1000 }, (running) => ({ sandbox, credentials } = running));

const call = (parameters: INodeParameters, args: IDataObject): Promise<ToolCall> => callTool({ credentials, parameters, args });
const getJob = (over: INodeParameters = {}): INodeParameters => ({ resource: 'job', operation: 'get', jobId: rl(fromAi('jobId')), ...over });

describe('Output in tool use', () => {
	it('Simplified by default: the tool shape, summary first', async () => {
		const [job] = (await call(getJob(), { jobId: jobIds.copied })).items!;
		expect(Object.keys(job)[0]).toBe('summary');
		expect(job).not.toHaveProperty('stats');
		expect(Object.keys(job).length).toBeGreaterThan(10);
	});

	it('Raw: every attribute, as Simplify off gives it in a workflow', async () => {
		const [job] = (await call(getJob({ output: 'raw' }), { jobId: jobIds.copied })).items!;
		const editor = await runNode({ credentials, parameters: { resource: 'job', operation: 'get', jobId: rl(jobIds.copied), simplify: false } });
		expect(job).toEqual(editor.items[0].json);
		expect(job).toHaveProperty('stats');
		expect(job).toHaveProperty('accountId');
	});

	it('Selected Fields: the ID always, then the picked fields that have a value, from the tool shape or the attributes', async () => {
		const [job] = (
			await call(getJob({ output: 'selected', fields: ['status', 'estimatedCost', 'accountId', 'summary'] }), { jobId: jobIds.dryRun })
		).items!;
		expect(Object.keys(job)).toEqual(['id', 'summary', 'status', 'estimatedCost', 'accountId']);
		expect(job).toMatchObject({ id: jobIds.dryRun, status: 'finished', estimatedCost: { amount: expect.any(Number), currency: 'USD' } });
		// A field without a value is left out (a dry run transfers nothing).
		const [dry] = (await call(getJob({ output: 'selected', fields: ['percentDone'] }), { jobId: jobIds.dryRun })).items!;
		expect(dry).toEqual({ id: jobIds.dryRun });
		// None picked: the ID alone.
		const [bare] = (await call(getJob({ output: 'selected', fields: [] }), { jobId: jobIds.copied })).items!;
		expect(bare).toEqual({ id: jobIds.copied });
	});

	it('Selected Fields with an unknown field: an input error that lists the fields, before any request', async () => {
		sandbox.requests.clear();
		const result = await call(getJob({ output: 'selected', fields: ['status', 'colour'] }), { jobId: jobIds.copied });
		expect(result.error).toMatch(/^"Fields" must be a list of job fields, got \["colour"\]/);
		expect(sandbox.requests.all().filter((request) => request.path !== '/oauth/token')).toEqual([]);
	});

	it('Get Many, Pause: Output applies to every job operation', async () => {
		const list = await call(
			{ resource: 'job', operation: 'getMany', limit: 3, filters: { name: fromAi('name') }, output: 'selected', fields: ['name'] },
			{ name: '' },
		);
		expect(list.items).toHaveLength(3);
		for (const job of list.items!) expect(Object.keys(job)).toEqual(['id', 'name']);
		const [id] = sandbox.control.insertJobs(1, { status: 'running' });
		const paused = await call({ resource: 'job', operation: 'pause', jobId: rl(fromAi('jobId')), output: 'selected', fields: ['status'] }, { jobId: id });
		expect(paused.items![0]).toEqual({ id, status: 'paused' });
	});

	it('Simplify does not reach the tool variant (n8n hides it there); Output does not reach workflows', async () => {
		// A tool node with Simplify off, as a node of an n8n without `@tool` conditions could hold it: dropped.
		const [job] = (await call(getJob({ simplify: false }), { jobId: jobIds.copied })).items!;
		expect(Object.keys(job)[0]).toBe('summary');
		// A workflow node with an Output value: ignored, the simplified job as always.
		const editor = await runNode({ credentials, parameters: { resource: 'job', operation: 'get', jobId: rl(jobIds.copied), output: 'raw' } });
		expect(Object.keys(editor.items[0].json)).toEqual([
			'id', 'name', 'status', 'transferType', 'dryRun', 'source', 'target', 'stats', 'createdAt', 'updatedAt', 'summary',
		]);
	});
});

describe('Run From Dry Run as a tool', () => {
	const dryRun = (amount: string) => {
		const stats = { estimatedCost: { amount, currency: 'USD' } } as Partial<JobStats> as JobStats;
		return sandbox.control.insertJobs(1, { name: `tool guard ${amount}`, dryRun: true, status: 'finished', stats })[0];
	};
	const runFromDryRun = (over: INodeParameters = {}): INodeParameters => ({
		resource: 'job',
		operation: 'runFromDryRun',
		jobId: rl(fromAi('jobId')),
		maxEstimatedCost: '10.00',
		maxEstimatedCostCurrency: 'USD',
		...over,
	});
	const creates = () => sandbox.requests.count({ method: 'POST', path: '/jobs' });

	it('above the fixed maximum: a tool error a model acts on, no job started', async () => {
		const id = dryRun('250.00');
		const before = creates();
		const result = await call(runFromDryRun(), { jobId: id });
		expect(result.error).toBe(
			`Not started: dry run ${id} estimates 250.00 USD, above the maximum of 10.00 USD\n\nDetails: No job was started. The maximum of 10.00 USD is set in the workflow; a tool call cannot change it. Tell the user the estimate. To go on, they raise the maximum in the workflow, or you start a dry run of a narrower source (a sub-folder) and run that one if its estimate is within 10.00 USD.`,
		);
		expect(creates()).toBe(before);
	});

	it('under it: the real job, with Selected Fields of what Run From Dry Run adds', async () => {
		const id = dryRun('9.99');
		const result = await call(runFromDryRun({ output: 'selected', fields: ['dryRunJobId', 'dryRunEstimatedCost', 'dryRun'] }), { jobId: id });
		expect(result.error).toBeUndefined();
		const [job] = result.items!;
		expect(Object.keys(job)).toEqual(['id', 'dryRun', 'dryRunJobId', 'dryRunEstimatedCost']);
		expect(job).toMatchObject({ dryRun: false, dryRunJobId: id, dryRunEstimatedCost: { amount: 9.99, currency: 'USD' } });
	});
});
