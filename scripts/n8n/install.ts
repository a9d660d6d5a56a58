/**
 * Installs real n8n into .n8n-cache/n8n-<version>/ on first use; later runs only check the marker.
 * Usage: npm run n8n:install [-- --force] [-- --version 1.123.81] (FTM_N8N_VERSION also chooses the version)
 */
import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withCacheLock } from './cacheLock';
import { pidAlive } from './processes';
import { N8N_VERSION, cacheRoot, findNodeRuntime, n8nBin, n8nInstallDir, n8nMajor, type NodeRuntime } from './paths';

/**
 * Pinned dependency versions, per n8n version:
 * - linkedom 0.18.15 depends on a package version the registry lacks;
 * - n8n 1.x asks for xlsx as a tarball from a CDN outside the registry; the registry's 0.18.5 installs.
 */
export function overridesFor(version: string): Record<string, string> {
	const overrides: Record<string, string> = { linkedom: '0.18.14' };
	if (n8nMajor(version) < 2) overrides.xlsx = '0.18.5';
	return overrides;
}
const MARKER = '.n8n-install.json';

export interface InstallMarker {
	n8nVersion: string;
	nodeVersion: string;
	overrides: Record<string, string>;
	installedAt: string;
	/** sqlite3Build: what remained of the sqlite3 build (it runs beside npm install) once npm install ended. */
	seconds: { npmInstall: number; sqlite3Build: number; total: number };
	bytes: number;
}

type Log = (line: string) => void;
const defaultLog: Log = (line) => process.stderr.write(`[n8n:install] ${line}\n`);

function sqliteBinary(dir: string): string {
	return path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
}

/** Returns the marker of a complete install of this version, or undefined. */
export function readValidMarker(version: string = N8N_VERSION): InstallMarker | undefined {
	const dir = n8nInstallDir(version);
	try {
		const marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8')) as InstallMarker;
		const pkg = JSON.parse(
			fs.readFileSync(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
		) as { version: string };
		if (marker.n8nVersion !== version || pkg.version !== version) return undefined;
		if (!fs.existsSync(sqliteBinary(dir)) || !fs.existsSync(n8nBin(version))) return undefined;
		return marker;
	} catch {
		return undefined;
	}
}

function removeStaleTemps(log: Log): void {
	for (const name of fs.readdirSync(cacheRoot)) {
		const m = /^\.(?:tmp|trash)-.*-(\d+)$/.exec(name);
		if (m && !pidAlive(Number(m[1]))) {
			log(`removing leftover ${name}`);
			fs.rmSync(path.join(cacheRoot, name), { recursive: true, force: true });
		}
	}
}

function countPackages(nodeModules: string): number {
	let count = 0;
	try {
		for (const name of fs.readdirSync(nodeModules)) {
			if (name.startsWith('.')) continue;
			if (name.startsWith('@')) count += fs.readdirSync(path.join(nodeModules, name)).length;
			else count++;
		}
	} catch {
		// not created yet
	}
	return count;
}

interface RunOptions {
	cwd: string;
	env?: NodeJS.ProcessEnv;
	log: Log;
	label: string;
	/** Full output goes here; only progress lines are shown. */
	logFile: string;
	/** Prints a progress line every 15 s. */
	progress?: () => string;
}

/** Runs a command with its output shown; rejects with the tail of its output on failure. */
function run(command: string, args: string[], options: RunOptions): Promise<void> {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const tail: string[] = [];
		const logStream = fs.createWriteStream(options.logFile, { flags: 'a' });
		logStream.write(`\n$ ${command} ${args.join(' ')}\n`);
		const onData = (chunk: Buffer) => {
			logStream.write(chunk);
			tail.push(...chunk.toString().split('\n').filter(Boolean));
			tail.splice(0, Math.max(0, tail.length - 30));
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		const timer = setInterval(() => {
			const seconds = Math.round((Date.now() - started) / 1000);
			options.log(`${options.label}: ${seconds} s${options.progress ? `, ${options.progress()}` : ''}`);
		}, 15000);
		child.on('error', (error) => {
			clearInterval(timer);
			reject(new Error(`${options.label}: could not run ${command}: ${error.message}`));
		});
		child.on('close', (code, signal) => {
			clearInterval(timer);
			logStream.end();
			if (code === 0) resolve();
			else
				reject(
					new Error(
						`${options.label} failed (${signal ? `signal ${signal}` : `exit code ${code}`}): ` +
							`${command} ${args.join(' ')}\n  in ${options.cwd}\n  full output: ${options.logFile}\n` +
							`  last output:\n    ${tail.join('\n    ')}`,
					),
				);
		});
	});
}

