/**
 * One Return All in a fresh process, for its peak memory; started by bench/run.ts with --expose-gc.
 * Usage: node --expose-gc --import tsx bench/memory-child.ts <ours|plain|http> <baseUrl> <clientId> <clientSecret> <expected>
 * Prints one JSON line: wall time, records, start and peak RSS / heapUsed in MB, maxRSS from resourceUsage.
 */
import './lib/resolve-node-ts';
import { PlainClient } from './lib/plain-client';

type Mode = 'ours' | 'plain' | 'http';

const MB = 1024 * 1024;

async function main(): Promise<void> {
	const [mode, baseUrl, clientId, clientSecret, expectedText] = process.argv.slice(2) as [Mode, string, string, string, string];
	const expected = Number(expectedText);
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run with --expose-gc');

	// Load everything the mode needs before the baseline is taken, so that the figure is the work's own.
	let run: () => Promise<number>;
	if (mode === 'plain') {
		const client = new PlainClient(baseUrl, clientId, clientSecret);
		await client.authorize();
		run = async () => (await client.listAllJobs()).length;
	} else {
		const { credentialsFor } = await import('../test/harness/engine');
		const workloads = await import('./lib/workloads');
		if (mode === 'ours') {
			const credentials = credentialsFor({ baseUrl, clientId, clientSecret });
			run = async () => (await workloads.oursReturnAll(credentials)).length;
		} else {
			const n8n = await import('./lib/n8n');
			const client = new PlainClient(baseUrl, clientId, clientSecret);
			const credentials = new n8n.CountingCredentialsHelper();
			credentials.set({ baseUrl, clientId, clientSecret });
			credentials.headerValue = `Bearer ${await client.bearerToken()}`;
			client.close();
			const httpRequest = n8n.loadHttpRequestNode();
			run = async () => workloads.recordsInPages(await workloads.httpNodeReturnAll(httpRequest, credentials, baseUrl));
		}
	}

	gc();
	const start = process.memoryUsage();
	let peakHeap = start.heapUsed;
	let peakRss = start.rss;
	const sample = () => {
		const now = process.memoryUsage();
		if (now.heapUsed > peakHeap) peakHeap = now.heapUsed;
		if (now.rss > peakRss) peakRss = now.rss;
	};
	const timer = setInterval(sample, 5);
	const t0 = performance.now();
	const records = await run();
	const ms = performance.now() - t0;
	sample();
	clearInterval(timer);
	if (records !== expected) throw new Error(`${mode}: ${records} records, expected ${expected}`);
	process.stdout.write(
		`${JSON.stringify({
			mode,
			records,
			ms,
			startRssMb: start.rss / MB,
			peakRssMb: peakRss / MB,
			maxRssMb: process.resourceUsage().maxRSS / 1024,
			startHeapMb: start.heapUsed / MB,
			peakHeapMb: peakHeap / MB,
		})}\n`,
	);
	process.exit(0);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
