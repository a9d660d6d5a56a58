/**
 * Evidence for docs/install.md's advice on `npm install` by hand: is the second copy of n8n-workflow that a
 * plain `npm install` brings (the package's peer dependency) harmless, or should users add
 * `--legacy-peer-deps`?
 *
 * For the n8n version of FTM_N8N_VERSION (default the pinned one), installs the packed package by hand into
 * two fresh user folders from a local registry, once with `--legacy-peer-deps` and once without, starts n8n
 * on each and runs the same three workflows through production webhooks: a successful run, a 404 routed to
 * the error output, and a 404 that fails the execution. Prints, per install, what npm put into
 * `.n8n/nodes/node_modules`, where the package's `require('n8n-workflow')` resolves, whether the node's
 * errors are instances of n8n's own NodeApiError class, and what n8n recorded of each run (execution status,
 * the error output's items, the failed execution's error with its name, message, description and HTTP
 * code), then the differences between the two installs.
 *
 * Usage: FTM_N8N_VERSION=1.123.81 npx tsx test/install/peer-copy-check.ts [--json out.json]
 * Not part of `npm test` (it starts n8n twice per version); the by-hand test follows its conclusion.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSandbox } from '../../sandbox/src';
import { ensureN8nInstalled } from '../../scripts/n8n/install';
import { HttpError } from '../../scripts/n8n/n8nApi';
import { startN8n } from '../../scripts/n8n/n8nProcess';
import { PACKAGE_NAME, buildAndPack, nodesDir } from '../../scripts/n8n/packaging';
import { runCommand } from '../../scripts/n8n/processes';
import { ensureWorkflow } from '../../scripts/n8n/workflows';
import { N8N_VERSION, findNodeRuntime, n8nInstallDir, n8nMajor, tempDir } from '../../scripts/n8n/paths';
import { readTarballPackageJson, startRegistry } from '../../scripts/n8n/registry';
import {
	activate,
	callWebhook,
	errorOutputWorkflow,
	failingWorkflow,
	finishedExecutions,
	items,
	sandboxCredential,
	setUpOwner,
	triggerWorkflow,
	versionWorkflow,
} from './helpers';

const say = (line: string) => process.stderr.write(`[peer-copy-check ${N8N_VERSION}] ${line}\n`);

function countPackages(nodeModules: string): number {
	let count = 0;
	for (const name of fs.existsSync(nodeModules) ? fs.readdirSync(nodeModules) : []) {
		if (name.startsWith('.')) continue;
		count += name.startsWith('@') ? fs.readdirSync(path.join(nodeModules, name)).length : 1;
	}
	return count;
}

/** Where the installed package's require('n8n-workflow') resolves, and whether its NodeApiError is n8n's. */
function resolution(userFolder: string): { resolvesTo: string; version: string; sameClassAsN8n: boolean } {
	const pkgDir = path.join(nodesDir(userFolder), 'node_modules', PACKAGE_NAME);
	const n8nDir = path.join(n8nInstallDir(), 'node_modules', 'n8n');
	// As n8n loads a community package: from the package's folder, with n8n's own folders as the fallback.
	const script = `
		const path = require('node:path');
		let fromPackage;
		try { fromPackage = require.resolve('n8n-workflow', { paths: [${JSON.stringify(pkgDir)}] }); }
		catch { fromPackage = require.resolve('n8n-workflow', { paths: [${JSON.stringify(n8nDir)}] }); }
		const fromN8n = require.resolve('n8n-workflow', { paths: [${JSON.stringify(n8nDir)}] });
		const version = require(path.join(fromPackage.slice(0, fromPackage.lastIndexOf('node_modules') + 12), 'n8n-workflow', 'package.json')).version;
		const theirs = require(fromPackage), ours = require(fromN8n);
		const err = new theirs.NodeApiError({ name: 'x', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} }, { message: 'm' });
		process.stdout.write(JSON.stringify({ resolvesTo: fromPackage, version, sameClassAsN8n: err instanceof ours.NodeApiError }));
	`;
	const out = require('node:child_process').execFileSync(findNodeRuntime(24).bin, ['-e', script], { encoding: 'utf8' }) as string;
	return JSON.parse(out) as { resolvesTo: string; version: string; sameClassAsN8n: boolean };
}

/** Drops what differs between any two runs (ids, times, stacks). */
function stable(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(stable);
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [key, v] of Object.entries(value)) {
			if (['timestamp', 'stack', 'id', 'executionId', 'startedAt', 'stoppedAt', 'requestId', 'headers', 'position'].includes(key)) continue;
			out[key] = stable(v);
		}
		return out;
	}
	return value;
}

