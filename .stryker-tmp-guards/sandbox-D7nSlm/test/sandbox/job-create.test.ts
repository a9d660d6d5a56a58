// @ts-nocheck
import { randomUUID } from 'node:crypto';
import { DEMO_IDS } from '../../sandbox/src';
import { createJob, expectError, expectJsonApi, jobBody, useSandbox, type JobInput } from './helpers';

const h = useSandbox({ demo: true });

const FILES = () => DEMO_IDS.storageIds.files;
const ARCHIVE = () => DEMO_IDS.storageIds.archive;
const BUCKET = () => DEMO_IDS.storageIds.bucket;

/** A valid dry-run copy job (dry run: nothing is moved, so the demo data stays as it is). */
const base = (over: JobInput = {}): JobInput => ({
	transferType: 'copy',
	conflictHandling: 'skip',
	dryRun: true,
	source: { id: FILES(), path: null },
	target: { id: ARCHIVE(), path: '/job-create' },
	...over,
});

const scope = (rules: unknown[]) => ({ type: 'rules', method: 'include-if-all', rules }) as never;

describe('job creation: required fields', () => {
	it('the minimal valid body (transferType, source.type, source.id, target.id, conflictHandling) -> 201', async () => {
		const res = await h.api.post(
			'/jobs',
			jobBody({
				transferType: 'copy',
				conflictHandling: 'skip',
				dryRun: true,
				source: { type: 'file', id: FILES() },
				target: { id: ARCHIVE() },
			}),
		);
		expectJsonApi(res, 201);
		const a = res.data.data.attributes;
		expect(a.source).toEqual(expect.objectContaining({ type: 'file', id: FILES(), path: null }));
		expect(a.target).toEqual(expect.objectContaining({ id: ARCHIVE(), path: null }));
		expect(a.target.type).toBe(h.sb.state.storages().find((s) => s.id === ARCHIVE())!.attributes.type);
	});

	it('dryRun defaults to false', async () => {
		const res = await createJob(h, { ...base(), dryRun: undefined, source: { id: FILES(), path: '/no-such-folder-x' } });
		expectJsonApi(res, 201);
		expect(res.data.data.attributes.dryRun).toBe(false);
	});

	/** A valid body as raw attributes, source.type included. */
	const valid = (): Record<string, any> => ({
		transferType: 'copy',
		conflictHandling: 'skip',
		dryRun: true,
		source: { type: 'file', id: FILES(), path: null },
		target: { id: ARCHIVE(), path: '/job-create' },
	});

	it.each<[string, (a: Record<string, any>) => void, string]>([
		['transferType missing', (a) => delete a.transferType, '/data/attributes/transferType'],
		['transferType unknown', (a) => (a.transferType = 'teleport'), '/data/attributes/transferType'],
		['source.id missing', (a) => delete a.source.id, '/data/attributes/source/id'],
		['source.type missing', (a) => delete a.source.type, '/data/attributes/source/type'],
		['target.id missing', (a) => delete a.target.id, '/data/attributes/target/id'],
		['source.id unknown', (a) => (a.source.id = randomUUID()), '/data/attributes/source/id'],
		['target.id unknown', (a) => (a.target.id = randomUUID()), '/data/attributes/target/id'],
		['source.type object-aws on a file storage', (a) => (a.source.type = 'object-aws'), '/data/attributes/source/type'],
		['source.type file on an object-aws storage', (a) => (a.source.id = BUCKET()), '/data/attributes/source/type'],
		['source.type not a storage type', (a) => (a.source.type = 'ftp'), '/data/attributes/source/type'],
		['source.path not absolute', (a) => (a.source.path = 'relative/dir'), '/data/attributes/source/path'],
		['target.path not absolute', (a) => (a.target.path = 'relative'), '/data/attributes/target/path'],
		['dryRun not a boolean', (a) => (a.dryRun = 'yes'), '/data/attributes/dryRun'],
	])('%s -> 400 validation-failed with its pointer', async (_name, change, pointer) => {
		const control = await h.api.post('/jobs', jobBody(valid()));
		expectJsonApi(control, 201);
		const attrs = valid();
		change(attrs);
		const res = await h.api.post('/jobs', jobBody(attrs));
		expectError(res, 400, 'validation-failed', pointer);
	});
});

