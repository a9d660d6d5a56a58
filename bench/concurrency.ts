/**
 * Parallel Requests "Auto" against fixed numbers and n8n's HTTP Request node, with the sandbox's network
 * and capacity model (sandbox/README.md › Network and capacity model): a healthy service 40 ± 10 ms away, one
 * that serves 16 at once (503 beyond a queue of 64) and one that allows 100 requests a second (429 beyond).
 * Auto runs twice in each: a first execution, which starts as in a new n8n process (nothing learnt), and a
 * second one on the same service in the same process, which starts from what the first learnt
 * (transport/pace/remembered.ts).
 * Run by `npm run bench` (bench/run.ts) and alone with `npx tsx bench/concurrency.ts [--rounds 3]
 * [--only healthy,capacity,rate] [--base DIR] [--readme]`: `--base` also runs Auto from another checkout of the
 * project (its test/harness/engine.ts; its node_modules may be a link to this one's), for a comparison within
 * one run; `--readme` writes the section, dated, into bench/README.md's figures.
 *
 * It prints and returns Markdown: a table per scenario, the acceptance ratios, and writes the traces of
 * requests in service at the sandbox over time (bench/trace-*.svg). Nothing is asserted.
 */
import './lib/resolve-node-ts';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import axios from 'axios';
import type { INode, INodeExecutionData, IVersionedNodeType } from 'n8n-workflow';

import type { NetworkSettings, RequestRecord } from '../sandbox/src/api';
import { runNode } from '../test/harness/engine';
import { forgetRemembered } from '../nodes/shared/transport/pace/remembered';
import { sleep } from '../scripts/n8n/waiting';
import { machine, projectRoot } from './lib/env';
import type { CountingCredentialsHelper } from './lib/n8n';
import { httpRequestGetNode, loadHttpRequestNode, nodeTypesWith, runSingleNode } from './lib/n8n';
import { PlainClient } from './lib/plain-client';
import type { Chart } from './lib/plot';
import { inFlightSeries, lineChartSvg } from './lib/plot';
import { median, ms } from './lib/figures';
import type { SandboxProcess } from './lib/sandbox-process';
import { startSandboxProcess } from './lib/sandbox-process';
import { httpNodeReturnAll, oursReturnAll, recordsInPages } from './lib/workloads';

const HEALTHY: NetworkSettings = { latencyMs: 40, jitterMs: 10 };
const CAPACITY: NetworkSettings = { ...HEALTHY, capacity: 16, queue: 64, overloadRetryAfterSeconds: 1 };
const RATE = 100;

/** The node's code a variant runs: this checkout's, or another's (`--base`). */
interface NodeCode {
	/** How the rows name it: '' for this checkout. */
	name: string;
	runNode: typeof runNode;
	/** Forgets what Auto learnt, as a new n8n process (nothing to forget in code that keeps nothing). */
	forget: () => void;
}

const THIS_CODE: NodeCode = { name: '', runNode, forget: forgetRemembered };

/**
 * How one variant sends 1,000 Job Gets. Auto (no `parallel`) runs as a first execution (nothing learnt) or as
 * the second one on the same service in the same process.
 */
type Variant =
	| { kind: 'ours'; label: string; parallel?: number; second?: boolean; code?: NodeCode }
	| { kind: 'http'; label: string; batch?: { batchSize: number; batchInterval: number } };

const isAuto = (v: Variant): v is Extract<Variant, { kind: 'ours' }> => v.kind === 'ours' && v.parallel === undefined;

/** Auto's two executions, from this checkout and from the `--base` one. */
function autoVariants(ctx: ConcurrencyContext): Variant[] {
	return [THIS_CODE, ...(ctx.base ? [ctx.base] : [])].flatMap((code): Variant[] => {
		const of = code.name ? `, ${code.name}` : '';
		return [
			{ kind: 'ours', label: `Auto${of}, first execution`, code },
			{ kind: 'ours', label: `Auto${of}, second execution`, code, second: true },
		];
	});
}

