/**
 * What the nodes output for a record, from plain records: flattening and the node's own keys
 * (nodes/shared/answers/output.ts), simplified and full jobs, transfers and errors (helpers/jobOutput.ts), the
 * summary and its one-line text (nodes/shared/jobs/summary.ts), and the trigger's items (items.ts) where they need
 * no request. The expected texts are the examples of docs/operations.md and docs/trigger.md.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { AnyResource, JobError, JobTransfer, TransferStatus } from '../../nodes/shared/api/types';
import { jobErrorJson, jobJson, transferJson } from '../../nodes/FileTransferManager/helpers/jobOutput';
import { asItems, flatten } from '../../nodes/shared/answers/output';
import { jobSummary } from '../../nodes/shared/jobs/summary';
import type { TriggerConfig } from '../../nodes/FileTransferManagerTrigger/config';
import { toItems } from '../../nodes/FileTransferManagerTrigger/items';
import { ACCOUNT_ID, makeJob, SOURCE_ID, TARGET_ID, uuid } from './fixtures';

const JOB_ID = uuid(0x10b);

/** The job of docs/operations.md's example line: 4 of 10 files, 500 KB of 2 MB, in 90 seconds. */
const transferred = makeJob(
	JOB_ID,
	{ status: 'finished', updatedAt: '2026-11-21T09:01:30.000Z' },
	{
		startedAt: '2026-11-21T09:00:00.000Z',
		finishedAt: '2026-11-21T09:01:30.000Z',
		filesCount: 10,
		filesSize: 2_000_000,
		transferredCount: 4,
		transferredSize: 500_000,
		scannedFilesCount: 10,
	},
);

/** The dry run of docs/operations.md's example line: 4 files, 1.5 KB, 4 s, 0.0104 USD. */
const dryRun = makeJob(
	uuid(0xd5),
	{ status: 'finished', dryRun: true },
	{ filesCount: 4, filesSize: 1500, estimatedDuration: 4, estimatedCost: { amount: '0.0104', currency: 'USD' } },
);

