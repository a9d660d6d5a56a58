/**
 * Pieces of the queue-mode e2e suite: the figures it reports, the sandbox jobs it makes fail, the execution
 * records it reads back from n8n, and the workflows it imports.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Sandbox } from '../../sandbox/src';
import type { PublicApiClient } from '../../scripts/n8n/n8nApi';
import { projectRoot } from '../../scripts/n8n/paths';
import { until } from '../../scripts/n8n/waiting';
import { withCredential, type WorkflowJson } from '../../scripts/n8n/workflows';
import { EXAMPLE_FILES, readExample } from '../e2e/helpers/examples';
import { FINAL_STATUSES, withFastPolling } from '../e2e/helpers/workflows';

export const MINUTE = 60 * 1000;
export const TRIGGER = 'Failed or Stuck Job';

/** Ignored folder (tmp/ is in .gitignore) for the figures and the stacks' data. */
export { until };
export const OUT_DIR = path.join(projectRoot, 'tmp', 'queue-e2e');

// ---------------------------------------------------------------------------------------------------------
// Figures: one line each on stdout, prefixed "[queue e2e]", and all of them in the suite file's figures file

const figures: Record<string, unknown> = {};
let figuresFile = path.join(OUT_DIR, 'figures.json');

/** The file (under OUT_DIR) this process writes its figures to; emptied now. Each suite file names its own. */
export function useFiguresFile(name: string): void {
	figuresFile = path.join(OUT_DIR, name);
	fs.rmSync(figuresFile, { force: true });
}

export function figure(name: string, value: unknown, note = ''): void {
	figures[name] = value;
	const shown = typeof value === 'string' ? value : JSON.stringify(value);
	process.stdout.write(`[queue e2e] ${name}: ${shown}${note ? ` (${note})` : ''}\n`);
	writeFigures();
}

function writeFigures(): void {
	fs.mkdirSync(OUT_DIR, { recursive: true });
	fs.writeFileSync(figuresFile, `${JSON.stringify({ writtenAt: new Date().toISOString(), figures }, null, 2)}\n`);
}

