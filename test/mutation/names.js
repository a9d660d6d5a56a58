/** Where test/mutation/recordTests.js writes the names of each test file's tests: the project root (under Stryker, its sandbox). */
const path = require('node:path');

module.exports = { NAMES_DIR: path.resolve(__dirname, '..', '..', '.mutation-test-names') };
