/**
 * The layers of the nodes, as CONTRIBUTING.md draws them. The code both nodes use lives in the shared room
 * `nodes/shared/`: `api/` (routes, ids, types) and `execution/` (what any run of a node needs: its errors, its
 * per-run state, its tool use) at the bottom, `transport/` on them (requests, retries, pagination, errors), then
 * the shared helpers (`input/`, `answers/`, `jobs/`), then the editor's pieces (`descriptions/`, `methods/`).
 * The action node's `helpers/` and `actions/` stand on them. A lower layer never imports a higher one; the shared
 * room imports nothing from either node's folder, the trigger nothing from the action node's, and the sandbox
 * no node logic (only the API's types). The transport is entered only through its index and knows an item only
 * by its index and stop signal, and the published code (nodes/, credentials/) has no import cycle, not even one
 * of types only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import * as transportIndex from '../../nodes/shared/transport';

const ROOT = path.join(__dirname, '..', '..');
const NODE = path.join(ROOT, 'nodes', 'FileTransferManager');
const TRIGGER = path.join(ROOT, 'nodes', 'FileTransferManagerTrigger');
const SHARED = path.join(ROOT, 'nodes', 'shared');

function sources(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sources(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

/**
 * Every relative import of a file (`import`, `import type`, `export … from`, `import('…')`), resolved to a path
 * relative to the project, without its extension.
 */
function importsOf(file: string): string[] {
	const text = fs.readFileSync(file, 'utf8');
	const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
	return specifiers.map((spec) => path.relative(ROOT, path.resolve(path.dirname(file), spec)));
}

/** The file an import names: `<path>.ts`, or `<path>/index.ts` for a folder. */
function fileOf(target: string): string {
	const candidates = [`${target}.ts`, path.join(target, 'index.ts')];
	const found = candidates.find((candidate) => fs.existsSync(path.join(ROOT, candidate)));
	if (found === undefined) throw new Error(`No file for the import ${target}`);
	return found;
}

/** The published code: every source file of nodes/ and credentials/, relative to the project. */
const published = () =>
	[...sources(path.join(ROOT, 'nodes')), ...sources(path.join(ROOT, 'credentials'))].map((file) => path.relative(ROOT, file));

/**
 * The import cycles of a graph (file → the files it imports), each as the files along it, the first one again
 * at the end. A depth-first walk: an import of a file still on the walk's path closes a cycle.
 */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
	const done = new Set<string>();
	const onPath: string[] = [];
	const cycles: string[][] = [];
	const visit = (file: string) => {
		onPath.push(file);
		for (const target of graph.get(file) ?? []) {
			const at = onPath.indexOf(target);
			if (at >= 0) cycles.push([...onPath.slice(at), target]);
			else if (!done.has(target)) visit(target);
		}
		onPath.pop();
		done.add(file);
	};
	for (const file of graph.keys()) if (!done.has(file)) visit(file);
	return cycles;
}

function offending(dir: string, forbidden: string[]): string[] {
	return sources(dir).flatMap((file) =>
		importsOf(file)
			.filter((target) => forbidden.some((prefix) => target === prefix || target.startsWith(`${prefix}/`)))
			.map((target) => `${path.relative(ROOT, file)} imports ${target}`),
	);
}

const node = (sub: string) => path.join('nodes', 'FileTransferManager', sub);
const shared = (sub: string) => path.join('nodes', 'shared', sub);
const ACTION_NODE = path.join('nodes', 'FileTransferManager');
const TRIGGER_NODE = path.join('nodes', 'FileTransferManagerTrigger');
/** The shared helpers, one layer above the transport: input checks, checked answers, the job model. */
const SHARED_HELPERS = ['input', 'answers', 'jobs'].map(shared);
/** The editor's pieces both nodes describe themselves with: pickers and list search. */
const EDITOR = ['descriptions', 'methods'].map(shared);