function findNodeGyp(installDir: string): string {
	const candidates = [path.join(installDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')];
	try {
		const globalRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
		candidates.push(path.join(globalRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
	} catch {
		// npm root -g unavailable: rely on the other candidates
	}
	const npmCli = process.env.npm_execpath;
	if (npmCli) candidates.push(path.join(path.dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
	const found = candidates.find((file) => fs.existsSync(file));
	if (!found) throw new Error(`node-gyp not found (looked in: ${candidates.join(', ')})`);
	return found;
}

function folderBytes(dir: string): number {
	try {
		return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
	} catch {
		return NaN;
	}
}

function formatBytes(bytes: number): string {
	return Number.isFinite(bytes) ? `${(bytes / 1e9).toFixed(2)} GB` : 'unknown size';
}

/** node-gyp rebuild of the sqlite3 package in `sqliteDir`, against `runtime`'s headers. */
function rebuildSqlite3(sqliteDir: string, runtime: NodeRuntime, env: NodeJS.ProcessEnv, log: Log, logFile: string): Promise<void> {
	return run(runtime.bin, [findNodeGyp(path.resolve(sqliteDir, '..', '..')), 'rebuild', `--nodedir=${runtime.dir}`, '--jobs=max'], {
		cwd: sqliteDir,
		env,
		log,
		label: 'node-gyp rebuild sqlite3',
		logFile,
	});
}

/** The sqlite3 version an n8n version depends on (exact in every n8n so far), from npm's data; undefined if unknown. */
function sqlite3VersionOf(version: string, env: NodeJS.ProcessEnv): string | undefined {
	try {
		const out = execFileSync('npm', ['view', `n8n@${version}`, 'dependencies.sqlite3', '--prefer-offline'], {
			encoding: 'utf8',
			env,
			timeout: 60000,
		}).trim();
		return /^\d+\.\d+\.\d+$/.test(out) ? out : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Builds sqlite3 `sqliteVersion` for `runtime` once into `.n8n-cache/sqlite3-<version>-node-<node>/` (its own
 * `npm install --ignore-scripts`, then node-gyp) and returns that folder's `build/`. It runs while n8n's
 * `npm install` unpacks (the install is mostly disk, the build is one core), and every n8n version with the
 * same sqlite3 reuses it.
 */
async function sqlite3Build(sqliteVersion: string, runtime: NodeRuntime, env: NodeJS.ProcessEnv, log: Log, logFile: string): Promise<string> {
	const finalDir = path.join(cacheRoot, `sqlite3-${sqliteVersion}-node-${runtime.version}`);
	const built = (dir: string) => path.join(dir, 'node_modules', 'sqlite3', 'build');
	if (fs.existsSync(path.join(built(finalDir), 'Release', 'node_sqlite3.node'))) return built(finalDir);
	const tmpDir = path.join(cacheRoot, `.tmp-sqlite3-${sqliteVersion}-${process.pid}`);
	fs.rmSync(tmpDir, { recursive: true, force: true });
	fs.mkdirSync(tmpDir, { recursive: true });
	fs.writeFileSync(path.join(tmpDir, 'package.json'), JSON.stringify({ name: 'sqlite3-build', private: true }));
	try {
		await run('npm', ['install', `sqlite3@${sqliteVersion}`, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'], {
			cwd: tmpDir,
			env,
			log,
			label: `npm install sqlite3@${sqliteVersion}`,
			logFile,
		});
		const sqliteDir = path.join(tmpDir, 'node_modules', 'sqlite3');
		log(`building sqlite3 ${sqliteVersion} for Node ${runtime.version} beside the install (about 100 s)`);
		await rebuildSqlite3(sqliteDir, runtime, env, log, logFile);
		execFileSync(runtime.bin, ['-e', `require(${JSON.stringify(sqliteDir)})`], { stdio: 'inherit' });
		fs.rmSync(finalDir, { recursive: true, force: true });
		fs.renameSync(tmpDir, finalDir);
		return built(finalDir);
	} catch (error) {
		fs.rmSync(tmpDir, { recursive: true, force: true });
		throw error;
	}
}

async function installInto(dir: string, runtime: NodeRuntime, version: string, log: Log): Promise<InstallMarker> {
	const started = Date.now();
	const logFile = path.join(cacheRoot, `install-${version}.log`);
	fs.writeFileSync(logFile, `n8n ${version} install, ${new Date().toISOString()}\n`);
	log(`full output: ${logFile}`);
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify(
			{ name: 'n8n-runtime', private: true, dependencies: { n8n: version }, overrides: overridesFor(version) },
			null,
			2,
		),
	);
	// The machine's npm config may point nodedir at another Node's headers.
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PATH: `${path.join(runtime.dir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
		npm_config_nodedir: runtime.dir,
		npm_config_update_notifier: 'false',
	};
	// sqlite3's native part builds beside n8n's npm install (n8n pins sqlite3 exactly); the result is copied
	// in afterwards. A failed build here is reported once the install is done.
	const sqliteVersion = sqlite3VersionOf(version, env);
	const sqliteBuilding = sqliteVersion ? sqlite3Build(sqliteVersion, runtime, env, log, logFile) : undefined;
	sqliteBuilding?.catch(() => undefined); // awaited below
	log(`npm install n8n@${version} --ignore-scripts into ${dir} (2-3 minutes, about 2.2 GB)`);
	// Scripts off: one optional native module downloads sources from outside the registry at build time.
	// --prefer-offline: the package data npm's cache holds is used without asking the registry again (what it
	// lacks is still fetched): with a warm cache, resolving n8n's 1,500 packages takes seconds, not minutes.
	await run('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'], {
		cwd: dir,
		env,
		log,
		label: 'npm install',
		logFile,
		progress: () => {
			const count = countPackages(path.join(dir, 'node_modules'));
			return count ? `${count} packages unpacked so far (of about 1,500 top-level)` : 'resolving the dependency tree';
		},
	});
	const npmDone = Date.now();

	const sqliteDir = path.join(dir, 'node_modules', 'sqlite3');
	if (!fs.existsSync(sqliteDir)) throw new Error(`sqlite3 missing after npm install: ${sqliteDir}`);
	const installedSqlite = (JSON.parse(fs.readFileSync(path.join(sqliteDir, 'package.json'), 'utf8')) as { version: string }).version;
	if (sqliteBuilding && installedSqlite === sqliteVersion) {
		fs.cpSync(await sqliteBuilding, path.join(sqliteDir, 'build'), { recursive: true });
	} else {
		log(`building sqlite3 ${installedSqlite} for Node ${runtime.version} (about 100 s)`);
		await rebuildSqlite3(sqliteDir, runtime, env, log, logFile);
	}
	if (!fs.existsSync(sqliteBinary(dir))) throw new Error(`sqlite3 build produced no ${sqliteBinary(dir)}`);
	execFileSync(runtime.bin, ['-e', `require(${JSON.stringify(sqliteDir)})`], { stdio: 'inherit' });
	const buildDone = Date.now();

	const marker: InstallMarker = {
		n8nVersion: version,
		nodeVersion: runtime.version,
		overrides: overridesFor(version),
		installedAt: new Date().toISOString(),
		seconds: {
			npmInstall: Math.round((npmDone - started) / 1000),
			sqlite3Build: Math.round((buildDone - npmDone) / 1000),
			total: Math.round((buildDone - started) / 1000),
		},
		bytes: folderBytes(dir),
	};
	fs.writeFileSync(path.join(dir, MARKER), JSON.stringify(marker, null, 2));
	return marker;
}

export interface EnsureOptions {
	version?: string;
	force?: boolean;
	log?: Log;
}

/** Installs n8n into the cache unless a valid install is present; returns the install's marker. */
export async function ensureN8nInstalled(options: EnsureOptions = {}): Promise<InstallMarker> {
	const version = options.version ?? N8N_VERSION;
	const log = options.log ?? defaultLog;
	if (!options.force) {
		const marker = readValidMarker(version);
		if (marker) return marker;
	}
	const runtime = findNodeRuntime(24);
	fs.mkdirSync(cacheRoot, { recursive: true });
	return withCacheLock('install', `n8n`, log, async () => {
		if (!options.force) {
			const marker = readValidMarker(version);
			if (marker) return marker; // installed by the process we waited for
		}
		removeStaleTemps(log);
		const finalDir = n8nInstallDir(version);
		const tmpDir = path.join(cacheRoot, `.tmp-n8n-${version}-${process.pid}`);
		fs.rmSync(tmpDir, { recursive: true, force: true });
		let marker: InstallMarker;
		try {
			marker = await installInto(tmpDir, runtime, version, log);
		} catch (error) {
			log(`install failed; removing ${tmpDir}`);
			fs.rmSync(tmpDir, { recursive: true, force: true });
			throw error;
		}
		if (fs.existsSync(finalDir)) {
			const trash = path.join(cacheRoot, `.trash-n8n-${version}-${process.pid}`);
			fs.renameSync(finalDir, trash);
			fs.rmSync(trash, { recursive: true, force: true });
		}
		fs.renameSync(tmpDir, finalDir);
		log(
			`n8n ${version} installed in ${finalDir}: ${marker.seconds.total} s ` +
				`(npm ${marker.seconds.npmInstall} s, sqlite3 ${marker.seconds.sqlite3Build} s), ${formatBytes(marker.bytes)}`,
		);
		return marker;
	}, 2000);
}

if (require.main === module) {
	const force = process.argv.includes('--force');
	const at = process.argv.indexOf('--version');
	const version = at > 0 ? process.argv[at + 1] : undefined;
	if (at > 0 && !version) throw new Error('--version needs an n8n version, e.g. --version 1.123.81');
	ensureN8nInstalled({ force, version }).then(
		(marker) => {
			defaultLog(
				`n8n ${marker.n8nVersion} ready in ${n8nInstallDir(marker.n8nVersion)} ` +
					`(installed ${marker.installedAt}, Node ${marker.nodeVersion})`,
			);
		},
		(error: Error) => {
			defaultLog(`ERROR: ${error.message}`);
			process.exitCode = 1;
		},
	);
}
