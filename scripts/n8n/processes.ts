/**
 * Child processes of the scripts and tests: each started in its own process group, its output kept, and all
 * of them stopped together on shutdown or when this process exits; free ports and live PIDs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { projectRoot } from './paths';

export interface ManagedProcess {
	child: ChildProcess;
	label: string;
	/** The last lines of stdout and stderr, interleaved. */
	tail(lines?: number): string;
	/** Full stdout so far. */
	stdout(): string;
	stderr(): string;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	isRunning(): boolean;
	/** Stops the whole process group: SIGTERM, then SIGKILL after graceMs. */
	stop(graceMs?: number): Promise<void>;
}

const running = new Set<ManagedProcess>();
let exitHookInstalled = false;
let shuttingDown = false;

/**
 * Stops every process started through spawnGroup that still runs (each one's whole process group: SIGTERM,
 * then SIGKILL after graceMs), and refuses to start new ones from then on, so that a start-up step that is
 * still under way when a signal arrives cannot leave a process behind.
 */
export async function shutdownManaged(graceMs = 10000): Promise<void> {
	shuttingDown = true;
	await Promise.all([...running].map((proc) => proc.stop(graceMs)));
}

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	// Last resort when the parent dies without stopping its children (e.g. a crashed test run).
	process.on('exit', () => {
		for (const proc of running) {
			try {
				if (proc.child.pid) process.kill(-proc.child.pid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
	});
}

export interface SpawnOptions {
	label: string;
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Appends all output to this file. */
	logFile?: string;
	/** Copies output to this process's stderr, each line prefixed with the label. */
	echo?: boolean;
}

/** Starts a command in its own process group, keeping its output. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): ManagedProcess {
	if (shuttingDown) throw new Error(`not starting ${options.label}: shutting down`);
	installExitHook();
	const child = spawn(command, args, {
		cwd: options.cwd ?? projectRoot,
		env: options.env ?? process.env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	const out: string[] = [];
	const err: string[] = [];
	const tailLines: string[] = [];
	const log = options.logFile ? fs.createWriteStream(options.logFile, { flags: 'a' }) : undefined;
	const collect = (store: string[]) => (chunk: Buffer) => {
		const text = chunk.toString();
		store.push(text);
		log?.write(text);
		const lines = text.split('\n').filter((line) => line.trim() !== '');
		tailLines.push(...lines);
		if (tailLines.length > 400) tailLines.splice(0, tailLines.length - 400);
		if (options.echo) for (const line of lines) process.stderr.write(`[${options.label}] ${line}\n`);
	};
	child.stdout?.on('data', collect(out));
	child.stderr?.on('data', collect(err));
	let done = false;
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
		child.on('error', (error) => {
			tailLines.push(`could not start ${command}: ${error.message}`);
			done = true;
			resolve({ code: -1, signal: null });
		});
		child.on('close', (code, signal) => {
			done = true;
			log?.end();
			resolve({ code, signal });
		});
	});
	const proc: ManagedProcess = {
		child,
		label: options.label,
		tail: (lines = 40) => tailLines.slice(-lines).join('\n'),
		stdout: () => out.join(''),
		stderr: () => err.join(''),
		exited,
		isRunning: () => !done,
		async stop(graceMs = 10000) {
			if (!child.pid) return;
			const kill = (signal: NodeJS.Signals) => {
				try {
					process.kill(-child.pid!, signal);
				} catch {
					// group already gone
				}
			};
			if (done) {
				kill('SIGKILL'); // the leader is gone; stragglers of its group (e.g. a task runner) are not
				return;
			}
			kill('SIGTERM');
			const timer = setTimeout(() => kill('SIGKILL'), graceMs);
			await exited;
			clearTimeout(timer);
			kill('SIGKILL'); // stragglers in the group (e.g. task runners)
		},
	};
	running.add(proc);
	void exited.then(() => running.delete(proc));
	return proc;
}

/** Runs a command to completion; rejects with its output's tail when it fails. */
export async function runCommand(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs?: number; allowFailure?: boolean },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; tail: string }> {
	const proc = spawnGroup(command, args, options);
	let timer: NodeJS.Timeout | undefined;
	if (options.timeoutMs) {
		timer = setTimeout(() => void proc.stop(2000), options.timeoutMs);
	}
	const { code, signal } = await proc.exited;
	if (timer) clearTimeout(timer);
	const result = { code, signal, stdout: proc.stdout(), stderr: proc.stderr(), tail: proc.tail() };
	if (code !== 0 && !options.allowFailure) {
		throw new Error(
			`${options.label} failed (${signal ? `signal ${signal}` : `exit code ${code}`}): ${command} ${args.join(' ')}\n` +
				proc.tail(),
		);
	}
	return result;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/**
 * Starts a process on ports that freePort() picked, and starts it again on new ones (`repick`) when one of
 * them was taken between the pick and the process's bind: processes started side by side (the e2e suites'
 * two jest workers, the queue stacks) each pick free ports, and two picks can meet. Twice again at most;
 * any other failure is thrown at once.
 */
export async function startOnFreshPorts<T>(start: () => Promise<T>, repick: () => Promise<void>, log?: (line: string) => void): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await start();
		} catch (error) {
			if (attempt > 2 || !/already in use|EADDRINUSE/i.test((error as Error).message)) throw error;
			log?.('a port was taken before the process bound it; starting it again on other ports');
			await repick();
		}
	}
}

/** Whether something listens on 127.0.0.1:port. */
export function portInUse(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** Whether a process of this PID exists (EPERM: it does, owned by another user). */
export function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