describe('jobSummary', () => {
	it('sums up a transfer as docs/operations.md shows it', () => {
		expect(jobSummary(transferred)).toEqual({
			dryRun: false,
			filesCount: 10,
			filesSize: 2_000_000,
			transferredCount: 4,
			transferredSize: 500_000,
			remainingCount: 6,
			remainingSize: 1_500_000,
			percentDone: 25,
			startedAt: '2026-11-21T09:00:00.000Z',
			finishedAt: '2026-11-21T09:01:30.000Z',
			durationSeconds: 90,
			averageBytesPerSecond: 5556,
			estimatedDurationSeconds: null,
			estimatedCost: null,
			currency: null,
			text: 'Transferred 4 of 10 files (500.0 KB of 2.0 MB) in 1m 30s.',
		});
	});

	it('sums up a dry run with its estimates, the cost as a number next to its currency', () => {
		const summary = jobSummary(dryRun);
		expect(summary.text).toBe('Dry run: 4 files (1.5 KB) in scope, estimated duration 4s, estimated cost 0.0104 USD.');
		expect(summary.dryRun).toBe(true);
		expect(summary.estimatedCost).toBe(0.0104);
		expect(summary.currency).toBe('USD');
		expect(summary.estimatedDurationSeconds).toBe(4);
		expect(summary.durationSeconds).toBeNull();
	});

	it('measures a running job up to its latest update, and its progress by files when sizes are unknown', () => {
		const running = makeJob(
			JOB_ID,
			{ status: 'running', updatedAt: '2026-11-21T10:01:01.000Z' },
			{ startedAt: '2026-11-21T09:00:00.000Z', filesCount: 4, transferredCount: 3 },
		);
		const summary = jobSummary(running);
		expect(summary.durationSeconds).toBe(3661);
		expect(summary.percentDone).toBe(75);
		expect(summary.averageBytesPerSecond).toBe(0);
		expect(summary.text).toBe('Transferred 3 of 4 files (0 B of 0 B) in 1h 1m 1s.');
	});

	it('has no duration, rate or progress when the job has not started or has nothing in scope', () => {
		const summary = jobSummary(makeJob(JOB_ID, { status: 'scanning' }));
		expect(summary.durationSeconds).toBeNull();
		expect(summary.averageBytesPerSecond).toBeNull();
		expect(summary.percentDone).toBeNull();
		expect(summary.text).toBe('Transferred 0 of 0 files (0 B of 0 B).');
	});

	it('writes sizes in units of 1000 from B to PB, rounding to one decimal', () => {
		const sizes = (transferredSize: number, filesSize: number) =>
			jobSummary(makeJob(JOB_ID, {}, { transferredSize, filesSize })).text;
		expect(sizes(999, 1000)).toBe('Transferred 0 of 0 files (999 B of 1.0 KB).');
		expect(sizes(1_234_567_890, 1_500_000_000_000_000)).toBe('Transferred 0 of 0 files (1.2 GB of 1.5 PB).');
		expect(sizes(0, 2e18)).toBe('Transferred 0 of 0 files (0 B of 2000.0 PB).');
	});

	it('never counts a negative remainder or duration', () => {
		const odd = makeJob(
			JOB_ID,
			{},
			{
				startedAt: '2026-11-21T09:00:10.000Z',
				finishedAt: '2026-11-21T09:00:00.000Z',
				filesCount: 2,
				transferredCount: 3,
				filesSize: 10,
				transferredSize: 12,
			},
		);
		const summary = jobSummary(odd);
		expect(summary.remainingCount).toBe(0);
		expect(summary.remainingSize).toBe(0);
		expect(summary.durationSeconds).toBe(0);
		expect(summary.averageBytesPerSecond).toBeNull();
	});

	it('leaves out a cost that is not a decimal number, keeping its currency', () => {
		const job = makeJob(JOB_ID, { dryRun: true }, { estimatedCost: { amount: '12,50', currency: 'EUR' } });
		const summary = jobSummary(job);
		expect(summary.estimatedCost).toBeNull();
		expect(summary.currency).toBe('EUR');
		expect(summary.text).toBe('Dry run: 0 files (0 B) in scope.');
	});
});

describe('flatten', () => {
	const group = {
		id: uuid(0x6),
		type: 'groups',
		attributes: { accountId: ACCOUNT_ID, deploymentId: ACCOUNT_ID, name: 'Ops', createdAt: 'c', updatedAt: 'u' },
	} as AnyResource;

	it('puts the node\'s own keys first, then the id, then the attributes at the top level', () => {
		const json = flatten(group, { jobId: JOB_ID });
		expect(Object.keys(json)).toEqual(['jobId', 'id', 'accountId', 'deploymentId', 'name', 'createdAt', 'updatedAt']);
		expect(json.id).toBe(uuid(0x6));
		expect(json).not.toHaveProperty('apiAttributes');
	});

	it('keeps an attribute named like one of the node\'s keys, or like apiAttributes, under apiAttributes', () => {
		const clashing = {
			id: uuid(0x6),
			type: 'groups',
			attributes: { id: 'attr-id', jobId: 'attr-job', apiAttributes: 'attr-api', recoveredAfterAmbiguousError: 'x', name: 'Ops' },
		} as unknown as AnyResource;
		const json = flatten(clashing, { jobId: JOB_ID }, ['recoveredAfterAmbiguousError']);
		expect(json).toEqual({
			jobId: JOB_ID,
			id: uuid(0x6),
			name: 'Ops',
			apiAttributes: { id: 'attr-id', jobId: 'attr-job', apiAttributes: 'attr-api', recoveredAfterAmbiguousError: 'x' },
		});
	});

	it('keeps an attribute named __proto__ as a plain key, without touching the prototype', () => {
		const attributes = JSON.parse('{"__proto__": {"polluted": true}, "name": "Ops"}') as IDataObject;
		const json = flatten({ id: uuid(0x6), type: 'groups', attributes } as unknown as AnyResource);
		expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(json, '__proto__')).toBe(true);
		expect((json as { polluted?: unknown }).polluted).toBeUndefined();
	});

	it('wraps objects as items', () => {
		expect(asItems([{ a: 1 }, { b: 2 }])).toEqual([{ json: { a: 1 } }, { json: { b: 2 } }]);
	});
});

