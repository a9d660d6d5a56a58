/**
 * A private Redis for n8n's Bull queue: the system's redis-server (installed with apt-get when missing, once
 * for the machine: scripts/system-packages.ts), in the foreground in its own process group, on 127.0.0.1
 * only, without persistence.
 * No npm package ships a Redis binary that installs offline (redis-memory-server downloads and builds source).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { REDIS, ensureSystemPackages } from '../../system-packages';
import { type ManagedProcess, spawnGroup } from '../processes';
import { untilServing } from '../waiting';

type Log = (line: string) => void;

function redisVersion(binary: string): string {
	try {
		return /v=(\S+)/.exec(execFileSync(binary, ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown version';
	} catch {
		return 'unknown version';
	}
}

/** Sends PING; resolves true on +PONG. */
function ping(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.once('error', () => done(false));
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
	});
}

export interface RedisServer {
	port: number;
	host: string;
	binary: string;
	version: string;
	proc: ManagedProcess;
	stop(graceMs?: number): Promise<void>;
}

export interface StartRedisOptions {
	/** Redis's working folder. */
	dir: string;
	port: number;
	logFile?: string;
	echo?: boolean;
	log?: Log;
	readyTimeoutMs?: number;
}

/** Starts redis-server on 127.0.0.1:port and waits until it answers PING. */
export async function startRedis(options: StartRedisOptions): Promise<RedisServer> {
	const log = options.log ?? ((line: string) => process.stderr.write(`[redis] ${line}\n`));
	const { [REDIS.name]: binary } = await ensureSystemPackages([REDIS], { log });
	fs.mkdirSync(options.dir, { recursive: true });
	const proc = spawnGroup(
		binary,
		[
			'--port', String(options.port),
			'--bind', '127.0.0.1',
			'--save', '',
			'--appendonly', 'no',
			'--daemonize', 'no',
			'--dir', options.dir,
		],
		{ label: 'redis', cwd: options.dir, logFile: options.logFile, echo: options.echo },
	);
	if ((await untilServing(proc, () => ping(options.port), options.readyTimeoutMs ?? 20000, 50)) !== 'ready') {
		await proc.stop(1000);
		throw new Error(`redis-server did not start on 127.0.0.1:${options.port}:\n${proc.tail(20)}`);
	}
	return {
		port: options.port,
		host: '127.0.0.1',
		binary,
		version: redisVersion(binary),
		proc,
		stop: (graceMs = 3000) => proc.stop(graceMs),
	};
}
