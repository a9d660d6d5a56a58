/** Headless runs without a server: `n8n import:credentials`, `n8n import:workflow` and `n8n execute --id --rawOutput`. */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CredentialRef } from './credentials';
import { n8nCommand, n8nEnv } from './n8nProcess';
import { N8N_VERSION } from './paths';
import { freePort, runCommand } from './processes';
import type { WorkflowJson } from './workflows';

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
	// (SIGSEGV) and, on a loaded machine, 2.41.1. The printed run is the outcome; the signal is reported.
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
