/**
 * A local npm registry (Verdaccio) for the install-route tests (test/install): users install this package from
 * a registry, so the tests publish the packed package to one on 127.0.0.1 and let npm and n8n fetch it from
 * there, exactly as from the public registry.
 *
 * Verdaccio is not a devDependency of the project: 6.10.4 installs from this registry only with `node-fetch`
 * pinned to 2.7.0 through `overrides` (its audit plugin asks for the `node-fetch@cjs` tag, which the registry
 * lacks), and n8n's scanner (`npm run check:publish`, rule `no-overrides-field`) refuses an `overrides` field in
 * a community package's package.json. So it is installed on first use into the ignored
 * `.n8n-cache/verdaccio-<version>/` from `scripts/verdaccio/package.json` and its lock file (`npm ci`, about
 * 20 s), as scripts/n8n/install.ts installs n8n.
 *
 * Each registry runs from a temporary folder (config, storage, users), on a free port of 127.0.0.1, with no
 * uplinks: nothing is proxied to the public registry, so a package it does not hold is a 404.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_NAME } from './packaging';
import { freePort, runCommand, spawnGroup, type ManagedProcess } from './processes';
import { untilServing } from './waiting';
import { withCacheLock } from './cacheLock';
import { cacheRoot, findNodeRuntime, projectRoot } from './paths';

const VERDACCIO_VERSION = '6.10.4';
const SPEC_DIR = path.join(projectRoot, 'scripts', 'verdaccio');
const MARKER = '.verdaccio-install.json';

type Log = (line: string) => void;
const defaultLog: Log = (line) => process.stderr.write(`[registry] ${line}\n`);

/** Where Verdaccio is installed: .n8n-cache/verdaccio-<version>. */
function verdaccioDir(): string {
	return path.join(cacheRoot, `verdaccio-${VERDACCIO_VERSION}`);
}

function verdaccioBin(dir = verdaccioDir()): string {
	return path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
}

/** Hash of the install spec (package.json and lock): a changed spec installs again. */
function specHash(): string {
	const hash = createHash('sha256');
	for (const file of ['package.json', 'package-lock.json']) hash.update(fs.readFileSync(path.join(SPEC_DIR, file)));
	return hash.digest('hex');
}

function installed(dir = verdaccioDir()): boolean {
	try {
		const marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8')) as { spec: string };
		return marker.spec === specHash() && fs.existsSync(verdaccioBin(dir));
	} catch {
		return false;
	}
}

