/**
 * Two deviations handled by naming their cause, through n8n-core against the sandbox in its deviation modes:
 * - a deployment that serves a job's transfers or errors at another route (`moved-subroutes`, `other-routes`):
 *   a 404 on our route is followed by one request for the job, and when the job exists the error says the
 *   list is served elsewhere; when it does not, the 404 stands. The trigger delivers the event with that
 *   reason in `errorsUnavailable`;
 * - a list without `meta.page.total` (`no-total`): the trigger's `errorsTotal` is the count only where it is
 *   one (the service's total, or every record of a last page), else null with `errorsNote`.
 */
// @ts-nocheck

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from '../harness/credentials';
import { credentialsFor, runNode, triggerHandle } from '../harness/engine';
import { rl } from '../harness/locator';
import { callTool } from '../harness/tool';

const { copied } = DEMO_IDS.jobIds;
/** A UUID no job has. */
const NO_JOB = '00000000-0000-4000-8000-0000000000aa';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;
beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	credentials = credentialsFor(sandbox);
});
afterEach(() => sandbox.deviations.clear());
afterAll(async () => {
	await sandbox.close();
});

const OPERATIONS = [
	{ operation: 'getTransfers', kind: 'transfers' },
	{ operation: 'getErrors', kind: 'errors' },
] as const;

async function run(parameters: INodeParameters) {
	return await runNode({ credentials, parameters: { resource: 'job', returnAll: true, requestOptions: { maxRetries: 0 }, ...parameters } });
}

describe.each(['moved-subroutes', 'other-routes'])('a job\'s transfers and errors served at another route (%s)', (mode) => {
	beforeEach(() => sandbox.deviations.set([mode]));

	it.each(OPERATIONS)('$operation of a job that exists says so, and that the list is served elsewhere', async ({ operation, kind }) => {
		sandbox.requests.clear();
		const result = await run({ operation, jobId: rl(copied) });
		const route = `GET /jobs/${copied}/${kind}`;
		expect(result.error?.message).toBe(
			`The job ${copied} exists, but this deployment serves its ${kind} elsewhere, not at ${route} (HTTP 404 ${mode === 'other-routes' ? 'Route Not Found' : 'Entity Not Found'}): run API › Check Compatibility`,
		);
		expect(result.error?.description).toContain(`GET /jobs/${copied} found the job, so its ID is right`);
		expect(result.error?.description).toContain('differs from the API contract');
		expect((result.error as { httpCode?: string }).httpCode).toBe('404');
		// n8n 2.40+ reads why: the deployment differs, it will not pass by itself.
		expect((result.error as { failure?: unknown }).failure).toEqual({ cause: 'configuration-invalid' });
		// One more request, for the job itself.
		expect(sandbox.requests.count({ method: 'GET', path: `/jobs/${copied}/${kind}` })).toBe(1);
		expect(sandbox.requests.count({ method: 'GET', path: `/jobs/${copied}` })).toBe(1);
	});

	it.each(OPERATIONS)('$operation of a job that does not exist keeps the 404', async ({ operation }) => {
		sandbox.requests.clear();
		const result = await run({ operation, jobId: rl(NO_JOB) });
		expect(result.error?.message).toBe(mode === 'other-routes' ? 'Route Not Found' : 'Entity Not Found');
		expect(result.error?.message).not.toMatch(/exists/);
		expect(sandbox.requests.count({ method: 'GET', path: `/jobs/${NO_JOB}` })).toBe(1);
	});

	it('as an AI agent\'s tool, the message reads without an item number and does not say the job is missing', async () => {
		const call = await callTool({
			credentials,
			parameters: { resource: 'job', operation: 'getErrors', jobId: rl(`={{ $fromAI('jobId', 'the job', 'string') }}`), limit: 5 },
			args: { jobId: copied },
		});
		expect(call.error).toContain(`The job ${copied} exists, but this deployment serves its errors elsewhere, not at GET /jobs/${copied}/errors`);
		expect(call.error).toContain('run API › Check Compatibility');
		expect(call.error).not.toMatch(/\[item \d+\]|no job with ID/);
	});

	it('the trigger delivers a failed job with errorsUnavailable naming the cause', async () => {
		const own = await startSandbox({ speed: 1000 });
		try {
			own.deviations.set([mode]);
			const [job] = own.control.insertJobs(1, { status: 'running' });
			own.control.addJobError(job, { sourcePath: '/a', message: 'disk full' });
			const handle = triggerHandle(credentialsFor(own), {
				events: ['failed'],
				filters: {},
				options: { attachErrors: 3 },
				requestOptions: { maxRetries: 0 },
			});
			await handle.poll();
			own.control.setJobStatus(job, 'failed');
			const items = ((await handle.poll()) ?? []).map((item) => item.json);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				id: job,
				event: 'failed',
				errors: [],
				errorsTotal: null,
				errorsUnavailable: expect.stringMatching(
					new RegExp(`^The job ${job} exists, but this deployment serves its errors elsewhere, not at GET /jobs/${job}/errors \\(HTTP 404 .+\\): run API › Check Compatibility$`),
				),
			});
		} finally {
			await own.close();
		}
	});
});

