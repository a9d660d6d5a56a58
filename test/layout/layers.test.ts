/**
 * The layers of the action node, as CONTRIBUTING.md draws them: `api/` (routes, ids, types) and `execution/`
 * (what any run of a node needs: its errors, its per-run state, its tool use) at the bottom, `transport/` on
 * them (requests, retries, pagination, errors), then `helpers/`, `actions/` and `methods/`. A lower layer never
 * imports a higher one, and the sandbox never imports node logic (only the API's types).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const NODE = path.join(ROOT, 'nodes', 'FileTransferManager');

function sources(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sources(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

/** Every relative import of a file, resolved to a path relative to the project. */
function importsOf(file: string): string[] {
	const text = fs.readFileSync(file, 'utf8');
	const specifiers = [...text.matchAll(/(?:from|import)\s+'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
	return specifiers.map((spec) => path.relative(ROOT, path.resolve(path.dirname(file), spec)));
}

function offending(dir: string, forbidden: string[]): string[] {
	return sources(dir).flatMap((file) =>
		importsOf(file)
			.filter((target) => forbidden.some((prefix) => target === prefix || target.startsWith(`${prefix}/`)))
			.map((target) => `${path.relative(ROOT, file)} imports ${target}`),
	);
}

const node = (sub: string) => path.join('nodes', 'FileTransferManager', sub);

describe('layers of the action node', () => {
	it('the layout this test checks exists', () => {
		for (const sub of ['api', 'execution', 'transport', 'helpers', 'actions', 'methods']) expect(fs.existsSync(path.join(NODE, sub))).toBe(true);
	});

	it('api/ imports nothing above it', () => {
		expect(
			offending(path.join(NODE, 'api'), [node('execution'), node('transport'), node('helpers'), node('actions'), node('methods')]),
		).toEqual([]);
	});

	it('execution/ imports nothing above it', () => {
		expect(
			offending(path.join(NODE, 'execution'), [node('api'), node('transport'), node('helpers'), node('actions'), node('methods')]),
		).toEqual([]);
	});

	it('transport/ imports nothing from helpers/, actions/ or methods/', () => {
		expect(offending(path.join(NODE, 'transport'), [node('helpers'), node('actions'), node('methods')])).toEqual([]);
	});

	it('helpers/ imports nothing from actions/ or methods/', () => {
		expect(offending(path.join(NODE, 'helpers'), [node('actions'), node('methods')])).toEqual([]);
	});

	it('the sandbox imports no node logic, only the API types', () => {
		const fromNodes = sources(path.join(ROOT, 'sandbox', 'src'))
			.flatMap((file) => importsOf(file).map((target) => ({ file, target })))
			.filter(({ target }) => target.startsWith('nodes/') && target !== node('api/types'))
			.map(({ file, target }) => `${path.relative(ROOT, file)} imports ${target}`);
		expect(fromNodes).toEqual([]);
	});
});
