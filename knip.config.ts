/**
 * Dead-code check (`npm run lint:dead`): unused files, unused exports and types, unused or unlisted
 * dependencies. Entries are what something outside the import graph starts: n8n, npm scripts, jest, a
 * person at a shell, or a child process spawned by path. Every ignore below says why.
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
	entry: [
		// What n8n loads: package.json `n8n.nodes` and `n8n.credentials` name the compiled dist/ files of these,
		// and n8n requires them by path (their exported classes are found by name, never imported).
		'nodes/**/*.node.ts',
		'credentials/*.credentials.ts',
		// npm scripts: `sandbox`, `test`, `check:publish`, `release:check`, `start`, `n8n:install`, `test:matrix`;
		// and the ones run by hand (CONTRIBUTING.md, docs): the tour and the node-panel screenshot. Only the
		// scripts themselves: scripts/n8n/processes.ts and the like are libraries, whose exports are checked.
		// (bench/run.ts, the `bench` script, knip finds in package.json's scripts by itself; listing it here
		// only draws a "redundant entry" hint.)
		'sandbox/src/cli.ts',
		'scripts/*.ts',
		'scripts/n8n/{start,install,matrix,tour,screenshot}.ts',
		// Spawned by path as child processes (`node --import tsx …`): bench/run.ts's memory child, and the
		// processes that ask for system packages at the same moment in test/system/packages.test.ts.
		'bench/memory-child.ts',
		'test/system/ensure-child.ts',
		// Run by hand: `npm exec -- node --import tsx bench/sandbox.bench.ts` (bench/README.md, sandbox/README.md).
		'bench/sandbox.bench.ts',
		// Run by hand: `npx tsx test/install/peer-copy-check.ts`, the evidence behind docs/install.md and docs/versions.md.
		'test/install/peer-copy-check.ts',
		// Preloaded into n8n with `NODE_OPTIONS=--require …` by the install-route tests (test/install/helpers.ts).
		'test/install/custom-registry-licensed.cjs',
		// jest's tests. The configs are entries through knip's plugins, which read them for what they load:
		// jest.config.js and jest.queue.config.js (jest plugin), eslint.config.mjs (eslint plugin).
		'test/**/*.test.ts',
		// gulp's tasks (`npm run build`); knip has no gulp plugin.
		'gulpfile.js',
		// The jest config of `npm run test:mutation`, named by stryker.config.mjs's `jest.configFile`, which knip's
		// Stryker plugin does not read (it reads the test runner's package only).
		'jest.mutation.config.js',
	],
	project: [
		'nodes/**/*.ts',
		'credentials/**/*.ts',
		'sandbox/**/*.ts',
		'scripts/**/*.ts',
		'bench/**/*.ts',
		'test/**/*.{ts,cjs}',
		'*.{js,mjs,ts}',
	],
	ignoreDependencies: [
		// Not imported: it is the Node 24 that every npm script runs on (its bin `node` comes first on the PATH
		// that npm scripts get), see CONTRIBUTING.md › Node versions.
		'node',
		// Loaded from n8n-core's own copies on purpose (require.resolve with `paths: [n8n-core's folder]`,
		// test/hardening/harness.ts): a top-level copy would be another DI container than n8n-core's.
		'@n8n/di',
		'@n8n/backend-common',
		// n8n's lint rules: @n8n/node-cli's ESLint config (eslint.config.mjs) loads them by name. Declared so that
		// the project pins the rules it is checked against, which the verification of community nodes names.
		'eslint-plugin-n8n-nodes-base',
		'@n8n/eslint-plugin-community-nodes',
	],
	ignoreBinaries: [
		// Debian's programs, not npm packages: pg_config finds Postgres's tools (scripts/n8n/queue/postgres.ts),
		// openssl makes the TLS tests' certificates (test/harness/tlsProxy.ts).
		'pg_config',
		'openssl',
	],
};

export default config;
