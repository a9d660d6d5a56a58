/**
 * Reusable pieces for running real n8n with this package installed: used by `npm start`, the e2e tests
 * and the screenshot script.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { N8N_VERSION, cacheRoot, findNodeRuntime, n8nBin, n8nInstallDir, n8nMajor, projectRoot } from './paths';
import { profileEnv } from './profile';

export { projectRoot } from './paths';

/** n8n's node type names of this package once installed as a community package. */
export const PACKAGE_NAME = 'n8n-nodes-file-transfer-manager';
export const NODE_TYPE = `${PACKAGE_NAME}.fileTransferManager`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.fileTransferManagerTrigger`;
export const CREDENTIAL_TYPE = 'fileTransferManagerOAuth2Api';

// ---------------------------------------------------------------------------------------------------------
// Processes

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

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
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

/** Polls `check` until it returns a value other than undefined; fails with `what` at the deadline. */
export async function until<T>(
	what: string,
	timeoutMs: number,
	check: () => Promise<T | undefined> | T | undefined,
	intervalMs = 1000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
		await sleep(intervalMs);
	}
}

// ---------------------------------------------------------------------------------------------------------
// Package: build, pack, install the way users do

/**
 * Builds the package and packs it into destDir; returns the tarball's path. No build with `build: false`, or
 * when FTM_PACKAGE_BUILT=1 (the version matrix builds once before all its jest runs).
 */
export async function buildAndPack(destDir: string, options: { build?: boolean; echo?: boolean } = {}): Promise<string> {
	fs.mkdirSync(destDir, { recursive: true });
	if (options.build !== false && process.env.FTM_PACKAGE_BUILT !== '1') {
		await runCommand('npm', ['run', 'build'], { label: 'npm run build', echo: options.echo });
	}
	// The build ran just above; --ignore-scripts skips prepack's second build.
	const { stdout } = await runCommand(
		'npm',
		['pack', '--ignore-scripts', '--json', '--pack-destination', destDir],
		{ label: 'npm pack' },
	);
	const parsed = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
	const file = path.join(destDir, parsed[0].filename);
	if (!fs.existsSync(file)) throw new Error(`npm pack reported ${file}, which does not exist`);
	return file;
}

/** The folder n8n scans for community packages: <N8N_USER_FOLDER>/.n8n/nodes. */
export function nodesDir(userFolder: string): string {
	return path.join(userFolder, '.n8n', 'nodes');
}

/** Installs a packed tarball into n8n's community-package folder, as users do (a copy, not a link). */
export async function installPackage(userFolder: string, tarball: string): Promise<string> {
	const dir = nodesDir(userFolder);
	fs.mkdirSync(dir, { recursive: true });
	const pkgJson = path.join(dir, 'package.json');
	if (!fs.existsSync(pkgJson)) {
		fs.writeFileSync(pkgJson, JSON.stringify({ name: 'installed-nodes', private: true }, null, 2));
	}
	// A rebuilt tarball of the same version must replace the old copy.
	fs.rmSync(path.join(dir, 'node_modules', PACKAGE_NAME), { recursive: true, force: true });
	await runCommand(
		'npm',
		['install', '--prefix', dir, tarball, '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund'],
		{ label: 'npm install <package tarball>' },
	);
	const installed = path.join(dir, 'node_modules', PACKAGE_NAME);
	if (fs.lstatSync(installed).isSymbolicLink()) throw new Error(`${installed} is a symlink, expected a copy`);
	return installed;
}

// ---------------------------------------------------------------------------------------------------------
// n8n processes

export interface N8nEnvOptions {
	userFolder: string;
	/** HTTP port (ignored by CLI commands that do not serve). */
	port?: number;
	/** Task-runner broker port: every n8n process needs its own. */
	brokerPort: number;
	extra?: Record<string, string>;
}

/** Environment for an n8n process: local only, no telemetry or calls home. */
export function n8nEnv(options: N8nEnvOptions): NodeJS.ProcessEnv {
	const runtime = findNodeRuntime(24);
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PATH: `${path.join(runtime.dir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: options.userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_PORT: String(options.port ?? 5678),
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// No N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE, often advised for community nodes as AI tools: n8n 1.123.81 and
		// 2.41.1 read no such variable, they make a tool variant of every usableAsTool node (createAiTools).
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		// This module fetches a server list from api.n8n.io at startup. n8n 1.x has no such module and refuses
		// to start when told to disable it ("Unknown module"), so it is named only where the install has it.
		...(n8nHasModule('mcp-registry') ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		// Node's on-disk cache of compiled modules, shared by every n8n process (CLI commands, mains, workers,
		// task runners): an n8n start spends about 2 of its 10 CPU-seconds compiling n8n's JavaScript, and
		// `npm test` starts n8n about 55 times. Node keys entries by its version and each file's content and checks
		// them when it reads.
		NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE || path.join(cacheRoot, 'compile-cache'),
		// FTM_N8N_PROFILE=v3: n8n 3.0's coming defaults (profile.ts); a suite's own settings still come last.
		...profileEnv(),
		...options.extra,
	};
	// Values inherited from a developer's shell would point n8n elsewhere.
	delete env.N8N_CUSTOM_EXTENSIONS;
	delete env.N8N_CONFIG_FILES;
	delete env.DB_TYPE;
	// Jest sets NODE_ENV=test, which makes the n8n CLI do nothing and exit 0.
	delete env.NODE_ENV;
	delete env.JEST_WORKER_ID;
	return env;
}

/**
 * Whether the installed n8n (this process's version) has a backend module of that name, i.e. whether
 * N8N_ENABLED_MODULES / N8N_DISABLED_MODULES may name it: n8n exits with 'Unknown module "<name>"' otherwise.
 */
function n8nHasModule(name: string, version: string = N8N_VERSION): boolean {
	const file = path.join(n8nInstallDir(version), 'node_modules', '@n8n', 'backend-common', 'dist', 'modules', 'modules.config.js');
	try {
		return fs.readFileSync(file, 'utf8').includes(`'${name}'`);
	} catch {
		return false; // no module list (or not installed): naming the module could only make n8n refuse to start
	}
}

/**
 * Arguments that run the installed n8n CLI with Node 24: [node, [...nodeArgs, n8n, ...args]]. `nodeArgs` are
 * options of that one Node process (e.g. `--require` of a preload), which its children do not inherit.
 */
export function n8nCommand(args: string[], nodeArgs: string[] = []): [string, string[]] {
	const bin = n8nBin();
	if (!fs.existsSync(bin)) throw new Error(`n8n is not installed (${bin} missing): run "npm run n8n:install"`);
	return [findNodeRuntime(24).bin, [...nodeArgs, bin, ...args]];
}

export interface N8nServer {
	url: string;
	port: number;
	brokerPort: number;
	userFolder: string;
	proc: ManagedProcess;
	stop(): Promise<void>;
}

export interface StartN8nOptions {
	userFolder: string;
	port?: number;
	brokerPort?: number;
	logFile?: string;
	echo?: boolean;
	extraEnv?: Record<string, string>;
	/** Options of the n8n Node process itself (see n8nCommand). */
	nodeArgs?: string[];
	readyTimeoutMs?: number;
}

/** Starts `n8n start` and waits for /healthz/readiness. */
export async function startN8n(options: StartN8nOptions): Promise<N8nServer> {
	const port = options.port ?? (await freePort());
	const brokerPort = options.brokerPort ?? (await freePort());
	if (await portInUse(port)) throw new Error(`port ${port} on 127.0.0.1 is in use: choose another n8n port`);
	fs.mkdirSync(options.userFolder, { recursive: true });
	const [node, args] = n8nCommand(['start'], options.nodeArgs);
	const proc = spawnGroup(node, args, {
		label: 'n8n',
		cwd: options.userFolder,
		env: n8nEnv({ userFolder: options.userFolder, port, brokerPort, extra: options.extraEnv }),
		logFile: options.logFile,
		echo: options.echo,
	});
	const url = `http://127.0.0.1:${port}`;
	try {
		await waitForReady(url, proc, options.readyTimeoutMs ?? 120000, { rest: true });
	} catch (error) {
		await proc.stop();
		throw error;
	}
	return { url, port, brokerPort, userFolder: options.userFolder, proc, stop: () => proc.stop() };
}

/**
 * Checks `ready` every `intervalMs` until it holds ('ready'), the process exits first ('exited') or
 * `timeoutMs` passes ('timeout'). The caller says what failed and cleans up.
 */
export async function untilServing(
	proc: ManagedProcess | undefined,
	ready: () => Promise<boolean> | boolean,
	timeoutMs: number,
	intervalMs: number,
): Promise<'ready' | 'exited' | 'timeout'> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await ready()) return 'ready';
		if (proc && !proc.isRunning()) return 'exited';
		if (Date.now() > deadline) return 'timeout';
		await sleep(intervalMs);
	}
}

