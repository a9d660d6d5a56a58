/**
 * Checks that the package can be published as a verified n8n community node; part of `npm test` (pretest), so
 * CI runs it. Offline: it needs nothing but the installed devDependencies.
 *
 * 1. The GitHub Actions workflows in .github/workflows validate against GitHub's workflow schema
 *    (@action-validator/core); ci.yml runs .ci/run; release.yml checks the tag and package.json's repository,
 *    bugs and homepage (scripts/release-tag-check.sh) and publishes with npm provenance.
 * 2. n8n's own scanner (@n8n/scan-community-package) finds nothing, with the two legs n8n's verification runs:
 *    the source (package.json, nodes/ and credentials/, as in the commit the provenance points at) and the
 *    tarball `npm pack` makes (its compiled .js and package.json). The scanner's CLI only takes a published
 *    package name and fetches it from the registry; this calls the same `analyzePackage` on local folders.
 *    The tarball must also hold every file package.json's "n8n" section names.
 *
 * Usage: tsx scripts/check-publish.ts [--source DIR] [--tarball FILE.tgz] [--workflows DIR]
 * Without --tarball it packs the current build (`npm pack --ignore-scripts`: run `npm run build` first).
 * Exit code 1 when anything fails, with the findings. `npm run release:check` (scripts/release-check.ts) runs
 * these checks and the rest of n8n's verification that needs no registry; it uses the functions exported here.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { validateWorkflow } from '@action-validator/core';

import { projectRoot } from './n8n/paths';

export interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}

export interface Scanner {
	analyzePackage(packageDir: string, filePatterns?: string[]): Promise<ScanResult>;
	SOURCE_FILE_PATTERNS: string[];
}

/** The file patterns n8n's scanner lints in the tarball (see analyzePackageByName in its scanner.mjs). */
export const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

const REQUIRED_WORKFLOWS: Record<string, Array<[RegExp, string]>> = {
	'ci.yml': [[/^\s*(?:-\s+)?run:\s*bash \.ci\/run\s*$/m, 'runs `bash .ci/run`']],
	'release.yml': [
		[/^\s*(?:-\s+)?run:\s*bash scripts\/release-tag-check\.sh\s*$/m, 'checks the tag, repository, bugs and homepage (scripts/release-tag-check.sh)'],
		[/^\s*(?:-\s+)?run:\s*npm publish --provenance --access public\s*$/m, 'runs `npm publish --provenance --access public`'],
		[/^\s*id-token:\s*write\b/m, 'grants `permissions: id-token: write`'],
	],
};

/** One check's outcome: what was checked, and the findings when it failed. */
export interface CheckOutcome {
	ok: boolean;
	what: string;
	details?: string;
}

const failures: string[] = [];

function report({ ok, what, details }: CheckOutcome): void {
	process.stdout.write(`${ok ? '✓' : '✗'} ${what}\n`);
	if (!ok) failures.push(details ? `${what}\n${details}` : what);
}

/** The workflow files: each valid against GitHub's schema, ci.yml and release.yml with their required steps. */
export function checkWorkflows(dir: string): CheckOutcome[] {
	const outcomes: CheckOutcome[] = [];
	const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort() : [];
	for (const name of Object.keys(REQUIRED_WORKFLOWS)) {
		if (!files.includes(name)) outcomes.push({ ok: false, what: `${path.join(path.relative(projectRoot, dir), name)} exists` });
	}
	for (const file of files) {
		const shown = path.relative(projectRoot, path.join(dir, file)) || file;
		const text = fs.readFileSync(path.join(dir, file), 'utf8');
		const result = validateWorkflow(text);
		outcomes.push({
			ok: result.errors.length === 0,
			what: `${shown}: valid GitHub Actions workflow`,
			details: JSON.stringify(result.errors, null, 2),
		});
		for (const [pattern, what] of REQUIRED_WORKFLOWS[file] ?? []) outcomes.push({ ok: pattern.test(text), what: `${shown}: ${what}` });
	}
	return outcomes;
}

/** n8n's scanner module (an ES module without type declarations or "exports" map: imported by file). */
export async function loadScanner(): Promise<Scanner> {
	const scannerFile = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
	return (await import(pathToFileURL(scannerFile).href)) as Scanner;
}

/** The scanner's analyzePackage on a folder, with the patterns of one of its two legs. */
export async function scan(scanner: Scanner, label: string, dir: string, patterns: string[]): Promise<CheckOutcome> {
	const started = Date.now();
	const result = await scanner.analyzePackage(dir, patterns);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	return {
		ok: result.passed,
		what: `n8n scanner, ${label}: ${result.passed ? 'no findings' : (result.message ?? 'failed')} (${seconds} s)`,
		details: result.details,
	};
}

/** `npm pack` into destDir; with scripts, its prepack builds first, as `npm publish` does. Returns the tarball. */
export function packTarball(destDir: string, options: { scripts?: boolean } = {}): string {
	const args = ['pack', '--json', '--pack-destination', destDir];
	if (!options.scripts) args.splice(1, 0, '--ignore-scripts');
	const out = execFileSync('npm', args, {
		cwd: projectRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	// With scripts, the build's output comes first; npm's JSON starts at a line of its own.
	const start = out.search(/^\[\s*$/m);
	const [{ filename }] = JSON.parse(out.slice(start < 0 ? out.indexOf('[') : start)) as Array<{ filename: string }>;
	return path.join(destDir, filename);
}

/** Every file package.json's "n8n" section names is in the unpacked tarball. */
export function checkN8nEntries(unpacked: string): CheckOutcome {
	const pkg = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8')) as {
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	const entries = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = entries.filter((entry) => !fs.existsSync(path.join(unpacked, entry)));
	return {
		ok: entries.length > 0 && missing.length === 0,
		what: `tarball holds the ${entries.length} files package.json's "n8n" section names`,
		details: missing.length ? `missing: ${missing.join(', ')} (run npm run build first)` : undefined,
	};
}

/** Unpacks a tarball into dir/package and returns that folder. */
export function unpack(tarball: string, dir: string): string {
	const unpacked = path.join(dir, 'package');
	fs.mkdirSync(unpacked, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	return unpacked;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			source: { type: 'string', default: projectRoot },
			tarball: { type: 'string' },
			workflows: { type: 'string', default: path.join(projectRoot, '.github', 'workflows') },
		},
	});

	checkWorkflows(path.resolve(values.workflows!)).forEach(report);

	const scanner = await loadScanner();
	report(await scan(scanner, 'source', path.resolve(values.source!), scanner.SOURCE_FILE_PATTERNS));

	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'check-publish-'));
	try {
		const tarball = values.tarball ? path.resolve(values.tarball) : packTarball(work);
		const unpacked = unpack(tarball, work);
		report(checkN8nEntries(unpacked));
		report(await scan(scanner, `tarball ${path.basename(tarball)}`, unpacked, TARBALL_FILE_PATTERNS));
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}

	if (failures.length) {
		process.stderr.write(`\ncheck-publish: ${failures.length} problem(s):\n\n${failures.join('\n\n')}\n`);
		process.exit(1);
	}
	process.stdout.write('check-publish: ready to publish (workflows valid, n8n scanner clean on source and tarball)\n');
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`check-publish: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exit(1);
	});
}
