/**
 * Shapes: a malformed document is an error naming what was wrong and which request got it,
 * never a TypeError, in the operations, the editor's pickers and the trigger.
 */
import { searchJobs } from '../../nodes/shared/methods/listSearch';
import { json } from './servers';
import { DEMO_IDS, JOB_ID, ONE_JOB, jobLike, listOf, pickerContext, rl, useHostileService } from './shapesHarness';

const t = useHostileService();

/** Answers GET /jobs/{id} with `body` once. */
const jobAnswers = (body: unknown) => t.service.on('GET', ONE_JOB, (_req, res) => json(res, 200, body), 1);

const getJob = (simplify = false) => t.run({ resource: 'job', operation: 'get', jobId: rl(JOB_ID), simplify });

describe('hostile shapes: one record', () => {
	it('Job Get with {"data": null} names the missing job and the request', async () => {
		jobAnswers({ data: null });
		const { error, items } = await getJob();
		expect(error?.message).toBe(`The service sent no job: "data" is null, not a resource object (GET /jobs/${JOB_ID}) [item 0]`);
		expect(items).toEqual([]);
		expect(t.calls()).toEqual([`GET /jobs/${JOB_ID}`]);
	});

	it('Job Get with data.attributes null, missing or an array', async () => {
		const record = jobLike(t.sandbox);
		for (const [attributes, said] of [
			[null, 'null'],
			[undefined, 'missing'],
			[[1, 2], 'an array'],
		] as const) {
			jobAnswers({ data: { ...record, attributes } });
			const { error } = await getJob();
			expect(error?.message).toBe(
				`The service sent a job without attributes: "data.attributes" is ${said} (GET /jobs/${JOB_ID}) [item 0]`,
			);
		}
	});

	it('Job Get with {"data": {"id": 5}}: the id is named, not a TypeError', async () => {
		jobAnswers({ data: { id: 5 } });
		const { error } = await getJob();
		expect(error?.message).toBe(
			`The service sent a job without a valid id: "data.id" is a number (5), not a UUID (GET /jobs/${JOB_ID}) [item 0]`,
		);
	});

	it('Job Get whose data is a list, or a record without a type', async () => {
		jobAnswers({ data: [jobLike(t.sandbox)] });
		expect((await getJob()).error?.message).toBe(
			`The service sent no job: "data" is an array, not a resource object (GET /jobs/${JOB_ID}) [item 0]`,
		);
		const { type: _type, ...untyped } = jobLike(t.sandbox);
		jobAnswers({ data: untyped });
		expect((await getJob()).error?.message).toBe(
			`The service sent a job without a type: "data.type" is missing (GET /jobs/${JOB_ID}) [item 0]`,
		);
	});

	it('Job Get with Simplify on and a job without a status: the status is named', async () => {
		jobAnswers({ data: jobLike(t.sandbox, { status: null }) });
		expect((await getJob(true)).error?.message).toBe(
			`The service sent a job without a status: "data.attributes.status" is null (GET /jobs/${JOB_ID}) [item 0]`,
		);
	});

	it('Group Get, Storage Get and the second item: the item index and the route are named', async () => {
		const group = DEMO_IDS.groupIds[0];
		t.service.on('GET', `/groups/${group}`, (_req, res) => json(res, 200, { data: { id: group, type: 'groups' } }));
		const { items } = await t.run(
			{ resource: 'group', operation: 'get', groupId: rl('={{ $json.id }}') },
			{ items: [{ json: { id: DEMO_IDS.groupIds[1] } }, { json: { id: group } }], continueOnFail: true },
		);
		expect(items[0].json.id).toBe(DEMO_IDS.groupIds[1]);
		expect(items[1].json.error).toBe(
			`The service sent a group without attributes: "data.attributes" is missing (GET /groups/${group}) [item 1]`,
		);
		const storage = DEMO_IDS.storageIds.files;
		t.service.on('GET', `/storages/${storage}`, (_req, res) => json(res, 200, 'not a document'));
		const result = await t.run({ resource: 'storage', operation: 'get', storageId: rl(storage), requestOptions: { maxRetries: 0 } });
		// A bare JSON string is no JSON:API body: the transport says so before any shape check.
		expect(result.error?.message).toBe('The service answered with something that is not JSON');
		expect(t.calls().filter((call) => call.startsWith('GET /storages'))).toEqual([`GET /storages/${storage}`]);
	});

	it('Job Pause answered with a job without attributes fails with the PATCH named', async () => {
		const id = DEMO_IDS.jobIds.dryRun;
		t.service.on('PATCH', `/jobs/${id}`, (_req, res) => json(res, 200, { data: { id, type: 'jobs', attributes: 'paused' } }));
		const { error } = await t.run({ resource: 'job', operation: 'pause', jobId: rl(id) });
		expect(error?.message).toBe(
			`The service sent a job without attributes: "data.attributes" is a string ("paused") (PATCH /jobs/${id}) [item 0]`,
		);
	});

	it('an error document whose errors are not objects is an HTTP error, not a TypeError', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) => json(res, 400, { errors: [1, 'x', null] }), 1);
		const { error } = await getJob();
		expect(error?.message).toBe('The service answered HTTP 400 without an error document');
		expect(error?.httpCode).toBe('400');
	});
});

