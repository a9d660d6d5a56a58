import { randomUUID } from 'node:crypto';
import { DEMO_IDS } from '../../sandbox/src';
import { ERROR_CODES, type ErrorCode } from '../../nodes/shared/api/types';
import {
	createJob,
	expectError,
	expectNotFound,
	expectUnauthorized,
	setStatus,
	uniq,
	useSandbox,
	type Res,
} from './helpers';

const h = useSandbox({ demo: true });

const groupBody = (attributes: Record<string, unknown>) => ({ data: { type: 'groups', attributes } });

/** One request per error code of the contract's table, with the HTTP status it must answer. */
const producers: Record<ErrorCode, { status: number; run: () => Promise<Res>; check?: (res: Res) => void }> = {
	'invalid-request': {
		status: 400,
		run: () => h.api.request('POST', '/groups', { rawBody: '{"data": {"type": "groups",' }),
	},
	'validation-failed': {
		status: 400,
		run: () =>
			createJob(h, {
				transferType: undefined,
				source: { id: DEMO_IDS.storageIds.files },
				target: { id: DEMO_IDS.storageIds.archive },
			}),
		check: (res) => expect(res.data.errors[0].source.pointer).toBe('/data/attributes/transferType'),
	},
	'invalid-filter': { status: 400, run: () => h.api.get('/groups', { 'filter[nope]': '1' }) },
	'invalid-sort': { status: 400, run: () => h.api.get('/users', { sort: '-nope' }) },
	'invalid-page': { status: 400, run: () => h.api.get('/storages', { 'page[limit]': '101' }) },
	'read-only-attribute': {
		status: 400,
		run: () => {
			const [id] = h.sb.control.insertJobs(1, { status: 'running' });
			return h.api.patch(`/jobs/${id}`, { data: { id, type: 'jobs', attributes: { name: 'renamed' } } });
		},
		check: (res) => expect(res.data.errors[0].source?.pointer).toBe('/data/attributes/name'),
	},
	unauthorized: { status: 401, run: () => h.api.get('/jobs', undefined, { token: null }), check: expectUnauthorized },
	'entity-not-found': { status: 404, run: () => h.api.get(`/jobs/${randomUUID()}`), check: expectNotFound },
	'method-not-allowed': { status: 405, run: () => h.api.delete(`/storages/${DEMO_IDS.storageIds.files}`) },
	'invalid-status-transition': {
		status: 409,
		run: () => {
			const [id] = h.sb.control.insertJobs(1, { status: 'finished' });
			return setStatus(h, id, 'paused');
		},
	},
	conflict: {
		status: 409,
		run: async () => {
			const email = `${uniq('dup')}@example.com`;
			const body = { data: { type: 'users', attributes: { accountId: DEMO_IDS.accountId, email, firstName: 'A', lastName: 'B' } } };
			expect((await h.api.post('/users', body)).status).toBe(201);
			return h.api.post('/users', body);
		},
	},
	'rate-limited': {
		status: 429,
		run: () => {
			h.sb.faults.add({ kind: 'rate-limit', method: 'GET', path: '/accounts', retryAfterSeconds: 7 });
			return h.api.get('/accounts');
		},
		check: (res) => expect(res.headers['retry-after']).toBe('7'),
	},
	'internal-error': {
		status: 500,
		run: () => {
			h.sb.faults.add({ kind: 'internal-error', method: 'GET', path: '/accounts' });
			return h.api.get('/accounts');
		},
	},
	unavailable: {
		status: 503,
		run: () => {
			h.sb.faults.add({ kind: 'unavailable', method: 'GET', path: '/accounts', retryAfterSeconds: 3 });
			return h.api.get('/accounts');
		},
		check: (res) => expect(res.headers['retry-after']).toBe('3'),
	},
};

describe('errors: every code of the contract', () => {
	afterEach(() => h.sb.faults.clear());

	it.each([...ERROR_CODES])('%s: status, code, title, detail', async (code) => {
		const p = producers[code];
		const res = await p.run();
		expectError(res, p.status, code);
		for (const e of res.data.errors) {
			expect(e).toEqual(
				expect.objectContaining({ status: expect.any(String), code: expect.any(String), title: expect.any(String), detail: expect.any(String) }),
			);
		}
		p.check?.(res);
	});

	it('a request after a one-shot fault is answered normally', async () => {
		h.sb.faults.add({ kind: 'internal-error', method: 'GET', path: '/accounts' });
		expectError(await h.api.get('/accounts'), 500, 'internal-error');
		expect((await h.api.get('/accounts')).status).toBe(200);
	});
});

