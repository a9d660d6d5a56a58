/**
 * The queue-mode e2e suite (test/queue): real n8n with Postgres, Redis, main and workers. Run after the main
 * jest run by `npm test`, or alone with `npm run test:queue`; one file, in band.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	roots: ['<rootDir>/test/queue'],
	testPathIgnorePatterns: ['/node_modules/'],
	maxWorkers: 1,
	testTimeout: 10 * 60 * 1000,
};
