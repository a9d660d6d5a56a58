/**
 * The output examples of the user documentation are the nodes' real output: each ```json block marked
 * `<!-- output: {…} -->` (test/docs/examples.ts) is run against the sandbox with the parameters its comment
 * gives, and must show exactly the keys the node outputs, in its order, with its values (ids and times of
 * records the run creates compared by type and form). A field the node adds or drops, or a changed value,
 * fails here until the page shows it. `FTM_UPDATE_DOCS=1` writes the real outputs into the pages instead.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import { credentialsFor, runNode, triggerHandle } from '../harness/engine';
import { callTool } from '../harness/tool';
import type { JsonBlock, OutputSpec } from './examples';
import { differences, documentationPages, formatJson, jsonBlocks, keepShownVarying, resolveReferences, ROOT, valueAt } from './examples';

const UPDATE = process.env.FTM_UPDATE_DOCS === '1';

const pages = documentationPages();
const blocks = pages.flatMap((file) => jsonBlocks(file));
const where = (block: JsonBlock) => `${block.file}:${block.line}`;

describe('the JSON blocks of README.md and docs/', () => {
	it('each say what they are: a node output, checked below, or why they are none', () => {
		const unmarked = blocks.filter((block) => block.kind === 'unmarked').map(where);
		const unreadable = blocks.filter((block) => block.badMarker).map((block) => `${where(block)}: ${block.badMarker}`);
		const unexplained = blocks.filter((block) => block.kind === 'other' && !block.reason).map(where);
		expect({ unmarked, unreadable, unexplained }).toEqual({ unmarked: [], unreadable: [], unexplained: [] });
	});

	it('are valid JSON', () => {
		const invalid = blocks.flatMap((block) => {
			try {
				JSON.parse(block.text);
				return [];
			} catch (error) {
				return [`${where(block)}: ${(error as Error).message}`];
			}
		});
		expect(invalid).toEqual([]);
	});

	it('include output examples (the guard reads the pages)', () => {
		expect(blocks.filter((block) => block.kind === 'output').length).toBeGreaterThanOrEqual(10);
	});
});

/** One sandbox per list of deviation modes, at speed 1000 so that jobs end within the test. */
const sandboxes = new Map<string, Sandbox>();
async function sandboxFor(deviations: string[] = []): Promise<Sandbox> {
	const key = deviations.join(',');
	let sandbox = sandboxes.get(key);
	if (!sandbox) {
		sandbox = await startSandbox({ speed: 1000, deviations });
		sandboxes.set(key, sandbox);
	}
	return sandbox;
}

afterAll(async () => {
	await Promise.all([...sandboxes.values()].map((sandbox) => sandbox.close()));
});

async function setUp(sandbox: Sandbox, spec: OutputSpec, named: Record<string, unknown>): Promise<void> {
	for (const step of spec.setup ?? []) {
		const [method, ...args] = resolveReferences(step.call, named) as [string, ...unknown[]];
		const control = sandbox.control as unknown as Record<string, (...a: unknown[]) => unknown>;
		if (typeof control[method] !== 'function') throw new Error(`the sandbox has no control "${method}"`);
		const result = await control[method](...args);
		if (step.as) named[step.as] = result;
	}
}

/** The node's output items for the spec, run as it says. */
async function outputOf(spec: OutputSpec, named: Record<string, unknown>): Promise<IDataObject[]> {
	const sandbox = await sandboxFor(spec.deviations);
	const credentials = credentialsFor(sandbox);
	const parameters = () => resolveReferences(spec.parameters, named) as INodeParameters;
	if (spec.node === 'trigger') {
		const trigger = triggerHandle(credentials, parameters());
		await trigger.poll();
		await setUp(sandbox, spec, named);
		return ((await trigger.poll()) ?? []).map((item) => item.json);
	}
	await setUp(sandbox, spec, named);
	if (spec.node === 'tool') {
		const call = await callTool({ credentials, parameters: parameters(), args: {} });
		if (call.error !== undefined) throw new Error(`the tool failed: ${call.error}`);
		return call.items ?? [];
	}
	const result = await runNode({ credentials, parameters: parameters() });
	if (result.error) throw new Error(`the node failed: ${result.error.message} ${result.error.description ?? ''}`);
	return result.items.map((item) => item.json);
}

function shownOf(spec: OutputSpec, items: IDataObject[]): unknown {
	const picked = spec.pick
		? items.filter((item) => Object.entries(spec.pick!).every(([key, value]) => valueAt(item, key) === value))
		: items;
	return spec.list || picked.length !== 1 ? picked : picked[0];
}

const rewrites = new Map<string, Array<{ start: number; end: number; text: string }>>();

describe.each(pages.filter((file) => blocks.some((block) => block.file === file && block.kind === 'output')))('%s', (file) => {
	/** Outputs and set-up results named on this page, for the examples after them. */
	const named: Record<string, unknown> = {};
	const outputs = blocks.filter((block) => block.file === file && block.kind === 'output' && block.spec);

	it.each(outputs.map((block) => [block.line, block] as const))('the output example at line %i is the node\'s output', async (_line, block) => {
		const spec = block.spec!;
		const real = shownOf(spec, await outputOf(spec, named));
		if (spec.as) named[spec.as] = real;
		if (UPDATE) {
			const list = rewrites.get(file) ?? [];
			let shown: unknown;
			try {
				shown = JSON.parse(block.text);
			} catch {
				shown = undefined;
			}
			list.push({ start: block.start, end: block.end, text: `${formatJson(keepShownVarying(shown, real, spec.vary))}\n` });
			rewrites.set(file, list);
			return;
		}
		expect(differences(JSON.parse(block.text), real, spec.vary)).toEqual([]);
	});

	afterAll(() => {
		const list = rewrites.get(file);
		if (!UPDATE || !list) return;
		const target = path.join(ROOT, file);
		let source = fs.readFileSync(target, 'utf8');
		for (const edit of [...list].sort((a, b) => b.start - a.start)) {
			source = source.slice(0, edit.start) + edit.text + source.slice(edit.end);
		}
		fs.writeFileSync(target, source);
	});
});