/** Installs Verdaccio into the cache unless it is there; returns its folder. */
async function ensureVerdaccio(log: Log = defaultLog): Promise<string> {
	const dir = verdaccioDir();
	if (installed(dir)) return dir;
	fs.mkdirSync(cacheRoot, { recursive: true });
	return withCacheLock('verdaccio-install', 'Verdaccio', log, async () => {
		if (installed(dir)) return dir;
		const started = Date.now();
		const tmp = path.join(cacheRoot, `.tmp-verdaccio-${VERDACCIO_VERSION}-${process.pid}`);
		fs.rmSync(tmp, { recursive: true, force: true });
		fs.mkdirSync(tmp, { recursive: true });
		for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(SPEC_DIR, file), path.join(tmp, file));
		log(`installing Verdaccio ${VERDACCIO_VERSION} into ${dir} (npm ci)`);
		try {
			await runCommand('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
				label: 'npm ci (Verdaccio)',
				cwd: tmp,
				timeoutMs: 10 * 60 * 1000,
			});
		} catch (error) {
			fs.rmSync(tmp, { recursive: true, force: true });
			throw error;
		}
		fs.writeFileSync(path.join(tmp, MARKER), JSON.stringify({ spec: specHash(), installedAt: new Date().toISOString() }));
		fs.rmSync(dir, { recursive: true, force: true });
		fs.renameSync(tmp, dir);
		log(`Verdaccio ${VERDACCIO_VERSION} installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return dir;
	});
}

export interface LocalRegistry {
	/** http://127.0.0.1:<port> (no trailing slash). */
	url: string;
	port: number;
	/** A token of the registry's one user, who may publish. */
	token: string;
	proc: ManagedProcess;
	/** npm arguments that point a command at this registry with the token. */
	npmArgs(): string[];
	/** Publishes a packed tarball; returns the version's `dist.integrity` as the registry holds it. */
	publish(tarball: string): Promise<string>;
	/** The versions of a package the registry holds, and its `latest` tag. */
	versions(name?: string): Promise<{ versions: string[]; latest?: string; integrity: Record<string, string> }>;
	stop(): Promise<void>;
}

/** Starts Verdaccio with its config and storage in `dir` (created), on a free port of 127.0.0.1. */
export async function startRegistry(dir: string, log: Log = defaultLog): Promise<LocalRegistry> {
	const home = await ensureVerdaccio(log);
	fs.mkdirSync(path.join(dir, 'storage'), { recursive: true });
	const port = await freePort();
	const config = path.join(dir, 'config.yaml');
	// No `uplinks` and no `proxy`: a package the registry does not hold is a 404, never fetched from elsewhere.
	fs.writeFileSync(
		config,
		[
			`storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
			'auth:',
			'  htpasswd:',
			`    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
			'    max_users: 1',
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    unpublish: $authenticated',
			'middlewares:',
			'  audit:',
			'    enabled: false',
			'web:',
			'  enable: false',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const proc = spawnGroup(findNodeRuntime(24).bin, [verdaccioBin(home), '--config', config, '--listen', `127.0.0.1:${port}`], {
		label: 'verdaccio',
		cwd: dir,
		logFile: path.join(dir, 'verdaccio.log'),
	});
	const url = `http://127.0.0.1:${port}`;
	const ping = async () => {
		try {
			return (await fetch(`${url}/-/ping`, { signal: AbortSignal.timeout(2000) })).ok;
		} catch {
			return false;
		}
	};
	const state = await untilServing(proc, ping, 60000, 250);
	if (state !== 'ready') {
		await proc.stop();
		throw new Error(`Verdaccio ${state === 'exited' ? 'exited' : 'did not answer within 60 s'}:\n${proc.tail()}`);
	}
	// The registry's one user (npm adduser's request); its token may publish.
	const user = 'ftm-publisher';
	const res = await fetch(`${url}/-/user/org.couchdb.user:${user}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: user, password: `pw-${Date.now()}-${process.pid}` }),
	});
	const body = (await res.json()) as { token?: string };
	if (!res.ok || !body.token) {
		await proc.stop();
		throw new Error(`Verdaccio refused the publisher account: ${res.status} ${JSON.stringify(body)}`);
	}
	const token = body.token;
	const npmArgs = () => [`--registry=${url}/`, `--//127.0.0.1:${port}/:_authToken=${token}`];

	const versions: LocalRegistry['versions'] = async (name = PACKAGE_NAME) => {
		const doc = await fetch(`${url}/${encodeURIComponent(name)}`, { headers: { accept: 'application/json' } });
		if (doc.status === 404) return { versions: [], integrity: {} };
		const json = (await doc.json()) as {
			versions: Record<string, { dist: { integrity: string } }>;
			'dist-tags': { latest?: string };
		};
		const integrity = Object.fromEntries(Object.entries(json.versions).map(([v, m]) => [v, m.dist.integrity]));
		return { versions: Object.keys(json.versions), latest: json['dist-tags'].latest, integrity };
	};

	return {
		url,
		port,
		token,
		proc,
		npmArgs,
		versions,
		async publish(tarball) {
			const pkg = readTarballPackageJson(tarball);
			await runCommand('npm', ['publish', tarball, '--ignore-scripts', '--access', 'public', ...npmArgs()], {
				label: `npm publish ${pkg.name}@${pkg.version}`,
				cwd: dir,
			});
			const integrity = (await versions(pkg.name)).integrity[pkg.version];
			if (!integrity) throw new Error(`the registry does not list ${pkg.name}@${pkg.version} after npm publish`);
			return integrity;
		},
		stop: () => proc.stop(5000),
	};
}

/** The package.json inside a packed tarball. */
export function readTarballPackageJson(tarball: string): { name: string; version: string; [key: string]: unknown } {
	const text = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
	return JSON.parse(text) as { name: string; version: string };
}

/**
 * A copy of a packed tarball with another version in its package.json (the project's package.json is not
 * touched): unpacks it into `workDir`, rewrites the version and packs it again there. Returns the new tarball.
 */
export async function repackWithVersion(tarball: string, version: string, workDir: string): Promise<string> {
	const unpacked = path.join(workDir, `package-${version}`);
	fs.rmSync(unpacked, { recursive: true, force: true });
	fs.mkdirSync(unpacked, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	const pkgFile = path.join(unpacked, 'package.json');
	const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { version: string };
	pkg.version = version;
	fs.writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
	const { stdout } = await runCommand('npm', ['pack', unpacked, '--ignore-scripts', '--json', '--pack-destination', workDir], {
		label: `npm pack (version ${version})`,
		cwd: workDir,
	});
	const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
	return path.join(workDir, filename);
}

/** The next patch version: 0.1.0 → 0.1.1. */
export function nextPatch(version: string): string {
	const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
	if (!m) throw new Error(`not a semver version: ${version}`);
	return `${m[1]}.${m[2]}.${Number(m[3]) + 1}`;
}
