/**
 * Settings matrix, On Error: every n8n error setting × one operation per resource, with four input
 * items (good, invalid input, failing at the service, good): which item goes to which output, paired
 * with which input item, with what JSON; and whether the run fails.
 */
// @ts-nocheck

import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from '../harness/credentials';
import { runNode, runWorkflow } from '../harness/engine';
import { RESOURCES, type ResourceCase } from './cases';
import { useNodeSandbox } from '../harness/sandbox';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;
useNodeSandbox({ speed: 1000 }, (running) => ({ sandbox, credentials } = running));

const inputs = (c: ResourceCase): IDataObject[] => [c.good, c.invalid, c.failing, c.good];

const matches = (expected: string | RegExp) =>
	typeof expected === 'string' ? expected : expect.stringMatching(expected);

async function run(c: ResourceCase, settings: Partial<INode>) {
	for (const rule of c.faults?.(sandbox) ?? []) sandbox.faults.add(rule);
	return await runNode({
		credentials,
		parameters: { resource: c.resource, operation: c.operation, ...c.parameters },
		items: inputs(c).map((json) => ({ json })),
		node: settings,
	});
}

const requestsTo = (c: ResourceCase) => sandbox.requests.count({ route: c.route });

function expectResults(c: ResourceCase, items: INodeExecutionData[], pairedWith: number[]) {
	expect(items.map((i) => i.pairedItem)).toEqual(pairedWith.map((item) => ({ item })));
	for (const item of items) {
		expect(c.isResult(item.json)).toBe(true);
		expect(item.json.error).toBeUndefined();
		expect(item.error).toBeUndefined();
	}
}

describe.each(RESOURCES)('On Error × $resource $operation', (c) => {
	it.each([
		['Stop Workflow', { onError: 'stopWorkflow' }],
		['the default (no setting)', {}],
		['legacy Continue On Fail off', { continueOnFail: false }],
	] as Array<[string, Partial<INode>]>)('%s: the run fails on the invalid item, naming it; nothing is output', async (_, settings) => {
		const { error, outputs } = await run(c, settings);
		expect(error?.message).toEqual(matches(c.invalidMessage));
		expect(error?.context?.itemIndex).toBe(1);
		expect(outputs).toEqual([]);
		// Item 0 was requested; the node stopped at item 1, before any request for it.
		expect(requestsTo(c)).toBe(1);
	});

	it('Stop Workflow: a service error fails the run too, naming the item', async () => {
		for (const rule of c.faults?.(sandbox) ?? []) sandbox.faults.add(rule);
		const { error, outputs } = await runNode({
			credentials,
			parameters: { resource: c.resource, operation: c.operation, ...c.parameters },
			items: [c.good, c.failing].map((json) => ({ json })),
			node: { onError: 'stopWorkflow' },
		});
		expect(error?.message).toEqual(matches(c.failingMessage));
		expect(error?.description).toMatch(c.failingDescription);
		expect(error?.context?.itemIndex).toBe(1);
		expect(outputs).toEqual([]);
	});

	it.each([
		['Continue (regular output)', { onError: 'continueRegularOutput' }],
		['legacy Continue On Fail on', { continueOnFail: true }],
	] as Array<[string, Partial<INode>]>)(
		'%s: one output; failed items stay in place as { error, description }, paired with their input',
		async (_, settings) => {
			const { error, outputs } = await run(c, settings);
			expect(error).toBeUndefined();
			expect(outputs).toHaveLength(1);
			const [main] = outputs;
			expect(main.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
			expectResults(c, [main[0], main[3]], [0, 3]);
			for (const [index, message, description] of [
				[1, c.invalidMessage, c.invalidDescription],
				[2, c.failingMessage, c.failingDescription],
			] as const) {
				expect(main[index].json).toEqual({ error: matches(message), description: expect.stringMatching(description) });
				expect(main[index].error).toBeUndefined();
			}
			expect(requestsTo(c)).toBe(3);
		},
	);

	it('Continue (using error output): results on output 0, failed items on output 1 as { error, message }', async () => {
		const { error, outputs } = await run(c, { onError: 'continueErrorOutput' });
		expect(error).toBeUndefined();
		expect(outputs).toHaveLength(2);
		const [success, failed] = outputs;
		expectResults(c, success, [0, 3]);
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(failed[0].json).toEqual({
			error: matches(c.invalidMessage),
			message: expect.stringMatching(c.invalidDescription),
		});
		expect(failed[1].json).toEqual({
			error: matches(c.failingMessage),
			message: expect.stringMatching(c.failingDescription),
		});
		// n8n would replace the JSON of an item with `error` set by { error }: the node does not set it.
		expect(failed.map((i) => i.error)).toEqual([undefined, undefined]);
		expect(requestsTo(c)).toBe(3);
	});

	it('Continue (using error output) after an upstream node: n8n adds the input item\'s fields to the error item', async () => {
		for (const rule of c.faults?.(sandbox) ?? []) sandbox.faults.add(rule);
		const upstreamItems = inputs(c).map((json, n) => ({ ...json, row: n }));
		const { error, outputs, upstream } = await runWorkflow({
			credentials,
			parameters: { resource: c.resource, operation: c.operation, ...c.parameters },
			upstreamItems,
			node: { onError: 'continueErrorOutput' },
		});
		expect(error).toBeUndefined();
		expect(upstream).toHaveLength(4);
		const [success, failed] = outputs;
		expectResults(c, success, [0, 3]);
		expect(failed.map((i) => i.json)).toEqual([
			{ ...upstreamItems[1], error: matches(c.invalidMessage), message: expect.stringMatching(c.invalidDescription) },
			{ ...upstreamItems[2], error: matches(c.failingMessage), message: expect.stringMatching(c.failingDescription) },
		]);
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
	});
});
