/**
 * The system programs the tests need beyond Node and npm: Debian's packages, installed with apt-get once, under
 * one lock for the whole machine, before the suites that need them start.
 *
 * Why one lock: apt-get holds dpkg's lock while it installs, and a second apt-get started meanwhile fails at once
 * ("Could not get lock /var/lib/dpkg/lock-frontend"). Test files that run side by side (the queue suites, the e2e
 * suites) each make sure of what they need, so without a lock of our own a fresh machine sees two or three
 * installs of the same package at the same moment, and all but one fail. Under the lock, a process re-checks
 * what is still missing, so two installs asked for at the same moment make one. apt-get also waits for dpkg's
 * lock held by anything else (`DPkg::Lock::Timeout`) instead of failing.
 *
 * `npm test` installs them all first (scripts/test.ts); a suite run alone installs what it needs the same way.
 * Without root or without apt-get nothing is installed: the error names the packages and the command to run.
 *
 * Usage: npx tsx scripts/system-packages.ts [--check]
 *   --check: install nothing; exit 1, naming the packages and the command, when something is missing that this
 *   process cannot install (not root, or no apt-get)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { withLock } from './n8n/cacheLock';
import { runCommand } from './n8n/processes';

export interface SystemPackage {
	/** Debian's package name. */
	name: string;
	/** The program it installs: an absolute path, or a name looked up on the PATH and in the usual folders. */
	binary: string;
	/** What needs it, for messages. */
	neededBy: string;
}

export const REDIS: SystemPackage = {
	name: 'redis-server',
	binary: 'redis-server',
	neededBy: "the queue-mode tests and `npm start -- --queue` (Redis for n8n's queue)",
};

/** playwright-core launches this binary (scripts/n8n/chromium.ts): no browser download. */
export const CHROMIUM: SystemPackage = {
	name: 'chromium',
	binary: '/usr/bin/chromium',
	neededBy: 'the browser tests (the tour, the install routes) and the node-panel screenshot',
};

/** Everything `npm test` needs from the system. */
export const TEST_PACKAGES: readonly SystemPackage[] = [REDIS, CHROMIUM];

export interface InstallOptions {
	log?: (line: string) => void;
	/** The apt-get to run: a name on the PATH or a path. */
	aptGet?: string;
	/** Whether this process may install system packages (it is root). */
	root?: boolean;
	/** The lock folder shared by every process of the machine. */
	lock?: string;
	/** The PATH to look programs up on. */
	pathEnv?: string;
	/** How long one apt-get call may take. */
	timeoutMs?: number;
}

const SEARCH_DIRS = ['/usr/bin', '/usr/local/bin', '/usr/sbin', '/bin', '/sbin'];
const DEFAULT_LOCK = path.join(os.tmpdir(), 'n8n-nodes-file-transfer-manager-apt.lock');

function executable(file: string): boolean {
	try {
		fs.accessSync(file, fs.constants.X_OK);
		return fs.statSync(file).isFile();
	} catch {
		return false;
	}
}

/** The program's path, or undefined when it is not installed. */
export function findProgram(binary: string, pathEnv = process.env.PATH ?? ''): string | undefined {
	if (path.isAbsolute(binary)) return executable(binary) ? binary : undefined;
	const dirs = [...pathEnv.split(path.delimiter).filter(Boolean), ...SEARCH_DIRS];
	return dirs.map((dir) => path.join(dir, binary)).find(executable);
}

function resolved(options: InstallOptions): Required<InstallOptions> {
	return {
		log: options.log ?? ((line) => process.stderr.write(`[system packages] ${line}\n`)),
		aptGet: options.aptGet ?? 'apt-get',
		root: options.root ?? process.getuid?.() === 0,
		lock: options.lock ?? DEFAULT_LOCK,
		pathEnv: options.pathEnv ?? process.env.PATH ?? '',
		timeoutMs: options.timeoutMs ?? 15 * 60 * 1000,
	};
}

export const missingPackages = (packages: readonly SystemPackage[], pathEnv?: string): SystemPackage[] =>
	packages.filter((pkg) => !findProgram(pkg.binary, pathEnv));

