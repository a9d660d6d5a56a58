/**
 * One run of the e2e layer: the package packed once, and one n8n shared by the suites that need nothing but
 * n8n's defaults (useN8nStack without extraEnv). test/e2e/globalSetup.ts starts them before the first suite,
 * test/e2e/globalTeardown.ts stops them after the last; the suites find them through the environment, which
 * jest's workers inherit. Each suite that shares n8n uses the owner's session (one login for the run: n8n
 * allows five logins a minute per account) and makes its own API key, credential and workflows, so that
 * suites never meet each other's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RestClient, ensureOwner, generatePassword } from '../../../scripts/n8n/n8nApi';
import { startN8n, type N8nServer } from '../../../scripts/n8n/n8nProcess';
import { buildAndPack, installPackage } from '../../../scripts/n8n/packaging';
import { projectRoot } from '../../../scripts/n8n/paths';

/** The variable that holds the tarball packed for this run (its path). */
export const TARBALL_ENV = 'FTM_E2E_TARBALL';
/** The variable that holds the shared n8n of this run (SharedN8n as JSON). */
export const SHARED_N8N_ENV = 'FTM_E2E_SHARED_N8N';

/**
 * The suites that share the run's n8n: every suite whose useN8nStack gives no extraEnv, and smoke.test.ts's
 * running-n8n part. Another suite of that kind still runs, with an n8n of its own; this list only says for
 * which files the run starts the shared one.
 */
export const SHARED_SUITES = [
	'test/e2e/agent-review.test.ts',
	'test/e2e/alert-example.test.ts',
	'test/e2e/check-compatibility.test.ts',
	'test/e2e/credential-origin.test.ts',
	'test/e2e/error-output.test.ts',
	'test/e2e/errors.test.ts',
	'test/e2e/examples.test.ts',
	'test/e2e/mcp.test.ts',
	'test/e2e/smoke.test.ts',
	'test/e2e/stop-execution.test.ts',
];

export interface SharedN8n {
	url: string;
	port: number;
	userFolder: string;
	/** n8n's output, for every suite that shares it. */
	logFile: string;
	/** The owner's session cookie (n8n-auth=...), from the owner's setup. */
	cookie: string;
}

/** The shared n8n of this run, when the run started one. */
export function sharedN8n(): SharedN8n | undefined {
	const value = process.env[SHARED_N8N_ENV];
	return value ? (JSON.parse(value) as SharedN8n) : undefined;
}

/** The owner's REST client in the shared n8n. */
export function sharedOwner(shared: SharedN8n): RestClient {
	return new RestClient(shared.url, shared.cookie);
}

/** The tarball packed for this run, when there is one. */
export function runTarball(): string | undefined {
	const file = process.env[TARBALL_ENV];
	return file && fs.existsSync(file) ? file : undefined;
}

/**
 * Whether the run's test files include a suite of SHARED_SUITES: no path patterns means every file of the
 * layer; patterns are regular expressions matched against each file's absolute path, as jest matches them.
 */
export function runIncludesSharedSuite(patterns: string[]): boolean {
	if (patterns.length === 0) return true;
	return SHARED_SUITES.some((file) => {
		const absolute = path.join(projectRoot, file);
		return patterns.some((pattern) => {
			try {
				return new RegExp(pattern, 'i').test(absolute);
			} catch {
				return absolute.includes(pattern);
			}
		});
	});
}

/** Packs the package into runDir/pack (dist/ is built already); returns the tarball. */
export async function packForRun(runDir: string): Promise<string> {
	return buildAndPack(path.join(runDir, 'pack'), { build: false });
}

/** Starts the shared n8n with the tarball installed in runDir/n8n-user and sets up its owner. */
export async function startSharedN8n(runDir: string, tarball: string): Promise<{ server: N8nServer; shared: SharedN8n }> {
	const userFolder = path.join(runDir, 'n8n-user');
	await installPackage(userFolder, tarball);
	const logFile = path.join(runDir, 'n8n.log');
	const server = await startN8n({ userFolder, logFile });
	const owner = { email: 'owner@example.com', password: generatePassword(), firstName: 'E2e', lastName: 'Owner' };
	let rest: RestClient;
	try {
		({ client: rest } = await ensureOwner(server.url, owner));
	} catch (error) {
		await server.stop();
		throw error;
	}
	return { server, shared: { url: server.url, port: server.port, userFolder, logFile, cookie: rest.cookie } };
}