interface Outcome {
	label: string;
	ms: number;
	/**
	 * CPU time the n8n side's process spent on the run, all its threads (with rounds: the median). Where it comes
	 * close to `ms`, the client's CPU, not the service or the limit, sets the pace.
	 */
	cpuMs: number;
	/** With rounds: the fastest and slowest of them (`ms` is their median). */
	range?: [number, number];
	/** Answers 429 or 503 the sandbox sent to this run (with rounds: the most in one round). */
	refused: number;
	/** Items that failed (with rounds: the most in one round). */
	failed: number;
	requests: number;
	peakInFlight: number;
	spans: Array<[number, number]>;
}

export interface ConcurrencyContext {
	sandbox: SandboxProcess;
	/** Our OAuth2 credential (token kept between runs), and the HTTP Request node's Header Auth. */
	ours: CountingCredentialsHelper;
	header: CountingCredentialsHelper;
	httpRequest: IVersionedNodeType | undefined;
	/** 1,000 job IDs for Job Get; the sandbox holds `total` jobs for Return All. */
	ids: string[];
	total: number;
	rounds: number;
	log: (line: string) => void;
	/** Another checkout's node to run Auto from as well (`--base`). */
	base?: NodeCode;
}

const x = (value: number) => `${value.toFixed(2)}×`;

function httpJobGetNode(baseUrl: string, batch?: { batchSize: number; batchInterval: number }): INode {
	const node = httpRequestGetNode(baseUrl);
	const options = { ...(node.parameters.options as object), ...(batch ? { batching: { batch } } : {}) };
	return { ...node, parameters: { ...node.parameters, options }, onError: 'continueRegularOutput' };
}

async function runVariant(ctx: ConcurrencyContext, variant: Variant): Promise<{ items: INodeExecutionData[]; failed: number }> {
	const input = ctx.ids.map((id) => ({ json: { id } }));
	if (variant.kind === 'ours') {
		const { items, error } = await (variant.code ?? THIS_CODE).runNode({
			credentials: ctx.ours,
			parameters: {
				resource: 'job',
				operation: 'get',
				jobId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				...(variant.parallel === undefined ? {} : { requestOptions: { parallelMode: 'fixed', parallelRequests: variant.parallel } }),
			},
			items: input,
			continueOnFail: true,
		});
		if (error) throw new Error(`${variant.label}: ${error.message}`);
		const failed = items.filter((item, i) => item.json.id !== ctx.ids[i]).length;
		return { items, failed };
	}
	if (!ctx.httpRequest) throw new Error('the HTTP Request node is not loaded');
	const { items, error } = await runSingleNode(nodeTypesWith(ctx.httpRequest), httpJobGetNode(ctx.sandbox.baseUrl, variant.batch), ctx.header, input);
	if (error) throw new Error(`${variant.label}: ${error.message}`);
	const failed = items.filter((item, i) => (item.json.data as { id?: string } | undefined)?.id !== ctx.ids[i]).length;
	return { items, failed };
}

/**
 * What an Auto run starts from. A first execution: nothing learnt, as in a new n8n process. A second one, where
 * `firstRunsHere`: after an untimed first execution just before it; otherwise the run just before it was its
 * first execution (a scenario that runs each variant once lists them one after the other).
 */
async function prepare(ctx: ConcurrencyContext, variant: Variant, firstRunsHere: boolean): Promise<void> {
	if (!isAuto(variant)) return;
	const code = variant.code ?? THIS_CODE;
	if (!variant.second) {
		code.forget();
	} else if (firstRunsHere) {
		code.forget();
		await runVariant(ctx, { ...variant, second: false });
	}
}

