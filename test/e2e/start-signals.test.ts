/**
 * End-to-end: `npm start` (npm → node running scripts/n8n/start.ts → the sandbox and n8n, each in its own
 * process group) stops cleanly, with nothing left behind, on SIGTERM, SIGINT and SIGHUP to the PID the user
 * sees (npm's) and on Ctrl-C (SIGINT to the whole foreground process group).
 * Needs the installed n8n in .n8n-cache (installed on first use, about 5 minutes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureN8nInstalled } from '../../scripts/n8n/install';
import { NO_EDITOR_ENV } from '../../scripts/n8n/n8nProcess';
import { projectRoot, tempDir } from '../../scripts/n8n/paths';
import { freePort, portInUse, runCommand } from '../../scripts/n8n/processes';
import { sleep } from '../../scripts/n8n/waiting';

const MINUTE = 60 * 1000;
/** How long a stop may take, from the signal until the last process is gone and both ports are free. */
const STOP_BOUND_MS = 20_000;

let workDir: string;
let examplesDir: string;
/** How long each stop took, printed at the end. */
const stopTimes: string[] = [];

/** pid → ppid and state of every process, from /proc. */
function processTable(): Map<number, { ppid: number; state: string; cmd: string }> {
	const table = new Map<number, { ppid: number; state: string; cmd: string }>();
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			// "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
			const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
			table.set(Number(name), { ppid: Number(rest[1]), state: rest[0], cmd });
		} catch {
			// ended meanwhile
		}
	}
	return table;
}

/** The PIDs of a process's descendants (children, their children, ...), with their command lines. */
function descendants(root: number): Map<number, string> {
	const table = processTable();
	const found = new Map<number, string>();
	const queue = [root];
	while (queue.length) {
		const parent = queue.shift()!;
		for (const [pid, info] of table) {
			if (info.ppid === parent && !found.has(pid)) {
				found.set(pid, info.cmd);
				queue.push(pid);
			}
		}
	}
	return found;
}

/** Whether a process still exists (a zombie does not count: it has ended and only waits to be reaped). */
function alive(pid: number): boolean {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
	} catch {
		return false;
	}
}

interface Started {
	npm: ChildProcess;
	output: () => string;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	n8nPort: number;
	sandboxPort: number;
}

