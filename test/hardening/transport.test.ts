/**
 * The transport's rules one by one: waits, the retry budget, what is never repeated, 401 and wrong
 * secrets, token endpoint faults, pages that do not advance, and n8n's own Retry On Fail on top.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';

import { retryAfterSeconds, retryDelayMs } from '../../nodes/shared/transport/retry';
import { startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import { startRecordingProxy } from '../credential/proxy';
import { credentialsFor, runNode } from '../harness/engine';
import { ACCOUNT, ARCHIVE, DEMO_IDS, FILES, RawApi, captureLogs, findSecrets, rl, runTexts, secretsOf, uniq } from './harness';
import { demoDryRunCopy } from '../harness/parameters';

const logs = captureLogs();
let sandbox: Sandbox;
let api: RawApi;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	api = new RawApi(sandbox);
});
afterAll(async () => {
	await sandbox.close();
});
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.requests.clear();
	logs.clear();
});

const FAST = { maxRetryWait: 0.05 };
const getGroup = (requestOptions: INodeParameters = FAST): INodeParameters => ({
	resource: 'group',
	operation: 'get',
	groupId: rl(DEMO_IDS.groupIds[0]),
	requestOptions,
});
const count = (method: string, route: string) => sandbox.requests.count({ method, route });

/** Runs the node and checks that nothing it left contains a secret. */
async function run(parameters: INodeParameters, options: Omit<Parameters<typeof runNode>[0], 'parameters' | 'credentials'> & { credentials?: ReturnType<typeof credentialsFor> } = {}) {
	const credentials = options.credentials ?? credentialsFor(sandbox);
	const result = await runNode({ ...options, credentials, parameters });
	const found = findSecrets([...runTexts(result), logs.text()], secretsOf(sandbox, [credentials]));
	expect(found).toEqual([]);
	return result;
}

