/**
 * n8n in queue mode on 127.0.0.1: Postgres (postgres.ts), Redis (redis.ts), one main (`n8n start`) and N
 * workers (`n8n worker --concurrency=C`), all sharing one N8N_USER_FOLDER (this package installed in its
 * .n8n/nodes), one encryption key and one database; then the owner, an API key, the credential for a
 * sandbox and the example workflows, like `npm start`. Used by `npm start -- --queue` and the queue-mode e2e
 * tests. Every process runs in its own process group (spawnGroup of processes.ts), so that killing one also kills its
 * task-runner child.
 *
 * Layout of dataDir (reused by a later start on the same folder):
 *   n8n/            N8N_USER_FOLDER (.n8n/nodes holds the package, .n8n/config the encryption key)
 *   postgres-<major>/, pg-run/   Postgres cluster and socket folder
 *   redis/          Redis's working folder (nothing is persisted)
 *   logs/           main.log, worker-<i>.log, postgres.log, redis.log (appended to across runs)
 *   login.json      owner e-mail and password, API key, the sandbox URL the credential was written for
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureN8nInstalled } from '../install';
import { ensureCredential } from '../credentials';
import { PublicApiClient, RestClient, ensureOwnerLogin } from '../n8nApi';
import { n8nCommand, n8nEnv, waitForReady } from '../n8nProcess';
import { buildAndPack, installPackage } from '../packaging';
import { projectRoot, tempDir } from '../paths';
import { type ManagedProcess, freePort, portInUse, spawnGroup, startOnFreshPorts } from '../processes';
import { sleep } from '../waiting';
import { withBearerCredentials } from '../mcpAuth';
import { ensureWorkflow, readExamples, withCredential } from '../workflows';
import { type PostgresServer, startPostgres } from './postgres';
import { type RedisServer, startRedis } from './redis';

export interface QueueStackOptions {
	/** Postgres data, redis dir, n8n user folder, logs live under it. */
	dataDir: string;
	/** Default 2. */
	workers?: number;
	/** Default 5. */
	workerConcurrency?: number;
	/** The sandbox the credential points at (started by the caller). */
	sandboxBaseUrl: string;
	/** Main's port; default: a free port. */
	port?: number;
	/** Packed package to install; default: build and pack like npm start. */
	tarball?: string;
	/** Extra env for every n8n process (e.g. N8N_POLLER_DURABLE_CURSORS_ENABLED). */
	env?: NodeJS.ProcessEnv;
	/** Examples dir to import (default examples/), false = none. */
	examples?: string | false;
	/** Pass process output through (to stderr, each line prefixed with the process name). */
	echo?: boolean;
	/** Without a tarball: pack the dist/ of an earlier build as it is (default true: build first). */
	build?: boolean;
	/** Credential name (default "File Transfer Manager (sandbox)"), client id and secret for the sandbox. */
	credentialName?: string;
	clientId?: string;
	clientSecret?: string;
	/**
	 * Leave an existing credential of that name as it is (a user's edits survive) unless the sandbox moved to
	 * another address. Default false: the credential is written with the values above on every start.
	 */
	keepCredential?: boolean;
	/** Progress lines (default: none). */
	log?: (line: string) => void;
	/**
	 * Called when a process exits that neither stop() nor killMain/killWorker ended (e.g. a crash), with the
	 * name ("main", "worker-1", "postgres", "redis") and how it ended.
	 */
	onUnexpectedExit?: (name: string, how: string, tail: string) => void;
	/** Per n8n process, how long readiness may take (default 120 s). */
	readyTimeoutMs?: number;
}

interface QueueProcess {
	/** "main", "worker-1", "worker-2", ... */
	name: string;
	/** Pid (= process group id) of the current run; changes when the process is restarted. */
	pid: number;
	/** Everything it printed, appended across runs of the stack. */
	logFile: string;
	/** Main: its HTTP port; a worker: its health-check port (/healthz, /healthz/readiness). */
	port: number;
	/** Its task-runner broker port. */
	brokerPort: number;
	/** Whether the current run's process is alive. */
	isRunning(): boolean;
	/** The current run's process (spawnGroup's handle). */
	proc: ManagedProcess;
}

