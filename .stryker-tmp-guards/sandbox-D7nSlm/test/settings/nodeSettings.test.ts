/**
 * Settings matrix, the other node settings × one operation per resource: Retry On Fail with a fault
 * that clears (or not), Always Output Data on an empty Get Many, Execute Once, expressions that read
 * other items through a real upstream node, and pinned data upstream.
 */
// @ts-nocheck

import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from '../harness/credentials';
import { runNode, runWorkflow } from '../harness/engine';
import { RESOURCES, type ResourceCase } from './cases';
import { useNodeSandbox } from '../harness/sandbox';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;
useNodeSandbox({ speed: 1000 }, (running) => ({ sandbox, credentials } = running));

const parametersOf = (c: ResourceCase, extra: INodeParameters = {}): INodeParameters => ({
	resource: c.resource,
	operation: c.operation,
	...c.parameters,
	...extra,
});

/** The transport's own retries off, so that only n8n's Retry On Fail repeats a failed request. */
const withoutTransportRetries = (c: ResourceCase): INodeParameters =>
	parametersOf(c, { requestOptions: { ...((c.parameters.requestOptions as IDataObject) ?? {}), maxRetries: 0 } });

const statuses = (route: string) => sandbox.requests.all().filter((r) => r.route === route).map((r) => r.status);

/** The name of the field each case reads its input from: `id`, or `timeout` for API. */
const fieldOf = (c: ResourceCase) => Object.keys(c.good)[0];

describe.each(RESOURCES)('Retry On Fail × $resource $operation', (c) => {
	const retry = (settings: Partial<INode>) =>
		runNode({ credentials, parameters: withoutTransportRetries(c), items: [{ json: c.good }], node: settings });
	const failOnce = (times = 1) => sandbox.faults.add({ kind: 'internal-error', method: 'GET', path: c.route, times });

	it('on: a fault that clears after one request: n8n runs the node again, which succeeds', async () => {
		failOnce();
		const { error, outputs } = await retry({ retryOnFail: true, maxTries: 3, waitBetweenTries: 1 });
		expect(error).toBeUndefined();
		expect(outputs).toHaveLength(1);
		expect(outputs[0]).toHaveLength(1);
		expect(c.isResult(outputs[0][0].json)).toBe(true);
		expect(statuses(c.route)).toEqual([500, 200]);
	});

	it('off: the same fault fails the run after one request', async () => {
		failOnce();
		const { error } = await retry({ retryOnFail: false });
		expect(error?.message).toBe('Internal Server Error');
		expect(statuses(c.route)).toEqual([500]);
	});

	it('on, Max Tries 3: a fault that does not clear fails the run after three requests', async () => {
		failOnce(Infinity);
		const { error } = await retry({ retryOnFail: true, maxTries: 3, waitBetweenTries: 1 });
		expect(error?.message).toBe('Internal Server Error');
		expect(statuses(c.route)).toEqual([500, 500, 500]);
	});

	it('on, with Continue (using error output): the error item makes n8n retry too; the result goes to output 0', async () => {
		failOnce();
		const { error, outputs } = await retry({
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1,
			onError: 'continueErrorOutput',
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => c.isResult(i.json))).toEqual([true]);
		expect(outputs[1]).toEqual([]);
		expect(statuses(c.route)).toEqual([500, 200]);
	});
});

describe.each(RESOURCES.filter((c) => c.emptyGetMany))('Always Output Data × $resource getMany', (c) => {
	const getMany = (settings: Partial<INode>) =>
		runNode({
			credentials,
			parameters: { resource: c.resource, ...c.emptyGetMany },
			items: [{ json: {} }, { json: {} }],
			node: settings,
		});

	it('off: a Get Many that matches nothing outputs no item', async () => {
		const { error, outputs } = await getMany({ alwaysOutputData: false });
		expect(error).toBeUndefined();
		expect(outputs).toEqual([[]]);
		expect(sandbox.requests.count({ route: c.getManyRoute })).toBe(2);
	});

	it('on: n8n outputs one empty item, paired with every input item', async () => {
		const { error, outputs } = await getMany({ alwaysOutputData: true });
		expect(error).toBeUndefined();
		expect(outputs).toEqual([
			[{ json: {}, pairedItem: [{ item: 0, input: 0 }, { item: 1, input: 0 }] }],
		]);
	});

	it('on, with Continue (using error output) and every item failing: the empty item on output 0, the errors on output 1', async () => {
		const { outputs } = await runNode({
			credentials,
			parameters: { resource: c.resource, ...c.emptyGetMany, returnAll: false, limit: '={{ $json.limit }}' },
			items: [{ json: { limit: 0 } }, { json: { limit: 'many' } }],
			node: { alwaysOutputData: true, onError: 'continueErrorOutput' },
		});
		expect(outputs[0]).toEqual([{ json: {}, pairedItem: [{ item: 0, input: 0 }, { item: 1, input: 0 }] }]);
		expect(outputs[1].map((i) => [i.pairedItem, i.json.error])).toEqual([
			[{ item: 0 }, expect.stringContaining('Limit')],
			[{ item: 1 }, expect.stringContaining('Limit')],
		]);
		expect(sandbox.requests.count({ route: c.getManyRoute })).toBe(0);
	});
});

