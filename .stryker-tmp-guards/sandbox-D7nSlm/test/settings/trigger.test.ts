/**
 * Settings matrix, trigger column. A polling trigger runs in two ways:
 * - active workflow: n8n calls poll() on a schedule (PollContext). A failed poll is not a node run: n8n
 *   records a failed execution and starts the error workflow; On Error, Retry On Fail, Always Output
 *   Data are not consulted. The trigger throws the same error whatever they are set to.
 * - manual run ("Execute workflow" / "Fetch Test Event"): WorkflowExecute runs the trigger as the start
 *   node, so n8n's node settings apply to it like to any node.
 */
// @ts-nocheck

import type { INode } from 'n8n-workflow';

import { DEMO_IDS } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from '../harness/credentials';
import { runTriggerManually, runWorkflow, triggerHandle, UPSTREAM_NAME } from '../harness/engine';
import { rlExpr } from './cases';
import { useNodeSandbox } from '../harness/sandbox';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;
useNodeSandbox({ speed: 1000 }, (running) => ({ sandbox, credentials } = running));

/** Retries of the transport off, so that one injected fault fails the poll. */
const params = { events: ['failed', 'finished', 'stuck'], filters: {}, options: {}, requestOptions: { maxRetries: 0 } };
const failJobLists = (times = Infinity) => sandbox.faults.add({ kind: 'internal-error', method: 'GET', path: '/jobs', times });
const listRequests = () => sandbox.requests.count({ route: '/jobs' });

const ON_ERROR: Array<[string, Partial<INode>]> = [
	['Stop Workflow', { onError: 'stopWorkflow' }],
	['Continue (regular output)', { onError: 'continueRegularOutput' }],
	['Continue (using error output)', { onError: 'continueErrorOutput' }],
	['legacy Continue On Fail', { continueOnFail: true }],
];

describe('trigger, active workflow (poll): node settings do not change a failed poll', () => {
	it.each(ON_ERROR)('%s: the poll throws the service error and keeps no state from it', async (_, settings) => {
		const handle = triggerHandle(credentials, params, settings);
		await expect(handle.poll()).resolves.toBeNull(); // first activation: remembers where the list stands
		const before = JSON.stringify(handle.staticData());
		failJobLists();
		await expect(handle.poll()).rejects.toThrow('Internal Server Error');
		expect(JSON.stringify(handle.staticData())).toBe(before);
	});
});

describe('trigger, manual run: On Error', () => {
	it('without a fault, a manual run outputs the newest matching job, whatever the setting', async () => {
		for (const [, settings] of ON_ERROR) {
			const { error, outputs } = await runTriggerManually(credentials, params, settings);
			expect(error).toBeUndefined();
			expect(outputs[0]).toHaveLength(1);
			expect(outputs[0][0].json).toEqual(expect.objectContaining({ id: expect.any(String), event: expect.any(String) }));
			expect(outputs[1] ?? []).toEqual([]);
		}
	});

	it('Stop Workflow: the run fails with the service error; nothing is output', async () => {
		failJobLists();
		const { error, runError, recorded } = await runTriggerManually(credentials, params, { onError: 'stopWorkflow' });
		expect(error?.message).toBe('Internal Server Error');
		expect(runError?.message).toBe('Internal Server Error');
		expect(recorded).toEqual([]);
	});

	it.each(ON_ERROR.slice(1))(
		'%s: n8n records the error and passes the start item ({}) on output 0; nothing goes to an error output',
		async (_, settings) => {
			failJobLists();
			const { error, recorded } = await runTriggerManually(credentials, params, settings);
			expect(error?.message).toBe('Internal Server Error');
			expect(recorded).toEqual([[{ json: {}, pairedItem: { item: 0 } }]]);
		},
	);

	it('Continue (regular output) with a node after the trigger: the run goes on and that node gets the empty item', async () => {
		failJobLists();
		const { runError, outputs, error } = await runWorkflow({
			credentials,
			upstreamTrigger: params,
			upstreamNode: { onError: 'continueRegularOutput' },
			parameters: { resource: 'job', operation: 'get', jobId: rlExpr('$json.id') },
			node: { onError: 'continueRegularOutput' },
		});
		expect(runError).toBeUndefined();
		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json)).toEqual([
			{ error: expect.stringContaining('"Job" is required'), description: expect.stringContaining('"Job" is required') },
		]);
	});
});

describe('trigger, manual run: Retry On Fail, Always Output Data', () => {
	it('Retry On Fail: a poll that fails once is run again and delivers the job', async () => {
		failJobLists(1);
		const { error, outputs } = await runTriggerManually(credentials, params, {
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 1,
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		expect(sandbox.requests.all().filter((r) => r.route === '/jobs').map((r) => r.status)).toEqual([500, 200]);
	});

	it('Retry On Fail: a fault that does not clear fails the run after Max Tries polls', async () => {
		failJobLists();
		const { error } = await runTriggerManually(credentials, params, { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 });
		expect(error?.message).toBe('Internal Server Error');
		expect(listRequests()).toBe(2);
	});

	it('Always Output Data: when no job matches, the manual run still fails, saying why (no empty item)', async () => {
		const { error, recorded } = await runTriggerManually(credentials, { ...params, events: ['canceled'] }, { alwaysOutputData: true });
		expect(error?.message).toBe('No job matching the events and filters found');
		expect(recorded).toEqual([]);
	});
});

describe('trigger: pinned data', () => {
	it('a pinned trigger is not polled; the node after it gets the pinned items', async () => {
		const pinned = [{ json: { id: DEMO_IDS.jobIds.copied, event: 'finished' } }, { json: { id: DEMO_IDS.jobIds.failedSync, event: 'failed' } }];
		const { error, outputs, upstream, run } = await runWorkflow({
			credentials,
			upstreamTrigger: params,
			upstreamPinData: pinned,
			parameters: { resource: 'job', operation: 'get', jobId: rlExpr('$json.id') },
		});
		expect(error).toBeUndefined();
		expect(upstream.map((i) => i.json)).toEqual(pinned.map((i) => i.json));
		expect(listRequests()).toBe(0);
		expect(outputs[0].map((i) => [i.json.id, i.pairedItem])).toEqual([
			[DEMO_IDS.jobIds.copied, { item: 0 }],
			[DEMO_IDS.jobIds.failedSync, { item: 1 }],
		]);
		expect(Object.keys(run.data.resultData.runData)).toEqual([UPSTREAM_NAME, 'File Transfer Manager']);
	});
});
