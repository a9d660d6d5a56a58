/**
 * System packages (scripts/system-packages.ts): what the tests need from Debian is installed once, under one
 * lock for the machine, however many test files ask for it at the same moment; without root or apt-get nothing
 * runs and the message names what to install.
 *
 * A stand-in apt-get on the PATH records each call (with its process id) and, for `install`, waits a moment
 * (as a real install takes seconds) and then creates the programs named in FAKE_PROGRAMS. Processes are real
 * child processes, as jest's workers are.
 */
// @ts-nocheck

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
	TEST_PACKAGES,
	ensureSystemPackages,
	installCommand,
	refusal,
	type InstallOptions,
	type SystemPackage,
} from '../../scripts/system-packages';

const projectRoot = path.resolve(__dirname, '..', '..');

let dir: string;
let fakeBin: string;
let calls: string;
let pkgA: SystemPackage;
let pkgB: SystemPackage;

/** apt-get that records "<pid> <args>"; `install` sleeps INSTALL_SECONDS, then creates each FAKE_PROGRAMS path. */
function writeFakeApt(options: { failFirstInstall?: boolean; createsNothing?: boolean } = {}): string {
	const apt = path.join(fakeBin, 'apt-get');
	const failFlag = path.join(dir, 'failed-once');
	fs.writeFileSync(
		apt,
		[
			'#!/bin/sh',
			`echo "$$ $*" >> "${calls}"`,
			'case "$*" in *" install "*) ;; *) exit 0 ;; esac',
			options.failFirstInstall ? `if [ ! -e "${failFlag}" ]; then touch "${failFlag}"; echo "E: Unable to fetch some archives" >&2; exit 100; fi` : '',
			'sleep "${INSTALL_SECONDS:-0}"',
			options.createsNothing ? '' : 'for f in $FAKE_PROGRAMS; do printf "#!/bin/sh\\n" > "$f"; chmod +x "$f"; done',
			'exit 0',
		].join('\n'),
		{ mode: 0o755 },
	);
	return apt;
}

const aptCalls = (): string[] => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean) : []);
const installs = () => aptCalls().filter((line) => / install /.test(line));

function options(extra: InstallOptions = {}): InstallOptions {
	return { aptGet: 'apt-get', root: true, lock: path.join(dir, 'apt.lock'), pathEnv: `${fakeBin}${path.delimiter}${process.env.PATH ?? ''}`, log: () => undefined, ...extra };
}

/** Runs ensureSystemPackages in a child process; resolves its exit code, stdout and stderr. */
function child(packages: SystemPackage[], extra: InstallOptions = {}) {
	const { log: _log, ...sent } = options(extra);
	return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
		const proc = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'ensure-child.ts'), JSON.stringify({ packages, options: sent })], {
			cwd: projectRoot,
			env: { ...process.env, INSTALL_SECONDS: '1', FAKE_PROGRAMS: packages.map((pkg) => pkg.binary).join(' ') },
		});
		let stdout = '';
		let stderr = '';
		proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		proc.on('close', (code) => resolve({ code, stdout, stderr }));
	});
}

beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ftm-system-packages-'));
	fakeBin = path.join(dir, 'bin');
	fs.mkdirSync(fakeBin);
	calls = path.join(dir, 'apt-calls.log');
	// Absolute program paths, as chromium's is, so that nothing on the real machine counts as installed.
	pkgA = { name: 'fake-redis', binary: path.join(dir, 'programs', 'fake-redis-server'), neededBy: 'a queue test' };
	pkgB = { name: 'fake-chromium', binary: path.join(dir, 'programs', 'fake-chromium'), neededBy: 'a browser test' };
	fs.mkdirSync(path.dirname(pkgA.binary));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('two installs asked for at the same moment make one', () => {
	test('two processes missing the same packages: one apt-get install of both, and both get the programs', async () => {
		writeFakeApt();
		const [first, second] = await Promise.all([child([pkgA, pkgB]), child([pkgA, pkgB])]);
		for (const run of [first, second]) {
			expect(run).toMatchObject({ code: 0 });
			expect(JSON.parse(run.stdout)).toEqual({ [pkgA.name]: pkgA.binary, [pkgB.name]: pkgB.binary });
		}
		expect(installs()).toHaveLength(1);
		expect(installs()[0]).toMatch(/ -o DPkg::Lock::Timeout=600 install -y fake-redis fake-chromium$/);
		// The one that waited said so.
		expect(first.stderr + second.stderr).toMatch(/is installing system packages; waiting for it/);
	}, 30000);

	test('three processes at once, each asking for what it needs: each package is installed once', async () => {
		writeFakeApt();
		const runs = await Promise.all([child([pkgA]), child([pkgA]), child([pkgB])]);
		for (const run of runs) expect(run.code).toBe(0);
		const installed = installs().flatMap((line) => line.split(' install -y ')[1].split(' '));
		expect(installed.sort()).toEqual(['fake-chromium', 'fake-redis']);
	}, 30000);

	test('a lock left by a process that is gone is taken over', async () => {
		writeFakeApt();
		const lock = path.join(dir, 'apt.lock');
		fs.mkdirSync(lock);
		fs.writeFileSync(path.join(lock, 'pid'), '2147483646');
		const run = await child([pkgA]);
		expect(run.code).toBe(0);
		expect(run.stderr).toMatch(/removing the stale lock of process 2147483646/);
		expect(installs()).toHaveLength(1);
		expect(fs.existsSync(lock)).toBe(false);
	}, 30000);
});

