/**
 * Job › Create and Run From Dry Run: "Additional Attributes (JSON)" (merged into data.attributes; a JSON
 * object only; keys the node sets itself refused, each named, before any request) and "Sync Conflict
 * Handling" (null by the API description, or the value a deployment requires), with the bodies sent.
 */
// @ts-nocheck

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import { startRecordingProxy } from '../../credential/proxy';
import { credentialsFor, runNode } from '../../harness/engine';
import { ARCHIVE, FILES, createParameters, errorText, rl, uniq, useJobSandbox } from './helpers';

const t = useJobSandbox();

/** Runs a Job operation through a recording proxy; returns the run and the attributes of each POST /jobs. */
async function runRecorded(sandbox: Sandbox, parameters: INodeParameters, items?: INodeExecutionData[]) {
	const proxy = await startRecordingProxy(sandbox.baseUrl);
	try {
		const run = await runNode({
			credentials: credentialsFor({ ...sandbox, baseUrl: proxy.baseUrl }),
			parameters: { resource: 'job', ...parameters },
			items,
		});
		const posts = proxy.requests
			.filter((r) => r.method === 'POST' && r.url === '/jobs')
			.map((r) => (JSON.parse(r.body) as { data: { attributes: Record<string, unknown> } }).data.attributes);
		return { run, posts, requests: proxy.requests.length };
	} finally {
		await proxy.close();
	}
}

describe('job: create › Additional Attributes (JSON)', () => {
	it('JSON text is merged into data.attributes beside the form\'s attributes', async () => {
		const name = uniq('extra');
		const { run, posts } = await runRecorded(
			t.sandbox,
			createParameters({ additionalFields: { name, additionalAttributes: '{"priority": "high", "labels": {"env": "prod"}, "retries": 2}' } }),
		);
		expect(run.error).toBeUndefined();
		expect(posts).toHaveLength(1);
		expect(posts[0]).toEqual(
			expect.objectContaining({ name, transferType: 'copy', conflictHandling: 'skip', priority: 'high', labels: { env: 'prod' }, retries: 2 }),
		);
		expect(t.sandbox.state.job(run.items[0].json.id as string)).toBeDefined();
	});

	it('an object from an expression is merged, per item', async () => {
		const { run, posts } = await runRecorded(
			t.sandbox,
			createParameters({ additionalFields: { additionalAttributes: '={{ { "priority": $json.p, "tags": ["a", "b"] } }}' } }),
			[{ json: { p: 'low' } }, { json: { p: 'high' } }],
		);
		expect(run.error).toBeUndefined();
		expect(posts.map((a) => [a.priority, a.tags])).toEqual([
			['low', ['a', 'b']],
			['high', ['a', 'b']],
		]);
	});

	it('the default {} and empty text send nothing more', async () => {
		for (const additionalAttributes of ['{}', '', '  ']) {
			const { run, posts } = await runRecorded(t.sandbox, createParameters({ additionalFields: { additionalAttributes } }));
			expect(run.error).toBeUndefined();
			expect(Object.keys(posts[0]).sort()).toEqual(['conflictHandling', 'dryRun', 'source', 'target', 'transferType']);
		}
	});

	const refused: Array<[string, string, string]> = [
		['text that is not JSON', '{priority: high}', 'is not valid JSON'],
		['a JSON array', '[{"priority": "high"}]', 'must be a JSON object, got an array'],
		['JSON null', 'null', 'must be a JSON object, got null'],
		['a JSON number', '42', 'must be a JSON object, got number 42'],
		['a JSON string', '"priority"', 'must be a JSON object, got string "priority"'],
		['a number from an expression', '={{ 5 }}', 'must be a JSON object'],
		['an array from an expression', '={{ [1, 2] }}', 'must be a JSON object, got an array'],
		['nothing from an expression', '={{ $json.missing }}', 'must be a JSON object, got nothing'],
		['a key the form sets (name)', '{"name": "x", "priority": 1}', 'must not set "name": the node\'s own fields set it'],
		[
			'several keys the form sets, each named',
			'{"source": {"path": "/"}, "priority": 1, "conflictHandling": "skip", "dryRun": false}',
			'must not set "source", "conflictHandling", "dryRun"',
		],
		['a key the form sets even when its field is empty (groupId)', '={{ { "groupId": null } }}', 'must not set "groupId"'],
	];

	it.each(refused)('%s is an input error naming the field and the item; nothing is sent', async (_title, additionalAttributes, expected) => {
		const before = t.sandbox.requests.count();
		const result = await t.run(createParameters({ additionalFields: { additionalAttributes } }));
		expect(result.error).toBeDefined();
		expect(result.error!.message).toContain('"Additional Attributes (JSON)"');
		expect(result.error!.message).toContain(expected);
		expect(result.error!.message).toContain('[item 0]');
		expect(t.sandbox.requests.count()).toBe(before);
	});

	it('the error names the item that failed, and says which field sets a clashing key', async () => {
		const before = t.sandbox.requests.count({ method: 'POST', path: '/jobs' });
		const result = await t.run(createParameters({ additionalFields: { additionalAttributes: '={{ $json.extra }}' } }), {
			items: [{ json: { extra: { priority: 'high' } } }, { json: { extra: { transferRateLimit: 5 } } }],
		});
		expect(result.error!.message).toContain('must not set "transferRateLimit"');
		expect(result.error!.message).toContain('[item 1]');
		expect(errorText(result)).toContain('transferRateLimit (Transfer Rate Limit)');
		// Item 0 was created before item 1 failed its check.
		expect(t.sandbox.requests.count({ method: 'POST', path: '/jobs' })).toBe(before + 1);
	});
});