describe('waits between attempts', () => {
	it('without Retry-After: exponential backoff from 500 ms, jittered between half and all of each step', () => {
		const settings = { maxRetryWait: 60 };
		for (let attempt = 0; attempt < 5; attempt++) {
			const step = 500 * 2 ** attempt;
			expect(retryDelayMs(attempt, settings, undefined, () => 0)).toBe(step / 2);
			expect(retryDelayMs(attempt, settings, undefined, () => 0.999999)).toBeCloseTo(step, 0);
		}
		const draws = new Set(Array.from({ length: 50 }, () => retryDelayMs(1, settings)));
		expect(draws.size).toBeGreaterThan(40);
		for (const draw of draws) {
			expect(draw).toBeGreaterThanOrEqual(500);
			expect(draw).toBeLessThanOrEqual(1000);
		}
	});

	it('never longer than Max Wait Between Retries, with or without Retry-After', () => {
		expect(retryDelayMs(10, { maxRetryWait: 60 }, undefined, () => 0.5)).toBe(60_000);
		expect(retryDelayMs(0, { maxRetryWait: 60 }, 3600)).toBe(60_000);
		expect(retryDelayMs(0, { maxRetryWait: 60 }, 2)).toBe(2000);
		expect(retryDelayMs(0, { maxRetryWait: 0 }, 2)).toBe(0);
	});

	it('Retry-After as seconds or as an HTTP date', () => {
		const now = Date.parse('2025-01-01T00:00:00Z');
		expect(retryAfterSeconds('7', now)).toBe(7);
		expect(retryAfterSeconds('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30);
		expect(retryAfterSeconds('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
		expect(retryAfterSeconds('soon', now)).toBeUndefined();
		expect(retryAfterSeconds(undefined, now)).toBeUndefined();
	});

	it('a 503 with Retry-After: 1 is repeated after a full second', async () => {
		sandbox.faults.add({ kind: 'unavailable', path: '/groups/{id}', retryAfterSeconds: 1 });
		const { error } = await run(getGroup({ maxRetryWait: 5 }));
		expect(error).toBeUndefined();
		const [first, second] = sandbox.requests.all().filter((r) => r.route === '/groups/{id}');
		expect(second.at - first.at).toBeGreaterThanOrEqual(990);
	});
});

describe('the retry budget (Request Options)', () => {
	it('defaults: three repeats, then a clear error that says how often it was sent', async () => {
		sandbox.faults.add({ kind: 'rate-limit', path: '/groups/{id}', retryAfterSeconds: 0, times: Infinity });
		const { error } = await run(getGroup({}));
		expect(count('GET', '/groups/{id}')).toBe(4);
		expect(error?.message).toBe('Too Many Requests');
		expect(error?.description).toContain('The node waited and retried; raise "Max Retries" under Request Options');
		expect(error?.description).toContain('The request was tried 4 times.');
	});

	it.each([0, 1, 5])('Max Retries %i: that many repeats of a request that keeps failing with 503', async (maxRetries) => {
		sandbox.faults.add({ kind: 'unavailable', path: '/groups/{id}', times: Infinity });
		const { error } = await run(getGroup({ ...FAST, maxRetries }));
		expect(count('GET', '/groups/{id}')).toBe(maxRetries + 1);
		expect(error?.httpCode).toBe('503');
		// The hint says what the node did: sent once, or waited and retried.
		if (maxRetries === 0) {
			expect(error?.description).toContain('The request was sent once and not repeated; raise "Max Retries"');
			expect(error?.description).not.toMatch(/waited and retried|tried \d+ times/);
		} else {
			expect(error?.description).toContain('The node waited and retried');
			expect(error?.description).toContain(`The request was tried ${maxRetries + 1} times.`);
		}
	});

	it('a POST is not repeated after a 500, whatever the budget', async () => {
		const name = uniq('no-repeat');
		sandbox.faults.add({ kind: 'internal-error', method: 'POST', path: '/groups', times: Infinity });
		const { error } = await run({ resource: 'group', operation: 'create', name, accountId: rl(ACCOUNT), requestOptions: { ...FAST, maxRetries: 10, timeout: 2 } });
		expect(count('POST', '/groups')).toBe(1);
		// The transport's own verdict on the 500 is the cause the create's recovery reports.
		expect(error?.message).toBe(
			'The group may or may not have been created: the service did not answer the create request, and no new matching group was found [item 0]',
		);
		expect(error?.description).toContain(
			'Cause: No clear answer to POST /groups (HTTP 500 Internal Server Error): the request may or may not have been carried out',
		);
		expect(sandbox.state.groups().filter((g) => g.attributes.name === name)).toHaveLength(0);
	});

	it('a refused connection (the service is down) is repeated for a POST too: nothing was sent', async () => {
		const proxy = await startRecordingProxy(sandbox.baseUrl);
		const credentials = credentialsFor({ ...sandbox, baseUrl: proxy.baseUrl });
		expect((await run(getGroup(), { credentials })).error).toBeUndefined();
		await proxy.close();
		const name = uniq('refused');
		const { error } = await run(
			{ resource: 'group', operation: 'create', name, accountId: rl(ACCOUNT), requestOptions: { ...FAST, maxRetries: 2 } },
			{ credentials },
		);
		expect(error?.message).toBe('The connection to the service failed (ECONNREFUSED)');
		expect(error?.description).toContain('The request was tried 3 times.');
	});

	it('a POST answered 429 or 503 is repeated (it was not carried out) and creates one record', async () => {
		const name = uniq('repeat-ok');
		sandbox.faults.add({ kind: 'rate-limit', method: 'POST', path: '/groups', retryAfterSeconds: 0 });
		sandbox.faults.add({ kind: 'unavailable', method: 'POST', path: '/groups' });
		const { error, items } = await run({ resource: 'group', operation: 'create', name, accountId: rl(ACCOUNT), requestOptions: FAST });
		expect(error).toBeUndefined();
		expect(count('POST', '/groups')).toBe(3);
		const held = sandbox.state.groups().filter((g) => g.attributes.name === name);
		expect(held.map((g) => g.id)).toEqual([items[0].json.id]);
	});

	it('a timeout on a GET is repeated; the error after the last attempt names the timeout', async () => {
		sandbox.faults.add({ kind: 'slow', path: '/groups/{id}', delayMs: 1500, times: Infinity });
		const { error } = await run(getGroup({ ...FAST, timeout: 1, maxRetries: 1 }));
		expect(count('GET', '/groups/{id}')).toBe(2);
		expect(error?.message).toBe(
			`The service did not answer GET /groups/${DEMO_IDS.groupIds[0]} completely within 1 seconds`,
		);
		expect(error?.description).toContain('Raise "Timeout (Seconds)" under Request Options');
	});
});

describe('repeats after an unclear answer', () => {
	it('a DELETE repeated after a dropped answer finds the record gone: success', async () => {
		const group = await api.createGroup(uniq('drop'));
		sandbox.faults.add({ kind: 'drop-after-body', method: 'DELETE', path: '/groups/{id}' });
		const { error, items } = await run({ resource: 'group', operation: 'deleteGroup', groupId: rl(group.id), requestOptions: FAST });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ id: group.id, deleted: true }]);
		expect(sandbox.requests.all().filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([0, 404]);
	});

	it('a DELETE of a record that never existed stays a 404, also after a 429 (which was not carried out)', async () => {
		const missing = '0b5e9a3c-1d2f-4a6b-8c7d-9e0f1a2b3c4d';
		sandbox.faults.add({ kind: 'rate-limit', method: 'DELETE', path: '/groups/{id}', retryAfterSeconds: 0 });
		const { error } = await run({ resource: 'group', operation: 'deleteGroup', groupId: rl(missing), requestOptions: FAST });
		expect([error?.message, error?.httpCode]).toEqual(['Entity Not Found', '404']);
	});

	it('a Resume repeated after a dropped answer, when the job has finished meanwhile, says the first attempt may have done it', async () => {
		const job = await api.request<{ data: { id: string } }>('POST', '/jobs', {
			data: {
				type: 'jobs',
				attributes: {
					transferType: 'copy',
					conflictHandling: 'skip',
					source: { type: 'file', id: FILES, path: '/reports/2024' },
					target: { id: ARCHIVE, path: `/${uniq('race')}` },
				},
			},
		});
		sandbox.control.setJobStatus(job.data.id, 'paused');
		sandbox.faults.add({ kind: 'drop-after-body', method: 'PATCH', path: '/jobs/{id}' });
		// The first PATCH resumes the job; at this speed it finishes before the repeat arrives.
		const { error } = await run({ resource: 'job', operation: 'resume', jobId: rl(job.data.id), requestOptions: { maxRetryWait: 0.5 } });
		expect(sandbox.state.job(job.data.id)?.attributes.status).toBe('finished');
		expect(error?.message).toBe('Invalid Status Transition');
		expect(error?.description).toContain('An earlier attempt got no clear answer and may have been carried out');
	});
});

describe('401 and the credential', () => {
	it('a token refused again after renewal: one new token, one repeat, then a clear error (no loop)', async () => {
		const credentials = credentialsFor(sandbox);
		await run(getGroup(), { credentials });
		sandbox.requests.clear();
		sandbox.faults.add({ kind: 'expire-token', path: '/groups/{id}', times: Infinity });
		const { error } = await run(getGroup({ ...FAST, maxRetries: 5 }), { credentials });
		expect(sandbox.requests.all().map((r) => [r.method, r.route, r.status])).toEqual([
			['GET', '/groups/{id}', 401],
			['POST', '/oauth/token', 200],
			['GET', '/groups/{id}', 401],
		]);
		expect(error?.message).toBe('Unauthorized');
		expect(error?.description).toContain('also after fetching a new one');
	});

	it('a wrong secret: one token request, no repeats, "check your Client ID and Client Secret"', async () => {
		const credentials = credentialsFor(sandbox, { clientSecret: 'wrong-secret-5d1c7a' });
		const { error } = await run(getGroup({ ...FAST, maxRetries: 5 }), { credentials });
		expect(sandbox.requests.all().map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/oauth/token', 401]]);
		expect(error?.message).toBe(
			'Could not get an access token: check your Client ID and Client Secret in the credential (HTTP 401 invalid_client)',
		);
		expect(error?.description).toContain('invalid_client');
		expect(JSON.stringify(error)).not.toContain('wrong-secret-5d1c7a');
	});

	it.each(['unavailable', 'internal-error', 'drop-before-body', 'malformed-json'] as const)('a token endpoint that answers %s is asked again, and the request succeeds', async (kind) => {
		sandbox.faults.add({ kind, path: '/oauth/token' });
		const { error } = await run(getGroup());
		expect(error).toBeUndefined();
		expect(sandbox.requests.all().map((r) => [r.path, r.fault ?? null])).toEqual([
			['/oauth/token', kind],
			['/oauth/token', null],
			[`/groups/${DEMO_IDS.groupIds[0]}`, null],
		]);
	});

	it.each([
		['unavailable', 'HTTP 503'],
		['drop-before-body', 'connection failed: ECONNRESET'],
		['malformed-json', 'the token answer was not JSON'],
	] as const)('a token endpoint that keeps answering %s is a service problem, not "check your secret"', async (kind, summary) => {
		sandbox.faults.add({ kind, path: '/oauth/token', times: Infinity });
		const { error } = await run(getGroup({ ...FAST, maxRetries: 2 }));
		expect(sandbox.requests.count({ path: '/oauth/token' })).toBe(3);
		expect(sandbox.requests.count({ route: '/groups/{id}' })).toBe(0);
		expect(error?.message).toBe(`Could not get an access token from the service (${summary})`);
		expect(error?.message).not.toContain('Client Secret');
	});
});

describe('n8n Retry On Fail, on top of the transport', () => {
	const retry = { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };

	it('a fault that outlasts the transport budget is retried by n8n, and the run succeeds', async () => {
		sandbox.faults.add({ kind: 'unavailable', path: '/groups/{id}', times: 3 });
		const { error, items } = await run(getGroup({ ...FAST, maxRetries: 1 }), { node: retry });
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(DEMO_IDS.groupIds[0]);
		// Try 1: two attempts (503, 503); try 2: 503, then 200.
		expect(sandbox.requests.all().filter((r) => r.route === '/groups/{id}').map((r) => r.status)).toEqual([503, 503, 503, 200]);
	});

	it('without Retry On Fail the same fault fails the run', async () => {
		sandbox.faults.add({ kind: 'unavailable', path: '/groups/{id}', times: 3 });
		const { error } = await run(getGroup({ ...FAST, maxRetries: 1 }));
		expect(error?.httpCode).toBe('503');
	});

	it('Job Create: an unclear 500 (no job made) is reported; n8n tries the item again and exactly one job exists', async () => {
		const name = uniq('n8n-retry');
		sandbox.faults.add({ kind: 'internal-error', method: 'POST', path: '/jobs' });
		const { error, items } = await run(
			{
				...demoDryRunCopy(`/${name}`),
				additionalFields: { name },
				// The timeout bounds how long the node looks for a job the 500 may have made.
				requestOptions: { ...FAST, timeout: 2 },
			},
			{ node: retry },
		);
		expect(error).toBeUndefined();
		const held = sandbox.state.jobs().filter((job) => job.attributes.name === name);
		expect(held.map((job) => job.id)).toEqual([items[0].json.id]);
		expect(count('POST', '/jobs')).toBe(2);
	});
});

// ---------------------------------------------------------------------------------------------------
// Pagination against a server that misbehaves

type Misbehaviour = 'same cursor' | 'repeated records' | 'empty page with a cursor';

/** A stand-in API with a token endpoint and a /groups list that misbehaves from its second page on. */
async function misbehavingServer(mode: Misbehaviour) {
	let listRequests = 0;
	const group = (n: number) => ({
		id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
		type: 'groups',
		attributes: { name: `g${n}`, accountId: ACCOUNT, deploymentId: ACCOUNT, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' },
	});
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://stub.invalid');
		const send = (status: number, body: unknown, type = 'application/vnd.api+json') => {
			res.writeHead(status, { 'Content-Type': type });
			res.end(JSON.stringify(body));
		};
		req.resume();
		req.on('end', () => {
			if (url.pathname === '/oauth/token') {
				return send(200, { access_token: 'stub-token-0123456789', token_type: 'Bearer', expires_in: 3600 }, 'application/json');
			}
			listRequests++;
			const after = url.searchParams.get('page[after]');
			const page = after === null ? 0 : Number(after.slice(1));
			if (listRequests > 20) return send(500, { errors: [{ status: '500', code: 'internal-error', title: 'Stop', detail: 'loop' }] });
			if (page === 0) return send(200, { data: [group(1), group(2)], meta: { page: { after: 'c1', total: 99 } } });
			switch (mode) {
				case 'same cursor':
					return send(200, { data: [group(3)], meta: { page: { after: 'c1', total: 99 } } });
				case 'repeated records':
					return send(200, { data: [group(1), group(2)], meta: { page: { after: `c${page + 1}`, total: 99 } } });
				default:
					return send(200, { data: [], meta: { page: { after: `c${page + 1}`, total: 99 } } });
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests: () => listRequests,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe('pagination that does not advance', () => {
	it.each<[Misbehaviour, boolean]>([
		['same cursor', true],
		['repeated records', true],
		['empty page with a cursor', true],
		['empty page with a cursor', false],
	])('%s (Return All: %s): stops with a clear error after two pages and returns nothing', async (mode, returnAll) => {
		const stub = await misbehavingServer(mode);
		try {
			const result = await runNode({
				credentials: credentialsFor({ baseUrl: stub.baseUrl, clientId: 'c', clientSecret: 's' }),
				parameters: { resource: 'group', operation: 'getMany', returnAll, limit: 50, requestOptions: FAST },
			});
			expect(result.items).toEqual([]);
			expect(result.error?.message).toBe(
				'The service returned a page that does not advance; stopped to avoid an endless loop [item 0]',
			);
			expect(result.error?.description).toContain('no partial list passes for a complete one');
			expect(stub.requests()).toBe(2);
		} finally {
			await stub.close();
		}
	});
});

describe('Return All over a connection that drops mid-way', () => {
	beforeAll(async () => {
		for (let i = 0; i < 250; i++) await api.createGroup(uniq('page-filler'));
	});

	it('drops on pages 2 and 3 are repeated: the whole list, each record once', async () => {
		sandbox.faults.add({ kind: 'drop-after-body', method: 'GET', path: '/groups', after: 1, times: 2 });
		const { error, items } = await run({ resource: 'group', operation: 'getMany', returnAll: true, requestOptions: FAST });
		expect(error).toBeUndefined();
		const ids = items.map((item) => String(item.json.id));
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.sort()).toEqual(sandbox.state.groups().map((g) => g.id).sort());
	});

	it('drops that outlast the retries fail the item cleanly: no partial list, also with Continue On Fail', async () => {
		sandbox.faults.add({ kind: 'drop-before-body', method: 'GET', path: '/groups', after: 2, times: Infinity });
		const parameters = { resource: 'group', operation: 'getMany', returnAll: true, requestOptions: { ...FAST, maxRetries: 2 } };
		const failed = await run(parameters);
		expect(failed.items).toEqual([]);
		expect(failed.error?.message).toBe('The connection to the service failed (ECONNRESET)');
		sandbox.faults.clear();
		sandbox.faults.add({ kind: 'drop-before-body', method: 'GET', path: '/groups', after: 2, times: Infinity });
		const continued = await run(parameters, { continueOnFail: true });
		expect(continued.items.map((item) => item.json)).toEqual([
			{ error: 'The connection to the service failed (ECONNRESET)', description: expect.any(String) },
		]);
	});
});

describe('Request Options out of range', () => {
	it.each([
		[{ timeout: 0 }, 'Timeout (Seconds)'],
		[{ timeout: -5 }, 'Timeout (Seconds)'],
		[{ timeout: 'soon' }, 'Timeout (Seconds)'],
		[{ maxRetries: -1 }, 'Max Retries'],
		[{ maxRetries: 2.5 }, 'Max Retries'],
		[{ maxRetries: 99 }, 'Max Retries'],
		[{ maxRetryWait: -1 }, 'Max Wait Between Retries (Seconds)'],
	])('%j is refused before any request, naming the option and the item', async (requestOptions, field) => {
		const { error } = await run(getGroup(requestOptions as INodeParameters));
		expect(error?.message).toMatch(new RegExp(`^"Request Options → ${field.replace(/[()]/g, '\\$&')}" must be .* \\[item 0\\]$`));
		expect(sandbox.requests.count()).toBe(0);
	});
});
