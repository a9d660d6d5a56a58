/**
 * npm run bench [-- --no-install] [--rounds 7] [--no-memory] [--no-profile] [--no-readme] [--no-concurrency]
 *                 [--concurrency-rounds 3] [--base <commit>]
 *
 * --base <commit>: the same bench at that commit and at the working tree, in one run: the working tree's bench
 * runs twice (before and after the base's) for the noise, the base's once, each in a child process with its own
 * code (bench/lib/base.ts: the base tree and its dependencies are cached in .bench-base/); prints every row with
 * base, head, noise and verdict, and appends that table to bench/results.md (and, without --no-readme, to
 * bench/README.md). The other flags go to all three runs (to the base's only those its bench knows).
 *
 * Our nodes, run through n8n-core's WorkflowExecute / PollContext (test/harness/engine.ts), against the
 * sandbox running in its own process; compared in the same run with a plain keep-alive axios client and
 * with n8n's own HTTP Request node (built-in pagination) from the n8n install in .n8n-cache/. Prints a
 * Markdown table of ratios and writes it to bench/results.md (and the figures section of bench/README.md).
 * Nothing here is asserted: the figures are what this machine measured in this run.
 */
import './lib/resolve-node-ts';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { INodeExecutionData, IVersionedNodeType } from 'n8n-workflow';

import { ensureN8nInstalled, readValidMarker } from '../scripts/n8n/install';
import { N8N_VERSION } from '../scripts/n8n/paths';
import axios from 'axios';

import { DEMO_IDS, startSandbox } from '../sandbox/src';
import { DEFAULT_PARALLEL, MAX_PARALLEL } from '../nodes/shared/transport/settings';
import { credentialsFor, runNode, triggerHandle } from '../test/harness/engine';
import { assertNodeBin, machine, NODE_BIN, projectRoot } from './lib/env';
import { CountingCredentialsHelper, httpRequestNodePath, loadHttpRequestNode } from './lib/n8n';
import { PlainClient } from './lib/plain-client';
import { profile, type ProfileSummary } from './lib/profile';
import { countRequests, startSandboxProcess, type SandboxProcess } from './lib/sandbox-process';
import { httpNodeJobGet, httpNodeReturnAll, oursJobGet, oursReturnAll, recordsInPages } from './lib/workloads';
import { helperOnlyJobGet } from './lib/helper-node';
import { median, ms } from './lib/figures';
import { concurrencyBench, SECTION_BEGIN, SECTION_END } from './concurrency';
import { OUTSIDE_BY_CHANCE, compareRows, flagsFor, knownFlags, parseRows, prepareBaseTree, resolveCommit, runBench } from './lib/base';

const OPTIONS = {
	'no-install': { type: 'boolean', default: false },
	rounds: { type: 'string', default: '7' },
	'no-memory': { type: 'boolean', default: false },
	'no-profile': { type: 'boolean', default: false },
	'no-readme': { type: 'boolean', default: false },
	'no-wait': { type: 'boolean', default: false },
	'no-concurrency': { type: 'boolean', default: false },
	'concurrency-rounds': { type: 'string', default: '3' },
	base: { type: 'string' },
} as const;
const { values: flags } = parseArgs({ options: OPTIONS });
const ROUNDS = Math.max(1, Number(flags.rounds) || 7);
const COMMAND = ['npm run bench', ...process.argv.slice(2)].join(' ').replace('npm run bench -', 'npm run bench -- -');

interface Row {
	metric: string;
	ours: string;
	baseline: string;
	ratio: string;
	/** What the baseline column is. */
	against: string;
}

const TRIGGER_EVENTS = 1000;
/** The Parallel Requests Auto section (bench/concurrency.ts), when it ran. */
let autoSection: string[] = [];
const rows: Row[] = [];
const notes: string[] = [];
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const mb = (value: number) => `${value.toFixed(0)} MB`;
const ratio = (ours: number, baseline: number) => (baseline > 0 ? `${(ours / baseline).toFixed(2)}×` : 'n/a');

function add(metric: string, ours: number, baseline: number, format: (v: number) => string, against: string): void {
	rows.push({ metric, ours: format(ours), baseline: format(baseline), ratio: ratio(ours, baseline), against });
}

function check(condition: boolean, message: string): void {
	if (!condition) throw new Error(`benchmark sanity check failed: ${message}`);
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const start = performance.now();
	const value = await work();
	return { ms: performance.now() - start, value };
}

/** Counts TCP connections opened by this process while `work` runs. */
async function countConnections<T>(work: () => Promise<T>): Promise<number> {
	const proto = net.Socket.prototype as unknown as { connect: (...args: unknown[]) => unknown };
	const original = proto.connect;
	let count = 0;
	proto.connect = function (this: net.Socket, ...args: unknown[]) {
		count++;
		return original.apply(this, args);
	};
	try {
		await work();
	} finally {
		proto.connect = original;
	}
	return count;
}

/** n8n's HTTP Request node, installing n8n first unless --no-install; undefined (with a note) if absent. */
async function prepareHttpRequestNode(): Promise<IVersionedNodeType | undefined> {
	if (flags['no-install']) {
		if (!readValidMarker()) {
			const message = `n8n ${N8N_VERSION} is not installed in .n8n-cache/ and --no-install was given: the HTTP Request node rows are skipped (run "npm run n8n:install" once, about 5 minutes).`;
			log(message);
			notes.push(message);
			return undefined;
		}
	} else {
		log(`making sure n8n ${N8N_VERSION} is installed in .n8n-cache/ (a first install takes about 5 minutes)`);
		await ensureN8nInstalled({ log: (line) => log(`n8n:install: ${line}`) });
	}
	return loadHttpRequestNode();
}