describe('job creation: conflictHandling is null exactly when sync', () => {
	it.each([
		['copy', 'skip'],
		['copy', 'rename'],
		['copy', 'overwrite'],
		['move', 'skip'],
		['move', 'overwrite'],
		['sync', null],
	])('%s with %s -> 201', async (transferType, conflictHandling) => {
		const res = await createJob(h, base({ transferType: transferType as 'copy', conflictHandling: conflictHandling as 'skip' }));
		expectJsonApi(res, 201);
		expect(res.data.data.attributes.conflictHandling).toBe(conflictHandling);
		expect(res.data.data.attributes.transferType).toBe(transferType);
	});

	it('sync with conflictHandling left out -> 201 with null', async () => {
		const attrs = base({ transferType: 'sync' });
		delete attrs.conflictHandling;
		const res = await h.api.post('/jobs', jobBody({ ...attrs, source: { ...attrs.source, type: 'file' } }));
		expectJsonApi(res, 201);
		expect(res.data.data.attributes.conflictHandling).toBeNull();
	});

	it.each([
		['copy', null],
		['move', null],
		['copy', 'merge'],
		['sync', 'skip'],
		['sync', 'overwrite'],
		['sync', 'rename'],
	])('%s with %s -> 400 validation-failed on conflictHandling', async (transferType, conflictHandling) => {
		const res = await createJob(h, base({ transferType: transferType as 'copy', conflictHandling: conflictHandling as 'skip' }));
		expectError(res, 400, 'validation-failed', '/data/attributes/conflictHandling');
	});

	it.each(['copy', 'move'])('%s with conflictHandling left out counts as null -> 400', async (transferType) => {
		const attrs = base({ transferType: transferType as 'copy' });
		delete attrs.conflictHandling;
		const res = await h.api.post('/jobs', jobBody({ ...attrs, source: { ...attrs.source, type: 'file' } }));
		expectError(res, 400, 'validation-failed', '/data/attributes/conflictHandling');
	});
});

describe('job creation: status, retrievalType, scope and other optional fields', () => {
	it('status running is accepted', async () => {
		const res = await createJob(h, base({ status: 'running' }));
		expectJsonApi(res, 201);
		expect(['scanning', 'running', 'finished']).toContain(res.data.data.attributes.status);
	});

	it.each(['paused', 'scanning', 'finished', 'canceled', 'bogus'])('status %s -> 400 validation-failed', async (status) => {
		const res = await createJob(h, base({ status: status as 'running' }));
		expectError(res, 400, 'validation-failed', '/data/attributes/status');
	});

	it.each(['standard', 'bulk', 'expedited'])('retrievalType %s on an object-aws source -> 201', async (retrievalType) => {
		const res = await createJob(h, base({ source: { id: BUCKET(), retrievalType: retrievalType as 'bulk' } }));
		expectJsonApi(res, 201);
		expect(res.data.data.attributes.source).toEqual(expect.objectContaining({ type: 'object-aws', retrievalType }));
	});

	it('retrievalType other than standard/bulk/expedited -> 400', async () => {
		const res = await createJob(h, base({ source: { id: BUCKET(), retrievalType: 'instant' as 'bulk' } }));
		expectError(res, 400, 'validation-failed', '/data/attributes/source/retrievalType');
	});

	it('retrievalType on a file source -> 400', async () => {
		const res = await createJob(h, base({ source: { id: FILES(), retrievalType: 'standard' } }));
		expectError(res, 400, 'validation-failed', '/data/attributes/source/retrievalType');
	});

	it('a scope with ends-with and matches rules is stored as given', async () => {
		const rules = [
			{ type: 'name', condition: 'ends-with', value: '.csv' },
			{ type: 'name', condition: 'matches', value: '^report-\\d+' },
		];
		const res = await createJob(h, base({ scope: scope(rules) }));
		expectJsonApi(res, 201);
		expect(res.data.data.attributes.scope).toEqual({ type: 'rules', method: 'include-if-all', rules });
	});

	it.each(['(', '[a-', '*x', 'a{2,1}'])('matches rule value %s is not a regular expression -> 400', async (value) => {
		const res = await createJob(h, base({ scope: scope([{ type: 'name', condition: 'matches', value }]) }));
		expectError(res, 400, 'validation-failed', '/data/attributes/scope/rules/0/value');
	});

	it('an ends-with rule value is not a regular expression and need not compile', async () => {
		const res = await createJob(h, base({ scope: scope([{ type: 'name', condition: 'ends-with', value: '(' }]) }));
		expectJsonApi(res, 201);
	});

	it('failureConditions, transferRateLimit, name, userId, groupId are stored', async () => {
		const res = await createJob(
			h,
			base({
				name: 'nightly',
				failureConditions: [{ type: 'error-count', value: 10 }],
				transferRateLimit: 1000,
				userId: DEMO_IDS.userIds[0],
				groupId: DEMO_IDS.groupIds[0],
				accountId: DEMO_IDS.accountId,
			}),
		);
		expectJsonApi(res, 201);
		expect(res.data.data.attributes).toEqual(
			expect.objectContaining({
				name: 'nightly',
				failureConditions: [{ type: 'error-count', value: 10 }],
				transferRateLimit: 1000,
				userId: DEMO_IDS.userIds[0],
				groupId: DEMO_IDS.groupIds[0],
				accountId: DEMO_IDS.accountId,
				deploymentId: DEMO_IDS.accountId,
			}),
		);
	});
});