/** One run of a variant, measured from the sandbox's request log. */
async function measure(ctx: ConcurrencyContext, variant: Variant, firstRunsHere = false): Promise<Outcome> {
	await prepare(ctx, variant, firstRunsHere);
	await ctx.sandbox.clearRequests();
	const cpuBefore = process.cpuUsage();
	const start = performance.now();
	const { failed } = await runVariant(ctx, variant);
	const took = performance.now() - start;
	const cpu = process.cpuUsage(cpuBefore);
	const gets = (await ctx.sandbox.requests()).filter((r: RequestRecord) => r.route === '/jobs/{id}');
	const spans = gets.map((r): [number, number] => [r.at, r.doneAt ?? r.at]);
	// Thinning keeps each slice's highest value, so the peak survives it.
	const series = inFlightSeries(spans);
	return {
		label: variant.label,
		ms: took,
		cpuMs: (cpu.user + cpu.system) / 1000,
		refused: gets.filter((r) => r.status === 429 || r.status === 503).length,
		failed,
		requests: gets.length,
		peakInFlight: Math.max(0, ...series.map(([, value]) => value)),
		spans,
	};
}

const FIXED_HEALTHY = [8, 16, 32, 64, 128, 256, 512, 1000];
const FIXED_CAPACITY = [8, 16, 32, 64, 80, 128, 256];
const FIXED_RATE = [8, 64];

function outcomeTable(outcomes: Outcome[], timeLabel: string): string[] {
	return [
		`| Variant | ${timeLabel} | Client CPU | 429/503 received | Items failed | Requests | Most in service at once |`,
		'|---|---:|---:|---:|---:|---:|---:|',
		...outcomes.map((o) => {
			const spread = o.range ? ` (${o.range.map((v) => v.toFixed(0)).join('–')})` : '';
			return `| ${o.label} | ${ms(o.ms)}${spread} | ${ms(o.cpuMs)} | ${o.refused} | ${o.failed} | ${o.requests} | ${o.peakInFlight} |`;
		}),
	];
}

/**
 * Runs every variant `ctx.rounds` times, in an order that rotates from round to round, each timed run of a
 * second execution right after an untimed first one (`before` runs ahead of every run: a scenario's set-up).
 * Each variant's outcome is its median wall time, with the fastest and slowest round, the most refusals and
 * failures of one round, and the last round's requests and trace.
 */
async function inRounds(ctx: ConcurrencyContext, variants: Variant[], before: () => Promise<void>): Promise<Outcome[]> {
	const runs = new Map<string, Outcome[]>();
	for (let round = 0; round < ctx.rounds; round++) {
		for (let i = 0; i < variants.length; i++) {
			const variant = variants[(i + round) % variants.length];
			await before();
			runs.set(variant.label, [...(runs.get(variant.label) ?? []), await measure(ctx, variant, true)]);
		}
	}
	return variants.map((v) => {
		const all = runs.get(v.label) ?? [];
		const times = all.map((o) => o.ms);
		return {
			...all[all.length - 1],
			ms: median(times),
			cpuMs: median(all.map((o) => o.cpuMs)),
			range: [Math.min(...times), Math.max(...times)],
			refused: Math.max(...all.map((o) => o.refused)),
			failed: Math.max(...all.map((o) => o.failed)),
		};
	});
}

function writeTrace(file: string, title: string, outcomes: Outcome[], reference?: { label: string; value: number }): void {
	const colors = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#8c564b'];
	const length = (o: Outcome) => {
		const origin = Math.min(...o.spans.map(([start]) => start));
		return Math.max(0, ...o.spans.map(([, stop]) => stop - origin));
	};
	const end = Math.max(...outcomes.map(length));
	const series: Chart['series'] = outcomes.map((o, i) => ({ label: o.label, points: inFlightSeries(o.spans), color: colors[i % colors.length] }));
	if (reference) series.push({ label: reference.label, points: [[0, reference.value], [end, reference.value]], color: '#777', dashed: true });
	fs.writeFileSync(
		path.join(projectRoot, 'bench', file),
		lineChartSvg({ title, xLabel: 'ms from the first request', yLabel: 'requests in service at the sandbox', series }),
	);
}

interface Section {
	lines: string[];
	/** Acceptance rows: what, measured, target, met. */
	checks: Array<[string, string, string, boolean]>;
}