/**
 * Polls /healthz/readiness until it answers 200 and, with `rest`, /rest/settings until it answers its JSON;
 * fails early when the process exits.
 */
export async function waitForReady(
	url: string,
	proc: ManagedProcess | undefined,
	timeoutMs: number,
	options: { rest?: boolean } = {},
): Promise<void> {
	const answers = async () => {
		try {
			if (!(await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) })).ok) return false;
			if (!options.rest) return true;
			// n8n 1.x reports ready before its REST routes exist; while migrating, every n8n answers every route
			// with HTTP 200 "n8n is starting up. Please wait". The settings' JSON means the routes are there.
			const res = await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(5000) });
			const body = res.ok ? ((await res.json().catch(() => undefined)) as { data?: unknown } | undefined) : undefined;
			return body?.data !== undefined;
		} catch {
			return false; // not listening yet
		}
	};
	const state = await untilServing(proc, answers, timeoutMs, 500);
	if (state === 'exited') throw new Error(`n8n exited before it was ready. Last output:\n${proc?.tail(60) ?? ''}`);
	if (state === 'timeout') {
		throw new Error(`n8n at ${url} not ready after ${timeoutMs / 1000} s. Last output:\n${proc?.tail(60) ?? ''}`);
	}
}

// ---------------------------------------------------------------------------------------------------------
// REST (cookie) and public API (key) clients

