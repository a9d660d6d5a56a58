/**
 * End-to-end: the example workflows of examples/ (dry run → cost gate → run → report; bytes per storage;
 * long job with a Wait loop)
 * run in one running n8n (useN8nStack: the packed package installed as users install it), each created
 * through the public API and run as from the editor, against an in-process sandbox. The alert example (a
 * trigger) is tested in alert-example.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_IDS, type Sandbox } from '../../sandbox/src';
import { nodeOutput, randomId, type RunResult } from '../../scripts/n8n/headless';
import { withCredential, type WorkflowJson } from '../../scripts/n8n/workflows';
import type { Job } from '../../nodes/shared/api/types';
import {
	EXAMPLE_CREDENTIAL_NAME,
	EXAMPLE_FILES,
	SandboxClient,
	listFiles,
	md5File,
	ranItems,
	readExample,
} from './helpers/examples';
import { useN8nStack } from './helpers/stack';
import { runToSuccess } from './helpers/workflows';

const MINUTE = 60 * 1000;
const CLIENT_ID = 'examples-e2e-client';
const CLIENT_SECRET = `examples-e2e-${randomId()}`;
const { files: FILES, archive: ARCHIVE, bucket: BUCKET } = DEMO_IDS.storageIds;

const stack = useN8nStack({
	name: 'examples e2e',
	clientId: CLIENT_ID,
	clientSecret: CLIENT_SECRET,
	credentialName: EXAMPLE_CREDENTIAL_NAME,
	sandbox: { speed: 200 },
});
let sandbox: Sandbox;
beforeAll(() => {
	({ sandbox } = stack);
});

function runExample(workflow: WorkflowJson): Promise<RunResult> {
	return runToSuccess(stack, withCredential(workflow, stack.credential));
}

/** The example with Run From Dry Run's Max Estimated Cost replaced. */
function withMaxCost(workflow: WorkflowJson, maxCost: string): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === 'Run From Dry Run' ? { ...node, parameters: { ...(node.parameters as Record<string, unknown>), maxEstimatedCost: maxCost } } : node,
		),
	};
}

