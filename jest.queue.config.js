/**
 * The queue-mode e2e suites (test/queue): real n8n with Postgres, Redis, main and workers. `npm test` runs
 * them (scripts/test.ts), or alone with `npm run test:queue`. Three files, side by side: each starts its own
 * stack, and most of their time is spent waiting for polls and for main to restart.
 */
const { transform } = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	transform,
	roots: ['<rootDir>/test/queue'],
	globalSetup: '<rootDir>/test/queue/globalSetup.ts',
	globalTeardown: '<rootDir>/test/queue/globalTeardown.ts',
	maxWorkers: 3,
	testTimeout: 10 * 60 * 1000,
};
