/**
 * Before the e2e layer's first suite: builds dist/ once (unless FTM_PACKAGE_BUILT=1, as `npm test` sets it),
 * packs the package once for every suite of the run, and starts the n8n that the suites of SHARED_SUITES share
 * (helpers/sharedN8n.ts), when the run includes one of them. jest's workers inherit what it puts in the
 * environment; globalTeardown.ts stops n8n and removes the run's folder.
 */
import { ensureN8nInstalled } from '../../scripts/n8n/install';
import { tempDir } from '../../scripts/n8n/paths';
import { runCommand } from '../../scripts/n8n/processes';
import { SHARED_N8N_ENV, TARBALL_ENV, packForRun, runIncludesSharedSuite, startSharedN8n } from './helpers/sharedN8n';
import { setRun } from './runState';

/** Jest 30 gives the path patterns as { patterns }, older versions as an array or a string. */
function pathPatterns(globalConfig: { testPathPatterns?: unknown; testPathPattern?: unknown }): string[] {
	const given = globalConfig.testPathPatterns ?? globalConfig.testPathPattern;
	if (Array.isArray(given)) return given.map(String);
	if (given && typeof given === 'object' && Array.isArray((given as { patterns?: unknown }).patterns)) {
		return (given as { patterns: unknown[] }).patterns.map(String);
	}
	return typeof given === 'string' && given ? [given] : [];
}

export default async function globalSetup(globalConfig: { testPathPatterns?: unknown; testPathPattern?: unknown }): Promise<void> {
	const t0 = Date.now();
	await ensureN8nInstalled();
	if (process.env.FTM_PACKAGE_BUILT !== '1') {
		await runCommand('npm', ['run', 'build'], { label: 'npm run build' });
		process.env.FTM_PACKAGE_BUILT = '1';
	}
	const runDir = tempDir('ftm-e2e-run-');
	setRun({ runDir });
	const tarball = await packForRun(runDir);
	process.env[TARBALL_ENV] = tarball;
	if (!runIncludesSharedSuite(pathPatterns(globalConfig))) return;
	const { server, shared } = await startSharedN8n(runDir, tarball);
	setRun({ runDir, server });
	process.env[SHARED_N8N_ENV] = JSON.stringify(shared);
	process.stderr.write(`\n[e2e run] packed once, shared n8n at ${shared.url} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (log ${shared.logFile})\n`);
}