/** The command a person runs to install `packages`. */
export const installCommand = (packages: readonly SystemPackage[]): string =>
	`sudo apt-get update && sudo apt-get install -y ${packages.map((pkg) => pkg.name).join(' ')}`;

/**
 * Why this process cannot install what is missing (not root, or no apt-get), as a message that names every
 * missing package and the command to install them; undefined when nothing is missing or it can install.
 */
export function refusal(packages: readonly SystemPackage[], options: InstallOptions = {}): string | undefined {
	const { root, aptGet, pathEnv } = resolved(options);
	const missing = missingPackages(packages, pathEnv);
	if (missing.length === 0) return undefined;
	const why = !findProgram(aptGet, pathEnv)
		? 'there is no apt-get on this machine (the tests install Debian packages)'
		: !root
			? 'installing them needs root, and this process is not root'
			: undefined;
	if (!why) return undefined;
	return [
		`Missing system packages, which the tests need and cannot install here: ${why}.`,
		...missing.map((pkg) => `  - ${pkg.name} (${pkg.binary}): for ${pkg.neededBy}`),
		`Install them once, then run the tests again:`,
		`  ${installCommand(missing)}`,
	].join('\n');
}

/**
 * Makes sure every program of `packages` is installed, installing the missing ones with one apt-get call under
 * the machine-wide lock. Resolves each package's program path, by package name.
 */
export async function ensureSystemPackages(
	packages: readonly SystemPackage[],
	options: InstallOptions = {},
): Promise<Record<string, string>> {
	const settings = resolved(options);
	const { log, aptGet, lock, pathEnv, timeoutMs } = settings;
	const found = () => Object.fromEntries(packages.map((pkg) => [pkg.name, findProgram(pkg.binary, pathEnv)]));
	if (missingPackages(packages, pathEnv).length > 0) {
		const refused = refusal(packages, settings);
		if (refused) throw new Error(refused);
		await withLock(lock, 'system packages', log, async () => {
			// Another process may have installed them while this one waited for the lock.
			const missing = missingPackages(packages, pathEnv);
			if (missing.length === 0) return;
			const names = missing.map((pkg) => pkg.name);
			const env = { ...process.env, PATH: pathEnv, DEBIAN_FRONTEND: 'noninteractive' };
			const apt = (args: string[]) =>
				runCommand(aptGet, ['-o', 'DPkg::Lock::Timeout=600', ...args], { label: `apt-get ${args[0]}`, env, timeoutMs });
			const started = Date.now();
			log(`installing ${names.join(', ')}: apt-get install -y ${names.join(' ')}`);
			try {
				await apt(['install', '-y', ...names]);
			} catch (error) {
				// Package lists that are missing or older than the mirror: refresh them once, then install again.
				log(`${(error as Error).message.split('\n')[0]}; running apt-get update, then installing again`);
				await apt(['update']);
				await apt(['install', '-y', ...names]);
			}
			const still = missingPackages(missing, pathEnv);
			if (still.length > 0) {
				throw new Error(
					`apt-get installed ${names.join(', ')}, but ${still.map((pkg) => pkg.binary).join(', ')} is still missing. ` +
						`Install by hand: ${installCommand(still)}`,
				);
			}
			log(`installed ${names.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		});
	}
	const paths = found();
	for (const [name, file] of Object.entries(paths)) {
		if (!file) throw new Error(`${name} is not installed: ${installCommand(packages.filter((pkg) => pkg.name === name))}`);
	}
	return paths as Record<string, string>;
}

async function main(): Promise<void> {
	const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
	if (values.check) {
		const refused = refusal(TEST_PACKAGES);
		if (refused) {
			process.stderr.write(`${refused}\n`);
			process.exitCode = 1;
		}
		return;
	}
	const paths = await ensureSystemPackages(TEST_PACKAGES);
	for (const [name, file] of Object.entries(paths)) process.stdout.write(`${name}: ${file}\n`);
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`${error.message}\n`);
		process.exitCode = 1;
	});
}
