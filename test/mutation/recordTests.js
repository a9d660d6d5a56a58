/**
 * `npm run test:mutation` only (jest.mutation.config.js's setupFilesAfterEnv), and only under Stryker (whose test
 * environment defines the global `__stryker__`): writes down which tests each test file holds, as they run in
 * Stryker's initial test run, for test/mutation/sequencer.js. Into the Stryker sandbox, which Stryker deletes after the run.
 */
const fs = require('node:fs');
const path = require('node:path');

const { NAMES_DIR } = require('./names');

if (globalThis.__stryker__ !== undefined) {
	const names = new Set();
	beforeEach(() => {
		names.add(expect.getState().currentTestName);
	});
	afterAll(() => {
		const { testPath } = expect.getState();
		fs.mkdirSync(NAMES_DIR, { recursive: true });
		const file = path.join(NAMES_DIR, `${encodeURIComponent(testPath)}.json`);
		const known = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
		fs.writeFileSync(file, JSON.stringify([...new Set([...known, ...names])]));
	});
}