async function healthy(ctx: ConcurrencyContext, section: Section): Promise<void> {
	const { sandbox, log } = ctx;
	await sandbox.setNetwork(HEALTHY);
	log(`Auto: healthy service 40 ± 10 ms away, Job Get × ${ctx.ids.length}: median of ${ctx.rounds} rounds each (a second execution after an untimed first one)`);
	const variants: Variant[] = [
		...autoVariants(ctx),
		...FIXED_HEALTHY.map((n): Variant => ({ kind: 'ours', label: `Fixed ${n}`, parallel: n })),
	];
	if (ctx.httpRequest) {
		variants.push(
			{ kind: 'http', label: 'HTTP Request node, defaults (every item at once)' },
			{ kind: 'http', label: 'HTTP Request node, batching 50 items per 50 ms', batch: { batchSize: 50, batchInterval: 50 } },
		);
	}
	for (const variant of variants) {
		await prepare(ctx, variant, true);
		await runVariant(ctx, variant); // warm-up
	}
	const outcomes = await inRounds(ctx, variants, async () => {});
	section.lines.push(`#### Healthy: 40 ± 10 ms, Job Get × ${ctx.ids.length.toLocaleString('en')} (median of ${ctx.rounds})`, '', ...outcomeTable(outcomes, 'Wall time (fastest–slowest)'), '');
	const [auto, second] = outcomes;
	const fixed = outcomes.filter((o) => o.label.startsWith('Fixed'));
	const best = fixed.reduce((a, b) => (b.ms < a.ms ? b : a));
	section.checks.push([`Healthy Job Get: Auto, first execution / best fixed (${best.label})`, x(auto.ms / best.ms), '≤ 1.20×', auto.ms / best.ms <= 1.2]);
	const http = outcomes.find((o) => o.label.startsWith('HTTP Request node, defaults'));
	if (http) {
		section.checks.push(['Healthy Job Get: Auto, first execution / HTTP Request node at its defaults', x(auto.ms / http.ms), '≤ 1.00×', auto.ms / http.ms <= 1]);
		section.checks.push(['Healthy Job Get: Auto, second execution / HTTP Request node at its defaults', x(second.ms / http.ms), '≤ 1.20×', second.ms / http.ms <= 1.2]);
	}
	writeTrace('trace-healthy.svg', 'Healthy service, 40 ± 10 ms: Job Get × 1,000', [auto, second, best, ...(http ? [http] : [])]);

	log(`Auto: healthy service, Return All over ${ctx.total.toLocaleString('en')} jobs: median of ${ctx.rounds} rounds`);
	const all: Record<string, number[]> = { ours: [], http: [] };
	for (let round = 0; round < ctx.rounds; round++) {
		// Pages are read one after another, whatever the limit; a first execution all the same.
		forgetRemembered();
		let start = performance.now();
		const items = await oursReturnAll(ctx.ours);
		all.ours.push(performance.now() - start);
		if (items.length !== ctx.total) throw new Error(`Return All returned ${items.length} jobs, expected ${ctx.total}`);
		if (ctx.httpRequest) {
			start = performance.now();
			const pages = await httpNodeReturnAll(ctx.httpRequest, ctx.header, ctx.sandbox.baseUrl);
			all.http.push(performance.now() - start);
			if (recordsInPages(pages) !== ctx.total) throw new Error('the HTTP Request node did not return every job');
		}
	}
	const returnAll = [`| Return All over ${ctx.total.toLocaleString('en')} jobs | ${ms(median(all.ours))} | ${all.http.length ? ms(median(all.http)) : 'skipped'} |`];
	section.lines.push('| Healthy, 40 ± 10 ms | Our node (Auto) | HTTP Request node, pagination |', '|---|---:|---:|', ...returnAll, '');
	if (all.http.length) {
		const ratio = median(all.ours) / median(all.http);
		section.checks.push([`Healthy Return All ${ctx.total.toLocaleString('en')}: Auto / HTTP Request node`, x(ratio), '≤ 1.00×', ratio <= 1]);
	}
	await sandbox.clearNetwork();
}

