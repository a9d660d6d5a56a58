/**
 * `npm test`: every check and every test layer, as CI runs them (`.ci/run`), with the time of each stage
 * printed at the end.
 *
 * Side by side on the two cores where the cores allow it:
 * - checks, then tests: typecheck → lint → lint:links → lint:dead → release:check (packs, so builds dist/) →
 *   unit → integration (four jest workers: its tests mostly wait on timers and sockets; six, beside n8n's install,
 *   delayed the timers of timing tests past their bounds);
 * - n8n:install (from npm's cache when it has the packages), beside them;
 * - system-pkgs: the Debian packages the e2e and queue layers need (redis-server, chromium), installed once
 *   under the machine's lock (scripts/system-packages.ts), beside them too. A machine that lacks one and cannot
 *   install it (not root, no apt-get) stops before any stage, with the command to install them;
 * - then e2e, then queue (its three suites side by side), one after the other: side by side on two cores they
 *   starve each other's Postgres (n8n answers "Database is not ready" and its connections time out) and main
 *   takes 30 to 50 s to restart after a kill instead of about 10.
 * A failed stage fails the run; the stages that do not depend on it still run, so that one run shows every
 * failure.
 *
 * Usage: npm test [-- --only unit,integration]   (stage names as in the table; the rest are skipped)
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';

import { childCpuSeconds, FailureReport } from './stageReport';
import { projectRoot } from './n8n/paths';
import { TEST_PACKAGES, refusal } from './system-packages';

interface Stage {
	name: string;
	/** npm script and its arguments. */
	command: string[];
	env?: NodeJS.ProcessEnv;
}

interface Outcome {
	name: string;
	startedAt: number;
	seconds: number;
	/** CPU time of the stage's processes that ended and were waited for (bash's `times`): a lower bound. */
	cpuSeconds?: number;
	result: 'passed' | 'failed' | 'skipped';
}


const started = Date.now();
const outcomes: Outcome[] = [];
const failures = new FailureReport();

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only ? new Set(values.only.split(',').map((name) => name.trim())) : undefined;

/** Runs one stage with its output prefixed by the stage's name; resolves whether it passed. */
function run(stage: Stage): Promise<boolean> {
	const at = Date.now();
	if (only && !only.has(stage.name)) {
		outcomes.push({ name: stage.name, startedAt: at, seconds: 0, result: 'skipped' });
		return Promise.resolve(true);
	}
	process.stdout.write(`[test] ${stage.name}: npm ${stage.command.join(' ')}\n`);
	return new Promise((resolve) => {
		// Through bash, whose `times` (on fd 3) gives the CPU time of the stage's processes once they ended.
		const child = spawn('bash', ['-c', 'npm "$@"; rc=$?; times >&3; exit $rc', 'npm', ...stage.command], {
			cwd: projectRoot,
			env: { ...process.env, ...stage.env, FORCE_COLOR: '0' },
			stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
		});
		let times = '';
		child.stdio[3]?.on('data', (chunk: Buffer) => (times += chunk.toString()));
		const prefix = `[${stage.name}] `;
		const keep = failures.collector(stage.name);
		const forward = (out: NodeJS.WriteStream) => {
			let rest = '';
			return (chunk: Buffer) => {
				const lines = (rest + chunk.toString()).split('\n');
				rest = lines.pop() ?? '';
				for (const line of lines) {
					out.write(prefix + line + '\n');
					keep(line);
				}
			};
		};
		child.stdout?.on('data', forward(process.stdout));
		child.stderr?.on('data', forward(process.stderr));
		const finish = (ok: boolean) => {
			outcomes.push({
				name: stage.name,
				startedAt: at,
				seconds: (Date.now() - at) / 1000,
				cpuSeconds: childCpuSeconds(times),
				result: ok ? 'passed' : 'failed',
			});
			resolve(ok);
		};
		child.on('error', () => finish(false));
		child.on('close', (code) => finish(code === 0));
	});
}

