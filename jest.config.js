/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// test/queue runs in its own jest invocation (jest.queue.config.js, `npm run test:queue`).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/queue/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.check.json' }],
	},
	maxWorkers: 2,
	testTimeout: 60000,
};
