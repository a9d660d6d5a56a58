/**
 * `npm run bench -- --base <commit>`: the same benchmark at another commit and at the working tree, in one run on
 * one machine, row by row with the noise.
 *
 * - **The base tree**: `git archive` of the commit into `.bench-base/trees/<sha>/` (git-ignored), made once.
 * - **Its dependencies**: `npm ci` of its package.json and package-lock.json into `.bench-base/deps/<hash>/`,
 *   keyed by the lockfile's hash, so that every commit with that lockfile reuses them; the tree links its
 *   `node_modules` there, and its `.n8n-cache` to this checkout's, so that the HTTP Request node rows of both
 *   come from the same n8n install (FTM_N8N_VERSION is set to this checkout's version for both).
 * - **Its rows**: its own `bench/run.ts`, run by its own tsx, with the flags of this run that it knows (read from
 *   its parseArgs options); the flags it lacks are named in the output.
 * - **The noise**: the working tree's bench runs twice, one run before the base's and one after it. A row's
 *   noise is the spread of those two runs, |run 1 − run 2|; the head figure is their mean; the base is within
 *   the noise when |base − head| ≤ that spread. Rows only one side printed are listed as such.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from './env';

const CACHE = path.join(projectRoot, '.bench-base');

/** Resolves `commit` to its full hash in this checkout's repository. */
export function resolveCommit(commit: string): string {
	return execFileSync('git', ['-C', projectRoot, 'rev-parse', '--verify', `${commit}^{commit}`], { encoding: 'utf8' }).trim();
}

function run(command: string, args: string[], cwd: string, log: (line: string) => void): void {
	log(`${path.relative(projectRoot, cwd) || '.'}: ${command} ${args.join(' ')}`);
	execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * The base commit's tree with its dependencies installed (both made once and reused): returns its folder. The
 * `.complete` files mark a finished extract or install, so that an interrupted one is made again.
 */
export function prepareBaseTree(sha: string, log: (line: string) => void): string {
	const tree = path.join(CACHE, 'trees', sha);
	if (!fs.existsSync(path.join(tree, '.complete'))) {
		fs.rmSync(tree, { recursive: true, force: true });
		fs.mkdirSync(tree, { recursive: true });
		log(`extracting ${sha.slice(0, 12)} into ${path.relative(projectRoot, tree)}`);
		const archive = execFileSync('git', ['-C', projectRoot, 'archive', '--format=tar', sha], { maxBuffer: 1 << 30 });
		execFileSync('tar', ['-x', '-C', tree], { input: archive });
		fs.writeFileSync(path.join(tree, '.complete'), `${sha}\n`);
	}
	const lock = fs.readFileSync(path.join(tree, 'package-lock.json'));
	const hash = crypto.createHash('sha256').update(lock).digest('hex').slice(0, 16);
	const deps = path.join(CACHE, 'deps', hash);
	if (!fs.existsSync(path.join(deps, '.complete'))) {
		fs.rmSync(deps, { recursive: true, force: true });
		fs.mkdirSync(deps, { recursive: true });
		for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
			if (fs.existsSync(path.join(tree, file))) fs.copyFileSync(path.join(tree, file), path.join(deps, file));
		}
		log(`installing the base's dependencies (lockfile ${hash}) with npm ci: once per lockfile, a few minutes`);
		run('npm', ['ci', '--no-audit', '--no-fund'], deps, log);
		fs.writeFileSync(path.join(deps, '.complete'), `${hash}\n`);
	}
	link(path.join(deps, 'node_modules'), path.join(tree, 'node_modules'));
	link(fs.realpathSync(path.join(projectRoot, '.n8n-cache')), path.join(tree, '.n8n-cache'));
	return tree;
}

function link(target: string, at: string): void {
	if (fs.existsSync(at) && fs.realpathSync(at) === fs.realpathSync(target)) return;
	fs.rmSync(at, { recursive: true, force: true });
	fs.symlinkSync(target, at, 'dir');
}