async function main(): Promise<void> {
	await ensureN8nInstalled();
	const workDir = tempDir('ftm-peer-copy-');
	const registry = await startRegistry(path.join(workDir, 'registry'), say);
	const sandbox = await startSandbox({ port: 0, clientId: 'peer-copy-client', clientSecret: 'peer-copy-secret', speed: 1000 });
	const report: Record<string, unknown> = { n8nVersion: N8N_VERSION };
	try {
		const tarball = await buildAndPack(path.join(workDir, 'pack'), { build: false });
		const { version } = readTarballPackageJson(tarball);
		await registry.publish(tarball);
		for (const mode of ['legacy-peer-deps', 'plain'] as const) {
			const userFolder = path.join(workDir, `n8n-${mode}`);
			const dir = nodesDir(userFolder);
			fs.mkdirSync(dir, { recursive: true });
			// The package's tarball from the local registry (it has no uplinks), anything else (the peer
			// n8n-workflow and its dependencies) from npm's configured registry, as for a published package.
			const tarballUrl = `${registry.url}/${PACKAGE_NAME}/-/${PACKAGE_NAME}-${version}.tgz`;
			const args = ['install', tarballUrl, ...(mode === 'plain' ? [] : ['--legacy-peer-deps'])];
			const t0 = Date.now();
			await runCommand('npm', args, { label: `npm ${args.join(' ')}`, cwd: dir });
			const npmSeconds = (Date.now() - t0) / 1000;
			const nodeModules = path.join(dir, 'node_modules');
			const entry: Record<string, unknown> = {
				npm: `npm ${args.join(' ')}`,
				npmSeconds,
				packagesInNodeModules: countPackages(nodeModules),
				n8nWorkflowCopy: fs.existsSync(path.join(nodeModules, 'n8n-workflow'))
					? (JSON.parse(fs.readFileSync(path.join(nodeModules, 'n8n-workflow', 'package.json'), 'utf8')) as { version: string }).version
					: null,
				resolution: resolution(userFolder),
			};
			say(`${mode}: ${JSON.stringify(entry)}`);
			const logFile = path.join(workDir, `n8n-${mode}.log`);
			const n8n = await startN8n({ userFolder, logFile, readyTimeoutMs: 5 * 60 * 1000 });
			try {
				const stack = await setUpOwner(n8n.url, mode);
				const credential = await sandboxCredential(stack, sandbox, 'peer copy check');
				const runs: Record<string, unknown> = {};
				for (const workflow of [versionWorkflow(mode, credential), errorOutputWorkflow(mode, credential), failingWorkflow(mode, credential)]) {
					const id = await activate(stack.api, workflow);
					const answer = await callWebhook(n8n.url, workflow);
					const [execution] = await finishedExecutions(stack.api, id, 1);
					const getJob = execution.data?.resultData.runData['Get Job']?.[0] as { error?: unknown } | undefined;
					runs[workflow.name.replace(/^Install check \([^)]*\): /, '')] = stable({
						webhookStatus: answer.status,
						executionStatus: execution.status,
						output: items(execution, 'Get Version'),
						found: items(execution, 'Found'),
						failed: items(execution, 'Failed'),
						nodeError: getJob?.error,
						executionError: execution.data?.resultData.error,
					});
				}
				// Activation of the trigger while the service answers GET /jobs with 500: n8n polls once at
				// activation, and reports the node's error to whoever activated the workflow.
				sandbox.faults.add({ kind: 'internal-error', method: 'GET', path: '/jobs', times: Infinity });
				const trigger = triggerWorkflow(mode, credential);
				const { id: triggerId } = await ensureWorkflow(stack.api, trigger);
				const attempt = async (call: () => Promise<unknown>) => {
					try {
						await call();
						return { activated: true };
					} catch (error) {
						if (!(error instanceof HttpError)) throw error;
						let body: unknown = error.body;
						try {
							body = JSON.parse(error.body);
						} catch {
							// not JSON
						}
						return { status: error.status, body };
					}
				};
				const activation: Record<string, unknown> = {
					publicApi: await attempt(() => stack.api.call('POST', `/workflows/${triggerId}/activate`)),
				};
				if (n8nMajor() >= 2) {
					const stored = await stack.rest.call<{ versionId: string }>('GET', `/workflows/${triggerId}`);
					activation.editorRoute = await attempt(() =>
						stack.rest.call('POST', `/workflows/${triggerId}/activate`, { versionId: stored.versionId }),
					);
				}
				sandbox.faults.clear();
				runs['trigger activation, service answers 500'] = stable(activation);
				entry.runs = runs;
				const log = fs.readFileSync(logFile, 'utf8');
				entry.logLinesAboutPackage = log.split('\n').filter((l) => l.includes(PACKAGE_NAME) && /error|warn/i.test(l)).slice(0, 10);
			} finally {
				await n8n.stop();
			}
			report[mode] = entry;
		}
		const a = JSON.stringify((report['legacy-peer-deps'] as { runs: unknown }).runs, null, 1);
		const b = JSON.stringify((report.plain as { runs: unknown }).runs, null, 1);
		report.runsIdentical = a === b;
		if (a !== b) {
			const la = a.split('\n');
			const lb = b.split('\n');
			report.differences = la.map((line, i) => (line !== lb[i] ? `legacy: ${line.trim()} | plain: ${(lb[i] ?? '').trim()}` : undefined)).filter(Boolean);
		}
	} finally {
		await registry.stop();
		await sandbox.close();
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	const out = JSON.stringify(report, null, 2);
	const at = process.argv.indexOf('--json');
	if (at > 0 && process.argv[at + 1]) fs.writeFileSync(process.argv[at + 1], out);
	process.stdout.write(`${out}\n`);
}

main().catch((error: unknown) => {
	say(`ERROR: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
	process.exit(1);
});
