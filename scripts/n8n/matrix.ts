/**
 * The version matrix: every end-to-end suite of test/e2e/ in each n8n version of the matrix.
 *
 *   npm run test:matrix [-- --versions 1.123.81,2.41.1] [-- --profiles v3] [-- --suites smoke,error-output] [-- --out tmp/matrix]
 *
 * Versions: --versions, else FTM_MATRIX_VERSIONS (a comma list), else MATRIX_N8N_VERSIONS of paths.ts.
 * Profiles (profile.ts): each adds a column of the pinned version with that profile's settings
 * (FTM_N8N_PROFILE): --profiles, else FTM_MATRIX_PROFILES, else `v3` (n8n 3.0's coming defaults); an empty
 * list adds none.
 * --suites keeps only the suites whose file name contains one of the given words (for working on one suite).
 *
 * It builds the package once, then for each version installs n8n into .n8n-cache/ when missing and runs one
 * jest over the suites (`--ci --runInBand --json`) with FTM_N8N_VERSION=<version> and FTM_PACKAGE_BUILT=1
 * (the suites pack the build made here instead of building again). At the end it prints a table, rows the
 * suites and columns the versions, each cell `pass`, `FAIL: <first failing test>: <first line of its
 * message>` or `skipped: <why>`, and writes it with the timings and every failure's message to
 * <out>/results.md (and the raw figures to <out>/results.json; each version's jest output and JSON next to
 * them). Exit code 1 when any cell fails.
 *
 * A suite opts out of the matrix by an entry in PINNED_ONLY below, with the reason the table shows: it then
 * runs only in the pinned version (where `npm test` runs it anyway).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureN8nInstalled, type InstallMarker } from './install';
import { runCommand, shutdownManaged, spawnGroup } from './processes';
import { MATRIX_N8N_VERSIONS, PINNED_N8N_VERSION, projectRoot } from './paths';
import { parseProfile, runLabel, type N8nProfile } from './profile';

const E2E_DIR = path.join(projectRoot, 'test', 'e2e');

/**
 * Suites that run in the pinned n8n version only, with the reason. Every other `test/e2e/*.test.ts` runs in
 * every version of the matrix.
 */
export const PINNED_ONLY: Record<string, string> = {
	'start-signals.test.ts': 'tests `npm start` itself (process groups and signals), not the nodes in an n8n version',
};

export type Cell =
	| { kind: 'pass'; tests: number }
	| { kind: 'fail'; test: string; message: string; fullMessage: string }
	| { kind: 'skipped'; why: string };

export interface VersionRun {
	version: string;
	/** The profile of settings this column runs with (FTM_N8N_PROFILE), if any. */
	profile?: N8nProfile;
	/** Seconds this run spent installing (0 when it was installed already). */
	installSeconds: number;
	/** The install's own record (how long the first install took), when it is installed. */
	marker?: InstallMarker;
	installError?: string;
	/** Wall time of the jest run. */
	suitesSeconds: number;
	cells: Record<string, Cell>;
}

interface JestAssertion {
	fullName: string;
	title: string;
	status: string;
	failureMessages: string[];
}

interface JestSuite {
	name: string;
	status: string;
	message: string;
	assertionResults: JestAssertion[];
}

interface JestReport {
	testResults: JestSuite[];
}

const say = (line: string) => process.stderr.write(`[matrix] ${line}\n`);

/** The e2e suite files (names), sorted. */
export function e2eSuites(): string[] {
	return fs
		.readdirSync(E2E_DIR)
		.filter((name) => name.endsWith('.test.ts'))
		.sort();
}

/** Jest's colour codes in failure messages. */
const ANSI = new RegExp(String.raw`\u001b\[[0-9;]*m`, 'g');

/**
 * One line for a failure: the message's first line, and for a jest matcher (whose first line is only
 * "expect(received).toEqual(expected)") the first line of what it received.
 */
