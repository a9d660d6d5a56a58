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
	'test/unit/cost-compare.test.ts',
	'test/unit/cost-guard.test.ts',
	'test/unit/run-guards.test.ts',
	'test/unit/trigger-window.test.ts',
	'test/unit/trigger-drain.test.ts',
	'test/unit/origin.test.ts',
	'test/unit/validation.test.ts',
	'test/unit/tool-errors.test.ts',
	'test/unit/page-maximum.test.ts',
];

const { displayName: _name, testMatch: _match, ...unit } = projects.find((project) => project.displayName === 'unit');

/** @type {import('jest').Config} */
module.exports = {
	...unit,
	rootDir: __dirname,
	testMatch: TESTS.map((file) => `<rootDir>/${file}`),
};