describe('job: create › Sync Conflict Handling (the contract: null for sync)', () => {
	it('None (default) sends conflictHandling null for a sync job', async () => {
		const { run, posts } = await runRecorded(
			t.sandbox,
			createParameters({ transferType: 'sync', syncConflictHandling: 'none' }),
		);
		expect(run.error).toBeUndefined();
		expect(posts[0]).toEqual(expect.objectContaining({ transferType: 'sync', conflictHandling: null }));
	});

	it('Skip sends conflictHandling "skip"; a service that keeps to the description refuses it, naming the field', async () => {
		const { run, posts } = await runRecorded(t.sandbox, createParameters({ transferType: 'sync', syncConflictHandling: 'skip' }));
		expect(posts).toHaveLength(1);
		expect(posts[0]).toEqual(expect.objectContaining({ transferType: 'sync', conflictHandling: 'skip' }));
		expect(run.error).toBeDefined();
		expect(errorText(run)).toContain('conflictHandling');
	});

	it('is not used for copy and move: Conflict Handling is sent', async () => {
		const { run, posts } = await runRecorded(
			t.sandbox,
			createParameters({ transferType: 'move', conflictHandling: 'rename', syncConflictHandling: 'overwrite' }),
		);
		expect(run.error).toBeUndefined();
		expect(posts[0]).toEqual(expect.objectContaining({ transferType: 'move', conflictHandling: 'rename' }));
	});

	it('a value from an expression that is not listed is an input error; nothing is sent', async () => {
		const before = t.sandbox.requests.count();
		const result = await t.run(createParameters({ transferType: 'sync', syncConflictHandling: '={{ "merge" }}' }));
		expect(result.error!.message).toContain('"Sync Conflict Handling" must be one of "none", "skip", "rename", "overwrite", got "merge" [item 0]');
		expect(t.sandbox.requests.count()).toBe(before);
	});

	it('Conflict Handling set for sync (from expressions) still points to Sync Conflict Handling', async () => {
		const result = await t.run(createParameters({ transferType: '={{ "sync" }}', conflictHandling: 'skip' }));
		expect(result.error!.message).toContain('"Conflict Handling" must be empty for a sync job');
		expect(errorText(result)).toContain('Sync Conflict Handling');
	});
});

