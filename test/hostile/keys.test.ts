/**
 * Keys: output fields the node defines cannot be overwritten by attributes; an
 * attribute of the same name is output under `apiAttributes`.
 */
import { searchJobs } from '../../nodes/shared/methods/listSearch';
import { json } from './servers';
import { DEMO_IDS, JOB_ID, ONE_JOB, jobLike, listOf, pickerContext, rl, triggerFor, useHostileService } from './shapesHarness';

const t = useHostileService();

const EVIL = '00000000-0000-4000-8000-000000000000';

describe('hostile keys: action node', () => {
	it('Job Get, Simplify off: id is the record id, attributes.id and attributes.apiAttributes go under apiAttributes', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) =>
			json(res, 200, { data: jobLike(t.sandbox, { id: EVIL, apiAttributes: 'mine' }) }),
		);
		const { items, error } = await t.run({ resource: 'job', operation: 'get', jobId: rl(JOB_ID), simplify: false });
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(JOB_ID);
		expect(items[0].json.apiAttributes).toEqual({ id: EVIL, apiAttributes: 'mine' });
		expect(Object.keys(items[0].json)[0]).toBe('id');
		// Every other attribute is still at top level.
		expect(items[0].json.name).toBe(t.sandbox.state.job(JOB_ID)!.attributes.name);
	});

	it('Job Get, Simplify on: id is the record id and the simplified item has no apiAttributes', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) => json(res, 200, { data: jobLike(t.sandbox, { id: EVIL }) }));
		const { items } = await t.run({ resource: 'job', operation: 'get', jobId: rl(JOB_ID), simplify: true });
		expect(items[0].json.id).toBe(JOB_ID);
		expect(items[0].json).not.toHaveProperty('apiAttributes');
	});

	it('Group Get Many: attributes.id never replaces the id of a listed record', async () => {
		const groups = t.sandbox.state.groups();
		t.service.on('GET', '/groups', (_req, res) =>
			json(res, 200, listOf(groups.map((g) => ({ ...g, attributes: { ...g.attributes, id: EVIL } })))),
		);
		const { items } = await t.run({ resource: 'group', operation: 'getMany', returnAll: true });
		expect(items.map((item) => item.json.id)).toEqual(groups.map((g) => g.id));
		expect(items.map((item) => item.json.apiAttributes)).toEqual(groups.map(() => ({ id: EVIL })));
	});

	it('Get Transfers and Get Errors: jobId and outcome stay the node\'s; the attributes are under apiAttributes', async () => {
		const transfer = t.sandbox.state.jobTransfers(JOB_ID)[0];
		t.service.on('GET', /\/transfers$/, (_req, res) =>
			json(res, 200, listOf([{ ...transfer, attributes: { ...transfer.attributes, jobId: EVIL, outcome: 'great' } }])),
		);
		const transfers = await t.run({ resource: 'job', operation: 'getTransfers', jobId: rl(JOB_ID), returnAll: true });
		expect(transfers.items[0].json).toEqual(
			expect.objectContaining({ jobId: JOB_ID, outcome: 'transferred', apiAttributes: { jobId: EVIL, outcome: 'great' } }),
		);
		const failed = DEMO_IDS.jobIds.failedSync;
		const record = t.sandbox.state.jobErrors(failed)[0];
		t.service.on('GET', /\/errors$/, (_req, res) =>
			json(res, 200, listOf([{ ...record, attributes: { ...record.attributes, jobId: EVIL, id: EVIL } }])),
		);
		const errors = await t.run({ resource: 'job', operation: 'getErrors', jobId: rl(failed), returnAll: true });
		expect(errors.items[0].json).toEqual(
			expect.objectContaining({ id: record.id, jobId: failed, event: record.attributes.event, apiAttributes: { jobId: EVIL, id: EVIL } }),
		);
	});

	it('an attribute named __proto__ stays data: it does not become the prototype of the item', async () => {
		const raw = JSON.stringify({ data: jobLike(t.sandbox) }).replace('"attributes":{', '"attributes":{"__proto__":{"polluted":true},');
		t.service.on('GET', ONE_JOB, (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/vnd.api+json' });
			res.end(raw);
		});
		const { items, error } = await t.run({ resource: 'job', operation: 'get', jobId: rl(JOB_ID), simplify: false });
		expect(error).toBeUndefined();
		expect((items[0].json as { polluted?: unknown }).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(items[0].json)).toBe(Object.prototype);
		expect(items[0].json.id).toBe(JOB_ID);
	});

	it('the picker offers the record id even when attributes.id says otherwise', async () => {
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([jobLike(t.sandbox, { id: EVIL })])));
		const { results } = await searchJobs.call(pickerContext(t.credentials));
		expect(results.map((r) => r.value)).toEqual([JOB_ID]);
	});
});

describe('hostile keys: trigger', () => {
	it('a failed job with attributes.event "finished" is delivered as a failed event', async () => {
		const trigger = triggerFor(t.credentials);
		const failed = jobLike(t.sandbox, { status: 'failed', event: 'finished', seenAt: 'never' });
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([failed])));
		const items = await trigger.poll('manual');
		const item = items![0].json;
		expect(item.event).toBe('failed');
		expect(item.seenAt).toBe((failed.attributes as { updatedAt: string }).updatedAt);
		expect(item.apiAttributes).toEqual({ event: 'finished', seenAt: 'never' });
		expect(Object.keys(item).slice(0, 3)).toEqual(['event', 'seenAt', 'id']);
	});

	it('a running trigger delivers that job as failed too, once', async () => {
		const trigger = triggerFor(t.credentials);
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([])), 2);
		expect(await trigger.poll()).toBeNull();
		const failed = jobLike(t.sandbox, { status: 'failed', event: 'finished', updatedAt: new Date().toISOString() });
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([failed])));
		const items = await trigger.poll();
		expect(items!.map((item) => [item.json.id, item.json.event, item.json.apiAttributes])).toEqual([
			[JOB_ID, 'failed', { event: 'finished' }],
		]);
		expect(await trigger.poll()).toBeNull();
	});

	it('Attach Errors and Transfer Summary win over attributes named errors and transferSummary', async () => {
		const trigger = triggerFor(t.credentials, { attachErrors: 2, attachTransferSummary: true });
		const failed = jobLike(t.sandbox, { status: 'failed', errors: 'none', errorsTotal: -1, transferSummary: 'lies' });
		const record = t.sandbox.state.jobErrors(DEMO_IDS.jobIds.failedSync)[0];
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([failed])));
		t.service.on('GET', /\/errors$/, (_req, res) => json(res, 200, listOf([record], null, 9)));
		const items = await trigger.poll('manual');
		const item = items![0].json;
		expect(item.errors).toEqual([expect.objectContaining({ id: record.id, event: record.attributes.event })]);
		expect(item.errorsTotal).toBe(9);
		expect(item.transferSummary).toEqual(expect.objectContaining({ text: expect.any(String) }));
		expect(item.apiAttributes).toEqual({ errors: 'none', errorsTotal: -1, transferSummary: 'lies' });
		expect(t.calls()).toEqual(['GET /jobs', `GET /jobs/${JOB_ID}/errors`]);
	});
});