/** Runs `npm start` the way the README says, in its own process group (as a terminal's foreground job). */
async function npmStart(): Promise<Started> {
	const n8nPort = await freePort();
	const sandboxPort = await freePort();
	const args = ['start', '--', '--port', String(n8nPort), '--sandbox-port', String(sandboxPort)];
	args.push('--data-dir', path.join(workDir, 'data'), '--examples', examplesDir, '--no-build');
	// n8n without its editor (NO_EDITOR_ENV, passed on by npm start's n8n environment): these tests read
	// processes and ports, not pages, and each of the five starts then costs about 5 CPU-seconds less.
	const env = { ...process.env, ...NO_EDITOR_ENV };
	delete env.NODE_ENV; // jest's "test" would make the n8n CLI do nothing
	const npm = spawn('npm', args, { cwd: projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	let text = '';
	npm.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
	npm.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		npm.on('exit', (code, signal) => resolve({ code, signal })),
	);
	const deadline = Date.now() + 5 * MINUTE;
	while (!/n8n is ready at/.test(text)) {
		if (npm.exitCode !== null || npm.signalCode !== null) throw new Error(`npm start ended before it was ready:\n${text}`);
		if (Date.now() > deadline) throw new Error(`npm start was not ready within 5 minutes:\n${text}`);
		await sleep(250);
	}
	return { npm, output: () => text, exited, n8nPort, sandboxPort };
}

/** Sends a signal, then checks that npm ended and that no process of its tree and no port is left. */
async function stopAndCheck(started: Started, send: () => void): Promise<void> {
	const { npm } = started;
	const tree = descendants(npm.pid!);
	// The tree as started: npm, node (start.ts), the sandbox's npm and node, n8n and its task runner.
	expect([...tree.values()].some((cmd) => /scripts\/n8n\/start\.ts/.test(cmd))).toBe(true);
	expect([...tree.values()].some((cmd) => /sandbox\/src\/cli\.ts/.test(cmd))).toBe(true);
	expect([...tree.values()].some((cmd) => /n8n\/bin\/n8n start/.test(cmd))).toBe(true);
	expect(await portInUse(started.n8nPort)).toBe(true);
	expect(await portInUse(started.sandboxPort)).toBe(true);

	const t0 = Date.now();
	send();
	let left: string[] = [];
	let portsBusy = true;
	let npmEnded = false;
	void started.exited.then(() => (npmEnded = true));
	while (Date.now() - t0 < STOP_BOUND_MS) {
		left = [...tree].filter(([pid]) => alive(pid)).map(([pid, cmd]) => `${pid} ${cmd}`);
		portsBusy = (await portInUse(started.n8nPort)) || (await portInUse(started.sandboxPort));
		if (npmEnded && left.length === 0 && !portsBusy) break;
		await sleep(250);
	}
	stopTimes.push(`${expect.getState().currentTestName}: npm and its ${tree.size} descendants gone ${Date.now() - t0} ms after the signal`);
	const report = `after ${Date.now() - t0} ms: npm ended ${npmEnded}, left ${JSON.stringify(left)}, ports busy ${portsBusy}\n${started.output().slice(-3000)}`;
	try {
		expect({ npmEnded, left, portsBusy }).toEqual({ npmEnded: true, left: [], portsBusy: false });
	} catch (error) {
		(error as Error).message += `\n${report}`;
		throw error;
	} finally {
		// Whatever a failed stop left behind, by PID (never by name).
		for (const pid of [npm.pid!, ...tree.keys()]) {
			if (alive(pid)) {
				try {
					process.kill(pid, 'SIGKILL');
				} catch {
					// gone
				}
			}
		}
	}
	expect(started.output()).toMatch(/stopping n8n and the sandbox\.\.\.\n(.|\n)*Stopped\./);
}

beforeAll(async () => {
	await ensureN8nInstalled();
	workDir = tempDir('ftm-e2e-start-');
	examplesDir = path.join(workDir, 'no-examples');
	fs.mkdirSync(examplesDir);
	// Under `npm test` the pretest script has just built dist/; otherwise build it once here (every start
	// below packs it with --no-build).
	if (process.env.npm_lifecycle_event !== 'test' && process.env.FTM_PACKAGE_BUILT !== '1') {
		await runCommand('npm', ['run', 'build'], { label: 'npm run build' });
	}
}, 30 * MINUTE);

afterAll(() => {
	process.stdout.write(`${stopTimes.join('\n')}\n`);
	if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe('npm start stops everything it started', () => {
	test('SIGTERM to npm\'s PID', async () => {
		const started = await npmStart();
		await stopAndCheck(started, () => started.npm.kill('SIGTERM'));
	}, 10 * MINUTE);

	test('SIGINT to npm\'s PID', async () => {
		const started = await npmStart();
		await stopAndCheck(started, () => started.npm.kill('SIGINT'));
	}, 10 * MINUTE);

	test('Ctrl-C: SIGINT to the whole foreground process group', async () => {
		const started = await npmStart();
		await stopAndCheck(started, () => process.kill(-started.npm.pid!, 'SIGINT'));
	}, 10 * MINUTE);

	test('SIGHUP to npm\'s PID (npm does not forward it: start.ts notices that its parent ended)', async () => {
		const started = await npmStart();
		await stopAndCheck(started, () => started.npm.kill('SIGHUP'));
		// The second start above reused the data folder: same login, and the sandbox said what it kept.
		expect(started.output()).toMatch(/Sandbox: kept \d+ jobs/);
	}, 10 * MINUTE);

	test('terminal closed: SIGHUP to the whole process group', async () => {
		const started = await npmStart();
		await stopAndCheck(started, () => process.kill(-started.npm.pid!, 'SIGHUP'));
	}, 10 * MINUTE);
});
