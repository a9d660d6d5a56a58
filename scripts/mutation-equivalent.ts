/**
 * Surviving mutants of `npm run test:mutation` that no test can kill, because the mutated code behaves as the
 * original for every input the code can get (equivalent mutants). scripts/mutation-check.ts leaves them out of
 * the file's score, and fails when an entry matches no surviving mutant any more.
 *
 * An entry names the mutant as the HTML report shows it: the file, the mutator, the code it replaces and the
 * replacement, each on one line with blanks collapsed. Every entry says why the mutant is equivalent. Add one
 * only after trying to write the test that kills it.
 */
export interface Equivalent {
	file: string;
	mutator: string;
	original: string;
	replacement: string;
	reason: string;
}

export const EQUIVALENT: readonly Equivalent[] = [];