async function capacityLimited(ctx: ConcurrencyContext, section: Section): Promise<void> {
	const { sandbox, log } = ctx;
	log(`Auto: a service that serves 16 at once (503 beyond a queue of 64), Job Get × 1,000: median of ${ctx.rounds} rounds each (a second execution right after an untimed first one)`);
	const variants: Variant[] = [
		...autoVariants(ctx),
		...FIXED_CAPACITY.map((n): Variant => ({ kind: 'ours', label: `Fixed ${n}`, parallel: n })),
	];
	if (ctx.httpRequest) {
		variants.push(
			{ kind: 'http', label: 'HTTP Request node, defaults' },
			{ kind: 'http', label: 'HTTP Request node, batching 16 items per 50 ms', batch: { batchSize: 16, batchInterval: 50 } },
		);
	}
	await sandbox.setNetwork(CAPACITY);
	const outcomes = await inRounds(ctx, variants, async () => {
		// A previous run's pause (Retry-After) is over, and its queue has drained.
		await sleep(1100);
	});
	await sandbox.clearNetwork();
	section.lines.push(
		`#### Capacity-limited: 40 ± 10 ms, serves 16 at once, 503 (Retry-After 1) beyond a queue of 64 (median of ${ctx.rounds})`,
		'',
		...outcomeTable(outcomes, 'Wall time (fastest–slowest)'),
		'',
	);
	const [auto, second] = outcomes;
	const clean = outcomes.filter((o) => o.label.startsWith('Fixed') && o.failed === 0);
	const best = clean.reduce((a, b) => (b.ms < a.ms ? b : a));
	section.checks.push(['Capacity-limited: Auto items failed (first, second execution)', `${auto.failed}, ${second.failed}`, '0', auto.failed + second.failed === 0]);
	section.checks.push([`Capacity-limited: Auto, first execution / best fixed (${best.label})`, x(auto.ms / best.ms), '≤ 1.20×', auto.ms / best.ms <= 1.2]);
	section.checks.push(['Capacity-limited: Auto, second execution: 503s', String(second.refused), '0', second.refused === 0]);
	section.checks.push([`Capacity-limited: Auto, second execution / best fixed (${best.label})`, x(second.ms / best.ms), '≤ 1.10×', second.ms / best.ms <= 1.1]);
	const http = outcomes.find((o) => o.label === 'HTTP Request node, defaults');
	if (http) {
		const share = http.refused > 0 ? auto.refused / http.refused : auto.refused === 0 ? 0 : Infinity;
		section.checks.push([`Capacity-limited: Auto's 503s, first execution / the HTTP Request node's (${auto.refused} / ${http.refused})`, `${(share * 100).toFixed(1)} %`, '≤ 10 %', share <= 0.1]);
	}
	writeTrace('trace-capacity.svg', 'Serves 16 at once, 503 beyond a queue of 64: Job Get × 1,000', [auto, second, best], { label: 'capacity + queue (80)', value: 80 });
}