export class HttpError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: string,
	) {
		super(message);
	}
}

async function request(
	url: string,
	method: string,
	headers: Record<string, string>,
	body?: unknown,
): Promise<{ status: number; json: unknown; text: string; headers: Headers }> {
	const res = await fetch(url, {
		method,
		headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(60000),
	});
	const text = await res.text();
	let json: unknown;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	if (!res.ok) {
		throw new HttpError(`${method} ${url} -> ${res.status}: ${text.slice(0, 500)}`, res.status, text);
	}
	return { status: res.status, json, text, headers: res.headers };
}

function authCookie(headers: Headers): string {
	const cookie = headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('n8n answered without an n8n-auth cookie');
	return cookie.split(';')[0];
}

/** The internal REST API (/rest), as the editor uses it, with the owner's session cookie. */
export class RestClient {
	constructor(
		readonly url: string,
		readonly cookie: string,
	) {}

	/** The cookie's value alone (for a browser). */
	get cookieValue(): string {
		return this.cookie.slice('n8n-auth='.length);
	}

	async call<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
		const { json } = await request(`${this.url}/rest${route}`, method, { cookie: this.cookie }, body);
		return (json as { data: T }).data;
	}
}

/**
 * The public API (/api/v1) with an API key. `session`, the owner's REST client, stands in for the routes
 * n8n 1.x's public API lacks (it cannot list, update or test credentials): pass it to run in every version.
 */
export class PublicApiClient {
	constructor(
		readonly url: string,
		readonly apiKey: string,
		readonly session?: RestClient,
	) {}