describe('installing', () => {
	test('everything present: apt-get does not run', async () => {
		writeFakeApt();
		fs.writeFileSync(pkgA.binary, '#!/bin/sh\n', { mode: 0o755 });
		await expect(ensureSystemPackages([pkgA], options())).resolves.toEqual({ [pkgA.name]: pkgA.binary });
		expect(aptCalls()).toEqual([]);
	});

	test('a failed install (stale package lists): apt-get update, then install again', async () => {
		writeFakeApt({ failFirstInstall: true });
		process.env.FAKE_PROGRAMS = pkgA.binary;
		try {
			await expect(ensureSystemPackages([pkgA], options())).resolves.toEqual({ [pkgA.name]: pkgA.binary });
		} finally {
			delete process.env.FAKE_PROGRAMS;
		}
		expect(aptCalls().map((line) => line.replace(/^\d+ -o DPkg::Lock::Timeout=600 /, ''))).toEqual([
			'install -y fake-redis',
			'update',
			'install -y fake-redis',
		]);
	});

	test('an install that leaves the program missing fails with the command to run by hand', async () => {
		writeFakeApt({ createsNothing: true });
		await expect(ensureSystemPackages([pkgA], options())).rejects.toThrow(
			`apt-get installed fake-redis, but ${pkgA.binary} is still missing. Install by hand: sudo apt-get update && sudo apt-get install -y fake-redis`,
		);
	});
});

describe('without root or without apt-get: nothing runs, and the message names what to install', () => {
	test('not root: refused before apt-get, naming every missing package, what needs it, and the command', async () => {
		writeFakeApt();
		const message = refusal([pkgA, pkgB], options({ root: false }));
		expect(message).toBe(
			[
				'Missing system packages, which the tests need and cannot install here: installing them needs root, and this process is not root.',
				`  - fake-redis (${pkgA.binary}): for a queue test`,
				`  - fake-chromium (${pkgB.binary}): for a browser test`,
				'Install them once, then run the tests again:',
				'  sudo apt-get update && sudo apt-get install -y fake-redis fake-chromium',
			].join('\n'),
		);
		await expect(ensureSystemPackages([pkgA, pkgB], options({ root: false }))).rejects.toThrow(message);
		expect(aptCalls()).toEqual([]);
	});

	test('no apt-get: refused, with the same list', async () => {
		const message = refusal([pkgA], options({ aptGet: path.join(dir, 'no-such-apt-get') }));
		expect(message).toMatch(/^Missing system packages, which the tests need and cannot install here: there is no apt-get/);
		expect(message).toContain(`  - fake-redis (${pkgA.binary}): for a queue test`);
		await expect(ensureSystemPackages([pkgA], options({ aptGet: path.join(dir, 'no-such-apt-get') }))).rejects.toThrow(message);
	});

	test('nothing missing: no refusal, root or not', () => {
		fs.writeFileSync(pkgA.binary, '#!/bin/sh\n', { mode: 0o755 });
		expect(refusal([pkgA], options({ root: false, aptGet: path.join(dir, 'no-such-apt-get') }))).toBeUndefined();
	});

	test("the tests' own list: redis-server and chromium, with the command a person runs", () => {
		expect(TEST_PACKAGES.map((pkg) => pkg.name)).toEqual(['redis-server', 'chromium']);
		expect(installCommand(TEST_PACKAGES)).toBe('sudo apt-get update && sudo apt-get install -y redis-server chromium');
	});
});
