/**
 * npm run bench [-- --no-install] [--rounds 5] [--no-memory] [--no-profile] [--no-readme]
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
import type { IVersionedNodeType } from 'n8n-workflow';

import { ensureN8nInstalled, readValidMarker } from '../scripts/n8n/install';
import { N8N_VERSION } from '../scripts/n8n/paths';
import { credentialsFor, runNode, triggerHandle } from '../test/harness/engine';
import { assertNodeBin, machine, NODE_BIN, projectRoot } from './lib/env';
import { CountingCredentialsHelper, httpRequestNodePath, loadHttpRequestNode } from './lib/n8n';
import { PlainClient } from './lib/plain-client';
import { profile, type ProfileSummary } from './lib/profile';
import { countRequests, startSandboxProcess, type SandboxProcess } from './lib/sandbox-process';
import { httpNodeReturnAll, oursJobGet, oursReturnAll, recordsInPages } from './lib/workloads';

const { values: flags } = parseArgs({
	options: {
		'no-install': { type: 'boolean', default: false },
		rounds: { type: 'string', default: '5' },
		'no-memory': { type: 'boolean', default: false },
		'no-profile': { type: 'boolean', default: false },
		'no-readme': { type: 'boolean', default: false },
	},
});
const ROUNDS = Math.max(1, Number(flags.rounds) || 5);
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
const rows: Row[] = [];
const notes: string[] = [];
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const ms = (value: number) => `${value.toFixed(0)} ms`;
const mb = (value: number) => `${value.toFixed(0)} MB`;
const ratio = (ours: number, baseline: number) => (baseline > 0 ? `${(ours / baseline).toFixed(2)}×` : 'n/a');
const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

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

// ---------------------------------------------------------------- Return All over 10,000 jobs

async function returnAll(
	sandbox: SandboxProcess,
	plain: PlainClient,
	ours: CountingCredentialsHelper,
	httpRequest: IVersionedNodeType | undefined,
	header: CountingCredentialsHelper,
	total: number,
): Promise<void> {
	log(`Return All over ${total.toLocaleString('en')} jobs: warm-up, then ${ROUNDS} rounds`);
	const variants: Array<{ name: string; run: () => Promise<number> }> = [
		{ name: 'plain', run: async () => (await plain.listAllJobs()).length },
		{ name: 'ours', run: async () => (await oursReturnAll(ours)).length },
	];
	if (httpRequest) {
		variants.push({
			name: 'http',
			run: async () => recordsInPages(await httpNodeReturnAll(httpRequest, header, sandbox.baseUrl)),
		});
	}
	const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
	const requests = new Map<string, ReturnType<typeof countRequests>>();
	for (const variant of variants) {
		await sandbox.clearRequests();
		const records = await variant.run(); // warm-up; also fetches our node's token
		check(records === total, `${variant.name} returned ${records} records, expected ${total}`);
		requests.set(variant.name, countRequests(await sandbox.requests()));
	}
	for (let round = 0; round < ROUNDS; round++) {
		// Rotate the order so that no variant always runs right after another one.
		for (let i = 0; i < variants.length; i++) {
			const variant = variants[(i + round) % variants.length];
			const { ms: took, value } = await timed(variant.run);
			check(value === total, `${variant.name} returned ${value}`);
			times.get(variant.name)?.push(took);
		}
	}
	const t = (name: string) => median(times.get(name) ?? []);
	const label = `${(total / 1000).toFixed(0)},000`;
	add(`Return All, ${label} jobs: wall time (median of ${ROUNDS})`, t('ours'), t('plain'), ms, 'plain client');
	const oursReq = requests.get('ours');
	const plainReq = requests.get('plain');
	if (oursReq && plainReq) {
		add(
			`Return All, ${label} jobs: requests (first run, token included)`,
			oursReq.total,
			plainReq.total,
			String,
			'plain client',
		);
	}
	if (httpRequest) {
		add(`Return All, ${label} jobs: wall time (median of ${ROUNDS})`, t('ours'), t('http'), ms, "n8n's HTTP Request node, pagination");
		const httpReq = requests.get('http');
		if (oursReq && httpReq) {
			notes.push(
				`HTTP Request node: ${httpReq.list} list requests for ${total} jobs (its token was fetched beforehand, as a Bearer header credential); it outputs one item per page (${Math.ceil(total / 100)} items holding \`data\` arrays), our node one item per job.`,
			);
			add(`Return All, ${label} jobs: requests (token excluded)`, oursReq.list, httpReq.list, String, "n8n's HTTP Request node, pagination");
		}
	} else {
		rows.push({
			metric: `Return All, ${label} jobs: wall time`,
			ours: ms(t('ours')),
			baseline: 'skipped',
			ratio: 'n/a',
			against: "n8n's HTTP Request node (n8n not installed, --no-install)",
		});
	}
	const perRequest = (name: string) => t(name) / (total / 100);
	notes.push(
		`Per list request (100 jobs): ours ${perRequest('ours').toFixed(2)} ms, plain ${perRequest('plain').toFixed(2)} ms` +
			(httpRequest ? `, HTTP Request node ${perRequest('http').toFixed(2)} ms.` : '.'),
	);
}

// ---------------------------------------------------------------- Job Get for 1,000 items

async function jobGet(sandbox: SandboxProcess, plain: PlainClient, ours: CountingCredentialsHelper, ids: string[]): Promise<void> {
	log(`Job Get for ${ids.length} input items: warm-up, then ${ROUNDS} rounds`);
	const runPlain = async () => {
		let count = 0;
		for (const id of ids) if ((await plain.getJob(id)).id === id) count++;
		return count;
	};
	const runOurs = async () => (await oursJobGet(ours, ids)).filter((item, i) => item.json.id === ids[i]).length;
	const requests: Record<string, number> = {};
	for (const [name, run] of [['plain', runPlain], ['ours', runOurs]] as const) {
		await sandbox.clearRequests();
		check((await run()) === ids.length, `${name} Job Get did not return every job in order`);
		requests[name] = countRequests(await sandbox.requests()).get;
	}
	const times: Record<string, number[]> = { plain: [], ours: [] };
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 ? (['ours', 'plain'] as const) : (['plain', 'ours'] as const);
		for (const name of order) times[name].push((await timed(name === 'plain' ? runPlain : runOurs)).ms);
	}
	add(`Job Get, ${ids.length.toLocaleString('en')} input items: wall time (median of ${ROUNDS})`, median(times.ours), median(times.plain), ms, 'plain client');
	add(`Job Get, ${ids.length.toLocaleString('en')} input items: requests`, requests.ours, requests.plain, String, 'plain client');
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
	const items = (await handle.poll()) ?? [];
	const busy = countRequests(await sandbox.requests());
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
}

function memoryChild(mode: 'ours' | 'plain' | 'http', sandbox: SandboxProcess, expected: number): Promise<MemoryResult> {
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

async function memory(sandbox: SandboxProcess, total: number, withHttp: boolean): Promise<void> {
	const label = total.toLocaleString('en');
	log(`peak memory of Return All over ${label} jobs (each in a fresh child process)`);
	const ours = await memoryChild('ours', sandbox, total);
	const plain = await memoryChild('plain', sandbox, total);
	add(`Return All, ${label} jobs: peak RSS of the process`, ours.maxRssMb, plain.maxRssMb, mb, 'plain client');
	add(
		`Return All, ${label} jobs: peak heap growth (peak heapUsed − heapUsed before)`,
		ours.peakHeapMb - ours.startHeapMb,
		plain.peakHeapMb - plain.startHeapMb,
		mb,
		'plain client',
	);
	let line = `Memory, ${label} jobs: RSS before the run ours ${mb(ours.startRssMb)} (n8n-core and our node loaded), plain ${mb(plain.startRssMb)}; wall time in the child ours ${ms(ours.ms)}, plain ${ms(plain.ms)}`;
	if (withHttp) {
		const http = await memoryChild('http', sandbox, total);
		add(`Return All, ${label} jobs: peak RSS of the process`, ours.maxRssMb, http.maxRssMb, mb, "n8n's HTTP Request node, pagination");
		add(
			`Return All, ${label} jobs: peak heap growth`,
			ours.peakHeapMb - ours.startHeapMb,
			http.peakHeapMb - http.startHeapMb,
			mb,
			"n8n's HTTP Request node, pagination",
		);
		line += `, HTTP Request node ${ms(http.ms)} (RSS before ${mb(http.startRssMb)})`;
	}
	notes.push(`${line}.`);
}

// ---------------------------------------------------------------- Where our time goes

const INCLUSIVE = ['getDecrypted', 'applyDefaultsAndExpressions', 'requestOAuth2', 'httpRequest', 'jobJson', 'getNodeParameter'];

function profileTable(title: string, summary: ProfileSummary, requests: number): string[] {
	const lines = [`#### ${title}`, '', `Profiled wall time ${ms(summary.wallMs)} for ${requests} requests (the profiler slows the run down).`, ''];
	lines.push('| CPU time by code | ms | ms per request |', '|---|---:|---:|');
	for (const { name, ms: took } of summary.categories.filter((c) => c.ms >= 1)) {
		lines.push(`| ${name} | ${took.toFixed(0)} | ${(took / requests).toFixed(3)} |`);
	}
	lines.push('', '| Inclusive CPU time of | ms | ms per request |', '|---|---:|---:|');
	for (const [name, took] of Object.entries(summary.inclusive)) {
		lines.push(`| \`${name}\` | ${took.toFixed(0)} | ${(took / requests).toFixed(3)} |`);
	}
	lines.push('');
	return lines;
}

async function whereTimeGoes(
	sandbox: SandboxProcess,
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
	await oursReturnAll(ours);
	const decryptPerRequest = ours.decryptCalls / pages;
	const decryptMsPerRequest = ours.decryptMs / pages;
	ours.resetCounters();
	const getTime = await timed(() => oursJobGet(ours, ids));
	out.push(
		`- TCP connections opened for Return All over ${total.toLocaleString('en')} jobs (${pages} requests): ours ${oursConnections}, plain client ${plainConnections} (its keep-alive socket was open already).`,
		`- Credential look-ups (\`credentialsHelper.getDecrypted\`): ${decryptPerRequest.toFixed(1)} per request, ${decryptMsPerRequest.toFixed(2)} ms per request in Return All; in Job Get ${(ours.decryptCalls / ids.length).toFixed(1)} per item, ${(ours.decryptMs / ids.length).toFixed(2)} ms per item (${((ours.decryptMs / getTime.ms) * 100).toFixed(0)}% of that run's ${ms(getTime.ms)}).`,
		'',
	);
	const plainProfile = await profile(() => plain.listAllJobs(), INCLUSIVE);
	const oursProfile = await profile(() => oursReturnAll(ours), INCLUSIVE);
	const getProfile = await profile(() => oursJobGet(ours, ids), INCLUSIVE);
	out.push(
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
		'',
	];
	if (profileLines.length > 0) body.push('## Where our time goes', '', ...profileLines);
	const text = `${body.join('\n')}\n`;
	fs.writeFileSync(path.join(projectRoot, 'bench', 'results.md'), text);
	return text;
}

/** Replaces the figures between the markers of bench/README.md with this run's table. */
function updateReadme(startedAt: Date): void {
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
		`Measured ${startedAt.toISOString().slice(0, 10)} with \`${COMMAND}\` on ${m.cpus} CPUs (${m.cpuModel}), Node ${m.node}:`,
		'',
		...table(),
		'',
		...notes.map((note) => `- ${note}`),
		end,
	].join('\n');
	fs.writeFileSync(file, text.slice(0, from) + figures + text.slice(to + end.length));
}