	async call<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
		const { json } = await request(`${this.url}/api/v1${route}`, method, { 'X-N8N-API-KEY': this.apiKey }, body);
		return json as T;
	}

	/** Every item of a paginated list. */
	async list<T>(route: string): Promise<T[]> {
		const items: T[] = [];
		let cursor: string | null | undefined;
		do {
			const sep = route.includes('?') ? '&' : '?';
			const page = await this.call<{ data: T[]; nextCursor?: string | null }>(
				'GET',
				`${route}${sep}limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			items.push(...page.data);
			cursor = page.nextCursor;
		} while (cursor);
		return items;
	}
}

export interface OwnerAccount {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** A password n8n accepts (8+ characters, a digit, an upper-case letter). */
export function generatePassword(): string {
	return `Ftm-${randomBytes(6).toString('hex')}-Q7`;
}

/** Creates the instance owner, or logs in when the owner exists already. */
export async function ensureOwner(url: string, owner: OwnerAccount): Promise<{ client: RestClient; created: boolean }> {
	try {
		const res = await request(`${url}/rest/owner/setup`, 'POST', {}, owner);
		return { client: new RestClient(url, authCookie(res.headers)), created: true };
	} catch (error) {
		if (!(error instanceof HttpError) || error.status !== 400) throw error;
	}
	return { client: await login(url, owner.email, owner.password), created: false };
}

/** Logs in with email and password. */
async function login(url: string, email: string, password: string): Promise<RestClient> {
	try {
		const res = await request(`${url}/rest/login`, 'POST', {}, { emailOrLdapLoginId: email, password });
		return new RestClient(url, authCookie(res.headers));
	} catch (error) {
		if (error instanceof HttpError && error.status === 401) {
			throw new Error(
				`n8n at ${url} has an owner already, and ${email} with the stored password cannot log in: ${error.body}`,
			);
		}
		throw error;
	}
}

/** Creates an API key with every scope the owner may grant; returns the raw key. */
export async function createApiKey(rest: RestClient, label: string): Promise<string> {
	type Key = { id: string; label: string };
	// 2.x answers { items, counts, ... }; older versions a plain array.
	const listed = await rest.call<Key[] | { items: Key[] }>('GET', `/api-keys?label=${encodeURIComponent(label)}`);
	const existing = Array.isArray(listed) ? listed : listed.items;
	for (const key of existing.filter((k) => k.label === label)) {
		await rest.call('DELETE', `/api-keys/${key.id}`);
	}
	const scopes = await rest.call<string[]>('GET', '/api-keys/scopes');
	const created = await rest.call<{ rawApiKey: string }>('POST', '/api-keys', { label, expiresAt: null, scopes });
	return created.rawApiKey;
}

/** Whether an API key works. */
async function apiKeyWorks(url: string, apiKey: string): Promise<boolean> {
	try {
		await new PublicApiClient(url, apiKey).call('GET', '/workflows?limit=1');
		return true;
	} catch {
		return false;
	}
}

/** The owner login `npm start` and the queue stack keep in their data folder, with the API key. */
export interface StoredLogin extends OwnerAccount {
	apiKey?: string;
	/** The sandbox address the credential was last written for. */
	sandboxBaseUrl?: string;
}

/**
 * The owner of the n8n at `url` (set up on first use) with a working API key (a new one, labelled
 * `keyLabel`, when the stored one fails). The login is read from `file`, a new one when there is none, and
 * saved there (mode 600) as soon as the owner exists and again with the key; `save` writes later changes.
 */
export async function ensureOwnerLogin(
	url: string,
	file: string,
	keyLabel: string,
): Promise<{ login: StoredLogin & { apiKey: string }; rest: RestClient; created: boolean; save: () => void }> {
	let login: StoredLogin;
	try {
		login = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredLogin;
	} catch {
		login = { email: 'owner@example.com', password: generatePassword(), firstName: 'Dev', lastName: 'Owner' };
	}
	const save = () => fs.writeFileSync(file, JSON.stringify(login, null, 2), { mode: 0o600 });
	const { client: rest, created } = await ensureOwner(url, login);
	save();
	if (!login.apiKey || !(await apiKeyWorks(url, login.apiKey))) {
		login.apiKey = await createApiKey(rest, keyLabel);
		save();
	}
	return { login: login as StoredLogin & { apiKey: string }, rest, created, save };
}

export interface CredentialRef {
	id: string;
	name: string;
}

export interface FileTransferManagerCredentialData {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
}

/**
 * The credential of that name and type: created when missing; an existing one is updated with `data`, or,
 * with `keepExisting`, left exactly as it is (so that a user's edits in n8n survive).
 */
export async function ensureCredential(
	api: PublicApiClient,
	name: string,
	data: FileTransferManagerCredentialData,
	options: { keepExisting?: boolean } = {},
): Promise<CredentialRef & { created: boolean; updated: boolean }> {
	// n8n 1.x's public API has neither GET nor PATCH /credentials (405): the editor's routes do it there.
	const legacy = n8nMajor() < 2;
	const all = legacy
		? await sessionOf(api, 'list credentials').call<Array<{ id: string; name: string; type: string }>>('GET', '/credentials')
		: await api.list<{ id: string; name: string; type: string }>('/credentials');
	const found = all.find((c) => c.name === name && c.type === CREDENTIAL_TYPE);
	if (found) {
		if (options.keepExisting) return { id: found.id, name, created: false, updated: false };
		if (legacy) await sessionOf(api, 'update a credential').call('PATCH', `/credentials/${found.id}`, { name, type: CREDENTIAL_TYPE, data });
		else await api.call('PATCH', `/credentials/${found.id}`, { name, type: CREDENTIAL_TYPE, data });
		return { id: found.id, name, created: false, updated: true };
	}
	// n8n 1.x adds "Allowed HTTP Request Domains" to this credential type, and its public API then refuses
	// data without it ('request.body.data requires property "allowedDomains"'): send the editor's default.
	const body = legacy ? { ...data, allowedHttpRequestDomains: 'all' } : data;
	const created = await api.call<{ id: string }>('POST', '/credentials', { name, type: CREDENTIAL_TYPE, data: body });
	return { id: created.id, name, created: true, updated: false };
}

/** The owner's session of a public API client, for what n8n 1.x's public API cannot do. */
function sessionOf(api: PublicApiClient, what: string): RestClient {
	if (!api.session) {
		throw new Error(`n8n ${N8N_VERSION}'s public API cannot ${what}: create the PublicApiClient with the owner's session (publicApi())`);
	}
	return api.session;
}

/** A public API client with a new API key of the owner's (labelled `label`), and the owner's session. */
export async function publicApi(rest: RestClient, label: string): Promise<PublicApiClient> {
	return new PublicApiClient(rest.url, await createApiKey(rest, label), rest);
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** Tests a stored credential as n8n's Test button does: 'OK', or 'Error' with n8n's message. */
export async function testStoredCredential(api: PublicApiClient, id: string): Promise<CredentialTestResult> {
	if (n8nMajor() >= 2) return api.call<CredentialTestResult>('POST', `/credentials/${id}/test`);
	// n8n 1.x's public API has no test route: the editor's, with the stored (redacted) data sent back as it does.
	const rest = sessionOf(api, 'test a credential');
	const stored = await rest.call<{ name: string; type: string; data: Record<string, unknown> }>('GET', `/credentials/${id}?includeData=true`);
	return rest.call<CredentialTestResult>('POST', '/credentials/test', {
		credentials: { id, name: stored.name, type: stored.type, data: stored.data },
	});
}

/**
 * Tests credential data that is not stored, as the editor's credential modal does before saving (2.x). n8n 1.x
 * tests stored credentials only (403 Forbidden for any other): there it is stored, tested and deleted again.
 */
export async function testCredentialData(
	rest: RestClient,
	credential: { name: string; type: string; data: Record<string, unknown> },
): Promise<CredentialTestResult> {
	if (n8nMajor() >= 2) return rest.call<CredentialTestResult>('POST', '/credentials/test', { credentials: { id: '', ...credential } });
	const stored = await rest.call<{ id: string }>('POST', '/credentials', credential);
	try {
		return await rest.call<CredentialTestResult>('POST', '/credentials/test', { credentials: { id: stored.id, ...credential } });
	} finally {
		await rest.call('DELETE', `/credentials/${stored.id}`);
	}
}

/** The workflow exports of a folder (`*.json`, in name order), each named after its file when it has no name. */
export function readExamples(dir: string): Array<{ file: string; workflow: WorkflowJson }> {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const file = path.join(dir, name);
			const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as WorkflowJson;
			if (!Array.isArray(workflow.nodes) || typeof workflow.connections !== 'object') {
				throw new Error(`${file} is not a workflow export (needs "nodes" and "connections")`);
			}
			workflow.name ||= path.basename(name, '.json');
			return { file, workflow };
		});
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		credentials?: Record<string, { id?: string | null; name: string }>;
		[key: string]: unknown;
	}>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[key: string]: unknown;
}

/** Points every File Transfer Manager credential reference of a workflow at the given credential. */
export function withCredential(workflow: WorkflowJson, credential: CredentialRef): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const uses = node.credentials?.[CREDENTIAL_TYPE] !== undefined || node.type.startsWith(`${PACKAGE_NAME}.`);
			if (!uses) return node;
			return { ...node, credentials: { ...node.credentials, [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } } };
		}),
	};
}

/** n8n's MCP Server Trigger node type (@n8n/n8n-nodes-langchain). */
const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * The production URLs of a workflow's MCP Server Triggers on the n8n at `n8nUrl`: `<n8nUrl>/mcp/<path>` (n8n's
 * default N8N_ENDPOINT_MCP). From typeVersion 2 one URL serves Streamable HTTP (POST) and SSE (GET).
 */
export function mcpServerUrls(workflow: WorkflowJson, n8nUrl: string): string[] {
	return workflow.nodes
		.filter((node) => node.type === MCP_TRIGGER_TYPE && node.disabled !== true)
		.map((node) => `${n8nUrl}/mcp/${String((node.parameters as { path?: unknown } | undefined)?.path ?? '').replace(/^\/+/, '')}`);
}

const WORKFLOW_CREATE_KEYS = ['name', 'nodes', 'connections', 'settings', 'staticData', 'pinData', 'description'];

/** Creates a workflow via the public API unless one with its name exists; activates it when asked. */
export async function ensureWorkflow(
	api: PublicApiClient,
	workflow: WorkflowJson,
	options: { activate?: boolean } = {},
): Promise<{ id: string; created: boolean; activated: boolean }> {
	const existing = await api.list<{ id: string; name: string; active: boolean }>(
		`/workflows?name=${encodeURIComponent(workflow.name)}`,
	);
	const found = existing.find((w) => w.name === workflow.name);
	if (found) return { id: found.id, created: false, activated: found.active };
	const body: Record<string, unknown> = {};
	for (const key of WORKFLOW_CREATE_KEYS) if (workflow[key] !== undefined) body[key] = workflow[key];
	if (n8nMajor() < 2) {
		// n8n 1.x's public API refuses pinData and description ("request/body must NOT have additional properties").
		const pinned = Object.keys((body.pinData as object | undefined) ?? {});
		if (pinned.length) throw new Error(`n8n ${N8N_VERSION}'s public API cannot create "${workflow.name}" with pinned data (${pinned.join(', ')})`);
		delete body.pinData;
		delete body.description;
	}
	body.settings ??= { executionOrder: 'v1' };
	const created = await api.call<{ id: string }>('POST', '/workflows', body);
	let activated = false;
	if (options.activate) {
		await api.call('POST', `/workflows/${created.id}/activate`);
		activated = true;
	}
	return { id: created.id, created: true, activated };
}

// ---------------------------------------------------------------------------------------------------------
// Headless runs: n8n import:workflow + n8n execute --id --rawOutput

/** The parts of n8n's IRun that tests read. */
export interface RunResult {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					executionStatus?: string;
					error?: { message?: string; description?: string };
					data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
				}>
			>;
			error?: { message?: string; description?: string; node?: { name?: string } };
			lastNodeExecuted?: string;
		};
	};
}