// ---------------------------------------------------------------- Timed comparisons

interface Variant {
	name: string;
	/** Runs the workload once and returns how many records came back correctly. */
	run: () => Promise<number>;
}

interface Compared {
	median: Record<string, number>;
	requests: Record<string, ReturnType<typeof countRequests>>;
}

/** One warm-up run of each variant (its requests counted), then ROUNDS rounds in rotating order. */
async function compare(sandbox: SandboxProcess, variants: Variant[], expected: number): Promise<Compared> {
	const times: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
	const requests: Compared['requests'] = {};
	for (const variant of variants) {
		await sandbox.clearRequests();
		const records = await variant.run();
		check(records === expected, `${variant.name} returned ${records} records, expected ${expected}`);
		requests[variant.name] = countRequests(await sandbox.requests());
	}
	for (let round = 0; round < ROUNDS; round++) {
		for (let i = 0; i < variants.length; i++) {
			const variant = variants[(i + round) % variants.length];
			const { ms: took, value } = await timed(variant.run);
			check(value === expected, `${variant.name} returned ${value} records, expected ${expected}`);
			times[variant.name].push(took);
		}
	}
	return { median: Object.fromEntries(variants.map((v) => [v.name, median(times[v.name])])), requests };
}

const HTTP_NODE = "n8n's HTTP Request node, pagination";
const NO_KEEP_ALIVE = 'plain client, new TCP connection per request';
const HELPER_ONLY = "bare node: n8n-core's request helper alone";

/** Medians kept for the "where our time goes" section. */
const measured: { returnAll?: Compared; jobGet?: Compared } = {};

async function returnAll(
	sandbox: SandboxProcess,
	clients: { plain: PlainClient; noKeepAlive: PlainClient },
	ours: CountingCredentialsHelper,
	httpRequest: IVersionedNodeType | undefined,
	header: CountingCredentialsHelper,
	total: number,
): Promise<void> {
	log(`Return All over ${total.toLocaleString('en')} jobs: a warm-up run each, then ${ROUNDS} rounds`);
	const variants: Variant[] = [
		{ name: 'plain', run: async () => (await clients.plain.listAllJobs()).length },
		{ name: 'ours', run: async () => (await oursReturnAll(ours)).length },
		{ name: 'noKeepAlive', run: async () => (await clients.noKeepAlive.listAllJobs()).length },
	];
	if (httpRequest) {
		variants.push({ name: 'http', run: async () => recordsInPages(await httpNodeReturnAll(httpRequest, header, sandbox.baseUrl)) });
	}
	const result = await compare(sandbox, variants, total);
	measured.returnAll = result;
	const { median: t, requests } = result;
	const label = total.toLocaleString('en');
	add(`Return All, ${label} jobs: wall time (median of ${ROUNDS})`, t.ours, t.plain, ms, 'plain client (keep-alive)');
	add(`Return All, ${label} jobs: requests (first run, token included)`, requests.ours.total, requests.plain.total, String, 'plain client (keep-alive)');
	if (httpRequest) {
		add(`Return All, ${label} jobs: wall time (median of ${ROUNDS})`, t.ours, t.http, ms, HTTP_NODE);
		add(`Return All, ${label} jobs: requests (token excluded)`, requests.ours.list, requests.http.list, String, HTTP_NODE);
		notes.push(
			`HTTP Request node: authenticated with a Header Auth credential holding the Bearer token fetched beforehand; ${requests.http.list} list requests for ${label} jobs; it outputs one item per page (${Math.ceil(total / 100)} items holding \`data\` arrays), our node one item per job.`,
		);
	} else {
		rows.push({
			metric: `Return All, ${label} jobs: wall time`,
			ours: ms(t.ours),
			baseline: 'skipped',
			ratio: 'n/a',
			against: `${HTTP_NODE} (n8n not installed and --no-install given)`,
		});
	}
	add(`Return All, ${label} jobs: wall time (median of ${ROUNDS})`, t.ours, t.noKeepAlive, ms, NO_KEEP_ALIVE);
}