describe('hostile shapes: lists', () => {
	it('Job Get Many with {"data": [null]} names the record', async () => {
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([null])));
		const { error } = await t.run({ resource: 'job', operation: 'getMany', returnAll: true });
		expect(error?.message).toBe('The service sent no job: list record 1 is null, not a resource object (GET /jobs) [item 0]');
	});

	it('User Get Many: the third record of the second page lacks attributes', async () => {
		const users = t.sandbox.state.users().slice(0, 3);
		t.service.on('GET', '/users', (req, res) => {
			const second = decodeURIComponent(req.url ?? '').includes('page[after]=p2');
			const data = second ? [users[1], { ...users[2], attributes: null }] : [users[0]];
			json(res, 200, listOf(data, second ? null : 'p2'));
		});
		const { error } = await t.run({ resource: 'user', operation: 'getMany', returnAll: true });
		// Counted over the whole list: the second record of page 2 is the third.
		expect(error?.message).toBe(
			'The service sent a user without attributes: "attributes" of list record 3 is null (GET /users) [item 0]',
		);
		expect(t.calls()).toEqual(['GET /users', 'GET /users']);
	});

	it('Job Get Errors and Get Transfers check each record', async () => {
		const errors = t.sandbox.state.jobErrors(DEMO_IDS.jobIds.failedSync);
		t.service.on('GET', /\/errors$/, (_req, res) => json(res, 200, listOf([errors[0], { id: 7, type: 'job-errors', attributes: {} }])));
		const failed = await t.run({ resource: 'job', operation: 'getErrors', jobId: rl(DEMO_IDS.jobIds.failedSync), returnAll: true });
		expect(failed.error?.message).toBe(
			`The service sent a job error without a valid id: "id" of list record 2 is a number (7), not a UUID (GET /jobs/${DEMO_IDS.jobIds.failedSync}/errors) [item 0]`,
		);
		t.service.on('GET', /\/transfers$/, (_req, res) => json(res, 200, listOf([{ type: 'job-transfers', attributes: [] }])));
		const transfers = await t.run({ resource: 'job', operation: 'getTransfers', jobId: rl(JOB_ID), returnAll: true });
		expect(transfers.error?.message).toBe(
			`The service sent a job transfer without attributes: "attributes" of list record 1 is an array (GET /jobs/${JOB_ID}/transfers) [item 0]`,
		);
	});

	it('a list whose data is an object fails with the transport\'s list message', async () => {
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, { data: jobLike(t.sandbox), meta: { page: { after: null } } }));
		const { error } = await t.run({ resource: 'job', operation: 'getMany', returnAll: true });
		expect(error?.message).toBe('The service answered GET /jobs with a list without a "data" array [item 0]');
	});
});

describe('hostile shapes: the editor\'s pickers', () => {
	const search = (filter?: string) => searchJobs.call(pickerContext(t.credentials), filter);

	it('{"data": [null]} names data[0] and GET /jobs', async () => {
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([null])));
		await expect(search()).rejects.toThrow('The service sent no job: "data[0]" is null, not a resource object (GET /jobs)');
	});

	it('the second record without attributes names data[1].attributes', async () => {
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([jobLike(t.sandbox), { ...jobLike(t.sandbox), attributes: null }])));
		await expect(search()).rejects.toThrow(
			'The service sent a job without attributes: "data[1].attributes" is null (GET /jobs)',
		);
	});

	it('a list whose data is an object, or meta.page not an object; an empty list without meta is a last page', async () => {
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, { data: jobLike(t.sandbox), meta: { page: { after: null } } }), 1);
		await expect(search()).rejects.toThrow('The service sent a malformed list of jobs: "data" is an object, not an array (GET /jobs)');
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, { data: [], meta: { page: 'one' } }), 1);
		await expect(search()).rejects.toThrow('The service sent a malformed list of jobs: "meta.page" is a string ("one"), not an object (GET /jobs)');
		// A deployment that sends no page information (no total, no cursor) on a short page: nothing more to read.
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, { data: [] }), 1);
		await expect(search()).resolves.toEqual({ results: [] });
	});

	it('meta.page.after a number is refused before it is sent back as a cursor', async () => {
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([jobLike(t.sandbox)], 5)));
		await expect(search('no such job')).rejects.toThrow(
			'The service sent a malformed list of jobs: "meta.page.after" is a number (5), not a cursor string or null (GET /jobs)',
		);
		expect(t.calls()).toEqual(['GET /jobs']);
	});

	it('a well-formed page still gives its results', async () => {
		const { results } = await search(JOB_ID);
		expect(results).toEqual([expect.objectContaining({ value: JOB_ID })]);
	});
});

describe('hostile shapes: the trigger', () => {
	it('a listed job without attributes fails the poll with the request named, and nothing is saved', async () => {
		const { triggerFor } = await import('./shapesHarness');
		const trigger = triggerFor(t.credentials);
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([{ id: JOB_ID, type: 'jobs', attributes: null }])));
		await expect(trigger.poll()).rejects.toThrow(
			'The service sent a job without attributes: "data[0].attributes" is null (GET /jobs)',
		);
		expect(JSON.stringify(trigger.staticData())).not.toContain('cursor');
	});

	it('a malformed errors list is delivered as errorsUnavailable, with the event itself', async () => {
		const { triggerFor } = await import('./shapesHarness');
		const trigger = triggerFor(t.credentials, { attachErrors: 3 });
		const failed = jobLike(t.sandbox, { status: 'failed' });
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([failed])));
		t.service.on('GET', /\/errors$/, (_req, res) => json(res, 200, { data: [null], meta: { page: { after: null } } }));
		const items = await trigger.poll('manual');
		expect(items).toHaveLength(1);
		expect(items![0].json).toEqual(
			expect.objectContaining({
				event: 'failed',
				id: JOB_ID,
				errors: [],
				errorsTotal: null,
				errorsUnavailable: `The service sent no job error: "data[0]" is null, not a resource object (GET /jobs/${JOB_ID}/errors)`,
			}),
		);
	});
});