async function rateLimited(ctx: ConcurrencyContext, section: Section): Promise<void> {
	const { sandbox, log } = ctx;
	const admin = axios.create({ baseURL: `${sandbox.baseUrl}/__sandbox` });
	log(`Auto: a service 40 ± 10 ms away that allows ${RATE} requests a second (429 beyond, Retry-After 1), Job Get × 1,000: one run each (Auto's second execution right after its first)`);
	const variants: Variant[] = [
		...autoVariants(ctx),
		...FIXED_RATE.map((n): Variant => ({ kind: 'ours', label: `Fixed ${n}`, parallel: n })),
	];
	if (ctx.httpRequest) {
		variants.push(
			{ kind: 'http', label: 'HTTP Request node, defaults' },
			{ kind: 'http', label: `HTTP Request node, batching ${RATE} items per 1,000 ms`, batch: { batchSize: RATE, batchInterval: 1000 } },
		);
	}
	await sandbox.setNetwork(HEALTHY);
	const outcomes: Outcome[] = [];
	for (const variant of variants) {
		await admin.delete('/faults');
		await admin.post('/faults', { kind: 'rate-limit', method: 'GET', path: '/jobs/{id}', perSecond: RATE, retryAfterSeconds: 1 });
		// A fresh window: the limit counts from the first request.
		await sleep(1100);
		outcomes.push(await measure(ctx, variant));
	}
	await admin.delete('/faults');
	await sandbox.clearNetwork();
	section.lines.push(`#### Rate-limited: 40 ± 10 ms, ${RATE} requests a second (429, Retry-After 1)`, '', ...outcomeTable(outcomes, 'Wall time (one run)'), '');
	const [auto, second] = outcomes;
	const floor = (ctx.ids.length / RATE) * 1000;
	section.checks.push(['Rate-limited: Auto items failed (first, second execution)', `${auto.failed}, ${second.failed}`, '0', auto.failed + second.failed === 0]);
	section.checks.push([`Rate-limited: Auto, first execution / what the limit allows (${ms(floor)})`, x(auto.ms / floor), '≤ 1.10×', auto.ms / floor <= 1.1]);
	section.checks.push([`Rate-limited: Auto, second execution / what the limit allows (${ms(floor)})`, x(second.ms / floor), '≤ 1.10×', second.ms / floor <= 1.1]);
	const http = outcomes.find((o) => o.label === 'HTTP Request node, defaults');
	if (http) {
		const share = (o: Outcome) => (http.refused > 0 ? o.refused / http.refused : 0);
		section.checks.push([`Rate-limited: Auto's 429s, first execution / the HTTP Request node's (${auto.refused} / ${http.refused})`, `${(share(auto) * 100).toFixed(1)} %`, '≤ 10 %', share(auto) <= 0.1]);
		section.checks.push([`Rate-limited: Auto's 429s, second execution / the HTTP Request node's (${second.refused} / ${http.refused})`, `${(share(second) * 100).toFixed(1)} %`, '≤ 10 %', share(second) <= 0.1]);
	}
	section.checks.push([`Rate-limited: Auto's 429s, second execution / first execution (${second.refused} / ${auto.refused})`, auto.refused > 0 ? x(second.refused / auto.refused) : String(second.refused), '≤ 1.00×', second.refused <= auto.refused]);
	const fixed8 = outcomes.find((o) => o.label === 'Fixed 8');
	writeTrace('trace-rate.svg', `${RATE} requests a second allowed: Job Get × 1,000`, [auto, second, ...(fixed8 ? [fixed8] : [])]);
}

/** Runs the three scenarios; returns the Markdown section (also the acceptance ratios). */
export async function concurrencyBench(ctx: ConcurrencyContext, only?: string[]): Promise<string[]> {
	const section: Section = { lines: [], checks: [] };
	const wanted = (name: string) => !only || only.includes(name);
	if (wanted('healthy')) await healthy(ctx, section);
	if (wanted('capacity')) await capacityLimited(ctx, section);
	if (wanted('rate')) await rateLimited(ctx, section);
	return [
		'| Check | Measured | Target | Met |',
		'|---|---:|---:|---|',
		...section.checks.map(([what, measured, target, met]) => `| ${what} | ${measured} | ${target} | ${met ? 'yes' : '**no**'} |`),
		'',
		...section.lines,
		'Traces of requests in service at the sandbox over time: [healthy](trace-healthy.svg), [capacity-limited](trace-capacity.svg), [rate-limited](trace-rate.svg).',
	];
}

/**
 * The node's code in another checkout of the project (`--base DIR`): its harness runs its node in this process,
 * with the same n8n-core when its node_modules is this one's (a link), so that both run under the same load.
 */
function baseCode(dir: string): NodeCode {
	const root = path.resolve(dir);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const engine = require(path.join(root, 'test', 'harness', 'engine.ts')) as { runNode: typeof runNode };
	const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
	return { name: `base ${commit}`, runNode: engine.runNode, forget: forgetterOf(root) };
}

