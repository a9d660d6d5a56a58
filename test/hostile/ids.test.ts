/**
 * Ids: an id the service sends is a UUID before it goes into a request path. A created
 * job whose id is `..` must not make Wait for Completion call `GET /`, nor Attach Errors `GET /errors`.
 */
import { routes, UnsafeRouteIdError } from '../../nodes/shared/api/routes';
import { searchJobs, searchUsers } from '../../nodes/shared/methods/listSearch';
import { json } from './servers';
import {
	DEMO_IDS,
	FILES,
	JOB_ID,
	jobLike,
	listOf,
	pickerContext,
	rl,
	triggerFor,
	useHostileService,
} from './shapesHarness';
import { demoDryRunCopy } from '../harness/parameters';

const t = useHostileService();

const createWithWait = {
	...demoDryRunCopy('/ids-test'),
	waitForCompletion: true,
	pollInterval: 0.05,
	maxWait: 5,
};

/** Answers POST /jobs with the sandbox's job under another id (nothing is created). */
const createAnswers = (id: unknown) =>
	t.service.on('POST', '/jobs', (_req, res) => json(res, 201, { data: { ...jobLike(t.sandbox, { status: 'scanning' }), id } }));

describe('hostile ids: created jobs', () => {
	it.each([
		['..', 'a string ("..")'],
		['../errors', 'a string ("../errors")'],
		['', 'a string ("")'],
		[`${JOB_ID}/transfers`, `a string ("${JOB_ID}/transfers")`],
	])('Create + Wait with a created id %j stops after the POST; no GET follows', async (id, said) => {
		createAnswers(id);
		const { error } = await t.run(createWithWait);
		expect(error?.message).toBe(`The service sent a job without a valid id: "data.id" is ${said}, not a UUID (POST /jobs) [item 0]`);
		expect(error?.description).toContain('the job was probably created');
		expect(t.calls()).toEqual([`GET /storages/${FILES}`, 'GET /jobs', 'POST /jobs']);
	});

	it('Run From Dry Run with a created id ".." stops after the POST', async () => {
		createAnswers('..');
		const { error } = await t.run({
			resource: 'job',
			operation: 'runFromDryRun',
			jobId: rl(DEMO_IDS.jobIds.dryRun),
			waitForCompletion: true,
			pollInterval: 0.05,
		});
		expect(error?.message).toBe('The service sent a job without a valid id: "data.id" is a string (".."), not a UUID (POST /jobs) [item 0]');
		expect(t.calls()).toEqual([`GET /jobs/${DEMO_IDS.jobIds.dryRun}`, 'GET /jobs', 'POST /jobs']);
	});

	it('the status answer of a wait that swaps the id for ".." is refused too', async () => {
		t.service.on('GET', /^\/jobs\/[0-9a-f-]{36}$/, (_req, res) => json(res, 200, { data: { ...jobLike(t.sandbox, { status: 'running' }), id: '..' } }));
		const { error } = await t.run(createWithWait);
		expect(error?.message).toMatch(
			/^The service sent a job without a valid id: "data.id" is a string \(".."\), not a UUID \(GET \/jobs\/[0-9a-f-]{36}\) \[item 0\]$/,
		);
		expect(t.calls().filter((call) => call === 'GET /' || call === 'GET /errors')).toEqual([]);
	});
});

describe('hostile ids: trigger and pickers', () => {
	it('the trigger refuses a failed job with id ".." before Attach Errors builds GET /jobs/../errors', async () => {
		const trigger = triggerFor(t.credentials, { attachErrors: 3 });
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([jobLike(t.sandbox, { status: 'failed' }, '..')])));
		await expect(trigger.poll('manual')).rejects.toThrow(
			'The service sent a job without a valid id: "data[0].id" is a string (".."), not a UUID (GET /jobs)',
		);
		expect(t.calls()).toEqual(['GET /jobs']);
	});

	it('a picker does not offer a record whose id is not a UUID', async () => {
		t.service.on('GET', '/jobs', (_req, res) => json(res, 200, listOf([jobLike(t.sandbox), jobLike(t.sandbox, {}, '../accounts')])));
		await expect(searchJobs.call(pickerContext(t.credentials))).rejects.toThrow(
			'The service sent a job without a valid id: "data[1].id" is a string ("../accounts"), not a UUID (GET /jobs)',
		);
		const user = t.sandbox.state.users()[0];
		t.service.on('GET', '/users', (_req, res) => json(res, 200, listOf([{ ...user, id: user.id.toUpperCase().replace(/-/g, '') }])));
		await expect(searchUsers.call(pickerContext(t.credentials))).rejects.toThrow(/"data\[0\]\.id" is a string \("[0-9A-F]{32}"\), not a UUID \(GET \/users\)/);
	});
});

describe('hostile ids: route builders and user input', () => {
	it('a route builder refuses a non-UUID id, so no path can leave its collection', () => {
		for (const build of [routes.getJob, routes.listJobErrors, routes.listJobTransfers, routes.updateJob, routes.getGroup, routes.deleteUser]) {
			expect(() => build('..')).toThrow(UnsafeRouteIdError);
			expect(() => build('..')).toThrow('Refused to put ".." into a request path: it is not a UUID');
		}
		expect(routes.listJobErrors(JOB_ID)).toEqual({ method: 'GET', path: `/jobs/${JOB_ID}/errors` });
	});

	it('a user-typed ".." keeps its input error, and nothing is sent', async () => {
		// Mapped from the input, as the editor's own UUID check does not look into expressions.
		const { error } = await t.run(
			{ resource: 'job', operation: 'get', jobId: rl('={{ $json.id }}') },
			{ items: [{ json: { id: '..' } }] },
		);
		expect(error?.message).toBe('"Job" must be a UUID, got ".." [item 0]');
		expect(t.service.requests).toEqual([]);
	});
});