describe('job: a deployment that requires conflict handling for sync (sync-needs-conflict)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ speed: 1000, deviations: ['sync-needs-conflict'] });
	});
	afterAll(async () => {
		await sandbox.close();
	});

	const syncDryRun = (syncConflictHandling: string): INodeParameters =>
		createParameters({ transferType: 'sync', syncConflictHandling, additionalFields: { name: uniq('sync') } });

	it('None: the service refuses the job, naming conflictHandling', async () => {
		const { run, posts } = await runRecorded(sandbox, syncDryRun('none'));
		expect(posts[0].conflictHandling).toBeNull();
		expect(run.error).toBeDefined();
		expect(errorText(run)).toContain('conflictHandling is required for every job, sync included');
	});

	it('Overwrite: the sync job is created with it, and the service keeps it', async () => {
		const { run, posts } = await runRecorded(sandbox, { ...syncDryRun('overwrite'), simplify: false, waitForCompletion: true, pollInterval: 0.05, maxWait: 10 });
		expect(run.error).toBeUndefined();
		expect(posts[0]).toEqual(expect.objectContaining({ transferType: 'sync', conflictHandling: 'overwrite' }));
		expect(run.items[0].json).toEqual(expect.objectContaining({ transferType: 'sync', conflictHandling: 'overwrite', status: 'finished' }));
		expect(sandbox.state.job(run.items[0].json.id as string)!.attributes.conflictHandling).toBe('overwrite');
	});

	it('Run From Dry Run copies the dry run\'s conflict handling of a sync job (it would be refused with null)', async () => {
		const dry = await runRecorded(sandbox, { ...syncDryRun('rename'), waitForCompletion: true, pollInterval: 0.05, maxWait: 10 });
		expect(dry.run.error).toBeUndefined();
		const { run, posts } = await runRecorded(sandbox, { operation: 'runFromDryRun', jobId: rl(dry.run.items[0].json.id as string) });
		expect(run.error).toBeUndefined();
		expect(posts[0]).toEqual(expect.objectContaining({ transferType: 'sync', conflictHandling: 'rename', dryRun: false }));
	});
});

describe('job: run from dry run › Additional Attributes (JSON)', () => {
	async function finishedDryRun(): Promise<string> {
		const run = await t.run(createParameters({ additionalFields: { name: uniq('dry') }, waitForCompletion: true, pollInterval: 0.05, maxWait: 10 }));
		expect(run.error).toBeUndefined();
		return run.items[0].json.id as string;
	}

	it('are merged into the new job\'s create request (they are not copied from the dry run)', async () => {
		const dryRunId = await finishedDryRun();
		const { run, posts } = await runRecorded(t.sandbox, {
			operation: 'runFromDryRun',
			jobId: rl(dryRunId),
			additionalFields: { additionalAttributes: '{"priority": "high"}' },
		});
		expect(run.error).toBeUndefined();
		expect(posts).toHaveLength(1);
		expect(posts[0]).toEqual(
			expect.objectContaining({ priority: 'high', dryRun: false, source: expect.objectContaining({ id: FILES }), target: expect.objectContaining({ id: ARCHIVE }) }),
		);
	});

	it('a key the node sets (copied from the dry run, or Name) is refused before any request', async () => {
		const before = t.sandbox.requests.count();
		const result = await t.run({
			operation: 'runFromDryRun',
			jobId: rl(FILES),
			additionalFields: { additionalAttributes: '{"dryRun": true, "name": "x"}' },
		});
		expect(result.error!.message).toContain('"Additional Attributes (JSON)" must not set "dryRun", "name"');
		expect(result.error!.message).toContain('[item 0]');
		expect(errorText(result)).toContain('dryRun (copied from the dry run), name (Name)');
		expect(t.sandbox.requests.count()).toBe(before);
	});
});
