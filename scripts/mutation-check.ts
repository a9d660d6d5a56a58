/**
 * `npm run test:mutation`'s verdict: reads the report of the Stryker run (reports/mutation/mutation.json) and
 * fails when any mutated file's score is below its floor (stryker.config.mjs's `FLOORS`).
 *
 * A file's score: killed and timed-out mutants over every mutant with a result (killed, timed out, survived, not
 * covered), as Stryker counts it, except the surviving mutants that scripts/mutation-equivalent.ts lists as
 * equivalent (no test can tell them from the code), which count neither way. It also fails on:
 * - a file of `FLOORS` missing from the report (unless `--partial`: a run of some files, `--mutate path`),
 * - an entry of the equivalent list that no surviving mutant matches any more (the code or the tests changed:
 *   drop it, so that the list holds only what a run shows),
 * - a mutated file without a floor.
 * It prints one line per file, then every surviving or uncovered mutant that is not listed, with its line.
 *
 * Usage: tsx scripts/mutation-check.ts [--partial] [--report reports/mutation/mutation.json]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { EQUIVALENT, type Equivalent } from './mutation-equivalent';

type Status = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

interface Position {
	line: number;
	column: number;
}

interface Mutant {
	id: string;
	mutatorName: string;
	replacement?: string;
	location: { start: Position; end: Position };
	status: Status;
}

interface Report {
	files: Record<string, { source: string; mutants: Mutant[] }>;
}

/** One line of text, blanks collapsed: how the list writes a mutant's original code and its replacement. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The code a mutant replaces (location lines and columns count from 1, as the report's schema says). */
function originalOf(source: string, mutant: Mutant): string {
	const lines = source.split('\n');
	const offset = (at: Position) =>
		lines.slice(0, at.line - 1).reduce((sum, line) => sum + line.length + 1, 0) + at.column - 1;
	return source.slice(offset(mutant.location.start), offset(mutant.location.end));
}

/**
 * Whether an entry of the list describes the mutant: its file, the line it starts on (its text, so that an entry
 * survives edits above it), its mutator, the code it replaces and the replacement.
 */
function matches(entry: Equivalent, file: string, source: string, mutant: Mutant, original: string): boolean {
	return (
		entry.file === file &&
		entry.line === oneLine(source.split('\n')[mutant.location.start.line - 1] ?? '') &&
		entry.mutator === mutant.mutatorName &&
		entry.original === oneLine(original) &&
		entry.replacement === oneLine(mutant.replacement ?? '')
	);
}

interface FileResult {
	file: string;
	detected: number;
	undetected: number;
	equivalent: number;
	/** In %, of the detected and undetected mutants; 100 when there are none. */
	score: number;
	floor: number | undefined;
	missed: string[];
}

export function checkReport(
	report: Report,
	floors: Record<string, number>,
	equivalents: readonly Equivalent[],
	partial: boolean,
): { results: FileResult[]; problems: string[] } {
	const problems: string[] = [];
	const used = new Set<Equivalent>();
	const results: FileResult[] = [];
	const files = Object.keys(report.files).map((file) => file.split(path.sep).join('/'));
	for (const [key, { source, mutants }] of Object.entries(report.files)) {
		const file = key.split(path.sep).join('/');
		const result: FileResult = { file, detected: 0, undetected: 0, equivalent: 0, score: 100, floor: floors[file], missed: [] };
		for (const mutant of mutants) {
			if (mutant.status === 'Killed' || mutant.status === 'Timeout') {
				result.detected++;
			} else if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
				const original = originalOf(source, mutant);
				const entry = equivalents.find((candidate) => matches(candidate, file, source, mutant, original));
				if (entry) {
					used.add(entry);
					result.equivalent++;
				} else {
					result.undetected++;
					result.missed.push(
						`${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.status} ${mutant.mutatorName}: ${oneLine(original).slice(0, 100)} -> ${oneLine(mutant.replacement ?? '').slice(0, 100)}`,
					);
				}
			}
		}
		const counted = result.detected + result.undetected;
		result.score = counted === 0 ? 100 : (100 * result.detected) / counted;
		if (result.floor === undefined) problems.push(`${file}: mutated, but has no floor in stryker.config.mjs`);
		else if (result.score < result.floor) {
			problems.push(`${file}: score ${result.score.toFixed(2)} % is below its floor of ${result.floor} %`);
		}
		results.push(result);
	}
	if (!partial) {
		for (const file of Object.keys(floors)) {
			if (!files.includes(file)) problems.push(`${file}: has a floor but is not in the report (run every file, or pass --partial)`);
		}
	}
	for (const entry of equivalents) {
		if (files.includes(entry.file) && !used.has(entry)) {
			problems.push(
				`${entry.file}: the equivalent mutant "${entry.mutator}: ${entry.original} -> ${entry.replacement}" on the line "${entry.line}" survives no more; remove it from scripts/mutation-equivalent.ts`,
			);
		}
	}
	return { results, problems };
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			partial: { type: 'boolean', default: false },
			report: { type: 'string', default: 'reports/mutation/mutation.json' },
		},
	});
	const root = path.resolve(__dirname, '..');
	const reportFile = path.resolve(root, values.report);
	if (!fs.existsSync(reportFile)) {
		console.error(`No report at ${reportFile}: run Stryker first (npm run test:mutation).`);
		process.exit(1);
	}
	const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
	const config = (await import(pathToFileURL(path.join(root, 'stryker.config.mjs')).href)) as { FLOORS: Record<string, number> };
	const { results, problems } = checkReport(report, config.FLOORS, EQUIVALENT, values.partial);

	console.log('\nMutation score per file (killed + timed out, over all but the listed equivalent mutants):\n');
	for (const r of results) {
		const verdict = r.floor === undefined ? 'NO FLOOR' : r.score >= r.floor ? 'PASS' : 'FAIL';
		console.log(
			`${verdict.padEnd(8)} ${r.score.toFixed(2).padStart(6)} % (floor ${String(r.floor ?? '-').padStart(3)} %)  ${r.file}: ${r.detected} detected, ${r.undetected} undetected, ${r.equivalent} listed as equivalent`,
		);
	}
	const missed = results.flatMap((r) => r.missed);
	if (missed.length > 0) {
		console.log(`\nSurviving or uncovered mutants not listed as equivalent (${missed.length}):`);
		for (const line of missed) console.log(`  ${line}`);
	}
	if (problems.length > 0) {
		console.error(`\nFAIL:\n${problems.map((p) => `  ${p}`).join('\n')}`);
		process.exit(1);
	}
	console.log('\nPASS: every file at or above its floor.');
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