export interface QueueStack {
	/** http://127.0.0.1:<port> of main. */
	url: string;
	owner: { email: string; password: string };
	/** n8n public API key. */
	apiKey: string;
	rest: RestClient;
	publicApi: PublicApiClient;
	credential: { id: string; name: string };
	/** The Bearer Auth credentials of the examples' MCP Server Triggers; `token` only for one made by this start. */
	bearerCredentials: Array<{ id: string; name: string; created: boolean; token?: string }>;
	/** Imported example -> workflow id, keyed both by the workflow's name and by its file name without .json. */
	workflows: Record<string, string>;
	main: QueueProcess;
	workers: QueueProcess[];
	postgres: { port: number; dataDir: string; source: string; proc: ManagedProcess };
	redis: { port: number; binary: string; version: string; proc: ManagedProcess };
	/** Everything that process printed so far, across restarts (appended). */
	logText(proc: QueueProcess): string;
	/** Default SIGKILL; resolves when the process group is gone (other signals: SIGKILL after 30 s). */
	killMain(signal?: NodeJS.Signals): Promise<void>;
	/** Restarts main on the same DB and ports; resolves when ready. */
	startMain(): Promise<void>;
	killWorker(index: number, signal?: NodeJS.Signals): Promise<void>;
	startWorker(index: number): Promise<void>;
	/** Stops everything, incl. Postgres and Redis. Safe to call more than once. */
	stop(): Promise<void>;
	/** ms per phase: package, postgres, redis, main, workers, setup, total. */
	timings: Record<string, number>;
}

const DEFAULT_CREDENTIAL_NAME = 'File Transfer Manager (sandbox)';
const N8N_STOP_GRACE_MS = 10000;
const KILL_WAIT_MS = 30000;

/** n8n's encryption key: the one its config file holds already, else a new one (n8n writes it there). */
function encryptionKey(userFolder: string): string {
	try {
		const config = JSON.parse(fs.readFileSync(path.join(userFolder, '.n8n', 'config'), 'utf8')) as { encryptionKey?: string };
		if (config.encryptionKey) return config.encryptionKey;
	} catch {
		// first start
	}
	return randomBytes(24).toString('base64url');
}

/** Whether any process of the group is alive. */
function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (groupAlive(pgid)) {
		if (Date.now() > deadline) return false;
		await sleep(50);
	}
	return true;
}

interface Slot extends QueueProcess {
	kind: 'main' | 'worker';
	history: string[];
	/** Set by killX/stop before they signal, so that the exit is not reported as unexpected. */
	expectedExit: boolean;
}

