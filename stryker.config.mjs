/**
 * `npm run test:mutation`: StrykerJS on the pure cores where a bug costs a user money or data (CONTRIBUTING.md ›
 * Mutation testing). Each file below is mutated, and its mutants run against the unit tests that cover it
 * (jest.mutation.config.js: a part of jest.config.js's unit project, through the same @swc/jest transform). Not part of
 * `npm test`.
 *
 * `FLOORS` is the per-file floor: the least mutation score (killed and timed-out mutants over all mutants with
 * a result, the ones listed as equivalent in scripts/mutation-equivalent.ts left out) that
 * scripts/mutation-check.ts accepts for the file in the report of the run, failing `npm run test:mutation` when
 * any file is below its floor. Stryker's own `thresholds` is one number for the whole run, so it only colours
 * the report here.
 */
/**
 * Least score in % per mutated file: the score a run reached when it was set (CONTRIBUTING.md › Mutation testing
 * › Measured runs), never below 80. A new file starts at 80, to be raised to what its first run reaches.
 */
export const FLOORS = {
	// Pacing: places of requests in flight, Retry-After pauses and the learnt rate budget, Fixed, Auto and what Auto
	// remembers (the files of limiter.ts were split between line.ts, retryAfter.ts, fixed.ts and pace/index.ts).
	'nodes/shared/transport/pace/index.ts': 100,
	'nodes/shared/transport/pace/line.ts': 100,
	'nodes/shared/transport/pace/retryAfter.ts': 100,
	'nodes/shared/transport/pace/fixed.ts': 100,
	'nodes/shared/transport/pace/auto.ts': 100,
	'nodes/shared/transport/pace/remembered.ts': 100,
	// The spending guard: Max Estimated Cost of Run From Dry Run.
	'nodes/FileTransferManager/helpers/costGuard.ts': 100,
	// The Guards of Run From Dry Run: what a dry run may become for real.
	'nodes/FileTransferManager/helpers/runGuards.ts': 100,
	// The trigger's cursor and sweep: what a poll delivers, what it keeps for the next one.
	'nodes/FileTransferManagerTrigger/sweep.ts': 100,
	'nodes/FileTransferManagerTrigger/watch.ts': 100,
	'nodes/FileTransferManagerTrigger/state.ts': 100,
	// Where the credential's token may go, request validation, pagination.
	'nodes/shared/transport/origin.ts': 100,
	'nodes/shared/input/validate.ts': 100,
	'nodes/shared/transport/pagination.ts': 100,
};

export default {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		// jest.config.js's unit project alone, limited to the tests that cover these files.
		configFile: 'jest.mutation.config.js',
		// Each mutant runs only the test files that import the mutated file (jest --findRelatedTests), then only the
		// tests of those that covered it.
		enableFindRelatedTests: true,
	},
	// The sandbox Stryker copies the project into holds only what the unit tests load (not .n8n-cache, a symlink
	// to a shared install, nor the data folders).
	ignorePatterns: ['/*', '!/nodes', '!/credentials', '!/test', '!/sandbox', '!/package.json', '!/jest.config.js', '!/jest.mutation.config.js'],
	mutate: Object.keys(FLOORS),
	coverageAnalysis: 'perTest',
	// Static mutants (module-level constants, run only while a module loads) cannot be tied to the tests that
	// cover them: each would run every test of every related file, 43 % of the whole run's time for 14 % of its
	// mutants. They are left out, and CONTRIBUTING.md › Mutation testing lists them per file.
	ignoreStatic: true,
	concurrency: 2,
	tempDirName: '.stryker-tmp',
	cleanTempDir: true,
	reporters: ['clear-text', 'progress', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
	thresholds: { high: 90, low: 80, break: null },
};