/** Runs stages in order; stops at the first failure (the later ones are reported as skipped). */
async function lane(stages: Stage[]): Promise<boolean> {
	for (const [index, stage] of stages.entries()) {
		if (!(await run(stage))) {
			for (const later of stages.slice(index + 1)) {
				outcomes.push({ name: later.name, startedAt: Date.now(), seconds: 0, result: 'skipped' });
			}
			return false;
		}
	}
	return true;
}

function table(): string {
	const rows = [...outcomes].sort((a, b) => a.startedAt - b.startedAt);
	const cpu = (row: Outcome) => (row.cpuSeconds === undefined ? '' : `, CPU ${row.cpuSeconds.toFixed(0)} s`);
	const lines = rows.map(
		(row) =>
			`  ${row.name.padEnd(14)} ${row.result.padEnd(8)} ` +
			`${row.result === 'skipped' ? '' : `${row.seconds.toFixed(0).padStart(5)} s, from ${((row.startedAt - started) / 1000).toFixed(0)} s${cpu(row)}`}`,
	);
	// The CPU time of every stage spread over every core is a floor under the wall time, whatever the order.
	const cpuTotal = rows.reduce((sum, row) => sum + (row.cpuSeconds ?? 0), 0);
	const cores = os.availableParallelism();
	return [
		`[test] stage          result   time`,
		...lines,
		`[test] total ${((Date.now() - started) / 1000).toFixed(0)} s; CPU ${cpuTotal.toFixed(0)} s, at least ${(cpuTotal / cores).toFixed(0)} s of wall time on ${cores} cores`,
	].join('\n');
}

async function main(): Promise<void> {
	// Before any stage: a machine that lacks a system package and cannot install it (not root, no apt-get) stops
	// here, with the packages and the command to install them, instead of failing suites half an hour later.
	const refused = refusal(TEST_PACKAGES);
	if (refused) {
		process.stderr.write(`[test] ${refused.replace(/\n/g, '\n[test] ')}\n`);
		process.exitCode = 1;
		return;
	}
	const install = run({ name: 'n8n-install', command: ['run', 'n8n:install'] });
	const systemPackages = run({ name: 'system-pkgs', command: ['run', 'system:packages'] });
	const checks = lane([
		{ name: 'typecheck', command: ['run', 'typecheck'] },
		{ name: 'lint', command: ['run', 'lint'] },
		{ name: 'lint-links', command: ['run', 'lint:links'] },
		{ name: 'lint-dead', command: ['run', 'lint:dead'] },
		{ name: 'release-check', command: ['run', 'release:check'] },
	]);
	const skip = (...names: string[]) => {
		for (const name of names) outcomes.push({ name, startedAt: Date.now(), seconds: 0, result: 'skipped' });
	};
	const tests = (async () => {
		if (!(await checks)) {
			skip('unit', 'integration', 'e2e', 'queue');
			return false;
		}
		const early = await lane([
			{ name: 'unit', command: ['run', 'test:unit', '--', '--ci'] },
			{ name: 'integration', command: ['run', 'test:integration', '--', '--ci'] },
		]);
		if (!(await install) || !(await systemPackages)) {
			skip('e2e', 'queue');
			return false;
		}
		const e2e = await run({ name: 'e2e', command: ['run', 'test:e2e', '--', '--ci'], env: { FTM_PACKAGE_BUILT: '1' } });
		const queue = await run({ name: 'queue', command: ['run', 'test:queue'], env: { FTM_PACKAGE_BUILT: '1' } });
		return early && e2e && queue;
	})();
	const results = await Promise.all([install, systemPackages, checks, tests]);
	if (failures.lines.length > 0) {
		process.stdout.write(`\n[test] what failed, as the stages printed it:\n${failures.lines.join('\n')}\n`);
	}
	process.stdout.write(`\n${table()}\n`);
	process.exitCode = results.every(Boolean) ? 0 : 1;
}

void main();