describe('layers of the nodes', () => {
	it('the layout this test checks exists', () => {
		for (const sub of ['api', 'execution', 'transport', 'input', 'answers', 'jobs', 'descriptions', 'methods']) expect(fs.existsSync(path.join(SHARED, sub))).toBe(true);
		for (const sub of ['helpers', 'actions']) expect(fs.existsSync(path.join(NODE, sub))).toBe(true);
		expect(fs.existsSync(TRIGGER)).toBe(true);
	});

	it('the trigger imports nothing from the action node (nodes/FileTransferManager/)', () => {
		expect(offending(TRIGGER, [ACTION_NODE])).toEqual([]);
	});

	it('the shared room imports nothing from either node\'s folder', () => {
		expect(offending(SHARED, [ACTION_NODE, TRIGGER_NODE])).toEqual([]);
	});

	it('api/ imports nothing above it', () => {
		expect(offending(path.join(SHARED, 'api'), [shared('execution'), shared('transport'), ...SHARED_HELPERS, ...EDITOR])).toEqual([]);
	});

	it('execution/ imports nothing above it', () => {
		expect(offending(path.join(SHARED, 'execution'), [shared('api'), shared('transport'), ...SHARED_HELPERS, ...EDITOR])).toEqual([]);
	});

	it('transport/ imports nothing from the shared helpers or the editor\'s pieces', () => {
		expect(offending(path.join(SHARED, 'transport'), [...SHARED_HELPERS, ...EDITOR])).toEqual([]);
	});

	it('the shared helpers import nothing from the editor\'s pieces', () => {
		for (const dir of SHARED_HELPERS) expect(offending(path.join(ROOT, dir), EDITOR)).toEqual([]);
	});

	it('helpers/ imports nothing from actions/ or methods/', () => {
		expect(offending(path.join(NODE, 'helpers'), [node('actions'), shared('methods')])).toEqual([]);
	});

	it('transport/ knows an item only by its index and its stop signal: no item context, no item slots or stops', () => {
		// The item loop (actions/itemRun.ts) decides which items run and which are stopped; a request only
		// carries its stop signal down. A transport that held items' places or stops would let helpers/
		// reach the item loop again through it.
		expect(offending(path.join(SHARED, 'transport'), [shared('execution/item')])).toEqual([]);
		const itemScheduling = /item(?!s\b)|slot|stopAfter|stopSignal/i;
		expect(['holdItemSlot', 'freeItemSlot', 'forgetItem', 'itemStopped', 'stopAfter', 'stopSignalOf'].filter((name) => !itemScheduling.test(name))).toEqual([]);
		expect(Object.keys(transportIndex).filter((name) => itemScheduling.test(name))).toEqual([]);
		// An item reaches the transport in one shape, RequestItem, which holds its index and its stop signal and
		// nothing else; every item field of the transport's types has that shape.
		const request = fs.readFileSync(path.join(SHARED, 'transport', 'request.ts'), 'utf8');
		const requestItem = /^export interface RequestItem \{\n([\s\S]*?)^\}/m.exec(request)?.[1];
		expect(requestItem).toBeDefined();
		expect([...(requestItem ?? '').matchAll(/^\t(?:readonly )?(\w+)\??[:(]/gm)].map((m) => m[1])).toEqual(['index', 'stop']);
		const itemFields = sources(path.join(SHARED, 'transport')).flatMap((file) =>
			[...fs.readFileSync(file, 'utf8').matchAll(/^\s*(?:readonly )?item\??: ([^;\n]+);/gm)].map((m) => `${path.basename(file)}: ${m[1]}`),
		);
		expect(itemFields.length).toBeGreaterThan(0);
		expect(itemFields.filter((field) => !field.endsWith(': RequestItem'))).toEqual([]);
	});

	it('nothing outside transport/ imports a transport module but its index', () => {
		const transport = shared('transport');
		const sideDoors = published()
			.filter((file) => !file.startsWith(`${transport}/`))
			.flatMap((file) => importsOf(path.join(ROOT, file)).map((target) => ({ file, target })))
			.filter(({ target }) => target.startsWith(`${transport}/`) && target !== `${transport}/index`)
			.map(({ file, target }) => `${file} imports ${target}`);
		expect(sideDoors).toEqual([]);
	});

	it("transport/index.ts's header names every module of transport/", () => {
		const index = fs.readFileSync(path.join(SHARED, 'transport', 'index.ts'), 'utf8');
		const header = index.slice(0, index.indexOf('*/'));
		const listed = [...header.matchAll(/^ \* - ([A-Za-z]+\.ts):/gm)].map((m) => m[1]).sort();
		const modules = fs.readdirSync(path.join(SHARED, 'transport')).filter((name) => name.endsWith('.ts') && name !== 'index.ts');
		expect(listed).toEqual(modules.sort());
	});

	it('nodes/ and credentials/ have no import cycle, type imports included', () => {
		const graph = new Map(published().map((file) => [file, [...new Set(importsOf(path.join(ROOT, file)).map(fileOf))]]));
		expect(graph.size).toBeGreaterThan(50);
		expect(cyclesOf(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
	});

	it('the cycle check finds a cycle, a type-only one and one through an index alike', () => {
		expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
		expect(cyclesOf(new Map([['a', ['a']]]))).toEqual([['a', 'a']]);
		expect(cyclesOf(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
		try {
			fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
			fs.writeFileSync(path.join(dir, 'b.ts'), "export type { A } from './sub';\nexport type B = string;\n");
			fs.mkdirSync(path.join(dir, 'sub'));
			fs.writeFileSync(path.join(dir, 'sub', 'index.ts'), "export type A = import('../a').A;\n");
			const files = sources(dir).map((file) => path.relative(ROOT, file));
			const graph = new Map(files.map((file) => [file, importsOf(path.join(ROOT, file)).map(fileOf)]));
			expect(cyclesOf(graph)).toHaveLength(1);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it('the sandbox imports nothing from nodes/FileTransferManager/, and of nodes/ only the API types', () => {
		const fromNodes = sources(path.join(ROOT, 'sandbox'))
			.flatMap((file) => importsOf(file).map((target) => ({ file, target })))
			.filter(({ target }) => target.startsWith('nodes/') && target !== shared('api/types'))
			.map(({ file, target }) => `${path.relative(ROOT, file)} imports ${target}`);
		expect(fromNodes).toEqual([]);
	});
});