/** The option names a tree's bench/run.ts declares in its parseArgs options (`'no-memory': { type: …`). */
export function knownFlags(tree: string): Set<string> {
	const source = fs.readFileSync(path.join(tree, 'bench', 'run.ts'), 'utf8');
	const options = /options:\s*\{([\s\S]*?)\n\t\},/.exec(source)?.[1] ?? '';
	return new Set([...options.matchAll(/^\s*'?([a-z][a-z-]*)'?:\s*\{\s*type:/gm)].map((m) => m[1]));
}

/**
 * The flags of `args` (this run's, `--base` removed) that a tree's bench knows, and the ones it does not (with
 * their values). A flag's value is the next argument when the flag takes one (`--rounds 7`) or after `=`.
 */
export function flagsFor(args: string[], known: Set<string>, takesValue: (name: string) => boolean): { pass: string[]; dropped: string[] } {
	const pass: string[] = [];
	const dropped: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i];
		const name = /^--([^=]+)/.exec(arg)?.[1];
		const group = name && !arg.includes('=') && takesValue(name) && i + 1 < args.length ? [arg, args[++i]] : [arg];
		(name && known.has(name) ? pass : dropped).push(...group);
	}
	return { pass, dropped };
}

/**
 * Runs a tree's `bench/run.ts` with its own tsx (its node_modules/.bin first on PATH, as `npm run bench` does);
 * its progress goes to this process's stderr, its stdout (the tables) is returned and kept in .bench-base/runs/.
 */
export function runBench(tree: string, args: string[], label: string, env: NodeJS.ProcessEnv): Promise<string> {
	return new Promise((resolve, reject) => {
		const bin = path.join(tree, 'node_modules', '.bin');
		const child = spawn(path.join(bin, 'tsx'), ['bench/run.ts', ...args], {
			cwd: tree,
			env: { ...process.env, ...env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk.toString().replace(/^\[bench\]/gm, `[bench ${label}]`)));
		child.on('error', reject);
		child.on('exit', (code) => {
			// Kept, so that a comparison cut short still leaves each finished run's tables.
			fs.mkdirSync(path.join(CACHE, 'runs'), { recursive: true });
			fs.writeFileSync(path.join(CACHE, 'runs', `${label.replace(/[^a-z0-9]+/gi, '-')}.md`), stdout);
			if (code === 0) resolve(stdout);
			else reject(new Error(`the ${label} bench exited with ${code}`));
		});
	});
}

/** One row a bench printed: its table's heading, its label, the figure compared, as printed. */
export interface PrintedRow {
	key: string;
	label: string;
	figure: string;
}

/** Parenthesised parts that name what a run found (its best fixed number, its counts), not the row. */
const strip = (text: string) => text.replace(/\s*\([^()]*\)/g, '').trim();

/**
 * The rows of every Markdown table in a bench's output. The figure compared: the main table's ratio (ours /
 * baseline, within one run: the figure to read on a shared machine); a check's measured value; a variant's wall
 * time (the median of its rounds); otherwise the second column.
 */
export function parseRows(output: string): PrintedRow[] {
	const rows: PrintedRow[] = [];
	const seen = new Map<string, number>();
	let heading = '';
	let columns: string[] = [];
	for (const line of output.split('\n')) {
		if (line.startsWith('#')) heading = strip(line.replace(/^#+\s*/, ''));
		if (!line.startsWith('|')) {
			columns = [];
			continue;
		}
		const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((cell) => cell.trim());
		if (columns.length === 0) {
			columns = cells;
			continue;
		}
		if (cells.every((cell) => /^-*:?-+:?$/.test(cell))) continue;
		let label = cells[0];
		let figure = cells[1] ?? '';
		if (columns[0] === 'Metric') {
			label = `${cells[0]}, against ${cells[4]}`;
			figure = cells[3] === 'n/a' ? cells[2] : cells[3];
		}
		const table = columns[0] === 'Metric' ? '' : columns[0] === 'Check' ? 'Checks' : heading || columns[0];
		let key = `${table} › ${strip(label)}`;
		const count = (seen.get(key) ?? 0) + 1;
		seen.set(key, count);
		if (count > 1) key += ` #${count}`;
		rows.push({ key, label: table ? `${table} › ${label}` : label, figure });
	}
	return rows;
}

/** The first number of a printed figure ("1,141 ms", "1.28×", "6.9 %", "101"); undefined for "skipped" and the like. */
function numberOf(figure: string): number | undefined {
	const match = /-?\d[\d,]*(\.\d+)?/.exec(figure);
	return match ? Number(match[0].replace(/,/g, '')) : undefined;
}

const fmt = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) >= 100 ? 0 : 2));

