/**
 * The commit-message rule of this repository: a subject of at most 72 characters that says what changed, then
 * a blank line, then the body (why, the figures, what was tried). `git log --oneline` is how others read the
 * history. Installed as a commit-msg hook by `npm run hooks:install`; `checkMessage` is unit-tested.
 */
'use strict';
const fs = require('node:fs');

const MAX_SUBJECT = 72;

/** The problems of a commit message as git hands it to the hook (comments and the scissors cut away). */
function checkMessage(raw) {
	const scissors = raw.indexOf('# ------------------------ >8 ------------------------');
	const text = scissors === -1 ? raw : raw.slice(0, scissors);
	const lines = text.split('\n').filter((line) => !line.startsWith('#'));
	while (lines.length > 0 && lines[0].trim() === '') lines.shift();
	const subject = (lines[0] || '').trimEnd();
	const problems = [];
	if (subject === '') return ['the message is empty: write a subject that says what changed'];
	if ([...subject].length > MAX_SUBJECT) {
		problems.push(
			`the subject has ${[...subject].length} characters, more than ${MAX_SUBJECT}: say what changed in the subject, and why, the figures and what was tried in the body`,
		);
	}
	if (lines.length > 1 && lines[1].trim() !== '') {
		problems.push('the second line is not blank: leave one blank line between the subject and the body');
	}
	return problems;
}

if (require.main === module) {
	const file = process.argv[2];
	if (!file) {
		process.stderr.write('usage: commitMessage.cjs <commit message file>\n');
		process.exit(2);
	}
	const problems = checkMessage(fs.readFileSync(file, 'utf8'));
	if (problems.length > 0) {
		process.stderr.write(`commit-msg: ${problems.join('\ncommit-msg: ')}\n(your message is kept in ${file})\n`);
		process.exit(1);
	}
}

module.exports = { checkMessage, MAX_SUBJECT };
