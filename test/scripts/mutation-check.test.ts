/**
 * The verdict of `npm run test:mutation` (scripts/mutation-check.ts) on made-up reports: the score per file with
 * the listed equivalent mutants left out, the floor, a file missing from a full run, a stale list entry.
 */
import { checkReport } from '../../scripts/mutation-check';
import type { Equivalent } from '../../scripts/mutation-equivalent';

const FILE = 'nodes/x.ts';
const SOURCE = 'const a = 1;\nif (a > 0) run();\n';

type Status = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError';
/** A mutant of `a > 0` on line 2 (columns from 1) with this status. */
const mutant = (id: number, status: Status, replacement = 'a >= 0') => ({
	id: String(id),
	mutatorName: 'EqualityOperator',
	replacement,
	location: { start: { line: 2, column: 5 }, end: { line: 2, column: 10 } },
	status,
});
const report = (...mutants: Array<ReturnType<typeof mutant>>) => ({ files: { [FILE]: { source: SOURCE, mutants } } });
const entry: Equivalent = { file: FILE, line: 'if (a > 0) run();', mutator: 'EqualityOperator', original: 'a > 0', replacement: 'a >= 0', reason: 'test' };

describe('mutation-check', () => {
	it('scores killed and timed-out over every mutant with a result; errors do not count', () => {
		const { results, problems } = checkReport(
			report(mutant(1, 'Killed'), mutant(2, 'Timeout'), mutant(3, 'Killed'), mutant(4, 'Survived'), mutant(5, 'NoCoverage'), mutant(6, 'CompileError')),
			{ [FILE]: 60 },
			[],
			false,
		);
		expect(results[0]).toMatchObject({ detected: 3, undetected: 2, equivalent: 0, score: 60 });
		expect(problems).toEqual([]);
	});

	it('fails a file below its floor, and names it', () => {
		const { problems } = checkReport(report(mutant(1, 'Killed'), mutant(2, 'Survived')), { [FILE]: 80 }, [], false);
		expect(problems).toEqual([`${FILE}: score 50.00 % is below its floor of 80 %`]);
	});

	it('leaves a listed equivalent survivor out of the score; an entry for another line or replacement does not match', () => {
		const listed = checkReport(report(mutant(1, 'Killed'), mutant(2, 'Survived')), { [FILE]: 100 }, [entry], false);
		expect(listed.results[0]).toMatchObject({ detected: 1, undetected: 0, equivalent: 1, score: 100 });
		expect(listed.problems).toEqual([]);
		const otherLine = checkReport(report(mutant(1, 'Killed'), mutant(2, 'Survived')), { [FILE]: 100 }, [{ ...entry, line: 'if (a > 1) run();' }], false);
		expect(otherLine.results[0]).toMatchObject({ undetected: 1, equivalent: 0 });
		const otherReplacement = checkReport(report(mutant(1, 'Survived', 'true')), { [FILE]: 0 }, [entry], false);
		expect(otherReplacement.results[0]).toMatchObject({ undetected: 1, equivalent: 0 });
	});

	it('fails on an entry no survivor matches any more, a file without a floor, and a floor whose file is not in a full run', () => {
		expect(checkReport(report(mutant(1, 'Killed')), { [FILE]: 80 }, [entry], false).problems).toEqual([
			`${FILE}: the equivalent mutant "EqualityOperator: a > 0 -> a >= 0" on the line "if (a > 0) run();" survives no more; remove it from scripts/mutation-equivalent.ts`,
		]);
		expect(checkReport(report(mutant(1, 'Killed')), {}, [], false).problems).toEqual([`${FILE}: mutated, but has no floor in stryker.config.mjs`]);
		const floors = { [FILE]: 80, 'nodes/y.ts': 80 };
		expect(checkReport(report(mutant(1, 'Killed')), floors, [], false).problems).toEqual([
			'nodes/y.ts: has a floor but is not in the report (run every file, or pass --partial)',
		]);
		expect(checkReport(report(mutant(1, 'Killed')), floors, [], true).problems).toEqual([]);
	});
});