/** Starts Postgres, Redis, main and the workers, and sets n8n up. See the file comment. */
export async function startQueueStack(options: QueueStackOptions): Promise<QueueStack> {
	const t0 = Date.now();
	const timings: Record<string, number> = {};
	const log = options.log ?? (() => undefined);
	const dataDir = path.resolve(options.dataDir);
	const userFolder = path.join(dataDir, 'n8n');
	const logDir = path.join(dataDir, 'logs');
	const loginFile = path.join(dataDir, 'login.json');
	fs.mkdirSync(logDir, { recursive: true });
	fs.mkdirSync(userFolder, { recursive: true });
	const workerCount = options.workers ?? 2;
	const concurrency = options.workerConcurrency ?? 5;
	const readyTimeoutMs = options.readyTimeoutMs ?? 120000;

	let postgres: PostgresServer | undefined;
	let redis: RedisServer | undefined;
	const slots: Slot[] = [];
	let stopped = false;

	const stop = async (): Promise<void> => {
		stopped = true;
		for (const slot of slots) slot.expectedExit = true;
		await Promise.all(slots.map((slot) => slot.proc?.stop(N8N_STOP_GRACE_MS)));
		await Promise.all([redis?.stop(), postgres?.stop()]);
	};

	try {
		await ensureN8nInstalled();

		let t = Date.now();
		if (options.tarball) {
			await installPackage(userFolder, options.tarball);
		} else {
			const packDir = tempDir('ftm-pack-');
			try {
				log('building and packing the package');
				await installPackage(userFolder, await buildAndPack(packDir, { build: options.build !== false }));
			} finally {
				fs.rmSync(packDir, { recursive: true, force: true });
			}
		}
		timings.package = Date.now() - t;

		const mainPort = options.port ?? (await freePort());
		if (await portInUse(mainPort)) throw new Error(`127.0.0.1:${mainPort} (for n8n main) is in use`);

		t = Date.now();
		postgres = await startPostgres({
			baseDir: dataDir,
			port: await freePort(),
			logFile: path.join(logDir, 'postgres.log'),
			echo: options.echo,
			log,
		});
		timings.postgres = Date.now() - t;
		log(`Postgres ${postgres.binaries.major} (${postgres.binaries.source}) on 127.0.0.1:${postgres.port}`);

		t = Date.now();
		redis = await startRedis({
			dir: path.join(dataDir, 'redis'),
			port: await freePort(),
			logFile: path.join(logDir, 'redis.log'),
			echo: options.echo,
			log,
		});
		timings.redis = Date.now() - t;
		log(`Redis ${redis.version} on 127.0.0.1:${redis.port}`);

		const key = encryptionKey(userFolder);
		const common: Record<string, string> = {
			N8N_ENCRYPTION_KEY: key,
			EXECUTIONS_MODE: 'queue',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		};

		const envFor = (slot: Slot): NodeJS.ProcessEnv => {
			// n8nEnv drops an inherited DB_TYPE after applying its extras, so the queue settings go on top.
			const env = n8nEnv({ userFolder, port: slot.port, brokerPort: slot.brokerPort });
			Object.assign(env, common, { N8N_EVENTBUS_LOGWRITER_LOGBASENAME: `n8nEventLog-${slot.name}` });
			if (slot.kind === 'worker') {
				Object.assign(env, { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(slot.port) });
			}
			return { ...env, ...options.env };
		};

		/** Output of each process's current run (earlier runs are in slot.history). */
		const current = new Map<Slot, string[]>();
		const pendingText = (slot: Slot) => current.get(slot) ?? [];
		const launch = async (slot: Slot): Promise<void> => {
			if (stopped) throw new Error(`not starting ${slot.name}: the stack is stopped`);
			if (slot.proc?.isRunning()) throw new Error(`${slot.name} is running already (pid ${slot.pid})`);
			if (slot.proc) slot.history.push(...pendingText(slot));
			const [node, args] = n8nCommand(slot.kind === 'main' ? ['start'] : ['worker', `--concurrency=${concurrency}`]);
			const proc = spawnGroup(node, args, {
				label: slot.name,
				cwd: userFolder,
				env: envFor(slot),
				logFile: slot.logFile,
				echo: options.echo,
			});
			const chunks: string[] = [];
			proc.child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
			proc.child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
			current.set(slot, chunks);
			slot.proc = proc;
			slot.pid = proc.child.pid ?? -1;
			slot.expectedExit = false;
			void proc.exited.then(({ code, signal }) => {
				if (slot.proc !== proc || slot.expectedExit || stopped) return;
				options.onUnexpectedExit?.(slot.name, signal ?? `exit code ${code}`, proc.tail(30));
			});
			try {
				await waitForReady(`http://127.0.0.1:${slot.port}`, proc, readyTimeoutMs);
			} catch (error) {
				slot.expectedExit = true;
				await proc.stop(2000);
				throw new Error(`${slot.name}: ${(error as Error).message}`);
			}
		};

		/**
		 * Starts a process, on other ports if one was taken before n8n bound it. Main keeps its HTTP port (the
		 * stack's URL): only its task-runner broker port is picked again.
		 */
		const launchWithFreshPorts = (slot: Slot): Promise<void> =>
			startOnFreshPorts(
				() => launch(slot),
				async () => {
					slot.brokerPort = await freePort();
					if (slot.kind === 'worker') slot.port = await freePort();
				},
				(line) => log(`${slot.name}: ${line}`),
			);

		const newSlot = async (kind: Slot['kind'], name: string, port: number): Promise<Slot> => {
			const slot = {
				kind,
				name,
				port,
				brokerPort: await freePort(),
				logFile: path.join(logDir, `${name}.log`),
				pid: -1,
				history: [],
				expectedExit: false,
				proc: undefined as unknown as ManagedProcess,
				isRunning: () => slot.proc?.isRunning() ?? false,
			} as Slot;
			slots.push(slot);
			return slot;
		};

		const main = await newSlot('main', 'main', mainPort);
		const workers: Slot[] = [];
		for (let i = 1; i <= workerCount; i++) workers.push(await newSlot('worker', `worker-${i}`, await freePort()));

		t = Date.now();
		log('starting n8n main');
		await launchWithFreshPorts(main);
		timings.main = Date.now() - t;

		t = Date.now();
		log(`starting ${workerCount} worker(s)`);
		await Promise.all(workers.map(launchWithFreshPorts));
		timings.workers = Date.now() - t;

		t = Date.now();
		const url = `http://127.0.0.1:${mainPort}`;
		const { login, rest, save } = await ensureOwnerLogin(url, loginFile, 'queue stack');
		const publicApi = new PublicApiClient(url, login.apiKey);
		const credentialName = options.credentialName ?? DEFAULT_CREDENTIAL_NAME;
		const moved = login.sandboxBaseUrl !== undefined && login.sandboxBaseUrl !== options.sandboxBaseUrl;
		const credential = await ensureCredential(
			publicApi,
			credentialName,
			{
				baseUrl: options.sandboxBaseUrl,
				clientId: options.clientId ?? 'sandbox-client',
				clientSecret: options.clientSecret ?? 'sandbox-secret',
			},
			{ keepExisting: options.keepCredential === true && !moved },
		);
		login.sandboxBaseUrl = options.sandboxBaseUrl;
		save();

		const workflows: Record<string, string> = {};
		let bearerCredentials: QueueStack['bearerCredentials'] = [];
		if (options.examples !== false) {
			const examples = readExamples(options.examples ?? path.join(projectRoot, 'examples'));
			// Example 5's MCP Server Trigger asks for a bearer token: its credential, made once (mcpAuth.ts).
			const bearer = await withBearerCredentials(
				publicApi,
				examples.map(({ workflow }) => workflow),
			);
			bearerCredentials = bearer.credentials;
			for (const [index, { file }] of examples.entries()) {
				const workflow = bearer.workflows[index];
				const result = await ensureWorkflow(publicApi, withCredential(workflow, credential), {
					activate: workflow.active === true,
				});
				workflows[workflow.name] = result.id;
				workflows[path.basename(file, '.json')] = result.id;
			}
		}
		timings.setup = Date.now() - t;
		timings.total = Date.now() - t0;

		const kill = async (slot: Slot, signal: NodeJS.Signals = 'SIGKILL') => {
			const pgid = slot.pid;
			slot.expectedExit = true;
			if (pgid <= 0) return;
			try {
				process.kill(-pgid, signal);
			} catch {
				// gone already
			}
			if (!(await waitGroupGone(pgid, signal === 'SIGKILL' ? 10000 : KILL_WAIT_MS))) {
				try {
					process.kill(-pgid, 'SIGKILL');
				} catch {
					// gone
				}
				await waitGroupGone(pgid, 10000);
			}
			await slot.proc.exited;
		};
		const worker = (index: number) => {
			const slot = workers[index];
			if (!slot) throw new Error(`no worker ${index} (workers are 0..${workers.length - 1})`);
			return slot;
		};

		const pg = postgres;
		const rd = redis;
		return {
			url,
			owner: { email: login.email, password: login.password },
			apiKey: login.apiKey,
			rest,
			publicApi,
			credential: { id: credential.id, name: credential.name },
			bearerCredentials,
			workflows,
			main,
			workers,
			postgres: { port: pg.port, dataDir: pg.dataDir, source: pg.binaries.source, proc: pg.proc },
			redis: { port: rd.port, binary: rd.binary, version: rd.version, proc: rd.proc },
			logText: (proc) => {
				const slot = slots.find((s) => s.name === proc.name);
				return slot ? [...slot.history, ...pendingText(slot)].join('') : '';
			},
			killMain: (signal) => kill(main, signal),
			startMain: () => launchWithFreshPorts(main),
			killWorker: (index, signal) => kill(worker(index), signal),
			startWorker: (index) => launchWithFreshPorts(worker(index)),
			stop,
			timings,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
