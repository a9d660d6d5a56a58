/**
 * Sandbox collection benchmark: 100,000 jobs in one process, then filtered, sorted pages of 100 over real
 * HTTP with a keep-alive client. Run: npx tsx bench/sandbox.bench.ts [--requests 200]
 */
import * as http from 'node:http';
import axios from 'axios';
import { startSandbox } from '../sandbox/src/index';

const REQUESTS = Number(process.argv[process.argv.indexOf('--requests') + 1]) || 200;
const JOBS = 100_000;

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ demo: false });
	const t0 = performance.now();
	const statuses = ['finished', 'failed', 'canceled', 'running'] as const;
	for (const status of statuses) sandbox.control.insertJobs(JOBS / statuses.length, { status });
	console.log(`inserted ${sandbox.state.jobs().length} jobs in ${(performance.now() - t0).toFixed(0)} ms`);

	const client = axios.create({
		baseURL: sandbox.baseUrl,
		httpAgent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
		validateStatus: () => true,
	});
	const token = (
		await client.post('/oauth/token', new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: sandbox.clientId,
			client_secret: sandbox.clientSecret,
		}).toString(), { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
	).data.access_token as string;
	client.defaults.headers.common.Authorization = `Bearer ${token}`;

	const time = async (label: string, next: (previous: any) => string): Promise<void> => {
		const times: number[] = [];
		let previous: any;
		for (let i = 0; i < REQUESTS; i++) {
			const url = next(previous);
			const start = performance.now();
			const res = await client.get(url);
			times.push(performance.now() - start);
			if (res.status !== 200 || res.data.data.length !== 100) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.data).slice(0, 200)}`);
			previous = res.data;
		}
		times.sort((a, b) => a - b);
		console.log(`${label.padEnd(58)} median ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms`);
	};

	const base = '/jobs?filter[status]=finished&page[limit]=100';
	await time('filter[status]=finished&sort=-updatedAt', () => `${base}&sort=-updatedAt`);
	await time('filter[status]=finished&sort=stats.startedAt', () => `${base}&sort=stats.startedAt`);
	await time('sort=-stats.finishedAt,name (no filter)', () => '/jobs?sort=-stats.finishedAt,name&page[limit]=100');
	await time('filter[status]=finished&sort=-updatedAt, following page[after]', (previous) =>
		previous?.meta.page.after ? `${base}&sort=-updatedAt&page[after]=${previous.meta.page.after}` : `${base}&sort=-updatedAt`,
	);
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