describe('jobJson', () => {
	it('simplified: the listed fields in order, the main stats only, then the summary', () => {
		const json = jobJson(transferred, true);
		expect(Object.keys(json)).toEqual([
			'id',
			'name',
			'status',
			'transferType',
			'dryRun',
			'source',
			'target',
			'stats',
			'createdAt',
			'updatedAt',
			'summary',
		]);
		expect(json.stats).toEqual({
			startedAt: '2026-11-21T09:00:00.000Z',
			finishedAt: '2026-11-21T09:01:30.000Z',
			filesCount: 10,
			filesSize: 2_000_000,
			transferredCount: 4,
			transferredSize: 500_000,
			estimatedDuration: null,
			estimatedCost: null,
		});
		expect(json.source).toEqual({ type: 'file', id: SOURCE_ID, path: '/exports' });
		expect(json.target).toEqual({ id: TARGET_ID, path: null });
		expect((json.summary as IDataObject).text).toBe('Transferred 4 of 10 files (500.0 KB of 2.0 MB) in 1m 30s.');
	});

	it('full: every attribute, stats whole, and an attribute named like a node key under apiAttributes', () => {
		const withClash = makeJob(JOB_ID, { status: 'finished' });
		(withClash.attributes as unknown as IDataObject).estimatedCost = 'from the API';
		const json = jobJson(withClash, false);
		expect(json.id).toBe(JOB_ID);
		expect(json.accountId).toBe(ACCOUNT_ID);
		expect(json.scope).toEqual({ type: 'rules', method: 'include-if-all', rules: [] });
		expect(json.conflictHandling).toBe('skip');
		expect(json.stats).toHaveProperty('scannedFilesCount', 0);
		expect(json).not.toHaveProperty('summary');
		expect(json).not.toHaveProperty('estimatedCost');
		expect(json.apiAttributes).toEqual({ estimatedCost: 'from the API' });
		expect(jobJson(withClash, true)).not.toHaveProperty('apiAttributes');
	});

	it('simplified, from a service that leaves attributes out: only what it sent, in the same order', () => {
		const partial = makeJob(JOB_ID);
		const attributes = partial.attributes as unknown as IDataObject;
		delete attributes.name;
		delete attributes.dryRun;
		delete attributes.stats;
		const json = jobJson(partial, true);
		expect(Object.keys(json)).toEqual([
			'id',
			'status',
			'transferType',
			'source',
			'target',
			'stats',
			'createdAt',
			'updatedAt',
			'summary',
		]);
		expect(json.stats).toEqual({
			startedAt: null,
			finishedAt: null,
			filesCount: null,
			filesSize: null,
			transferredCount: null,
			transferredSize: null,
			estimatedDuration: null,
			estimatedCost: null,
		});
	});
});

