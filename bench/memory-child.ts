/**
 * One Return All in a fresh process, for its peak memory; started by bench/run.ts with --expose-gc.
 * Usage: node --expose-gc --import tsx bench/memory-child.ts <mode> <baseUrl> <clientId> <clientSecret> <expected>
 * Prints one JSON line: wall time, records, start and peak RSS / heapUsed in MB, maxRSS from resourceUsage.
 */
import './lib/resolve-node-ts';
import { PlainClient } from './lib/plain-client';

/**
 * ours / plain / http: the three clients. collect-map and page-map: the plain client turning jobs into
 * output items with our node's jobJson, after collecting every job, or page by page as each arrives (what Job → Get Many does).
 */
type Mode = 'ours' | 'plain' | 'http' | 'collect-map' | 'page-map';

const MB = 1024 * 1024;

async function main(): Promise<void> {
	const [mode, baseUrl, clientId, clientSecret, expectedText] = process.argv.slice(2) as [Mode, string, string, string, string];
	const expected = Number(expectedText);
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run with --expose-gc');

	// The live heap (after a full gc) at the fullest point the mode can see: for collect-map before the
	// collected jobs are dropped, for every other mode at the end with the result still referenced.
	let liveHeap: number | undefined;
	const fullest = () => {
		gc();
		liveHeap = process.memoryUsage().heapUsed;
	};

	// Load everything the mode needs before the baseline is taken, so that the figure is the work's own.
	let run: () => Promise<unknown[]>;
	if (mode === 'plain' || mode === 'collect-map' || mode === 'page-map') {
		const client = new PlainClient(baseUrl, clientId, clientSecret);
		await client.authorize();
		if (mode === 'plain') run = () => client.listAllJobs();
		else if (mode === 'collect-map') {
			const { jobJson } = await import('../nodes/FileTransferManager/helpers/jobOutput');
			run = async () => {
				const jobs = await client.listAllJobs();
				const items = jobs.map((job) => ({ json: jobJson(job, true) }));
				fullest();
				return items;
			};
		} else {
			const { jobJson } = await import('../nodes/FileTransferManager/helpers/jobOutput');
			run = async () => {
				const items: Array<{ json: object }> = [];
				for await (const page of client.jobPages()) for (const job of page) items.push({ json: jobJson(job, true) });
				return items;
			};
		}
	} else {
		const { credentialsFor } = await import('../test/harness/engine');
		const workloads = await import('./lib/workloads');
		if (mode === 'ours') {
			const credentials = credentialsFor({ baseUrl, clientId, clientSecret });
			run = () => workloads.oursReturnAll(credentials);
		} else {
			const n8n = await import('./lib/n8n');
			const client = new PlainClient(baseUrl, clientId, clientSecret);
			const credentials = new n8n.CountingCredentialsHelper();
			credentials.set({ baseUrl, clientId, clientSecret });
			credentials.headerValue = `Bearer ${await client.bearerToken()}`;
			client.close();
			const httpRequest = n8n.loadHttpRequestNode();
			run = () => workloads.httpNodeReturnAll(httpRequest, credentials, baseUrl);
		}
	}
	const recordsOf = async (result: unknown[]) =>
		mode === 'http' ? (await import('./lib/workloads')).recordsInPages(result as never) : result.length;

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
	const result = await run();
	const ms = performance.now() - t0;
	sample();
	clearInterval(timer);
	if (liveHeap === undefined) fullest();
	const records = await recordsOf(result);
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
			liveHeapMb: (liveHeap ?? NaN) / MB,
		})}\n`,
	);
	process.exit(0);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