/** Finds the run JSON in `n8n execute` output: it follows the log lines, pretty-printed from a lone "{". */
function parseExecuteOutput(output: string): RunResult | undefined {
	const lines = output.split('\n');
	for (let start = 0; start < lines.length; start++) {
		if (lines[start].trimEnd() !== '{') continue;
		for (let end = start + 1; end < lines.length; end++) {
			if (lines[end].trimEnd() !== '}') continue;
			try {
				const parsed = JSON.parse(lines.slice(start, end + 1).join('\n')) as RunResult;
				if (parsed?.data?.resultData) return parsed;
			} catch {
				// not this closing brace
			}
		}
	}
	return undefined;
}

/** Output items (json) of a node's first run, first output. */
export function nodeOutput(run: RunResult, nodeName: string, outputIndex = 0): Array<Record<string, unknown>> {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs?.length) throw new Error(`node "${nodeName}" did not run`);
	const items = runs[0].data?.main?.[outputIndex] ?? [];
	return items.map((item) => item.json);
}

/** A 16-character id as n8n uses for workflows and credentials. */
export function randomId(): string {
	const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(randomBytes(16), (b) => chars[b % chars.length]).join('');
}

export interface HeadlessOptions {
	userFolder: string;
	/** Extra environment for n8n. */
	extraEnv?: Record<string, string>;
	timeoutMs?: number;
}