/**
 * Where a checkout keeps what Auto learnt, by the layouts it had: each a file and the function that forgets it.
 * A base whose forgetting is not found would run every "first execution" from what its earlier rounds learnt.
 */
const FORGETTERS: Array<[string[], string]> = [
	[['nodes', 'shared', 'transport', 'pace', 'remembered.ts'], 'forgetRemembered'],
	[['nodes', 'FileTransferManager', 'transport', 'learnt.ts'], 'forgetLearntLimits'],
];

export function forgetterOf(root: string): () => void {
	for (const [parts, name] of FORGETTERS) {
		const file = path.join(root, ...parts);
		if (!fs.existsSync(file)) continue;
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const forget = (require(file) as Record<string, unknown>)[name];
		if (typeof forget === 'function') return forget as () => void;
	}
	throw new Error(`${root}: no module that keeps what Auto learnt (looked for ${FORGETTERS.map(([parts]) => parts.join('/')).join(', ')})`);
}

/** The markers around the Auto section in bench/README.md's figures (run.ts writes them too). */
export const SECTION_BEGIN = '<!-- concurrency:begin -->';
export const SECTION_END = '<!-- concurrency:end -->';

/** Replaces the Auto section of bench/README.md's figures (between its markers) with this run's, dated. */
function writeReadme(lines: string[], header: string): void {
	const file = path.join(projectRoot, 'bench', 'README.md');
	const text = fs.readFileSync(file, 'utf8');
	const from = text.indexOf(SECTION_BEGIN);
	const to = text.indexOf(SECTION_END);
	if (from < 0 || to < from) throw new Error(`bench/README.md has no ${SECTION_BEGIN} … ${SECTION_END}`);
	fs.writeFileSync(file, `${text.slice(0, from)}${[SECTION_BEGIN, header, '', ...lines, SECTION_END].join('\n')}${text.slice(to + SECTION_END.length)}`);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			rounds: { type: 'string', default: '3' },
			jobs: { type: 'string', default: '10000' },
			only: { type: 'string' },
			base: { type: 'string' },
			readme: { type: 'boolean', default: false },
		},
	});
	const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
	const startedAt = new Date();
	const loadBefore = os.loadavg();
	const base = values.base ? baseCode(values.base) : undefined;
	if (base) log(`Auto also from ${values.base} (${base.name})`);
	const { CountingCredentialsHelper } = await import('./lib/n8n');
	let httpRequest: IVersionedNodeType | undefined;
	try {
		httpRequest = loadHttpRequestNode();
	} catch (error) {
		log(`HTTP Request node not available (${(error as Error).message}); its rows are skipped`);
	}
	const sandbox = await startSandboxProcess();
	const plain = new PlainClient(sandbox.baseUrl, sandbox.clientId, sandbox.clientSecret);
	try {
		const total = Number(values.jobs);
		const ids = await sandbox.insertJobs(total);
		const ours = new CountingCredentialsHelper();
		ours.set({ baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
		const header = new CountingCredentialsHelper();
		header.headerValue = `Bearer ${await plain.bearerToken()}`;
		const lines = await concurrencyBench(
			{ sandbox, ours, header, httpRequest, ids: ids.slice(0, 1000), total, rounds: Math.max(1, Number(values.rounds) || 3), log, base },
			values.only?.split(','),
		);
		const m = machine();
		const loadAfter = os.loadavg();
		const dated = `Measured ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npx tsx bench/concurrency.ts${values.base ? ' --base …' : ''}\` on ${m.cpus} CPUs (${m.cpuModel}), Node ${m.node}, load average ${loadBefore[0].toFixed(1)} before the run and ${loadAfter[0].toFixed(1)} after it (other work may share the machine: read the ratios within one run)${base ? `; the rows marked ${base.name} ran that commit's node in the same process` : ''}:`;
		if (values.readme) writeReadme(lines, dated);
		process.stdout.write(`${dated}\n\n${lines.join('\n')}\n`);
	} finally {
		plain.close();
		await sandbox.close();
	}
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	});
}