async function jobGet(
	sandbox: SandboxProcess,
	clients: { plain: PlainClient; noKeepAlive: PlainClient; parallel: PlainClient },
	ours: CountingCredentialsHelper,
	ids: string[],
	httpRequest: IVersionedNodeType | undefined,
	header: CountingCredentialsHelper,
): Promise<void> {
	log(`Job Get for ${ids.length} input items: a warm-up run each, then ${ROUNDS} rounds`);
	const plainRun = (client: PlainClient) => async () => {
		let count = 0;
		for (const id of ids) if ((await client.getJob(id)).id === id) count++;
		return count;
	};
	const oursRun = (parallel?: number) => async () =>
		(await oursJobGet(ours, ids, parallel)).filter((item, i) => item.json.id === ids[i]).length;
	const helperRun = (atOnce: number) => async () =>
		(await helperOnlyJobGet(ours, sandbox.baseUrl, ids, atOnce)).filter((item, i) => item.json.id === ids[i]).length;
	const variants: Variant[] = [
		{ name: 'plain', run: plainRun(clients.plain) },
		{ name: 'ours', run: oursRun() },
		{ name: 'ours8', run: oursRun(DEFAULT_PARALLEL) },
		{ name: 'noKeepAlive', run: plainRun(clients.noKeepAlive) },
		{ name: 'ours1', run: oursRun(1) },
		{
			name: 'plainParallel',
			run: async () => (await clients.parallel.getJobs(ids)).filter((job, i) => job.id === ids[i]).length,
		},
		{ name: 'oursAll', run: oursRun(MAX_PARALLEL) },
		{ name: 'helper', run: helperRun(DEFAULT_PARALLEL) },
		{ name: 'helperAll', run: helperRun(ids.length) },
	];
	if (httpRequest) {
		variants.push({
			name: 'http',
			run: async () =>
				(await httpNodeJobGet(httpRequest, header, sandbox.baseUrl, ids)).filter(
					(item, i) => (item.json.data as { id?: string } | undefined)?.id === ids[i],
				).length,
		});
	}
	const result = await compare(sandbox, variants, ids.length);
	measured.jobGet = result;
	const label = `Job Get, ${ids.length.toLocaleString('en')} input items`;
	const atDefault = `${label}, Parallel Requests Auto (default)`;
	const atEight = `${label}, Parallel Requests ${DEFAULT_PARALLEL} (fixed; the default before Auto)`;
	const atOne = `${label}, Parallel Requests 1`;
	add(`${atDefault}: wall time (median of ${ROUNDS})`, result.median.ours, result.median.ours8, ms, `our node at a fixed ${DEFAULT_PARALLEL}, same host, no latency`);
	add(`${atEight}: wall time (median of ${ROUNDS})`, result.median.ours8, result.median.plainParallel, ms, `plain client (keep-alive), ${DEFAULT_PARALLEL} at once`);
	add(`${atOne}: wall time (median of ${ROUNDS})`, result.median.ours1, result.median.plain, ms, 'plain client (keep-alive), one at a time');
	add(`${atDefault}: requests`, result.requests.ours.get, result.requests.plain.get, String, 'plain client (keep-alive)');
	add(`${atDefault}: wall time (median of ${ROUNDS})`, result.median.ours, result.median.noKeepAlive, ms, `${NO_KEEP_ALIVE}, one at a time`);
	const atAll = `${label}, Parallel Requests ${MAX_PARALLEL} (every item at once)`;
	add(`${atEight}: wall time (median of ${ROUNDS})`, result.median.ours8, result.median.helper, ms, `${HELPER_ONLY}, ${DEFAULT_PARALLEL} at once`);
	add(`${atAll}: wall time (median of ${ROUNDS})`, result.median.oursAll, result.median.helperAll, ms, `${HELPER_ONLY}, every item at once`);
	notes.push(
		`The bare node (\`bench/lib/helper-node.ts\`) does per item only what any community node must: the job id from an expression, n8n-core's \`httpRequestWithAuthentication\` with our credential and our request options, the body read and parsed. It took ${ms(result.median.helper)} at ${DEFAULT_PARALLEL} at once and ${ms(result.median.helperAll)} with every item at once: what n8n-core and Node cost at each concurrency, whatever the node does.`,
	);
	if (httpRequest) {
		add(`${atDefault}: wall time (median of ${ROUNDS})`, result.median.ours, result.median.http, ms, "n8n's HTTP Request node (URL by expression)");
		add(`${atEight}: wall time (median of ${ROUNDS})`, result.median.ours8, result.median.http, ms, "n8n's HTTP Request node (URL by expression)");
		add(`${atOne}: wall time (median of ${ROUNDS})`, result.median.ours1, result.median.http, ms, "n8n's HTTP Request node (URL by expression)");
		add(`${atAll}: wall time (median of ${ROUNDS})`, result.median.oursAll, result.median.http, ms, "n8n's HTTP Request node (URL by expression)");
		notes.push(
			`Job Get with n8n's HTTP Request node: it starts every item's request at once (no batching set), so its 1,000 requests run concurrently; our node by default runs Parallel Requests Auto (from ${DEFAULT_PARALLEL} at once up to ${MAX_PARALLEL}), the plain client one at a time or ${DEFAULT_PARALLEL} at once (${DEFAULT_PARALLEL} keep-alive sockets).`,
		);
	}
}

// ---------------------------------------------------------------- Rate-limited sandbox

const RATE_LIMIT = 100;

/** 1,000 Job Gets against a sandbox that answers 429 (Retry-After 1) beyond RATE_LIMIT requests a second. */
async function rateLimited(sandbox: SandboxProcess, ours: CountingCredentialsHelper, ids: string[]): Promise<void> {
	log(`Job Get for ${ids.length} items against a rate limit of ${RATE_LIMIT} requests a second, at Parallel Requests 1, ${DEFAULT_PARALLEL} and Auto`);
	const admin = axios.create({ baseURL: `${sandbox.baseUrl}/__sandbox` });
	const run = async (parallel?: number) => {
		await admin.delete('/faults');
		await sandbox.clearRequests();
		await admin.post('/faults', { kind: 'rate-limit', method: 'GET', path: '/jobs/{id}', perSecond: RATE_LIMIT, retryAfterSeconds: 1 });
		// A fresh window: the limit counts from the first request.
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const { ms: took, value } = await timed(() => oursJobGet(ours, ids, parallel));
		check(value.length === ids.length, `rate-limited Job Get returned ${value.length} items`);
		const log = await sandbox.requests();
		const gets = log.filter((r) => r.route === '/jobs/{id}');
		const refused = gets.filter((r) => r.status === 429 || r.fault === 'rate-limit').length;
		return { ms: took, sent: gets.length, refused };
	};
	const one = await run(1);
	const many = await run(DEFAULT_PARALLEL);
	const auto = await run();
	await admin.delete('/faults');
	const label = `Job Get, ${ids.length.toLocaleString('en')} items, sandbox limited to ${RATE_LIMIT} requests/s (429, Retry-After 1), no latency`;
	add(`${label}: 429s received, Auto`, auto.refused, one.refused, String, 'our node at Parallel Requests 1');
	add(`${label}: 429s received, fixed ${DEFAULT_PARALLEL}`, many.refused, one.refused, String, 'our node at Parallel Requests 1');
	add(`${label}: wall time (one run), Auto`, auto.ms, one.ms, ms, 'our node at Parallel Requests 1');
	add(`${label}: wall time (one run), fixed ${DEFAULT_PARALLEL}`, many.ms, one.ms, ms, 'our node at Parallel Requests 1');
	notes.push(
		`Rate-limited Job Get, no latency: Auto ${auto.sent} requests, ${auto.refused} answered 429, ${ms(auto.ms)}; fixed ${DEFAULT_PARALLEL} ${many.sent} requests, ${many.refused} answered 429, ${ms(many.ms)}; at 1: ${one.sent} requests, ${one.refused} answered 429, ${ms(one.ms)}. Every item succeeded in all three (none gave up); at least ${Math.ceil(ids.length / RATE_LIMIT) - 1} s are the limit's own.`,
	);
}