describe('Always Output Data × api getVersion', () => {
	it('has nothing to add: Get Version always outputs one item per input item', async () => {
		const [c] = RESOURCES.filter((r) => r.resource === 'api');
		const { outputs } = await runNode({
			credentials,
			parameters: parametersOf(c),
			items: [{ json: c.good }],
			node: { alwaysOutputData: true },
		});
		expect(outputs[0]).toHaveLength(1);
		expect(c.isResult(outputs[0][0].json)).toBe(true);
	});
});

describe.each(RESOURCES)('Execute Once × $resource $operation', (c) => {
	it('with three input items: one request, one result, paired with the first item', async () => {
		const { error, outputs } = await runNode({
			credentials,
			parameters: parametersOf(c),
			items: [c.good, c.invalid, c.failing].map((json) => ({ json })),
			node: { executeOnce: true },
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		expect(c.isResult(outputs[0][0].json)).toBe(true);
		expect(outputs[0][0].pairedItem).toEqual({ item: 0 });
		expect(sandbox.requests.count({ route: c.route })).toBe(1);
	});

	it('only the first item counts: an invalid first item fails the run, naming item 0', async () => {
		const { error } = await runNode({
			credentials,
			parameters: parametersOf(c),
			items: [c.invalid, c.good, c.good].map((json) => ({ json })),
			node: { executeOnce: true },
		});
		expect(error?.message).toContain('[item 0]');
		expect(sandbox.requests.count({ route: c.route })).toBe(0);
	});
});

describe.each(RESOURCES)('Expressions reading other items × $resource $operation', (c) => {
	const field = fieldOf(c);
	/** The case's parameters with its `$json.<field>` expression replaced. */
	const reading = (expression: string): INodeParameters =>
		JSON.parse(JSON.stringify(parametersOf(c)).split(`$json.${field}`).join(expression)) as INodeParameters;

	it('$input.all()[1]: every item reads the second input item', async () => {
		const { error, outputs } = await runWorkflow({
			credentials,
			parameters: reading(`$input.all()[1].json.${field}`),
			upstreamItems: [c.invalid, c.good, c.failing],
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => [c.isResult(i.json), i.pairedItem])).toEqual([
			[true, { item: 0 }],
			[true, { item: 1 }],
			[true, { item: 2 }],
		]);
	});

	it("$('Input').item: each item reads its own upstream item through paired items", async () => {
		const { error, outputs } = await runWorkflow({
			credentials,
			parameters: reading(`$('Input').item.json.${field}`),
			upstreamItems: [c.good, c.invalid],
			node: { onError: 'continueErrorOutput' },
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => [c.isResult(i.json), i.pairedItem])).toEqual([[true, { item: 0 }]]);
		expect(outputs[1].map((i) => [i.json.error, i.pairedItem])).toEqual([
			[expect.stringMatching(typeof c.invalidMessage === 'string' ? escape(c.invalidMessage) : c.invalidMessage), { item: 1 }],
		]);
	});

	it('$json of item 1 stays item 1\'s: item 0 is invalid, item 1 succeeds', async () => {
		const { outputs } = await runWorkflow({
			credentials,
			parameters: parametersOf(c),
			upstreamItems: [c.invalid, c.good],
			node: { onError: 'continueRegularOutput' },
		});
		expect(outputs[0].map((i) => [i.json.error === undefined && c.isResult(i.json), i.pairedItem])).toEqual([
			[false, { item: 0 }],
			[true, { item: 1 }],
		]);
	});
});

describe.each(RESOURCES)('Pinned data upstream × $resource $operation', (c) => {
	it('the node works on the upstream node\'s pinned items, not on what that node would output', async () => {
		for (const rule of c.faults?.(sandbox) ?? []) sandbox.faults.add(rule);
		const { error, outputs, upstream } = await runWorkflow({
			credentials,
			parameters: parametersOf(c),
			upstreamItems: [c.invalid, c.invalid, c.invalid],
			upstreamPinData: [{ json: c.good }, { json: c.failing }],
			node: { onError: 'continueErrorOutput' },
		});
		expect(error).toBeUndefined();
		expect(upstream.map((i) => i.json)).toEqual([c.good, c.failing]);
		expect(outputs[0].map((i) => [c.isResult(i.json), i.pairedItem])).toEqual([[true, { item: 0 }]]);
		expect(outputs[1].map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
		expect(outputs[1][0].json).toEqual(expect.objectContaining({ ...c.failing, message: expect.any(String) }));
		expect(sandbox.requests.count({ route: c.route })).toBe(2);
	});
});

/** A string as a regular expression that matches it literally. */
function escape(text: string): RegExp {
	return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

describe('Retry On Fail × a Create (why docs/operations.md advises against it there)', () => {
	it('n8n runs every item again: the group of the item that had succeeded is created a second time', async () => {
		const name = `retry-create-${Date.now()}`;
		const { error } = await runNode({
			credentials,
			parameters: {
				resource: 'group',
				operation: 'create',
				accountId: { __rl: true, mode: 'id', value: '={{ $json.account }}' },
				name,
			},
			items: [{ json: { account: DEMO_IDS.accountId } }, { json: { account: 'not-a-uuid' } }],
			node: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 },
		});
		expect(error?.message).toBe('"Account" must be a UUID, got "not-a-uuid" [item 1]');
		expect(sandbox.state.groups().filter((g) => g.attributes.name === name)).toHaveLength(2);
	});
});
