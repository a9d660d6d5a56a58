/** The sandbox CLI (sandbox/) as a child process, for `npm start` and the e2e tests. */
import { spawnGroup, type ManagedProcess } from './processes';
import { sleep } from './waiting';

export interface SandboxProcess {
	baseUrl: string;
	proc: ManagedProcess;
	stop(): Promise<void>;
}

export interface SandboxCliOptions {
	port: number;
	clientId: string;
	clientSecret: string;
	speed?: number;
	dataDir?: string;
	logFile?: string;
	echo?: boolean;
}

/** Starts the sandbox CLI (`npm run sandbox`) and waits for it to print its base URL. */
export async function startSandboxProcess(options: SandboxCliOptions, timeoutMs = 60000): Promise<SandboxProcess> {
	const args = ['run', '--silent', 'sandbox', '--', '--port', String(options.port)];
	args.push('--client-id', options.clientId, '--client-secret', options.clientSecret);
	if (options.speed !== undefined) args.push('--speed', String(options.speed));
	if (options.dataDir) args.push('--data-dir', options.dataDir);
	const proc = spawnGroup('npm', args, { label: 'sandbox', logFile: options.logFile, echo: options.echo });
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const match = /http:\/\/127\.0\.0\.1:\d+/.exec(proc.stdout());
		if (match) {
			return { baseUrl: match[0], proc, stop: () => proc.stop(5000) };
		}
		if (!proc.isRunning()) throw new Error(`the sandbox exited before printing its URL:\n${proc.tail()}`);
		await sleep(200);
	}
	await proc.stop();
	throw new Error(`the sandbox printed no base URL within ${timeoutMs / 1000} s:\n${proc.tail()}`);
}