// ---------------------------------------------------------------- Create + Wait for Completion

/** N items × Job Create (dry runs of 1 to 30 files) + Wait for Completion, in a sandbox at real speed. */
async function createAndWait(counts: number[]): Promise<void> {
	const POLL = 1;
	const sandbox = await startSandbox({ speed: 1 });
	try {
		const credentials = credentialsFor(sandbox);
		const files = DEMO_IDS.storageIds.files;
		for (const count of counts) {
			log(`${count} items × Create + Wait for Completion (Poll Interval ${POLL} s)`);
			const stamp = `${Date.now()}-${count}`;
			const folders = Array.from({ length: count }, (_, i) => {
				const folder = `/bench-wait-${stamp}-${i}`;
				const size = 1 + ((i * 7) % 30);
				for (let f = 0; f < size; f++) sandbox.control.writeFile(files, `${folder}/f${f}.txt`, 'x');
				return folder;
			});
			const { ms: took, value } = await timed(() =>
				runNode({
					credentials,
					parameters: {
						resource: 'job',
						operation: 'create',
						transferType: 'copy',
						sourceStorageId: { __rl: true, mode: 'id', value: files },
						sourcePath: '={{ $json.folder }}',
						targetStorageId: { __rl: true, mode: 'id', value: DEMO_IDS.storageIds.archive },
						targetPath: `/bench-wait-target-${stamp}`,
						conflictHandling: 'skip',
						dryRun: true,
						waitForCompletion: true,
						pollInterval: POLL,
					},
					items: folders.map((folder) => ({ json: { folder } })),
				}),
			);
			check(!value.error, `Create + Wait failed: ${value.error?.message}`);
			check(value.items.every((item) => item.json.status === 'finished'), 'a job did not finish');
			const spans = value.items.map((item) => {
				const stats = item.json.stats as { startedAt: string; finishedAt: string };
				return Date.parse(stats.finishedAt) - Date.parse(stats.startedAt);
			});
			const slowest = Math.max(...spans);
			const sum = spans.reduce((a, b) => a + b, 0);
			const checks = sandbox.requests.count({ method: 'GET', route: '/jobs/{id}' });
			add(
				`${count} items × Job Create + Wait for Completion (Poll Interval ${POLL} s): wall time (one run)`,
				took,
				slowest + POLL * 1000,
				ms,
				`slowest job (${ms(slowest)}) + one Poll Interval`,
			);
			notes.push(
				`${count} × Create + Wait: the jobs took ${ms(slowest)} at most and ${ms(sum)} together (what waiting one after another would take at least); ${checks} status requests in all, ${(checks / count).toFixed(1)} per job.`,
			);
			sandbox.requests.clear();
		}
	} finally {
		await sandbox.close();
	}
}

// ---------------------------------------------------------------- Token requests across 100 executions

async function tokens(sandbox: SandboxProcess): Promise<void> {
	log('token requests across 100 executions');
	const executions = 100;
	const run = async (expireEvery?: number) => {
		const credentials = credentialsFor(sandbox); // a new credential: no token stored yet
		await sandbox.clearRequests();
		for (let i = 0; i < executions; i++) {
			if (expireEvery && i > 0 && i % expireEvery === 0) await sandbox.expireTokens();
			const { error } = await runNode({ credentials, parameters: { resource: 'api', operation: 'getVersion' } });
			check(!error, `execution ${i} failed: ${error?.message}`);
		}
		return countRequests(await sandbox.requests());
	};
	const steady = await run();
	add('Token requests across 100 executions (API → Get Version)', steady.token, 1, String, 'one token for all (the minimum)');
	const expiring = await run(20);
	add(
		'Token requests across 100 executions, tokens revoked every 20',
		expiring.token,
		1 + Math.floor((executions - 1) / 20),
		String,
		'one per revocation + the first',
	);
	notes.push(
		`Tokens revoked every 20 executions: ${expiring.unauthorized} requests got 401 and were repeated once with a new token; every execution succeeded.`,
	);
}

// ---------------------------------------------------------------- Trigger

/** Inclusive time reported for the trigger's poll. */
const TRIGGER_INCLUSIVE = ['pollJobs', 'listSince', 'processWindow', 'toItems', 'jobJson', 'httpRequest', 'getDecrypted'];

