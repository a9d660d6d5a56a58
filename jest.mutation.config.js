/**
 * The jest config of `npm run test:mutation` (stryker.config.mjs): jest.config.js's unit project alone, as one
 * config without `projects` (Stryker's jest runner wraps the test environment to learn which test covers which
 * mutant, which it does for one config), and only the unit tests that cover the mutated files.
 */
const { projects } = require('./jest.config.js');

/** The unit tests that cover stryker.config.mjs's files (each imports one of them, or the module that uses it). */
const TESTS = [
	'test/unit/pace/line.test.ts',
	'test/unit/pace/retryAfter.test.ts',
	'test/unit/pace/fixed.test.ts',
	'test/unit/pace/auto.test.ts',
	'test/unit/pace/remembered.test.ts',
	'test/unit/pace/index.test.ts',
	'test/unit/cost-compare.test.ts',
	'test/unit/cost-guard.test.ts',
	'test/unit/run-guards.test.ts',
	'test/unit/trigger-window.test.ts',
	'test/unit/trigger-drain.test.ts',
	'test/unit/trigger-sweep.test.ts',
	'test/unit/origin.test.ts',
	'test/unit/validation.test.ts',
	'test/unit/tool-errors.test.ts',
	'test/unit/page-maximum.test.ts',
];

const { displayName: _name, testMatch: _match, ...unit } = projects.find((project) => project.displayName === 'unit');

/**
 * `FTM_MUTATION_TESTS=test/unit/pace/` (prefixes, comma-separated): only the tests of TESTS under them, for a run
 * of one file against its own unit tests (the pacing is also run by every test that sends a request, e.g.
 * test/unit/trigger-drain.test.ts's drains of about 60 s). Fewer tests can only kill fewer mutants: the score of
 * such a run is a lower bound of the whole run's.
 */
const only = (process.env.FTM_MUTATION_TESTS ?? '').split(',').filter((prefix) => prefix !== '');
const tests = only.length === 0 ? TESTS : TESTS.filter((file) => only.some((prefix) => file.startsWith(prefix)));
if (tests.length === 0) throw new Error(`FTM_MUTATION_TESTS=${process.env.FTM_MUTATION_TESTS} matches none of jest.mutation.config.js's tests`);

/** @type {import('jest').Config} */
module.exports = {
	...unit,
	rootDir: __dirname,
	testMatch: tests.map((file) => `<rootDir>/${file}`),
	// Read by test/unit/trigger-drain.test.ts: once one drain failed under a mutant, the later ones fail at once.
	globals: { ...unit.globals, FTM_MUTATION: true },
	// Under Stryker: a mutant's run loads only the test files that hold the tests that covered it.
	setupFilesAfterEnv: [...(unit.setupFilesAfterEnv ?? []), '<rootDir>/test/mutation/recordTests.js'],
	testSequencer: '<rootDir>/test/mutation/sequencer.js',
	// A mutant that leaves a test waiting (for a pause on jest's fake clock, say) fails it after 3 s, as a kill, instead
	// of running into Stryker's timeout, which costs more and restarts the test runner. No test of TESTS takes 0.5 s
	// but the drains of trigger-drain.test.ts, which keep the unit layer's 60 s.
	testTimeout: 3000,
};
