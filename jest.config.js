/**
 * Three layers, each a jest project: `npm run test:unit`, `test:integration`, `test:e2e`. `npm test` runs them
 * and the queue suite (jest.queue.config.js) through scripts/test.ts. The type check runs once
 * (`npm run typecheck`), so jest only strips types (@swc/jest).
 * - unit: pure logic, no server, no n8n-core engine, no child process: seconds.
 * - integration: the nodes through n8n-core and the sandbox over real HTTP on 127.0.0.1; hostile servers.
 * - e2e: real n8n (installed into .n8n-cache by `npm run n8n:install`), the packed package, the install routes;
 *   the package packed once per run, and one n8n shared by the suites that need only n8n's defaults.
 */
const transform = {
	'^.+\\.ts$': [
		'@swc/jest',
		{
			jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
			module: { type: 'commonjs' },
			sourceMaps: 'inline',
		},
	],
};

/**
 * The unit layer: test/unit, and pure test files (no server, no engine run) that live beside the integration
 * tests of their topic outside test/unit (folders end with /).
 */
const UNIT = [
	'test/unit/',
	'test/layout/',
	'test/scripts/',
	'test/editor/',
	'test/trigger/items.test.ts',
	'test/node/job/jobJson.test.ts',
	'test/hardening/raceAbort.test.ts',
	'test/docs/claims.test.ts',
];
const E2E = ['test/e2e/', 'test/install/'];
/**
 * e2e suites that `npm test` leaves to `npm run test:matrix` (which runs them in the pinned n8n, with
 * FTM_E2E_ALL=1), to keep `npm test`'s time down (CONTRIBUTING.md › Figures of the last full run): each starts
 * n8n several times to measure n8n's own settings (SSRF protection, unverified packages), where the integration
 * layer already proves the nodes' side through n8n-core. `FTM_E2E_ALL=1 npm run test:e2e` runs them too.
 */
const MATRIX_ONLY = ['test/e2e/ssrf.test.ts', 'test/e2e/unverified-packages.test.ts'];
/** Runs alone, after the rest: jest.queue.config.js. */
const QUEUE = ['test/queue/'];

const glob = (paths) => paths.map((p) => `<rootDir>/${p}${p.endsWith('/') ? '**/*.test.ts' : ''}`);
const ignore = (paths) => ['/node_modules/', ...paths.map((p) => `<rootDir>/${p}`)];
const TIMEOUT = 60000;

const project = (displayName, options) => ({
	displayName,
	testEnvironment: 'node',
	transform,
	// `npm run bench -- --base` keeps another commit's tree and dependencies there (bench/lib/base.ts).
	modulePathIgnorePatterns: ['<rootDir>/.bench-base/'],
	testTimeout: TIMEOUT,
	...options,
});

/** @type {import('jest').Config} */
module.exports = {
	projects: [
		project('unit', { testMatch: glob(UNIT) }),
		project('integration', {
			testMatch: ['<rootDir>/test/**/*.test.ts'],
			testPathIgnorePatterns: ignore([...UNIT, ...E2E, ...QUEUE]),
		}),
		project('e2e', {
			testMatch: glob(E2E),
			// Builds and packs once per run, and starts the n8n that most suites share (test/e2e/helpers/sharedN8n.ts).
			globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
			globalTeardown: '<rootDir>/test/e2e/globalTeardown.ts',
			testPathIgnorePatterns: ignore(process.env.FTM_E2E_ALL === '1' ? [] : MATRIX_ONLY),
		}),
	],
	maxWorkers: 2,
	testTimeout: TIMEOUT,
};
module.exports.transform = transform;