async function trigger(sandbox: SandboxProcess): Promise<void> {
	const events = TRIGGER_EVENTS;
	const idlePolls = 20;
	log(`trigger: activation, ${idlePolls} idle polls, then ${events} jobs finishing`);
	const running = await sandbox.insertJobs(events, { status: 'running' });
	const handle = triggerHandle(credentialsFor(sandbox), {
		events: ['failed', 'finished', 'stuck'],
		filters: {},
		options: {},
	});
	await sandbox.clearRequests();
	check((await handle.poll()) === null, 'activation poll emitted items');
	const activation = countRequests(await sandbox.requests());

	await sandbox.clearRequests();
	for (let i = 0; i < idlePolls; i++) check((await handle.poll()) === null, 'idle poll emitted items');
	const idle = countRequests(await sandbox.requests());
	add(`Trigger: requests per idle poll (mean of ${idlePolls})`, idle.total / idlePolls, 1, (v) => v.toFixed(2), 'one list request (the minimum)');

	for (const id of running) await sandbox.setStatus(id, 'finished');
	await sandbox.clearRequests();
	// The poll that delivers the events, profiled unless --no-profile (the profiler slows it, not its requests).
	let items: INodeExecutionData[] = [];
	const deliver = async () => {
		items = (await handle.poll()) ?? [];
	};
	const pollProfile = flags['no-profile'] ? (await deliver(), undefined) : await profile(deliver, TRIGGER_INCLUSIVE);
	const busy = countRequests(await sandbox.requests());
	if (pollProfile) {
		profiles.push(...profileTable(`Our trigger, one poll delivering ${events.toLocaleString('en')} events`, pollProfile, busy.total));
	}
	check(items.length === events && new Set(items.map((item) => item.json.id)).size === events, `poll delivered ${items.length} events`);
	add(`Trigger: requests per ${events.toLocaleString('en')} events (one poll)`, busy.total, Math.ceil(events / 100), String, 'pages of 100 holding the events (the minimum)');
	notes.push(
		`Trigger activation (first poll, token included): ${activation.total} requests; the ${events} events came in one poll of ${busy.list} list requests.`,
	);
}

// ---------------------------------------------------------------- Peak memory (child processes)

interface MemoryResult {
	mode: string;
	records: number;
	ms: number;
	startRssMb: number;
	peakRssMb: number;
	maxRssMb: number;
	startHeapMb: number;
	peakHeapMb: number;
	/** heapUsed after a full gc at the fullest point (see memory-child.ts). */
	liveHeapMb: number;
}

type MemoryMode = 'ours' | 'plain' | 'http' | 'collect-map' | 'page-map';

function memoryChild(mode: MemoryMode, sandbox: SandboxProcess, expected: number): Promise<MemoryResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(
			NODE_BIN,
			['--expose-gc', '--import', 'tsx', 'bench/memory-child.ts', mode, sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret, String(expected)],
			{ cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('exit', (code) => {
			const line = stdout.trim().split('\n').pop() ?? '';
			if (code !== 0 || !line.startsWith('{')) {
				reject(new Error(`memory child (${mode}, ${expected}) exited with ${code}: ${stderr.slice(-2000)}`));
				return;
			}
			resolve(JSON.parse(line) as MemoryResult);
		});
	});
}

const growth = (result: MemoryResult) => result.peakHeapMb - result.startHeapMb;
const live = (result: MemoryResult) => result.liveHeapMb - result.startHeapMb;

async function memory(sandbox: SandboxProcess, total: number, withHttp: boolean): Promise<void> {
	const label = total.toLocaleString('en');
	log(`peak memory of Return All over ${label} jobs (each in a fresh child process)`);
	const ours = await memoryChild('ours', sandbox, total);
	const plain = await memoryChild('plain', sandbox, total);
	const http = withHttp ? await memoryChild('http', sandbox, total) : undefined;
	add(`Return All, ${label} jobs: peak heap growth (peak heapUsed − heapUsed before the run)`, growth(ours), growth(plain), mb, 'plain client (keep-alive)');
	add(`Return All, ${label} jobs: peak RSS of the process (maxRSS)`, ours.maxRssMb, plain.maxRssMb, mb, 'plain client (keep-alive)');
	if (http) {
		add(`Return All, ${label} jobs: peak heap growth`, growth(ours), growth(http), mb, HTTP_NODE);
		add(`Return All, ${label} jobs: peak RSS of the process (maxRSS)`, ours.maxRssMb, http.maxRssMb, mb, HTTP_NODE);
		add(`Return All, ${label} jobs: live heap at the end (after a full gc, the output still held)`, live(ours), live(http), mb, HTTP_NODE);
	}
	if (total > 10_000) {
		notes.push(
			`Return All over ${label} jobs in the memory child, one run each, for orientation only (server-bound: every page of a large collection costs the sandbox a pass over it): ours ${ms(ours.ms)}, plain ${ms(plain.ms)}` +
				(http ? `, HTTP Request node ${ms(http.ms)}.` : '.'),
		);
	}
	notes.push(
		`Memory, ${label} jobs: RSS before the run (modules loaded, after gc) ours ${mb(ours.startRssMb)}, plain ${mb(plain.startRssMb)}` +
			(http ? `, HTTP Request node ${mb(http.startRssMb)}` : '') +
			'; so compare heap growth for the work itself, RSS for what the process costs. Peak heap depends on when the collector runs: expect 10–20 MB differences between runs.',
	);
	if (total > 10_000 && !flags['no-profile']) {
		log(`memory experiment at ${label} jobs: items made after collecting every job vs page by page`);
		const collect = await memoryChild('collect-map', sandbox, total);
		const perPage = await memoryChild('page-map', sandbox, total);
		findings.push(
			`- Memory, ${label} jobs, outside n8n (plain client + our node's \`jobJson\`), live heap after a full gc at the fullest point / peak heap growth: collecting every job and then mapping them to items (every job in memory at once): ${mb(live(collect))} / ${mb(growth(collect))}; mapping each page to items as it arrives (what Job → Get Many does, \`apiRequestAllItems\` with \`map\`): ${mb(live(perPage))} / ${mb(growth(perPage))}. For reference, the raw jobs alone (plain client) ${mb(live(plain))} / ${mb(growth(plain))}; our node's output items at the end of its run ${mb(live(ours))}.`,
		);
	}
}

