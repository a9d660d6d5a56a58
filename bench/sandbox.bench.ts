/**
 * Sandbox collection benchmark: 100,000 jobs in one process, then filtered, sorted pages of 100 over real
 * HTTP with a keep-alive client; once with the state in memory (no data folder) and once with a data folder
 * (sandbox.db, node:sqlite): the inserts written through, the sandbox restarted on the folder, and the same
 * pages from the restarted sandbox; then the cost of the write path (a stream of job updates) on disk.
 * Run: npm exec -- node --import tsx bench/sandbox.bench.ts [--requests 200] [--store memory|sqlite|both]
 * (through npm, so that it runs on the project's Node 24, which has node:sqlite).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import axios from 'axios';
import { startSandbox, type Sandbox } from '../sandbox/src/index';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const REQUESTS = Number(arg('--requests')) || 200;
const STORE = arg('--store') ?? 'both';
const JOBS = 100_000;

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (since: number) => `${(performance.now() - since).toFixed(0)} ms`;
const heap = () => `heap ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MB`;

/** Waits until the sandbox's journal has written what is pending (it writes 5 ms after a change). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

async function insert(sandbox: Sandbox): Promise<void> {
	const t0 = performance.now();
	const statuses = ['finished', 'failed', 'canceled', 'running'] as const;
	for (const status of statuses) sandbox.control.insertJobs(JOBS / statuses.length, { status });
	const inserted = ms(t0);
	await settle();
	console.log(`inserted ${sandbox.state.jobs().length} jobs in ${inserted}${sandbox.data.database ? `, written to sandbox.db by ${ms(t0)}` : ''} (${heap()})`);
}

async function queries(sandbox: Sandbox): Promise<void> {
	const client = axios.create({
		baseURL: sandbox.baseUrl,
		httpAgent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
		validateStatus: () => true,
	});
	const token = (
		await client.post(
			'/oauth/token',
			new URLSearchParams({ grant_type: 'client_credentials', client_id: sandbox.clientId, client_secret: sandbox.clientSecret }).toString(),
			{ headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
		)
	).data.access_token as string;
	client.defaults.headers.common.Authorization = `Bearer ${token}`;

	const time = async (label: string, next: (previous: any) => string): Promise<void> => {
		const times: number[] = [];
		let previous: any;
		// 20 requests to warm up (JIT, and the garbage of the insert collected), then REQUESTS timed ones.
		for (let i = -20; i < REQUESTS; i++) {
			const url = next(previous);
			const start = performance.now();
			const res = await client.get(url);
			if (i >= 0) times.push(performance.now() - start);
			if (res.status !== 200 || res.data.data.length !== 100) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.data).slice(0, 200)}`);
			previous = res.data;
		}
		times.sort((a, b) => a - b);
		console.log(`  ${label.padEnd(58)} median ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms`);
	};

	const base = '/jobs?filter[status]=finished&page[limit]=100';
	await time('filter[status]=finished&sort=-updatedAt', () => `${base}&sort=-updatedAt`);
	await time('filter[status]=finished&sort=stats.startedAt', () => `${base}&sort=stats.startedAt`);
	await time('sort=-stats.finishedAt,name (no filter)', () => '/jobs?sort=-stats.finishedAt,name&page[limit]=100');
	await time('filter[status]=finished&sort=-updatedAt, following page[after]', (previous) =>
		previous?.meta.page.after ? `${base}&sort=-updatedAt&page[after]=${previous.meta.page.after}` : `${base}&sort=-updatedAt`,
	);
	client.defaults.httpAgent.destroy();
}

/** The engine's write path: status and stats changes of many jobs, as a running sandbox makes them. */
async function writePath(sandbox: Sandbox): Promise<void> {
	const ids = sandbox.state.jobs().slice(0, 10_000).map((j) => j.id);
	const t0 = performance.now();
	for (let round = 0; round < 5; round++) {
		for (const id of ids) sandbox.control.addJobError(id, { sourcePath: `/f${round}`, message: 'bench', event: 'warning' });
	}
	const changed = ms(t0);
	await settle();
	console.log(`write path: 50,000 job changes (error added, job touched) in ${changed}, on disk by ${ms(t0)} (${heap()})`);
}

// Each phase in its own function, so that the sandbox of one phase is garbage in the next.
async function inMemory(): Promise<void> {
	console.log('state in memory (no data folder):');
	const sandbox = await startSandbox({ demo: false });
	await insert(sandbox);
	await queries(sandbox);
	await sandbox.close();
}

async function insertIntoFolder(dataDir: string): Promise<void> {
	console.log(`state in a data folder (${dataDir}/sandbox.db):`);
	const sandbox = await startSandbox({ demo: false, dataDir });
	await insert(sandbox);
	const t0 = performance.now();
	await sandbox.close();
	console.log(`closed in ${ms(t0)}; sandbox.db ${(fs.statSync(path.join(dataDir, 'sandbox.db')).size / 1024 / 1024).toFixed(1)} MB`);
}

async function restartOnFolder(dataDir: string): Promise<void> {
	const t0 = performance.now();
	const sandbox = await startSandbox({ demo: false, dataDir });
	console.log(`restarted on it in ${ms(t0)}: kept ${sandbox.data.kept.jobs} jobs (${heap()})`);
	await queries(sandbox);
	await writePath(sandbox);
	await sandbox.close();
}

async function main(): Promise<void> {
	if (STORE === 'memory' || STORE === 'both') await inMemory();
	if (STORE === 'sqlite' || STORE === 'both') {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ftm-bench-'));
		try {
			await insertIntoFolder(dataDir);
			await restartOnFolder(dataDir);
		} finally {
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