async function n8nCli(args: string[], options: HeadlessOptions, label: string, allowFailure = false) {
	const [node, cliArgs] = n8nCommand(args);
	return runCommand(node, cliArgs, {
		label,
		cwd: options.userFolder,
		env: n8nEnv({ userFolder: options.userFolder, brokerPort: await freePort(), extra: options.extraEnv }),
		timeoutMs: options.timeoutMs ?? 180000,
		allowFailure,
	});
}

export interface ImportCredential extends CredentialRef {
	type: string;
	/** Plain data: n8n encrypts it on import. */
	data: Record<string, unknown>;
}

/** Imports credentials into the user folder's database (`n8n import:credentials`). */
export async function importCredentials(credentials: ImportCredential[], options: HeadlessOptions): Promise<void> {
	const file = path.join(options.userFolder, `credentials-${randomId()}.json`);
	fs.mkdirSync(options.userFolder, { recursive: true });
	fs.writeFileSync(file, JSON.stringify(credentials));
	try {
		await n8nCli(['import:credentials', `--input=${file}`], options, 'n8n import:credentials');
	} finally {
		fs.rmSync(file, { force: true });
	}
}

export interface HeadlessResult {
	/** True when n8n exited 0 (the workflow succeeded); see crashedAfterRun for n8n 1.x. */
	ok: boolean;
	exitCode: number | null;
	/** The signal that ended `n8n execute` after it had printed a successful run (seen in 1.x and 2.x). */
	crashedAfterRun?: NodeJS.Signals;
	run?: RunResult;
	stdout: string;
	stderr: string;
	seconds: { import: number; execute: number };
}