describe('errors: invalid-request (body is not JSON:API)', () => {
	const cases: Array<[string, { rawBody?: string; body?: unknown }]> = [
		['bad JSON', { rawBody: '{not json' }],
		['empty body', { rawBody: '' }],
		['JSON that is not an object', { body: [1, 2] }],
		['no data', { body: { type: 'groups', attributes: { name: 'x' } } }],
		['data is an array', { body: { data: [{ type: 'groups', attributes: { name: 'x' } }] } }],
		['data.type missing', { body: { data: { attributes: { accountId: 'A', name: 'x' } } } }],
		['data.type wrong', { body: { data: { type: 'users', attributes: { accountId: 'A', name: 'x' } } } }],
	];

	it.each(cases)('POST /groups with %s -> 400 invalid-request, nothing created', async (_name, opts) => {
		const before = h.sb.state.groups().length;
		const body = JSON.parse(JSON.stringify(opts.body ?? null).replace(/"A"/g, JSON.stringify(DEMO_IDS.accountId)));
		const res = await h.api.request('POST', '/groups', opts.rawBody !== undefined ? { rawBody: opts.rawBody } : { body });
		expectError(res, 400, 'invalid-request');
		expect(h.sb.state.groups().length).toBe(before);
	});

	it.each([
		['/users', 'groups'],
		['/jobs', 'users'],
	])('POST %s with data.type %s -> invalid-request', async (path, type) => {
		const res = await h.api.post(path, { data: { type, attributes: {} } });
		expectError(res, 400, 'invalid-request');
	});

	it('PATCH with a wrong data.type -> invalid-request', async () => {
		const id = DEMO_IDS.groupIds[0];
		const res = await h.api.patch(`/groups/${id}`, { data: { id, type: 'users', attributes: { name: 'x' } } });
		expectError(res, 400, 'invalid-request');
		const [jobId] = h.sb.control.insertJobs(1, { status: 'running' });
		expectError(await h.api.patch(`/jobs/${jobId}`, { data: { id: jobId, attributes: { status: 'paused' } } }), 400, 'invalid-request');
		expectError(await h.api.request('PATCH', `/jobs/${jobId}`, { rawBody: '{' }), 400, 'invalid-request');
	});
});

describe('errors: validation-failed pointers', () => {
	it('nested pointer /data/attributes/source/type when source.type does not match the storage', async () => {
		const res = await createJob(h, {
			source: { id: DEMO_IDS.storageIds.files, type: 'object-aws' },
			target: { id: DEMO_IDS.storageIds.archive },
		});
		expectError(res, 400, 'validation-failed', '/data/attributes/source/type');
	});

	it('pointer /data/attributes/scope/rules/<i>/value for a matches rule that is not a regular expression', async () => {
		const scope = (rules: unknown[]) => ({ type: 'rules', method: 'include-if-all', rules });
		const res0 = await createJob(h, {
			source: { id: DEMO_IDS.storageIds.files },
			target: { id: DEMO_IDS.storageIds.archive },
			scope: scope([{ type: 'name', condition: 'matches', value: '([a-z' }]) as never,
		});
		expectError(res0, 400, 'validation-failed', '/data/attributes/scope/rules/0/value');
		const res1 = await createJob(h, {
			source: { id: DEMO_IDS.storageIds.files },
			target: { id: DEMO_IDS.storageIds.archive },
			scope: scope([
				{ type: 'name', condition: 'ends-with', value: '.txt' },
				{ type: 'name', condition: 'matches', value: '*.txt' },
			]) as never,
		});
		expectError(res1, 400, 'validation-failed', '/data/attributes/scope/rules/1/value');
	});

	it('a validation failure creates nothing', async () => {
		const before = h.sb.state.jobs().length;
		const res = await createJob(h, { source: { id: DEMO_IDS.storageIds.files }, target: {} });
		expectError(res, 400, 'validation-failed', '/data/attributes/target/id');
		expect(h.sb.state.jobs().length).toBe(before);
	});
});

describe('errors: 401 comes before other checks', () => {
	it('an unauthenticated request to an unknown id is 401, not 404', async () => {
		expectUnauthorized(await h.api.get(`/jobs/${randomUUID()}`, undefined, { token: null }));
	});

	it('an unauthenticated bad body is 401, not 400', async () => {
		expectUnauthorized(await h.api.request('POST', '/groups', { rawBody: '{', token: null }));
	});
});

describe('errors: group body checks', () => {
	it('a valid group body creates the group (control for the cases above)', async () => {
		const res = await h.api.post('/groups', groupBody({ accountId: DEMO_IDS.accountId, name: uniq('g') }));
		expect(res.status).toBe(201);
	});
});