// ---------------------------------------------------------------- Where our time goes

const findings: string[] = [];
const profiles: string[] = [];
const INCLUSIVE = [
	'router',
	'getDecrypted',
	'applyDefaultsAndExpressions',
	'resolveSimpleParameterValue',
	'requestOAuth2',
	'httpRequest',
	'convertN8nRequestToAxios',
	'invokeAxios',
	'jobJson',
];

function profileTable(title: string, summary: ProfileSummary, requests: number): string[] {
	const sampled = summary.categories.reduce((sum, c) => sum + c.ms, 0);
	const lines = [
		`#### ${title}`,
		'',
		`${requests} requests; ${ms(sampled)} sampled (the profiler slows the run down; "(idle)" is waiting for the sandbox).`,
		'',
		'| Self time in (builtins counted for their caller) | ms | share | ms per request |',
		'|---|---:|---:|---:|',
	];
	for (const { name, ms: took } of summary.categories.filter((c) => c.ms >= 1)) {
		lines.push(`| ${name} | ${took.toFixed(0)} | ${((took / sampled) * 100).toFixed(0)}% | ${(took / requests).toFixed(3)} |`);
	}
	const inclusive = Object.entries(summary.inclusive).filter(([, took]) => took > 0);
	if (inclusive.length > 0) {
		lines.push('', '| Inclusive time of | ms | ms per request |', '|---|---:|---:|');
		for (const [name, took] of inclusive) lines.push(`| \`${name}\` | ${took.toFixed(0)} | ${(took / requests).toFixed(3)} |`);
	}
	lines.push('');
	return lines;
}

async function whereTimeGoes(
	plain: PlainClient,
	ours: CountingCredentialsHelper,
	ids: string[],
	total: number,
): Promise<string[]> {
	log('profiling: connections, credential look-ups, CPU profiles');
	const out: string[] = [];
	const pages = Math.ceil(total / 100);
	const plainConnections = await countConnections(() => plain.listAllJobs());
	const oursConnections = await countConnections(() => oursReturnAll(ours));
	ours.resetCounters();
	const listRun = await timed(() => oursReturnAll(ours));
	const list = { calls: ours.decryptCalls / pages, ms: ours.decryptMs / pages, share: ours.decryptMs / listRun.ms };
	ours.resetCounters();
	const getRun = await timed(() => oursJobGet(ours, ids));
	const get = { calls: ours.decryptCalls / ids.length, ms: ours.decryptMs / ids.length, share: ours.decryptMs / getRun.ms };

	const perRequest = (compared: Compared | undefined, name: string, count: number) =>
		compared && name in compared.median ? `${(compared.median[name] / count).toFixed(2)} ms` : 'n/a';
	out.push(
		'Wall time per request (medians of the timed rounds above):',
		'',
		`| | Return All, ${total.toLocaleString('en')} jobs (per page of 100) | Job Get (per item) |`,
		'|---|---:|---:|',
		`| plain client, keep-alive | ${perRequest(measured.returnAll, 'plain', pages)} | ${perRequest(measured.jobGet, 'plain', ids.length)} |`,
		`| plain client, new TCP connection per request | ${perRequest(measured.returnAll, 'noKeepAlive', pages)} | ${perRequest(measured.jobGet, 'noKeepAlive', ids.length)} |`,
		`| n8n's HTTP Request node (pagination; per item: concurrent requests) | ${perRequest(measured.returnAll, 'http', pages)} | ${perRequest(measured.jobGet, 'http', ids.length)} |`,
		`| our node in n8n-core | ${perRequest(measured.returnAll, 'ours', pages)} | ${perRequest(measured.jobGet, 'ours', ids.length)} |`,
		`| … of which credential look-ups (\`getDecrypted\`, test helper) | ${list.ms.toFixed(2)} ms (${list.calls.toFixed(1)} calls) | ${get.ms.toFixed(2)} ms (${get.calls.toFixed(1)} calls) |`,
		'',
		`- TCP connections opened by one Return All over ${total.toLocaleString('en')} jobs: our node ${oursConnections}, plain client ${plainConnections} (one keep-alive socket, reused). n8n-core's request helpers build new http.Agents for every request (@n8n/backend-network \`setAxiosAgents\` → \`buildNodeAgents\`), so no socket is reused.`,
		`- Credential look-ups: ${list.calls.toFixed(1)} per request; ${(list.share * 100).toFixed(0)}% of a Return All run, ${(get.share * 100).toFixed(0)}% of a Job Get run (${ms(getRun.ms)}) with the test credentials helper, which resolves the credential's expressions but reads no database.`,
	);
	const plainProfile = await profile(() => plain.listAllJobs(), INCLUSIVE);
	const oursProfile = await profile(() => oursReturnAll(ours), INCLUSIVE);
	const getProfile = await profile(() => oursJobGet(ours, ids), INCLUSIVE);
	profiles.push(
		'CPU profiles (V8 sampling profiler, 100 µs, in-process):',
		'',
		...profileTable(`Plain client, Return All over ${total.toLocaleString('en')} jobs`, plainProfile, pages),
		...profileTable(`Our node, Return All over ${total.toLocaleString('en')} jobs`, oursProfile, pages),
		...profileTable(`Our node, Job Get for ${ids.length.toLocaleString('en')} items`, getProfile, ids.length),
	);
	return out;
}