describe('example 1: dry run, run from dry run with Max Estimated Cost, report', () => {
	test('under the limit: the real job copies /reports to archive:/archive/reports and the report matches it', async () => {
		const sourceDir = path.join(sandbox.state.storageDir(FILES), 'reports');
		const targetDir = path.join(sandbox.state.storageDir(ARCHIVE), 'archive', 'reports');
		const sourceFiles = listFiles(sourceDir);
		expect(sourceFiles.length).toBeGreaterThan(0);
		expect(fs.existsSync(targetDir)).toBe(false);
		sandbox.requests.clear();

		const run = await runExample(readExample(EXAMPLE_FILES.dryRunThenRun));

		expect(ranItems(run, 'Not Run')).toBeUndefined();
		expect(ranItems(run, 'Run From Dry Run', 1)).toEqual([]);
		const report = nodeOutput(run, 'Report');
		expect(report).toHaveLength(1);
		const [summary] = report;

		// The report describes the real job as the sandbox holds it.
		const job = sandbox.state.job(summary.jobId as string);
		expect(job).toBeDefined();
		const attrs = job!.attributes;
		expect(attrs).toMatchObject({
			status: 'finished',
			dryRun: false,
			transferType: 'copy',
			source: { id: FILES, path: '/reports' },
			target: { id: ARCHIVE, path: '/archive/reports' },
		});
		const dryRun = sandbox.state.job(summary.dryRunJobId as string);
		expect(dryRun?.attributes).toMatchObject({ status: 'finished', dryRun: true, name: 'Archive reports' });
		expect(summary).toEqual({
			jobId: job!.id,
			jobName: attrs.name,
			status: 'finished',
			dryRunJobId: dryRun!.id,
			estimatedCost: dryRun!.attributes.stats.estimatedCost,
			transferredFiles: attrs.stats.transferredCount,
			transferredBytes: attrs.stats.transferredSize,
			summary: expect.stringContaining(`${attrs.stats.transferredCount} of ${attrs.stats.filesCount} files`),
		});
		expect(dryRun!.attributes.stats.estimatedCost).not.toBeNull();

		// The files on disk: every source file copied, byte for byte, and recorded as transferred.
		const sourceBytes = sourceFiles.reduce((sum, rel) => sum + fs.statSync(path.join(sourceDir, rel)).size, 0);
		expect(summary.transferredFiles).toBe(sourceFiles.length);
		expect(summary.transferredBytes).toBe(sourceBytes);
		expect(listFiles(targetDir)).toEqual(sourceFiles);
		for (const rel of sourceFiles) {
			expect(md5File(path.join(targetDir, rel))).toBe(md5File(path.join(sourceDir, rel)));
		}
		const transfers = sandbox.state.jobTransfers(job!.id).map((t) => t.attributes);
		expect(transfers.map((t) => t.path).sort()).toEqual(sourceFiles.map((rel) => `/archive/reports/${rel}`));
		for (const transfer of transfers) {
			expect(transfer.status).toBe(0);
			expect(transfer.hash.md5).toBe(md5File(path.join(targetDir, transfer.path.slice('/archive/reports/'.length))));
		}

		// Two jobs created: the dry run and the run.
		expect(sandbox.requests.count({ method: 'POST', path: '/jobs', status: 201 })).toBe(2);
	}, 10 * MINUTE);

	test('over the maximum: Run From Dry Run refuses the item to its error output, Not Run reports why, no real job is started', async () => {
		const jobsBefore = sandbox.state.jobs().length;
		sandbox.requests.clear();

		// Every estimate is at least 0.01 (the per-job price), so 0.001 is always exceeded.
		const run = await runExample(withMaxCost(readExample(EXAMPLE_FILES.dryRunThenRun), '0.001'));

		expect(ranItems(run, 'Run From Dry Run')).toEqual([]);
		expect(ranItems(run, 'Report')).toBeUndefined();
		const [dryRunItem] = nodeOutput(run, 'Dry Run');
		const out = nodeOutput(run, 'Not Run');
		expect(out).toHaveLength(1);
		const dryRun = sandbox.state.job(dryRunItem.id as string)!;
		const cost = dryRun.attributes.stats.estimatedCost!;
		expect(out[0]).toEqual({
			dryRunJobId: dryRun.id,
			estimatedCost: cost,
			reason: `Not started: dry run ${dryRun.id} estimates ${cost.amount} ${cost.currency}, above the maximum of 0.001 USD [item 0]`,
			howToGoOn:
				'No job was started. To go on, raise Max Estimated Cost (or clear it for no maximum), or narrow the source (a sub-folder, or scope rules) in a new dry run and run that one.',
		});
		// The dry run only: the real job was refused before its POST.
		expect(sandbox.state.jobs().length).toBe(jobsBefore + 1);
		expect(sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(1);
	}, 10 * MINUTE);
});

describe('example 3: bytes transferred per target storage in the last 24 hours', () => {
	test('one item per target storage, with the job count, files and bytes the sandbox state implies', async () => {
		const client = new SandboxClient(sandbox);
		// Real runs in the sandbox: one to the bucket, one to the archive.
		const created = [
			await client.createJob({
				name: 'Housekeeping e2e: data to bucket',
				transferType: 'copy',
				source: { type: 'file', id: FILES, path: '/data' },
				target: { id: BUCKET, path: '/housekeeping' },
				conflictHandling: 'overwrite',
			}),
			await client.createJob({
				name: 'Housekeeping e2e: logs to archive',
				transferType: 'copy',
				source: { type: 'file', id: FILES, path: '/logs' },
				target: { id: ARCHIVE, path: '/housekeeping-logs' },
				conflictHandling: 'overwrite',
			}),
		];
		for (const job of created) await sandbox.control.waitForJob(job.id, 60000);

		// Recorded jobs around the window: one inside, one finished 30 hours ago, a failed one, a dry run.
		const hoursAgo = (h: number) => new Date(Date.now() - h * 3600 * 1000).toISOString();
		const bucketTarget = { id: BUCKET, path: '/recorded', type: 'object-aws' as const };
		const base = sandbox.state.job(created[0].id)!.attributes.stats;
		sandbox.control.insertJobs(1, {
			name: 'Recorded: 2 h ago',
			status: 'finished',
			target: bucketTarget,
			stats: { ...base, finishedAt: hoursAgo(2), transferredCount: 3, transferredSize: 123456 },
		});
		const [oldJob] = sandbox.control.insertJobs(1, {
			name: 'Recorded: 30 h ago',
			status: 'finished',
			target: bucketTarget,
			stats: { ...base, finishedAt: hoursAgo(30), transferredCount: 9, transferredSize: 999999 },
		});
		sandbox.control.insertJobs(1, {
			name: 'Recorded: failed 1 h ago',
			status: 'failed',
			target: bucketTarget,
			stats: { ...base, finishedAt: hoursAgo(1), transferredCount: 1, transferredSize: 555 },
		});
		sandbox.control.insertJobs(1, {
			name: 'Recorded: dry run 1 h ago',
			status: 'finished',
			dryRun: true,
			target: bucketTarget,
			stats: { ...base, finishedAt: hoursAgo(1), transferredCount: 0, transferredSize: 0 },
		});

		const startedAt = Date.now();
		const run = await runExample(readExample(EXAMPLE_FILES.housekeeping));

		// What the workflow should have found: finished real jobs whose finishedAt is within 24 h of the run.
		// No job is near the edge of the window (inside: minutes or 2 h old; outside: 30 h or 2024).
		const cutoff = startedAt - 24 * 3600 * 1000;
		const inWindow = (job: Job) =>
			job.attributes.status === 'finished' &&
			!job.attributes.dryRun &&
			job.attributes.stats.finishedAt !== null &&
			Date.parse(job.attributes.stats.finishedAt) > cutoff;
		const expected = new Map<string, { jobs: number; transferredFiles: number; transferredBytes: number }>();
		for (const job of sandbox.state.jobs().filter(inWindow)) {
			const entry = expected.get(job.attributes.target.id) ?? { jobs: 0, transferredFiles: 0, transferredBytes: 0 };
			entry.jobs += 1;
			entry.transferredFiles += job.attributes.stats.transferredCount;
			entry.transferredBytes += job.attributes.stats.transferredSize;
			expected.set(job.attributes.target.id, entry);
		}
		const storages = new Map(sandbox.state.storages().map((s) => [s.id, s.attributes]));
		const expectedItems = [...expected.entries()]
			.map(([storageId, sums]) => ({
				storageId,
				storageName: storages.get(storageId)!.name,
				storageType: storages.get(storageId)!.type,
				...sums,
			}))
			.sort((a, b) => a.storageId.localeCompare(b.storageId));
		// Both real runs count, and the test would notice if the 24-hour filter let the old job through.
		expect(expectedItems.map((i) => i.storageId).sort()).toEqual([ARCHIVE, BUCKET].sort());
		expect(inWindow(sandbox.state.job(oldJob)!)).toBe(false);
		for (const job of created) expect(inWindow(sandbox.state.job(job.id)!)).toBe(true);

		const items = nodeOutput(run, 'Per Storage')
			.map(({ since, ...rest }) => {
				expect(Math.abs(Date.parse(since as string) - cutoff)).toBeLessThan(5 * MINUTE);
				return rest;
			})
			.sort((a, b) => String(a.storageId).localeCompare(String(b.storageId)));
		expect(items).toEqual(expectedItems);
		// The bucket's sum includes the real run's bytes and the job recorded 2 h ago, not the 30 h old one.
		const bucket = items.find((i) => i.storageId === BUCKET)!;
		expect(bucket.transferredBytes).toBe(
			sandbox.state.job(created[0].id)!.attributes.stats.transferredSize + 123456,
		);
	}, 10 * MINUTE);
});

describe('example 4: long job, Wait node loop instead of Wait for Completion', () => {
	/** The example with its Wait node shortened to `seconds` (the example waits 2 minutes). */
	function withShortWait(workflow: WorkflowJson, seconds: number): WorkflowJson {
		return {
			...workflow,
			nodes: workflow.nodes.map((node) =>
				node.type === 'n8n-nodes-base.wait' ? { ...node, parameters: { ...(node.parameters as object), amount: seconds, unit: 'seconds' } } : node,
			),
		};
	}

	test('one job is created, Get Job is repeated after each Wait until the status is final, and Report shows the finished job', async () => {
		const workflow = readExample(EXAMPLE_FILES.longJob);
		const wait = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.wait');
		// As shipped: a wait long enough (over 65 s) for n8n to keep the waiting execution in the database.
		expect(wait?.parameters).toMatchObject({ amount: 2, unit: 'minutes' });
		sandbox.requests.clear();

		const run = await runExample(withShortWait(workflow, 1));

		const report = nodeOutput(run, 'Report');
		expect(report).toHaveLength(1);
		const job = sandbox.state.job(report[0].jobId as string)!;
		expect(job.attributes).toMatchObject({
			status: 'finished',
			dryRun: false,
			source: { id: FILES, path: '/data' },
			target: { id: BUCKET, path: '/long-wait' },
		});
		expect(report[0]).toEqual({
			jobId: job.id,
			jobName: job.attributes.name,
			status: 'finished',
			transferredFiles: job.attributes.stats.transferredCount,
			transferredBytes: job.attributes.stats.transferredSize,
			summary: expect.stringContaining(`${job.attributes.stats.transferredCount} of ${job.attributes.stats.filesCount} files`),
		});
		// The name carries the execution ID, and "Use the Existing Job" looked for it before creating it.
		expect(job.attributes.name).toMatch(/^Long copy \S+$/);
		expect(sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(1);

		// Each Wait is followed by one Get Job; every check but the last saw a status that is not final.
		const gets = run.data.resultData.runData['Get Job'] ?? [];
		const waits = run.data.resultData.runData['Wait 2 Minutes'] ?? [];
		expect(gets.length).toBeGreaterThanOrEqual(1);
		expect(waits).toHaveLength(gets.length);
		const statuses = gets.map((get) => get.data?.main?.[0]?.[0]?.json.status);
		expect(statuses[statuses.length - 1]).toBe('finished');
		for (const status of statuses.slice(0, -1)) expect(['finished', 'failed', 'canceled', 'stuck']).not.toContain(status);
		expect(sandbox.requests.count({ method: 'GET', path: `/jobs/${job.id}` })).toBe(gets.length);
	}, 10 * MINUTE);
});
