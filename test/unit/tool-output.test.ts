/**
 * Jobs in tool use (helpers/jobOutput.ts, nodes/shared/jobs/summary.ts): the tool shape, summary line first, each
 * figure once; the summary line of dry runs and real jobs in every status; the editor's shapes unchanged;
 * and the bytes per job item of each shape, printed. docs/operations.md › As an AI agent tool.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { jobItemJson, jobJson, readJobShape, statusJobJson } from '../../nodes/FileTransferManager/helpers/jobOutput';
import { flatten } from '../../nodes/shared/answers/output';
import { jobSummary, toolSummaryLine } from '../../nodes/shared/jobs/summary';
import { executeContext, makeJob, NODE, uuid } from './fixtures';

const toolContext = (parameters: Record<string, unknown> = {}): IExecuteFunctions => {
	const ctx = executeContext(parameters);
	const node = { ...NODE, type: `${NODE.type}Tool` };
	return { ...ctx, getNode: () => node } as IExecuteFunctions;
};

const finished = makeJob(uuid(1), { status: 'finished', updatedAt: '2026-11-21T08:01:30.000Z' }, {
	startedAt: '2026-11-21T08:00:00.000Z',
	finishedAt: '2026-11-21T08:01:30.000Z',
	filesCount: 10,
	filesSize: 2_000_000,
	transferredCount: 10,
	transferredSize: 2_000_000,
	estimatedDuration: 88,
	estimatedCost: { amount: '0.0420', currency: 'EUR' },
	scannedFilesCount: 12,
});
const running = makeJob(uuid(2), { status: 'running', updatedAt: '2026-11-21T08:01:30.000Z' }, {
	startedAt: '2026-11-21T08:00:00.000Z',
	filesCount: 10,
	filesSize: 2_000_000,
	transferredCount: 4,
	transferredSize: 500_000,
});
const dryRunDone = makeJob(uuid(3), { status: 'finished', dryRun: true, updatedAt: '2026-11-21T08:00:00.400Z' }, {
	startedAt: '2026-11-21T08:00:00.000Z',
	finishedAt: '2026-11-21T08:00:00.400Z',
	filesCount: 4,
	filesSize: 1500,
	estimatedDuration: 4,
	estimatedCost: { amount: '0.0104', currency: 'USD' },
});
const dryRunScanning = makeJob(uuid(4), { status: 'scanning', dryRun: true }, { startedAt: '2026-11-21T08:00:00.000Z', filesCount: 3, filesSize: 1200 });

describe('the tool shape of a job', () => {
	it('the summary line first, then each figure once, without nulls and without the editor\'s summary object', () => {
		const json = jobItemJson(finished, 'tool');
		expect(Object.keys(json)).toEqual([
			'summary', 'id', 'name', 'status', 'transferType', 'dryRun', 'source', 'target', 'filesCount', 'filesSize',
			'transferredCount', 'transferredSize', 'percentDone', 'estimatedDurationSeconds', 'estimatedCost', 'startedAt',
			'finishedAt', 'createdAt',
		]);
		expect(json.summary).toBe('Copy job finished: transferred 10 of 10 files (2.0 MB of 2.0 MB) in 1m 30s.');
		expect(json.estimatedCost).toEqual({ amount: 0.042, currency: 'EUR' });
		expect(Object.values(json)).not.toContain(null);
	});

	it('a running job: its percentage, in the line too; no finishedAt', () => {
		const json = jobItemJson(running, 'tool');
		expect(json.summary).toBe('Copy job running: transferred 4 of 10 files (500.0 KB of 2.0 MB, 25%) in 1m 30s.');
		expect(json.percentDone).toBe(25);
		expect(json).not.toHaveProperty('finishedAt');
		expect(json).not.toHaveProperty('estimatedCost');
	});

	it('a dry run: no transferred figures, no percentage (it transfers nothing by design)', () => {
		const json = jobItemJson(dryRunDone, 'tool');
		for (const key of ['transferredCount', 'transferredSize', 'percentDone', 'remainingCount']) expect(json).not.toHaveProperty(key);
		expect(json).toMatchObject({ filesCount: 4, filesSize: 1500, estimatedDurationSeconds: 4, estimatedCost: { amount: 0.0104, currency: 'USD' } });
	});

	it('Pause, Resume and Cancel: the tool shape in tool use, every attribute in workflows', () => {
		expect(statusJobJson(toolContext(), running)).toEqual(jobItemJson(running, 'tool'));
		expect(statusJobJson(executeContext(), running)).toEqual(flatten(running));
	});
});

describe('the summary line in tool use', () => {
	const line = (job: Parameters<typeof toolSummaryLine>[0]) => toolSummaryLine(job);

	it('a finished dry run does not read as "nothing happened": it says that is by design, and how to run it for real', () => {
		expect(line(dryRunDone)).toBe(
			'Dry run finished: 4 files (1.5 KB) in scope, estimated duration 4s, estimated cost 0.0104 USD. A dry run only estimates and transfers nothing; Job › Run From Dry Run starts the real copy.',
		);
	});

	it('a dry run not finished names its status: "so far", or "when it ended"', () => {
		expect(line(dryRunScanning)).toBe('Dry run (scanning): 3 files (1.2 KB) in scope so far.');
		expect(line(makeJob(uuid(5), { status: 'paused', dryRun: true }, { filesCount: 1, filesSize: 10 }))).toBe('Dry run (paused): 1 file (10 B) in scope so far.');
		expect(line(makeJob(uuid(6), { status: 'canceled', dryRun: true }, { filesCount: 2, filesSize: 10 }))).toBe(
			'Dry run (canceled): 2 files (10 B) in scope when it ended; the estimate is incomplete.',
		);
	});

	it('a sub-second estimate reads "under 1s", not "0s"', () => {
		const quick = makeJob(uuid(7), { status: 'finished', dryRun: true }, { filesCount: 2, filesSize: 1415, estimatedDuration: 0.3 });
		expect(line(quick)).toMatch(/estimated duration under 1s\./);
	});

	it('real jobs: scanning, failed and stuck say what to do next', () => {
		expect(line(makeJob(uuid(8), { status: 'scanning', transferType: 'move' }, { filesCount: 6, filesSize: 1200 }))).toBe(
			'Move job scanning: 6 files (1.2 KB) found so far, none transferred yet.',
		);
		const failed = makeJob(uuid(9), { status: 'failed', transferType: 'sync', updatedAt: '2026-11-21T08:00:03.000Z' }, {
			startedAt: '2026-11-21T08:00:00.000Z',
			finishedAt: '2026-11-21T08:00:03.000Z',
			filesCount: 3,
			filesSize: 1600,
			transferredCount: 1,
			transferredSize: 502,
		});
		expect(line(failed)).toBe('Sync job failed: transferred 1 of 3 files (502 B of 1.6 KB, 31.4%) in 3s. Job › Get Errors lists what went wrong.');
		const stuck = makeJob(uuid(10), { status: 'stuck' }, { filesCount: 3, filesSize: 1600, transferredCount: 1, transferredSize: 502 });
		expect(line(stuck)).toMatch(/^Copy job stuck: .* A storage is unavailable; Job › Get Errors may say which\.$/);
	});
});

describe('the editor keeps its output exactly', () => {
	it('simplified and full are what jobJson gave before tool use existed', () => {
		for (const job of [finished, running, dryRunDone, dryRunScanning]) {
			expect(jobItemJson(job, 'simplified')).toEqual(jobJson(job, true));
			expect(jobItemJson(job, 'full')).toEqual(jobJson(job, false));
			// The editor's summary of a dry run is unchanged, percentDone 0 and all.
			expect((jobJson(job, true).summary as IDataObject).text).toBe(jobSummary(job).text);
		}
		expect((jobJson(dryRunDone, true).summary as IDataObject).percentDone).toBe(0);
		expect((jobJson(dryRunDone, true).summary as IDataObject).text).toBe(
			'Dry run: 4 files (1.5 KB) in scope, estimated duration 4s, estimated cost 0.0104 USD.',
		);
	});

	it('readJobShape: Simplify on is "simplified" in workflows and "tool" in tool use; off is "full" in both', () => {
		expect(readJobShape(executeContext(), 0)).toBe('simplified');
		expect(readJobShape(toolContext(), 0)).toBe('tool');
		expect(readJobShape(executeContext({ simplify: false }), 0)).toBe('full');
		expect(readJobShape(toolContext({ simplify: false }), 0)).toBe('full');
	});
});

describe('bytes per job item', () => {
	it('the tool shape is the smallest; the figures are printed', () => {
		const rows = [
			['finished copy', finished],
			['running copy', running],
			['finished dry run', dryRunDone],
		] as const;
		const lines: string[] = [];
		for (const [name, job] of rows) {
			const size = (json: IDataObject) => Buffer.byteLength(JSON.stringify(json));
			const tool = size(jobItemJson(job, 'tool'));
			const simplified = size(jobItemJson(job, 'simplified'));
			const full = size(jobItemJson(job, 'full'));
			lines.push(`${name}: tool ${tool}, simplified ${simplified}, full ${full}`);
			expect(tool).toBeLessThan(simplified);
			expect(tool).toBeLessThan(full);
		}
		process.stdout.write(`[tool bytes] JSON bytes per job item: ${lines.join('; ')}\n`);
	});
});
