/**
 * An n8n process: its environment (local only, no calls home) and command line, and `n8n start` with the wait
 * until it serves.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { N8N_VERSION, cacheRoot, findNodeRuntime, n8nBin, n8nInstallDir } from './paths';
import { freePort, portInUse, spawnGroup, startOnFreshPorts, type ManagedProcess } from './processes';
import { profileEnv } from './profile';
import { untilServing } from './waiting';

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
 * Extra environment for an n8n that no browser opens and no test asks for the editor's files (the queue
 * stacks, the e2e suites' own n8n): n8n without its editor. At each start, an n8n with its editor copies the
 * editor's 40 MB of scripts into its user folder through five text replacements (`generateStaticAssets`),
 * about 5 of the 18 CPU-seconds of a start of 2.41.1 on this machine; the queue suites start a main 19 times.
 * The REST API, the public API and webhooks stay; what the editor's FrontendService serves goes:
 * `/rest/settings` (which `waitForReady` does not need) and `/types/nodes.json`.
 */
export const NO_EDITOR_ENV: Readonly<Record<string, string>> = { N8N_DISABLE_UI: 'true' };

/**
 * n8n's backend modules that nothing of this package or its tests touches: product features beside workflow
 * execution (insights, data tables, chat, SSO and LDAP, log streaming, the AI builder and agents, source
 * control, OpenTelemetry...). Kept on: credentials and their encryption, community packages, MCP, redaction,
 * the instance registry and the policy modules. Each start of n8n 2.41.1 without them took 9.6 and 10.2
 * CPU-seconds against 11.2 with them, on this machine.
 */
const UNUSED_MODULES = [
	'mcp-registry',
	'insights',
	'data-table',
	'chat-hub',
	'sso-oidc',
	'sso-saml',
	'ldap',
	'log-streaming',
	'workflow-builder',
	'agents',
	'instance-ai',
	'source-control',
	'quick-connect',
	'favorites',
	'otel',
	'provisioning',
	'breaking-changes',
	'oauth-server',
	'token-exchange',
	'instance-version-history',
	'workflow-reviews',
];

/**
 * Extra environment for the many starts of the queue suites: UNUSED_MODULES off, each where the installed n8n
 * has it (n8n refuses to start when told to disable a module it does not know).
 */
export function unusedModulesEnv(version: string = N8N_VERSION): Record<string, string> {
	const known = UNUSED_MODULES.filter((name) => n8nHasModule(name, version));
	return known.length === 0 ? {} : { N8N_DISABLED_MODULES: known.join(',') };
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

/**
 * Starts `n8n start` and waits for /healthz/readiness. Ports it picked itself are picked again when another
 * process took one before n8n bound it; a port given in the options is kept.
 */
export async function startN8n(options: StartN8nOptions): Promise<N8nServer> {
	const ports = { port: options.port ?? (await freePort()), brokerPort: options.brokerPort ?? (await freePort()) };
	return startOnFreshPorts(
		() => startN8nOn(options, ports.port, ports.brokerPort),
		async () => {
			if (options.port === undefined) ports.port = await freePort();
			if (options.brokerPort === undefined) ports.brokerPort = await freePort();
		},
	);
}

async function startN8nOn(options: StartN8nOptions, port: number, brokerPort: number): Promise<N8nServer> {
	if (await portInUse(port)) throw new Error(`port ${port} on 127.0.0.1 is already in use: choose another n8n port`);
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
 * Polls /healthz/readiness until it answers 200 and, with `rest`, /rest/login until it refuses the request
 * without a session (401); fails early when the process exits.
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
			// with HTTP 200 "n8n is starting up. Please wait". A 401 from the login route means its routes and
			// their authentication are there, with or without the editor (NO_EDITOR_ENV has no /rest/settings).
			const res = await fetch(`${url}/rest/login`, { signal: AbortSignal.timeout(5000) });
			await res.body?.cancel();
			return res.status === 401;
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
