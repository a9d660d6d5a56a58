/**
 * Checks that the package can be published as a verified n8n community node; part of `npm test` (pretest), so
 * CI runs it. Offline: it needs nothing but the installed devDependencies.
 *
 * 1. The GitHub Actions workflows in .github/workflows validate against GitHub's workflow schema
 *    (@action-validator/core); ci.yml runs .ci/run and release.yml publishes with npm provenance.
 * 2. n8n's own scanner (@n8n/scan-community-package) finds nothing, with the two legs n8n's verification runs:
 *    the source (package.json, nodes/ and credentials/, as in the commit the provenance points at) and the
 *    tarball `npm pack` makes (its compiled .js and package.json). The scanner's CLI only takes a published
 *    package name and fetches it from the registry; this calls the same `analyzePackage` on local folders.
 *    The tarball must also hold every file package.json's "n8n" section names.
 *
 * Usage: tsx scripts/check-publish.ts [--source DIR] [--tarball FILE.tgz] [--workflows DIR]
 * Without --tarball it packs the current build (`npm pack --ignore-scripts`: run `npm run build` first).
 * Exit code 1 when anything fails, with the findings.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { validateWorkflow } from '@action-validator/core';

import { projectRoot } from './n8n/paths';

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}

interface Scanner {
	analyzePackage(packageDir: string, filePatterns?: string[]): Promise<ScanResult>;
	SOURCE_FILE_PATTERNS: string[];
}

/** The file patterns n8n's scanner lints in the tarball (see analyzePackageByName in its scanner.mjs). */
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

const REQUIRED_WORKFLOWS: Record<string, Array<[RegExp, string]>> = {
	'ci.yml': [[/^\s*(?:-\s+)?run:\s*bash \.ci\/run\s*$/m, 'runs `bash .ci/run`']],
	'release.yml': [
		[/^\s*(?:-\s+)?run:\s*npm publish --provenance --access public\s*$/m, 'runs `npm publish --provenance --access public`'],
		[/^\s*id-token:\s*write\b/m, 'grants `permissions: id-token: write`'],
	],
};

const failures: string[] = [];

function report(ok: boolean, what: string, details?: string): void {
	process.stdout.write(`${ok ? '✓' : '✗'} ${what}\n`);
	if (!ok) failures.push(details ? `${what}\n${details}` : what);
}

function checkWorkflows(dir: string): void {
	const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort() : [];
	for (const name of Object.keys(REQUIRED_WORKFLOWS)) {
		if (!files.includes(name)) report(false, `${path.join(path.relative(projectRoot, dir), name)} exists`);
	}
	for (const file of files) {
		const shown = path.relative(projectRoot, path.join(dir, file)) || file;
		const text = fs.readFileSync(path.join(dir, file), 'utf8');
		const result = validateWorkflow(text);
		report(
			result.errors.length === 0,
			`${shown}: valid GitHub Actions workflow`,
			JSON.stringify(result.errors, null, 2),
		);
		for (const [pattern, what] of REQUIRED_WORKFLOWS[file] ?? []) report(pattern.test(text), `${shown}: ${what}`);
	}
}

async function scan(scanner: Scanner, label: string, dir: string, patterns: string[]): Promise<void> {
	const started = Date.now();
	const result = await scanner.analyzePackage(dir, patterns);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	report(
		result.passed,
		`n8n scanner, ${label}: ${result.passed ? 'no findings' : result.message ?? 'failed'} (${seconds} s)`,
		result.details,
	);
}

function packTarball(destDir: string): string {
	const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destDir], {
		cwd: projectRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string }>;
	return path.join(destDir, filename);
}

/** Every file package.json's "n8n" section names is in the unpacked tarball. */
function checkN8nEntries(unpacked: string): void {
	const pkg = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8')) as {
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	const entries = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = entries.filter((entry) => !fs.existsSync(path.join(unpacked, entry)));
	report(
		entries.length > 0 && missing.length === 0,
		`tarball holds the ${entries.length} files package.json's "n8n" section names`,
		missing.length ? `missing: ${missing.join(', ')} (run npm run build first)` : undefined,
	);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			source: { type: 'string', default: projectRoot },
			tarball: { type: 'string' },
			workflows: { type: 'string', default: path.join(projectRoot, '.github', 'workflows') },
		},
	});

	checkWorkflows(path.resolve(values.workflows!));

	// The scanner is an ES module without type declarations (and no "exports" map): import its file.
	const scannerFile = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
	const scanner = (await import(pathToFileURL(scannerFile).href)) as Scanner;

	await scan(scanner, 'source', path.resolve(values.source!), scanner.SOURCE_FILE_PATTERNS);

	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'check-publish-'));
	try {
		const tarball = values.tarball ? path.resolve(values.tarball) : packTarball(work);
		const unpacked = path.join(work, 'package');
		fs.mkdirSync(unpacked);
		execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
		checkN8nEntries(unpacked);
		await scan(scanner, `tarball ${path.basename(tarball)}`, unpacked, TARBALL_FILE_PATTERNS);
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}

	if (failures.length) {
		process.stderr.write(`\ncheck-publish: ${failures.length} problem(s):\n\n${failures.join('\n\n')}\n`);
		process.exit(1);
	}
	process.stdout.write('check-publish: ready to publish (workflows valid, n8n scanner clean on source and tarball)\n');
}

main().catch((error: unknown) => {
	process.stderr.write(`check-publish: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exit(1);
});