// ---------------------------------------------------------------- Output

function table(): string[] {
	const lines = ['| Metric | Ours | Baseline | Ratio (ours / baseline) | Baseline is |', '|---|---:|---:|---:|---|'];
	for (const row of rows) lines.push(`| ${row.metric} | ${row.ours} | ${row.baseline} | ${row.ratio} | ${row.against} |`);
	return lines;
}

function writeResults(startedAt: Date, seconds: number, loadBefore: number[], profileLines: string[]): string {
	const m = machine();
	const body = [
		'# Benchmark results',
		'',
		`- Date: ${startedAt.toISOString()}`,
		`- Command: \`${COMMAND}\``,
		`- Machine: ${m.cpus} CPUs (nproc) ${m.cpuModel}, ${m.memoryGb} GB RAM, ${m.os}; Node ${m.node}; n8n-core / n8n-workflow from the project, HTTP Request node from n8n ${N8N_VERSION} (.n8n-cache/)`,
		`- Load average before the run: ${loadBefore.map((v) => v.toFixed(2)).join(', ')} (other processes share these cores; ratios within one run are the figures to read)`,
		`- Sandbox in its own process on 127.0.0.1; wall times are medians of ${ROUNDS} rounds after a warm-up run; whole run ${seconds.toFixed(0)} s`,
		'',
		...table(),
		'',
		...notes.map((note) => `- ${note}`),
		...autoSection,
		'',
	];
	if (profileLines.length > 0) body.push('## Where our time goes', '', ...profileLines, ...findings, '', ...profiles);
	const text = `${body.join('\n')}\n`;
	fs.writeFileSync(path.join(projectRoot, 'bench', 'results.md'), text);
	return text;
}

/** Replaces the figures between the markers of bench/README.md with this run's table. */
function updateReadme(startedAt: Date, loadBefore: number[]): void {
	const file = path.join(projectRoot, 'bench', 'README.md');
	if (!fs.existsSync(file)) return;
	const text = fs.readFileSync(file, 'utf8');
	const begin = '<!-- figures:begin -->';
	const end = '<!-- figures:end -->';
	const from = text.indexOf(begin);
	const to = text.indexOf(end);
	if (from < 0 || to < from) return;
	const m = machine();
	const figures = [
		begin,
		`Measured ${startedAt.toISOString().slice(0, 10)} with \`${COMMAND}\` on ${m.cpus} CPUs (${m.cpuModel}), Node ${m.node}, load average ${loadBefore[0].toFixed(1)} before the run:`,
		'',
		...table(),
		'',
		...notes.map((note) => `- ${note}`),
		...autoSection,
		end,
	].join('\n');
	fs.writeFileSync(file, text.slice(0, from) + figures + text.slice(to + end.length));
}

// ---------------------------------------------------------------- Against a base commit (--base)

const BASE_BEGIN = '<!-- base:begin -->';
const BASE_END = '<!-- base:end -->';

/** This run's arguments without `--base <commit>`. */
function argsWithoutBase(args: string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--base') i++;
		else if (!args[i].startsWith('--base=')) out.push(args[i]);
	}
	return out;
}

/**
 * The bench at the working tree (twice: before and after the base's, for the noise) and at `commit` (once, its
 * own code and dependencies), each in a child process; then every row side by side (bench/lib/base.ts).
 */