export function summarizeFailure(message: string): string {
	const lines = message
		.replace(ANSI, '')
		.split('\n')
		.map((line) => line.trimEnd())
		.filter((line) => line.trim() !== '');
	if (!lines.length) return '(no message)';
	let first = lines[0].trim().replace(/^(?:Error|TypeError|AssertionError): /, '');
	if (/^expect\(/.test(first)) {
		// "Received: …", or in a diff the first added line that holds more than a bracket.
		const received =
			lines.find((line) => /^\s*Received(?: value| length)?:/.test(line)) ??
			lines
				.slice(lines.findIndex((line) => /^\+ Received/.test(line)) + 1)
				.find((line) => /^\+\s/.test(line) && !/^\+\s*(?:Array \[|Object \{|[[\]{}],?)$/.test(line));
		if (received && !/^\+ Received/.test(received)) first += ` ${received.trim()}`;
	}
	return first.length > 240 ? `${first.slice(0, 237)}...` : first;
}

/** The cell of one suite from jest's JSON report. */
export function cellOf(suite: JestSuite | undefined): Cell {
	if (!suite) return { kind: 'fail', test: '(suite)', message: 'jest reported nothing for this file', fullMessage: '' };
	const failed = suite.assertionResults.find((a) => a.status === 'failed');
	if (failed) {
		const full = failed.failureMessages.join('\n').replace(ANSI, '');
		return { kind: 'fail', test: failed.fullName, message: summarizeFailure(full), fullMessage: full };
	}
	// jest says 'focused' for a file whose tests all passed but some were skipped (a suite that skips what a
	// version lacks), and 'skipped' for a file whose every test was skipped (a `describe.skip` chosen by
	// version); anything else but 'passed' is a file that failed without a failing test: it did not compile, or
	// a hook failed with no test to blame.
	const allSkipped = suite.status === 'skipped' && suite.assertionResults.every((a) => a.status === 'pending');
	if (suite.status !== 'passed' && suite.status !== 'focused' && !allSkipped) {
		const full = suite.message.replace(ANSI, '');
		return { kind: 'fail', test: '(suite)', message: summarizeFailure(full), fullMessage: full };
	}
	const passed = suite.assertionResults.filter((a) => a.status === 'passed').length;
	if (passed === 0) return { kind: 'skipped', why: 'every test of the file skips itself in this version' };
	return { kind: 'pass', tests: passed };
}

function cellText(cell: Cell): string {
	if (cell.kind === 'pass') return 'pass';
	if (cell.kind === 'skipped') return `skipped: ${cell.why}`;
	return `FAIL: ${cell.test}: ${cell.message}`;
}

const mdEscape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function seconds(value: number): string {
	return value >= 90 ? `${(value / 60).toFixed(1)} min` : `${Math.round(value)} s`;
}

function installText(run: VersionRun): string {
	if (run.installError) return 'failed';
	if (run.installSeconds > 0) return `${seconds(run.installSeconds)} (this run)`;
	return run.marker ? `cached (first install ${seconds(run.marker.seconds.total)})` : 'cached';
}

/** The table as Markdown: rows the suites, columns the versions, then the timings. */
/** A column's heading: the version, and its profile (`v3`: n8n 3.0's coming defaults). */
export function columnTitle(run: Pick<VersionRun, 'version' | 'profile'>): string {
	return run.profile === 'v3' ? `n8n ${run.version} + 3.0 defaults` : `n8n ${run.version}`;
}

export function markdownTable(suites: string[], runs: VersionRun[]): string {
	const head = `| Suite | ${runs.map((r) => columnTitle(r)).join(' | ')} |`;
	const rule = `|---|${runs.map(() => '---').join('|')}|`;
	const rows = suites.map((suite) => `| \`${suite}\` | ${runs.map((r) => mdEscape(cellText(r.cells[suite]))).join(' | ')} |`);
	const install = `| *install* | ${runs.map((r) => installText(r)).join(' | ')} |`;
	const wall = `| *suites (wall time)* | ${runs.map((r) => (r.installError ? '—' : seconds(r.suitesSeconds))).join(' | ')} |`;
	return [head, rule, ...rows, install, wall].join('\n');
}

/** The table for a terminal: one block per suite, one line per version. */
function terminalTable(suites: string[], runs: VersionRun[]): string {
	const label = (run: VersionRun) => runLabel(run.version, run.profile);
	const width = Math.max(...runs.map((r) => label(r).length));
	const out: string[] = [];
	for (const suite of suites) {
		out.push(suite);
		for (const run of runs) out.push(`  ${label(run).padEnd(width)}  ${cellText(run.cells[suite])}`);
	}
	out.push('timings');
	for (const run of runs) {
		out.push(`  ${label(run).padEnd(width)}  install ${installText(run)}, suites ${run.installError ? '—' : seconds(run.suitesSeconds)}`);
	}
	return out.join('\n');
}

function failuresSection(suites: string[], runs: VersionRun[]): string {
	const parts: string[] = [];
	for (const run of runs) {
		for (const suite of suites) {
			const cell = run.cells[suite];
			if (cell.kind !== 'fail') continue;
			const text = cell.fullMessage.split('\n').slice(0, 40).join('\n').replace(/```/g, "'''");
			parts.push(`### ${columnTitle(run)} · \`${suite}\` · ${cell.test}\n\n\`\`\`\n${text || cell.message}\n\`\`\``);
		}
	}
	return parts.length ? `## Failures\n\n${parts.join('\n\n')}\n` : '';
}

async function runVersion(version: string, profile: N8nProfile | undefined, suites: string[], outDir: string): Promise<VersionRun> {
	const run: VersionRun = { version, profile, installSeconds: 0, suitesSeconds: 0, cells: {} };
	const label = runLabel(version, profile);
	const toRun = suites.filter((suite) => !(suite in PINNED_ONLY) || (version === PINNED_N8N_VERSION && !profile));
	for (const suite of suites) {
		if (!toRun.includes(suite)) run.cells[suite] = { kind: 'skipped', why: `pinned ${PINNED_N8N_VERSION} only: ${PINNED_ONLY[suite]}` };
	}

	const t0 = Date.now();
	try {
		run.marker = await ensureN8nInstalled({ version, log: (line) => say(`n8n ${version} install: ${line}`) });
		// A marker written during this run: the install happened now.
		if (Date.parse(run.marker.installedAt) >= t0) run.installSeconds = (Date.now() - t0) / 1000;
	} catch (error) {
		run.installError = (error as Error).message;
		say(`n8n ${version} did not install:\n${run.installError}`);
		for (const suite of toRun) {
			run.cells[suite] = {
				kind: 'fail',
				test: '(install)',
				message: `n8n ${version} did not install: ${summarizeFailure(run.installError)}`,
				fullMessage: run.installError,
			};
		}
		return run;
	}
	if (!toRun.length) return run;

	const jsonFile = path.join(outDir, `jest-${label}.json`);
	const logFile = path.join(outDir, `jest-${label}.log`);
	fs.rmSync(jsonFile, { force: true });
	fs.writeFileSync(logFile, '');
	say(`${columnTitle(run)}: ${toRun.length} suite(s) in one jest (output: ${path.relative(projectRoot, logFile)})`);
	const jestBin = require.resolve('jest/bin/jest');
	const args = [jestBin, '--ci', '--runInBand', '--json', `--outputFile=${jsonFile}`, '--runTestsByPath', ...toRun.map((s) => path.join(E2E_DIR, s))];
	const t1 = Date.now();
	const proc = spawnGroup(process.execPath, args, {
		label: `jest n8n ${label}`,
		// FTM_E2E_ALL: also the suites `npm test` leaves to the matrix (jest.config.js, MATRIX_ONLY).
		env: { ...process.env, FTM_N8N_VERSION: version, FTM_N8N_PROFILE: profile ?? '', FTM_PACKAGE_BUILT: '1', FTM_E2E_ALL: '1' },
		logFile,
		echo: true,
	});
	const { code } = await proc.exited;
	run.suitesSeconds = (Date.now() - t1) / 1000;

	let report: JestReport | undefined;
	try {
		report = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as JestReport;
	} catch {
		report = undefined;
	}
	for (const suite of toRun) {
		if (!report) {
			const tail = proc.tail(20);
			run.cells[suite] = { kind: 'fail', test: '(jest)', message: `jest exited ${code} without a report`, fullMessage: tail };
			continue;
		}
		run.cells[suite] = cellOf(report.testResults.find((r) => path.basename(r.name) === suite));
	}
	return run;
}

function parseVersions(given: string | undefined): string[] {
	const list = (given ?? process.env.FTM_MATRIX_VERSIONS ?? '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	const versions = list.length ? list : [...MATRIX_N8N_VERSIONS];
	for (const version of versions) {
		if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`"${version}" is not an n8n version (like 1.123.81)`);
	}
	return [...new Set(versions)];
}

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: {
			versions: { type: 'string' },
			profiles: { type: 'string' },
			suites: { type: 'string' },
			out: { type: 'string', default: path.join(projectRoot, 'tmp', 'matrix') },
		},
	});
	const versions = parseVersions(values.versions);
	const profiles = (values.profiles ?? process.env.FTM_MATRIX_PROFILES ?? 'v3')
		.split(',')
		.map((name) => parseProfile(name))
		.filter((profile): profile is N8nProfile => profile !== undefined);
	const columns: Array<{ version: string; profile?: N8nProfile }> = [
		...versions.map((version) => ({ version })),
		...profiles.map((profile) => ({ version: PINNED_N8N_VERSION, profile })),
	];
	const all = e2eSuites();
	for (const name of Object.keys(PINNED_ONLY)) {
		if (!all.includes(name)) throw new Error(`PINNED_ONLY names ${name}, which is not in test/e2e/`);
	}
	const words = (values.suites ?? '').split(',').map((w) => w.trim()).filter(Boolean);
	const suites = words.length ? all.filter((s) => words.some((w) => s.includes(w))) : all;
	if (!suites.length) throw new Error(`no suite of test/e2e/ matches --suites ${values.suites}`);
	const outDir = path.resolve(values.out!);
	fs.mkdirSync(outDir, { recursive: true });

	const started = new Date();
	say(`${columns.map((c) => columnTitle(c)).join(', ')}; ${suites.length} suite(s): ${suites.join(', ')}`);
	const tb = Date.now();
	await runCommand('npm', ['run', 'build'], { label: 'npm run build' });
	say(`built the package once (${seconds((Date.now() - tb) / 1000)})`);

	const runs: VersionRun[] = [];
	for (const column of columns) {
		runs.push(await runVersion(column.version, column.profile, suites, outDir));
		say(`${columnTitle(column)} done`);
	}
	const finished = new Date();

	const table = markdownTable(suites, runs);
	const failed = runs.some((run) => Object.values(run.cells).some((cell) => cell.kind === 'fail'));
	const minutes = ((finished.getTime() - started.getTime()) / 60000).toFixed(1);
	const md =
		`# n8n version matrix\n\n` +
		`Run ${started.toISOString()} to ${finished.toISOString()} (${minutes} min), \`npm run test:matrix\`, ` +
		`${failed ? 'with failures' : 'all passed'}.\n\n${table}\n\n${failuresSection(suites, runs)}`;
	fs.writeFileSync(path.join(outDir, 'results.md'), md);
	fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify({ started, finished, suites, runs }, null, 2));
	process.stdout.write(`\n${terminalTable(suites, runs)}\n\nMarkdown: ${path.relative(projectRoot, path.join(outDir, 'results.md'))}\n`);
	return failed ? 1 : 0;
}

if (require.main === module) {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			say(`${signal}: stopping`);
			void shutdownManaged(5000).then(() => process.exit(130));
		});
	}
	main().then(
		(code) => {
			process.exitCode = code;
		},
		(error: Error) => {
			say(`ERROR: ${error.stack ?? error.message}`);
			process.exitCode = 1;
		},
	);
}