async function main(): Promise<void> {
	assertNodeBin();
	const startedAt = new Date();
	const loadBefore = os.loadavg();
	const TOTAL = 10_000;
	const BIG = 100_000;

	const httpRequest = await prepareHttpRequestNode();
	if (httpRequest) log(`HTTP Request node loaded from ${httpRequestNodePath()}`);
	const sandbox = await startSandboxProcess();
	log(`sandbox (pid ${sandbox.pid}) at ${sandbox.baseUrl}`);
	const plain = new PlainClient(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret);
	let profileLines: string[] = [];
	try {
		const ids = await sandbox.insertJobs(TOTAL);
		const ours = new CountingCredentialsHelper();
		ours.set({ baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
		const header = new CountingCredentialsHelper();
		header.headerValue = `Bearer ${await plain.bearerToken()}`;

		await returnAll(sandbox, plain, ours, httpRequest, header, TOTAL);
		await jobGet(sandbox, plain, ours, ids.slice(0, 1000));
		if (!flags['no-memory']) await memory(sandbox, TOTAL, httpRequest !== undefined);
		if (!flags['no-profile']) profileLines = await whereTimeGoes(sandbox, plain, ours, ids.slice(0, 1000), TOTAL);
		await tokens(sandbox);
		await trigger(sandbox);
		if (!flags['no-memory']) {
			log(`topping the sandbox up to ${BIG.toLocaleString('en')} jobs`);
			await sandbox.insertJobs(BIG - TOTAL - TRIGGER_EVENTS);
			await memory(sandbox, BIG, httpRequest !== undefined);
		}
	} finally {
		plain.close();
		await sandbox.close();
	}
	const seconds = (Date.now() - startedAt.getTime()) / 1000;
	writeResults(startedAt, seconds, loadBefore, profileLines);
	if (!flags['no-readme']) updateReadme(startedAt);
	process.stdout.write(`\n${table().join('\n')}\n\n${notes.map((note) => `- ${note}`).join('\n')}\n\n`);
	log(`done in ${seconds.toFixed(0)} s; written to bench/results.md`);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