/** Imports a workflow and runs it once with `n8n execute`, returning the parsed run data. */
export async function runWorkflowHeadless(workflow: WorkflowJson, options: HeadlessOptions): Promise<HeadlessResult> {
	const wf = { ...workflow, id: workflow.id ?? randomId(), active: false };
	fs.mkdirSync(options.userFolder, { recursive: true });
	const file = path.join(options.userFolder, `workflow-${wf.id}.json`);
	fs.writeFileSync(file, JSON.stringify(wf));
	const t0 = Date.now();
	try {
		await n8nCli(['import:workflow', `--input=${file}`], options, 'n8n import:workflow');
	} finally {
		fs.rmSync(file, { force: true });
	}
	const t1 = Date.now();
	const result = await n8nCli(['execute', `--id=${wf.id}`, '--rawOutput'], options, 'n8n execute', true);
	const t2 = Date.now();
	const run = parseExecuteOutput(result.stdout) ?? parseExecuteOutput(result.stderr);
	// `n8n execute` now and then dies of a signal while it exits, after printing the finished run: n8n 1.123.81
	// (SIGSEGV, 2 runs in about 40) and, on a loaded machine, 2.41.1 (2 runs of about 15 on 2026-11-26). The
	// printed run is the outcome; the signal is reported.
	const crashedAfterRun =
		result.signal && run?.finished === true && run.status === 'success' && !run.data.resultData.error ? result.signal : undefined;
	if (crashedAfterRun) process.stderr.write(`[n8n execute] ended by ${crashedAfterRun} after printing a successful run (n8n ${N8N_VERSION})\n`);
	return {
		ok: result.code === 0 || crashedAfterRun !== undefined,
		exitCode: result.code,
		crashedAfterRun,
		run,
		stdout: result.stdout,
		stderr: result.stderr,
		seconds: { import: (t1 - t0) / 1000, execute: (t2 - t1) / 1000 },
	};
}

// ---------------------------------------------------------------------------------------------------------
// Sandbox as a child process (the CLI in sandbox/)

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

// ---------------------------------------------------------------------------------------------------------

/** A fresh temporary folder. */
export function tempDir(prefix: string): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