/** Progress lines on stderr, with seconds since the suite started. */
const t0 = Date.now();
export function log(what: string): void {
	process.stderr.write(`[queue e2e ${((Date.now() - t0) / 1000).toFixed(0)} s] ${what}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// Sandbox

/** Makes an inserted running job fail with one error, as the sandbox's engine would; returns its id. */
export function failJob(sandbox: Sandbox, name: string): string {
	const [id] = sandbox.control.insertJobs(1, { status: 'running', name });
	sandbox.control.addJobError(id, { sourcePath: `/queue-e2e/${name}.csv`, message: `${name}: the target disk is full.` });
	sandbox.control.setJobStatus(id, 'failed');
	return id;
}

/** The trigger's job-list requests so far (its polls); nothing else lists jobs while the trigger tests run. */
export const listRequests = (sandbox: Sandbox): number => sandbox.requests.count({ method: 'GET', path: '/jobs' });

/** Successful job creations at the sandbox. */
export const jobCreations = (sandbox: Sandbox): number =>
	sandbox.requests.all().filter((r) => r.method === 'POST' && r.path === '/jobs' && (r.status === 201 || r.status === 200)).length;

export const tokenRequests = (sandbox: Sandbox): number => sandbox.requests.count({ method: 'POST', path: '/oauth/token' });

// ---------------------------------------------------------------------------------------------------------
// n8n: workflows and executions

export interface ExecutionRecord {
	id: string;
	status: string;
	mode: string;
	startedAt?: string;
	stoppedAt?: string | null;
	data?: {
		resultData?: {
			runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>>;
			error?: { message?: string };
		};
		executionData?: {
			nodeExecutionStack?: Array<{ node?: { name?: string }; data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>;
		};
	};
}

export async function executions(api: PublicApiClient, workflowId: string, includeData = false): Promise<ExecutionRecord[]> {
	return api.list<ExecutionRecord>(`/executions?workflowId=${workflowId}&includeData=${includeData}`);
}

/** Waits until the workflow has at least `count` executions and none of them is still new, running or waiting. */
export async function settledExecutions(
	api: PublicApiClient,
	workflowId: string,
	count: number,
	timeoutMs: number,
	includeData = false,
): Promise<ExecutionRecord[]> {
	return until(`${count} finished execution(s) of workflow ${workflowId}`, timeoutMs, async () => {
		const all = await executions(api, workflowId, false);
		if (all.length < count || !all.every((e) => FINAL_STATUSES.includes(e.status))) return undefined;
		return includeData ? executions(api, workflowId, true) : all;
	}, 2000);
}

/** What a trigger workflow delivered: how often each job id reached a run, and ids only recorded (never run). */
export interface Deliveries {
	delivered: Map<string, number>;
	/** Trigger items in executions that never ran (e.g. created, then main died before it was enqueued). */
	stranded: Map<string, number>;
	statuses: Record<string, number>;
}

export function deliveries(all: ExecutionRecord[]): Deliveries {
	const delivered = new Map<string, number>();
	const stranded = new Map<string, number>();
	const statuses: Record<string, number> = {};
	const add = (map: Map<string, number>, id: string) => map.set(id, (map.get(id) ?? 0) + 1);
	for (const execution of all) {
		statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
		const ran = execution.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0];
		if (ran) {
			for (const item of ran) add(delivered, String(item.json.id));
			continue;
		}
		const queued = execution.data?.executionData?.nodeExecutionStack?.find((entry) => entry.node?.name === TRIGGER);
		for (const item of queued?.data?.main?.[0] ?? []) add(stranded, String(item.json.id));
	}
	return { delivered, stranded, statuses };
}

/** Missed and repeated events for a set of failed jobs. */
export function tally(failed: string[], d: Deliveries, alsoExpected: string[] = []) {
	const missed = failed.filter((id) => !d.delivered.has(id));
	const repeated = failed.filter((id) => (d.delivered.get(id) ?? 0) > 1);
	const extraDeliveries = failed.reduce((sum, id) => sum + Math.max(0, (d.delivered.get(id) ?? 0) - 1), 0);
	const strandedOnly = missed.filter((id) => d.stranded.has(id));
	const expected = new Set([...failed, ...alsoExpected]);
	const unknown = [...d.delivered.keys()].filter((id) => !expected.has(id));
	return { missed, repeated, extraDeliveries, strandedOnly, unknown };
}

/**
 * The alert example with fast polling (FAST_POLL_TIMES) and its credential pointed at `credential`;
 * `attachErrors` replaces the example's 5 (0: no errors request per job, so a poll is a few list requests).
 */
export function fastAlert(credential: { id: string; name: string }, attachErrors?: number): WorkflowJson {
	const workflow = withFastPolling(example('alert', credential), TRIGGER);
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.name !== TRIGGER) return node;
			const parameters = { ...(node.parameters as { options?: Record<string, unknown> }) };
			if (attachErrors !== undefined) parameters.options = { ...parameters.options, attachErrors };
			return { ...node, parameters };
		}),
	};
}

/**
 * Start times of the trigger's polls: the first page of its window, newest first (nothing else lists jobs
 * during those tests). Not every job-list request: a backlog takes several pages, and the list of stuck
 * jobs is one more request, so counting requests would count one poll several times.
 */
export function pollStarts(sandbox: Sandbox, since = 0): number[] {
	return sandbox.requests
		.all()
		.filter(
			(r) =>
				r.method === 'GET' &&
				r.path === '/jobs' &&
				r.at >= since &&
				r.query.sort === '-updatedAt' &&
				r.query['page[after]'] === undefined &&
				r.query['page[limit]'] !== '1',
		)
		.map((r) => r.at);
}

/** Example workflows with their credential pointed at `credential`. */
export function example(file: keyof typeof EXAMPLE_FILES, credential: { id: string; name: string }): WorkflowJson {
	return withCredential(readExample(EXAMPLE_FILES[file]), credential);
}

/** Execution ids a process's log says it started ("Worker started execution N"). */
export function startedExecutions(logText: string): Set<string> {
	return new Set([...logText.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]));
}

export function enqueuedExecutions(logText: string): Set<string> {
	return new Set([...logText.matchAll(/Enqueued execution (\d+)/g)].map((m) => m[1]));
}

/** A random integer in [min, max]. */
export const randomInt = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min + 1));