async function againstBase(commit: string): Promise<void> {
	const startedAt = new Date();
	const loadBefore = os.loadavg();
	const sha = resolveCommit(commit);
	const short = sha.slice(0, 7);
	if (await prepareHttpRequestNode()) log(`HTTP Request node from n8n ${N8N_VERSION} in .n8n-cache/, for both trees`);
	const tree = prepareBaseTree(sha, log);
	const args = argsWithoutBase(process.argv.slice(2));
	const takesValue = (name: string) => (OPTIONS as Record<string, { type: string }>)[name]?.type === 'string';
	// n8n is installed (or its absence noted) above: no child installs it, and only the last head run writes the README.
	const forBase = flagsFor([...args, '--no-install', '--no-readme'], knownFlags(tree), takesValue);
	const env = { FTM_N8N_VERSION: N8N_VERSION };
	const seconds: number[] = [];
	const timedRun = async (dir: string, runArgs: string[], label: string) => {
		log(`${label}: bench/run.ts ${runArgs.join(' ')}`);
		const start = Date.now();
		const output = await runBench(dir, runArgs, label, env);
		seconds.push((Date.now() - start) / 1000);
		return output;
	};
	const head1 = await timedRun(projectRoot, [...args, '--no-install', ...(flags['no-readme'] ? [] : ['--no-readme'])], 'head, run 1');
	const base = await timedRun(tree, forBase.pass, `base ${short}`);
	const head2 = await timedRun(projectRoot, [...args, '--no-install'], 'head, run 2');
	const { lines, within, outside, oneSided, higher, lower, varying } = compareRows(parseRows(base), parseRows(head1), parseRows(head2), short);
	const loadAfter = os.loadavg();
	const m = machine();
	const section = [
		`## Against ${short} (\`${COMMAND}\`)`,
		'',
		`Measured ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.cpus} CPUs (${m.cpuModel}), Node ${m.node}, load average ${loadBefore[0].toFixed(1)} before and ${loadAfter[0].toFixed(1)} after; head run 1, base, head run 2 took ${seconds.map((s) => `${s.toFixed(0)} s`).join(', ')}.`,
		`The base ran its own bench/run.ts${forBase.pass.length ? ` with \`${forBase.pass.join(' ')}\`` : ''}${forBase.dropped.length ? `; flags it lacks, so not given to it: \`${forBase.dropped.join(' ')}\`` : ''}.`,
		"Each row's figure: the ratio (ours / baseline) for the main table, the measured value for the checks, the median wall time for the Auto variants. Noise: |head run 1 − head run 2|; within the noise when |base − the mean of the head runs| ≤ the noise.",
		`${within} rows within the noise or the same, ${outside} outside it (head higher: ${higher}, lower: ${lower}), ${oneSided} printed by one side only.`,
		`By chance alone: with no change, a row whose runs vary falls outside this noise ${Math.round(OUTSIDE_BY_CHANCE * 100)} % of the time (three draws of one normal distribution); ${varying} rows varied here, so about ${Math.round(OUTSIDE_BY_CHANCE * varying)} outside are what chance gives. A change shows as more than that, or as rows leaning one way.`,
		'',
		...lines,
	];
	process.stdout.write(`\n${section.join('\n')}\n\n`);
	const results = path.join(projectRoot, 'bench', 'results.md');
	fs.appendFileSync(results, `\n${section.join('\n')}\n`);
	if (!flags['no-readme']) {
		const file = path.join(projectRoot, 'bench', 'README.md');
		const text = fs.readFileSync(file, 'utf8');
		const from = text.indexOf(BASE_BEGIN);
		const to = text.indexOf(BASE_END);
		if (from >= 0 && to > from) {
			const block = [BASE_BEGIN, ...section.slice(2), BASE_END].join('\n');
			fs.writeFileSync(file, text.slice(0, from) + block + text.slice(to + BASE_END.length));
		}
	}
	log(`done in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s; the comparison appended to bench/results.md`);
}

async function main(): Promise<void> {
	if (flags.base) {
		await againstBase(flags.base);
		return;
	}
	assertNodeBin();
	const startedAt = new Date();
	const loadBefore = os.loadavg();
	const TOTAL = 10_000;
	const BIG = 100_000;
	let concurrency: string[] = [];

	const httpRequest = await prepareHttpRequestNode();
	if (httpRequest) log(`HTTP Request node loaded from ${httpRequestNodePath()}`);
	const sandbox = await startSandboxProcess();
	log(`sandbox (pid ${sandbox.pid}) at ${sandbox.baseUrl}`);
	const clients = {
		plain: new PlainClient(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret),
		noKeepAlive: new PlainClient(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret, false),
		parallel: new PlainClient(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret, true, DEFAULT_PARALLEL),
	};
	let profileLines: string[] = [];
	try {
		const ids = await sandbox.insertJobs(TOTAL);
		const ours = new CountingCredentialsHelper();
		ours.set({ baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
		const header = new CountingCredentialsHelper();
		header.headerValue = `Bearer ${await clients.plain.bearerToken()}`;

		await returnAll(sandbox, clients, ours, httpRequest, header, TOTAL);
		await jobGet(sandbox, clients, ours, ids.slice(0, 1000), httpRequest, header);
		await rateLimited(sandbox, ours, ids.slice(0, 1000));
		if (!flags['no-concurrency']) {
			concurrency = await concurrencyBench({
				sandbox,
				ours,
				header,
				httpRequest,
				ids: ids.slice(0, 1000),
				total: TOTAL,
				rounds: Math.max(1, Number(flags['concurrency-rounds']) || 3),
				log,
			});
		}
		if (!flags['no-memory']) await memory(sandbox, TOTAL, httpRequest !== undefined);
		if (!flags['no-profile']) profileLines = await whereTimeGoes(clients.plain, ours, ids.slice(0, 1000), TOTAL);
		// Revokes every token issued so far: runs after everything that reuses one.
		await tokens(sandbox);
		await trigger(sandbox);
		if (!flags['no-memory']) {
			log(`topping the sandbox up to ${BIG.toLocaleString('en')} jobs`);
			await sandbox.insertJobs(BIG - TOTAL - TRIGGER_EVENTS);
			await memory(sandbox, BIG, httpRequest !== undefined);
		}
	} finally {
		clients.plain.close();
		clients.noKeepAlive.close();
		clients.parallel.close();
		await sandbox.close();
	}
	if (!flags['no-wait']) await createAndWait([10, 100]);
	const seconds = (Date.now() - startedAt.getTime()) / 1000;
	autoSection = concurrency.length > 0 ? ['', '### Parallel Requests Auto against a service with a network', '', SECTION_BEGIN, ...concurrency, SECTION_END] : [];
	writeResults(startedAt, seconds, loadBefore, profileLines);
	if (!flags['no-readme']) updateReadme(startedAt, loadBefore);
	process.stdout.write(`\n${table().join('\n')}\n\n${notes.map((note) => `- ${note}`).join('\n')}\n${autoSection.join('\n')}\n\n`);
	log(`done in ${seconds.toFixed(0)} s; written to bench/results.md`);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