describe('without the deviation', () => {
	it('a list that answers asks nothing more', async () => {
		sandbox.requests.clear();
		const result = await run({ operation: 'getTransfers', jobId: rl(copied) });
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBe(sandbox.state.jobTransfers(copied).length);
		expect(sandbox.requests.count({ method: 'GET', path: `/jobs/${copied}` })).toBe(0);
	});

});

describe('errorsTotal of the trigger without meta.page.total (no-total)', () => {
	async function failedJobWith(own: Sandbox, errors: number): Promise<IDataObject> {
		const [job] = own.control.insertJobs(1, { status: 'running' });
		for (let i = 0; i < errors; i++) own.control.addJobError(job, { sourcePath: `/f${i}`, message: `error ${i}` });
		const handle = triggerHandle(credentialsFor(own), { events: ['failed'], filters: {}, options: { attachErrors: 5 }, requestOptions: { maxRetries: 0 } });
		await handle.poll();
		own.control.setJobStatus(job, 'failed');
		const items = (await handle.poll()) ?? [];
		expect(items).toHaveLength(1);
		return items[0].json;
	}

	it.each([
		{ deviation: [] as string[], errors: 12, expected: { errorsTotal: 12 }, absent: 'errorsNote' },
		{ deviation: ['no-total'], errors: 12, expected: { errorsTotal: null, errorsNote: expect.stringContaining('at least 5 error and warning records') }, absent: undefined },
		// Exactly a page: the service says it is the last (meta.page.after null), so 5 is the count.
		{ deviation: ['no-total'], errors: 5, expected: { errorsTotal: 5 }, absent: 'errorsNote' },
		{ deviation: ['no-total'], errors: 6, expected: { errorsTotal: null, errorsNote: expect.stringContaining('at least 5') }, absent: undefined },
		{ deviation: ['no-total'], errors: 3, expected: { errorsTotal: 3 }, absent: 'errorsNote' },
		{ deviation: ['no-total'], errors: 0, expected: { errorsTotal: 0, errors: [] }, absent: 'errorsNote' },
		{ deviation: ['no-total', 'links-only'], errors: 12, expected: { errorsTotal: null, errorsNote: expect.stringContaining('at least 5') }, absent: undefined },
		{ deviation: ['no-total', 'links-only'], errors: 2, expected: { errorsTotal: 2 }, absent: 'errorsNote' },
	])('$deviation with $errors errors: $expected', async ({ deviation, errors, expected, absent }) => {
		const own = await startSandbox({ speed: 1000 });
		try {
			own.deviations.set(deviation);
			const json = await failedJobWith(own, errors);
			expect(json).toMatchObject(expected);
			expect((json.errors as unknown[]).length).toBe(Math.min(errors, 5));
			if (absent) expect(json).not.toHaveProperty(absent);
		} finally {
			await own.close();
		}
	});
});