/**
 * Side by side: every row either side printed, base, head run 1 and 2, the noise and the verdict. Figures
 * that are not one number ("0, 0") must be equal in all three runs.
 */
/**
 * How often a row falls outside the noise when nothing changed: base, head run 1 and head run 2 three draws of
 * one normal distribution, |base − mean of the head runs| > |run 1 − run 2| in 45.3 % of 200,000 simulated
 * rows. So the verdict of one row says little: what tells a change from chance is how many rows whose runs
 * vary fall outside, against this share of them, and whether they lean one way.
 */
export const OUTSIDE_BY_CHANCE = 0.45;

export interface Comparison {
	lines: string[];
	within: number;
	outside: number;
	oneSided: number;
	/** Rows outside the noise with the head's mean above the base, and below it. */
	higher: number;
	lower: number;
	/** Rows of one number each whose figure differs between the three runs (the ones chance can put outside). */
	varying: number;
}

export function compareRows(base: PrintedRow[], head1: PrintedRow[], head2: PrintedRow[], commit: string): Comparison {
	const byKey = (rows: PrintedRow[]) => new Map(rows.map((row) => [row.key, row]));
	const [b, h1, h2] = [byKey(base), byKey(head1), byKey(head2)];
	const keys = [...new Set([...head1.map((r) => r.key), ...base.map((r) => r.key)])];
	const lines = [
		`| Row | Base ${commit} | Head, run 1 | Head, run 2 | Noise: \\|run 1 − run 2\\| | \\|base − head mean\\| | Verdict |`,
		'|---|---:|---:|---:|---:|---:|---|',
	];
	let within = 0;
	let outside = 0;
	let oneSided = 0;
	let higher = 0;
	let lower = 0;
	let varying = 0;
	for (const key of keys) {
		const [rb, r1, r2] = [b.get(key), h1.get(key), h2.get(key)];
		const label = (r1 ?? rb ?? r2)?.label ?? key;
		const cells = [rb?.figure ?? '—', r1?.figure ?? '—', r2?.figure ?? '—'];
		if (!rb || !r1 || !r2) {
			oneSided++;
			const verdict = !rb ? 'the base bench has no such row (not run at the base)' : 'only the base printed it (not run at the head)';
			lines.push(`| ${label} | ${cells.join(' | ')} | | | ${verdict} |`);
			continue;
		}
		const [vb, v1, v2] = [numberOf(rb.figure), numberOf(r1.figure), numberOf(r2.figure)];
		if (vb === undefined || v1 === undefined || v2 === undefined || /\d.*,\s+\d/.test(rb.figure)) {
			const same = rb.figure === r1.figure && r1.figure === r2.figure;
			if (same) within++;
			else outside++;
			lines.push(`| ${label} | ${cells.join(' | ')} | | | ${same ? 'the same in all three' : '**differs** (not one number: compared as printed)'} |`);
			continue;
		}
		const noise = Math.abs(v1 - v2);
		const distance = Math.abs(vb - (v1 + v2) / 2);
		const ok = distance <= noise;
		if (vb !== v1 || v1 !== v2) varying++;
		const headLower = (v1 + v2) / 2 < vb;
		if (ok) within++;
		else {
			outside++;
			if (headLower) lower++;
			else higher++;
		}
		const verdict = ok ? 'within the noise' : `**outside the noise**: head ${headLower ? 'lower' : 'higher'}`;
		lines.push(`| ${label} | ${cells.join(' | ')} | ${fmt(noise)} | ${fmt(distance)} | ${verdict} |`);
	}
	return { lines, within, outside, oneSided, higher, lower, varying };
}
