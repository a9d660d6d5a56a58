/**
 * The commit-msg hook's rule (scripts/git-hooks/commitMessage.cjs): a subject of at most 72 characters, then a
 * blank line. Also run as git runs it, on a message file, for its exit code.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const { checkMessage, MAX_SUBJECT } = require('../../scripts/git-hooks/commitMessage.cjs') as {
	checkMessage: (raw: string) => string[];
	MAX_SUBJECT: number;
};

const HOOK = path.join(__dirname, '..', '..', 'scripts', 'git-hooks', 'commit-msg');

function runHook(message: string): { status: number | null; stderr: string } {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commit-msg-'));
	const file = path.join(dir, 'COMMIT_EDITMSG');
	fs.writeFileSync(file, message);
	try {
		const result = spawnSync(HOOK, [file], { encoding: 'utf8' });
		return { status: result.status, stderr: result.stderr };
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

describe('commit-msg: a subject of at most 72 characters, then a blank line', () => {
	it('takes a subject of exactly 72 characters with a body', () => {
		expect(MAX_SUBJECT).toBe(72);
		expect(checkMessage(`${'a'.repeat(72)}\n\nWhy it changed.\n`)).toEqual([]);
	});

	it('refuses 73 characters, counting characters, not bytes', () => {
		expect(checkMessage(`${'a'.repeat(73)}\n`)).toEqual([expect.stringContaining('has 73 characters, more than 72')]);
		expect(checkMessage(`${'é'.repeat(72)}\n`)).toEqual([]);
	});

	it('refuses a body glued to the subject, and an empty message', () => {
		expect(checkMessage('Subject\nBody on the second line\n')).toEqual([expect.stringContaining('second line is not blank')]);
		expect(checkMessage('\n# only a comment\n')).toEqual([expect.stringContaining('empty')]);
	});

	it("reads the message as git hands it: comment lines and everything below the scissors are not the message", () => {
		const verbose = `Short subject\n\nBody.\n# Please enter the commit message\n# ------------------------ >8 ------------------------\n${'x'.repeat(200)}\n`;
		expect(checkMessage(`# a comment first\n${verbose}`)).toEqual([]);
	});

	it('as a hook: exit 0 for a good message, 1 with the reason for a long subject', () => {
		expect(runHook('Short subject\n\nBody.\n').status).toBe(0);
		const long = runHook(`${'b'.repeat(80)}\n`);
		expect(long.status).toBe(1);
		expect(long.stderr).toContain('commit-msg: the subject has 80 characters, more than 72');
	});
});
