/**
 * `npm run test:mutation` only (jest.mutation.config.js's testSequencer): jest's own order, and, for a mutant,
 * only the test files that hold a test that covers it.
 *
 * For each mutant, Stryker's jest runner runs the test files that import the mutated file (--findRelatedTests)
 * with a testNamePattern of the tests that covered it. Jest loads every one of those files (and all they import)
 * to find the tests that match, and skips the rest: a file of the pacing is imported, through the transport, by
 * ten test files, of which one or two hold the tests of a mutant. This sequencer leaves out the files that hold
 * none of the pattern's tests, by the names test/mutation/recordTests.js wrote down in the initial test run. A
 * file it has no names of is kept, so the same tests run: only the files whose every test jest would skip are
 * left out.
 */
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const { NAMES_DIR } = require('./names');

class MutationSequencer extends Sequencer {
	constructor(options) {
		super(options);
		this.pattern = options.globalConfig.testNamePattern;
	}

	sort(tests) {
		const sorted = super.sort(tests);
		if (!this.pattern || !fs.existsSync(NAMES_DIR)) return sorted;
		// As jest-circus reads the pattern.
		const pattern = new RegExp(this.pattern, 'i');
		return sorted.filter((test) => {
			const file = path.join(NAMES_DIR, `${encodeURIComponent(test.path)}.json`);
			if (!fs.existsSync(file)) return true;
			return JSON.parse(fs.readFileSync(file, 'utf8')).some((name) => pattern.test(name));
		});
	}
}

module.exports = MutationSequencer;