describe('transferJson and jobErrorJson', () => {
	const transfer = (status: TransferStatus, extra: IDataObject = {}): JobTransfer =>
		({
			type: 'job-transfers',
			attributes: { path: '/exports/a.csv', status, size: 12, hash: { md5: 'm', s3Etag: 'e' }, ...extra },
		}) as JobTransfer;

	it('names the numeric status of a transfer as its outcome', () => {
		expect(transferJson(JOB_ID, transfer(0))).toEqual({
			jobId: JOB_ID,
			path: '/exports/a.csv',
			status: 0,
			size: 12,
			hash: { md5: 'm', s3Etag: 'e' },
			outcome: 'transferred',
		});
		expect(transferJson(JOB_ID, transfer(1)).outcome).toBe('skipped');
		expect(transferJson(JOB_ID, transfer(-1)).outcome).toBe('failed');
		expect(transferJson(JOB_ID, transfer(7 as TransferStatus)).outcome).toBe('unknown');
	});

	it('keeps a transfer attribute named outcome or jobId under apiAttributes', () => {
		const json = transferJson(JOB_ID, transfer(0, { outcome: 'api', jobId: 'api-job' }));
		expect(json.outcome).toBe('transferred');
		expect(json.jobId).toBe(JOB_ID);
		expect(json.apiAttributes).toEqual({ outcome: 'api', jobId: 'api-job' });
	});

	it('outputs an error record as id, the job\'s id, then its attributes', () => {
		const error: JobError = {
			id: uuid(0xe1),
			type: 'job-errors',
			attributes: { sourcePath: '/exports/b.csv', message: 'denied', timestamp: '2026-11-21T09:00:01.000Z', event: 'error' },
		};
		const json = jobErrorJson(JOB_ID, error);
		expect(Object.keys(json)).toEqual(['id', 'jobId', 'sourcePath', 'message', 'timestamp', 'event']);
		expect(json.id).toBe(uuid(0xe1));
		expect(json.jobId).toBe(JOB_ID);
	});
});

describe('the trigger\'s items (no request: no errors attached)', () => {
	/** A poll context the items may not use: every request would fail on it. */
	const ctx = {} as IPollFunctions;
	const config = (overrides: Partial<TriggerConfig> = {}): TriggerConfig => ({
		watched: new Set(['finished', 'failed', 'stuck']),
		filterQs: {},
		attachErrors: 0,
		attachTransferSummary: false,
		fingerprint: 'fp',
		...overrides,
	});

	it('puts event and seenAt first, then the job flattened as the action node outputs it', async () => {
		const [item] = await toItems(ctx, config(), [{ job: transferred, event: 'finished' }]);
		expect(Object.keys(item.json).slice(0, 4)).toEqual(['event', 'seenAt', 'id', 'name']);
		expect(item.json.event).toBe('finished');
		expect(item.json.seenAt).toBe('2026-11-21T09:01:30.000Z');
		expect(item.json.stats).toEqual(transferred.attributes.stats);
		expect(item.json).not.toHaveProperty('aheadOfServiceClock');
		expect(item.json).not.toHaveProperty('transferSummary');
	});

	it('flags an item ahead of the service\'s clock, and only that one', async () => {
		const items = await toItems(ctx, config(), [
			{ job: transferred, event: 'finished', aheadOfClock: true },
			{ job: dryRun, event: 'finished' },
		]);
		expect(Object.keys(items[0].json).slice(0, 4)).toEqual(['event', 'seenAt', 'aheadOfServiceClock', 'id']);
		expect(items[0].json.aheadOfServiceClock).toBe(true);
		expect(items[1].json).not.toHaveProperty('aheadOfServiceClock');
	});

	it('attaches the transfer summary when asked', async () => {
		const [item] = await toItems(ctx, config({ attachTransferSummary: true }), [{ job: transferred, event: 'finished' }]);
		expect((item.json.transferSummary as IDataObject).text).toBe('Transferred 4 of 10 files (500.0 KB of 2.0 MB) in 1m 30s.');
		expect((item.json.transferSummary as IDataObject).remainingCount).toBe(6);
	});

	it('attaches errors to failed and stuck items only: a finished one makes no request', async () => {
		const items = await toItems(ctx, config({ attachErrors: 3 }), [{ job: transferred, event: 'finished' }]);
		expect(items[0].json).not.toHaveProperty('errors');
	});

	it('keeps job attributes named like the trigger\'s keys under apiAttributes', async () => {
		const job = makeJob(JOB_ID, { status: 'failed' });
		Object.assign(job.attributes, { event: 'api-event', errors: ['api'] });
		const [item] = await toItems(ctx, config(), [{ job, event: 'failed' }]);
		expect(item.json.event).toBe('failed');
		expect(item.json).not.toHaveProperty('errors');
		expect(item.json.apiAttributes).toEqual({ event: 'api-event', errors: ['api'] });
	});
});
