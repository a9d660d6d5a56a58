// @ts-nocheck
import { randomUUID } from 'node:crypto';
import { DEMO_IDS } from '../../sandbox/src';
import {
	ISO_MS,
	expectError,
	expectJsonApi,
	expectNotFound,
	expectResource,
	uniq,
	useSandbox,
	waitFinal,
} from './helpers';

const h = useSandbox({ demo: true });

const timestamps = { createdAt: expect.stringMatching(ISO_MS), updatedAt: expect.stringMatching(ISO_MS) };

function expectList(res: { data: any }, type: string): void {
	expect(Array.isArray(res.data.data)).toBe(true);
	for (const r of res.data.data) expectResource(r, type);
	expect(res.data.meta.page).toEqual({
		after: res.data.meta.page.after === null ? null : expect.any(String),
		total: expect.any(Number),
	});
}

describe('routes: accounts (read-only)', () => {
	it('GET /accounts lists accounts', async () => {
		const res = await h.api.get('/accounts');
		expectJsonApi(res, 200);
		expectList(res, 'accounts');
		expect(res.data.data.map((a: { id: string }) => a.id)).toContain(DEMO_IDS.accountId);
		expect(res.data.data[0].attributes).toEqual(expect.objectContaining({ name: expect.any(String), ...timestamps }));
	});

	it('GET /accounts/{id} shows one account', async () => {
		const res = await h.api.get(`/accounts/${DEMO_IDS.accountId}`);
		expectJsonApi(res, 200);
		expectResource(res.data.data, 'accounts');
		expect(res.data.data.id).toBe(DEMO_IDS.accountId);
		expect(res.data.data.attributes).toEqual(expect.objectContaining({ name: expect.any(String), ...timestamps }));
	});
});

describe('routes: groups', () => {
	it('list, create (201), show, update, delete (204 empty body)', async () => {
		const list = await h.api.get('/groups');
		expectJsonApi(list, 200);
		expectList(list, 'groups');

		const name = uniq('group');
		const created = await h.api.post('/groups', {
			data: { type: 'groups', attributes: { accountId: DEMO_IDS.accountId, name } },
		});
		expectJsonApi(created, 201);
		expectResource(created.data.data, 'groups');
		expect(created.data.data.attributes).toEqual(
			expect.objectContaining({ accountId: DEMO_IDS.accountId, deploymentId: DEMO_IDS.accountId, name, ...timestamps }),
		);
		const id = created.data.data.id;

		const shown = await h.api.get(`/groups/${id}`);
		expectJsonApi(shown, 200);
		expect(shown.data.data).toEqual(created.data.data);

		const updated = await h.api.patch(`/groups/${id}`, {
			data: { id, type: 'groups', attributes: { name: `${name}-renamed` } },
		});
		expectJsonApi(updated, 200);
		expect(updated.data.data.attributes.name).toBe(`${name}-renamed`);
		expect(updated.data.data.attributes.deploymentId).toBe(DEMO_IDS.accountId);
		expect(Date.parse(updated.data.data.attributes.updatedAt)).toBeGreaterThanOrEqual(
			Date.parse(created.data.data.attributes.updatedAt),
		);
		expect((await h.api.get(`/groups/${id}`)).data.data.attributes.name).toBe(`${name}-renamed`);

		const deleted = await h.api.delete(`/groups/${id}`, { responseType: 'text' });
		expect(deleted.status).toBe(204);
		expect(deleted.data ?? '').toBe('');
		expectNotFound(await h.api.get(`/groups/${id}`));
	});
});

describe('routes: users', () => {
	it('list, create (201), show, update, delete (204 empty body)', async () => {
		const list = await h.api.get('/users');
		expectJsonApi(list, 200);
		expectList(list, 'users');

		const email = `${uniq('user')}@example.com`;
		const created = await h.api.post('/users', {
			data: {
				type: 'users',
				attributes: {
					accountId: DEMO_IDS.accountId,
					deploymentId: DEMO_IDS.accountId,
					groupId: DEMO_IDS.groupIds[0],
					email,
					firstName: 'Ada',
					lastName: 'Lovelace',
				},
			},
		});
		expectJsonApi(created, 201);
		expectResource(created.data.data, 'users');
		expect(created.data.data.attributes).toEqual(
			expect.objectContaining({
				accountId: DEMO_IDS.accountId,
				deploymentId: DEMO_IDS.accountId,
				groupId: DEMO_IDS.groupIds[0],
				email,
				firstName: 'Ada',
				lastName: 'Lovelace',
				...timestamps,
			}),
		);
		expect(created.data.data.attributes).toHaveProperty('timezone');
		expect(created.data.data.attributes).not.toHaveProperty('password');
		const id = created.data.data.id;

		const shown = await h.api.get(`/users/${id}`);
		expectJsonApi(shown, 200);
		expect(shown.data.data).toEqual(created.data.data);

		const updated = await h.api.patch(`/users/${id}`, {
			data: { id, type: 'users', attributes: { firstName: 'Grace', lastName: 'Hopper', timezone: 'Europe/Berlin' } },
		});
		expectJsonApi(updated, 200);
		expect(updated.data.data.attributes).toEqual(
			expect.objectContaining({ firstName: 'Grace', lastName: 'Hopper', timezone: 'Europe/Berlin', email }),
		);

		const deleted = await h.api.delete(`/users/${id}`, { responseType: 'text' });
		expect(deleted.status).toBe(204);
		expect(deleted.data ?? '').toBe('');
		expectNotFound(await h.api.get(`/users/${id}`));
	});
});

describe('routes: jobs', () => {
	it('list, create (201), show, update status, transfers, errors', async () => {
		const list = await h.api.get('/jobs');
		expectJsonApi(list, 200);
		expectList(list, 'jobs');

		const src = `/${uniq('routes-src')}`;
		h.sb.control.writeFile(DEMO_IDS.storageIds.files, `${src}/a.txt`, 'hello');
		const created = await h.api.post('/jobs', {
			data: {
				type: 'jobs',
				attributes: {
					name: 'routes job',
					transferType: 'copy',
					conflictHandling: 'overwrite',
					source: { type: 'file', id: DEMO_IDS.storageIds.files, path: src },
					target: { id: DEMO_IDS.storageIds.archive, path: `/${uniq('routes-dst')}` },
				},
			},
		});
		expectJsonApi(created, 201);
		expectResource(created.data.data, 'jobs');
		const a = created.data.data.attributes;
		expect(a).toEqual(
			expect.objectContaining({
				name: 'routes job',
				status: 'scanning',
				transferType: 'copy',
				conflictHandling: 'overwrite',
				dryRun: false,
				accountId: expect.any(String),
				deploymentId: a.accountId,
				source: expect.objectContaining({ type: 'file', id: DEMO_IDS.storageIds.files, path: src }),
				target: expect.objectContaining({ id: DEMO_IDS.storageIds.archive, type: expect.any(String) }),
				scope: expect.objectContaining({ type: 'rules', method: 'include-if-all', rules: [] }),
				failureConditions: expect.any(Array),
				stats: expect.objectContaining({ scannedFilesCount: expect.any(Number), transferredCount: expect.any(Number) }),
				...timestamps,
			}),
		);
		expect(a).toHaveProperty('groupId');
		expect(a).toHaveProperty('userId');
		expect(a).toHaveProperty('transferRateLimit');
		const id = created.data.data.id;

		const shown = await h.api.get(`/jobs/${id}`);
		expectJsonApi(shown, 200);
		expect(shown.data.data.id).toBe(id);
		expectResource(shown.data.data, 'jobs');

		await waitFinal(h, id);
		const transfers = await h.api.get(`/jobs/${id}/transfers`);
		expectJsonApi(transfers, 200);
		expect(transfers.data.data).toHaveLength(1);
		expect(transfers.data.data[0]).toEqual({
			type: 'job-transfers',
			attributes: expect.objectContaining({ path: expect.any(String), status: 0, size: 5, hash: expect.any(Object) }),
		});
		expect(transfers.data.links).toEqual({ next: null });
		expect(transfers.data.meta.page).toEqual({ after: null, total: 1 });

		h.sb.control.addJobError(id, { sourcePath: `${src}/a.txt`, message: 'something odd', event: 'warning' });
		const errors = await h.api.get(`/jobs/${id}/errors`);
		expectJsonApi(errors, 200);
		expect(errors.data.data).toEqual([
			{
				id: expect.any(String),
				type: 'job-errors',
				attributes: {
					sourcePath: `${src}/a.txt`,
					message: 'something odd',
					event: 'warning',
					timestamp: expect.stringMatching(ISO_MS),
				},
			},
		]);
		expect(errors.data.links).toEqual({ next: null });

		const [runningId] = h.sb.control.insertJobs(1, { status: 'running' });
		const updated = await h.api.patch(`/jobs/${runningId}`, {
			data: { id: runningId, type: 'jobs', attributes: { status: 'paused' } },
		});
		expectJsonApi(updated, 200);
		expect(updated.data.data.id).toBe(runningId);
		expect(updated.data.data.attributes.status).toBe('paused');
	});
});

describe('routes: storages (read-only)', () => {
	it('GET /storages lists storages with type-specific metadata and capacity', async () => {
		const res = await h.api.get('/storages');
		expectJsonApi(res, 200);
		expectList(res, 'storages');
		const ids = res.data.data.map((s: { id: string }) => s.id);
		expect(ids).toEqual(expect.arrayContaining(Object.values(DEMO_IDS.storageIds)));
		for (const s of res.data.data) {
			const a = s.attributes;
			expect(a).toEqual(expect.objectContaining({ name: expect.any(String), status: 'ready', ...timestamps }));
			expect(a).not.toHaveProperty('enabled');
			expect(a.stats.capacity).toEqual(
				expect.objectContaining({ bytesUsed: expect.any(Number), fileCount: expect.any(Number) }),
			);
			if (a.type === 'file') {
				expect(a.metadata).toEqual({ address: expect.any(String), path: expect.any(String), options: expect.any(String) });
				expect(a.stats.capacity.bytesTotal).toEqual(expect.any(Number));
			} else {
				expect(a.type).toBe('object-aws');
				expect(a.metadata).toEqual({
					bucket: expect.any(String),
					prefix: expect.any(String),
					storageClass: expect.any(String),
				});
				expect(a.stats.capacity).not.toHaveProperty('bytesTotal');
			}
		}
		const types = res.data.data.map((s: { attributes: { type: string } }) => s.attributes.type);
		expect(types).toEqual(expect.arrayContaining(['file', 'object-aws']));
	});

	it('GET /storages/{id} shows one storage', async () => {
		const res = await h.api.get(`/storages/${DEMO_IDS.storageIds.bucket}`);
		expectJsonApi(res, 200);
		expectResource(res.data.data, 'storages');
		expect(res.data.data.id).toBe(DEMO_IDS.storageIds.bucket);
		expect(res.data.data.attributes.type).toBe('object-aws');
	});
});

describe('routes: 405 method-not-allowed', () => {
	const cases: Array<[string, string, () => string]> = [];
	for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
		cases.push([method, '/accounts', () => '/accounts']);
		cases.push([method, '/accounts/{id}', () => `/accounts/${DEMO_IDS.accountId}`]);
		cases.push([method, '/storages', () => '/storages']);
		cases.push([method, '/storages/{id}', () => `/storages/${DEMO_IDS.storageIds.files}`]);
	}
	cases.push(['DELETE', '/jobs/{id}', () => `/jobs/${h.sb.control.insertJobs(1, { status: 'finished' })[0]}`]);

	it.each(cases)('%s %s -> 405 method-not-allowed, not carried out', async (method, _route, path) => {
		const p = path();
		const body = method === 'DELETE' ? undefined : { data: { type: 'accounts', attributes: { name: 'x' } } };
		const res = await h.api.request(method as 'POST', p, { body });
		expectError(res, 405, 'method-not-allowed');
		if (p.startsWith('/jobs/')) expect((await h.api.get(p)).status).toBe(200);
		if (p.startsWith('/accounts/')) expect((await h.api.get(p)).data.data.attributes.name).not.toBe('x');
	});

	it('accounts and storages are unchanged by the refused writes', async () => {
		expect((await h.api.get('/accounts')).data.meta.page.total).toBe(h.sb.state.accounts().length);
		expect((await h.api.get('/storages')).data.meta.page.total).toBe(h.sb.state.storages().length);
		expect(h.sb.state.storages().map((s) => s.id)).toEqual(expect.arrayContaining(Object.values(DEMO_IDS.storageIds)));
	});
});

describe('routes: 404 entity-not-found with the exact title and detail', () => {
	const missing = randomUUID();
	// Every row has four items: jest.each takes a test function with more parameters than the row for one using done().
	const cases: Array<[string, string, string, unknown]> = [
		['GET', '/accounts/{id}', `/accounts/${missing}`, undefined],
		['GET', '/storages/{id}', `/storages/${missing}`, undefined],
		['GET', '/groups/{id}', `/groups/${missing}`, undefined],
		['PATCH', '/groups/{id}', `/groups/${missing}`, { data: { id: missing, type: 'groups', attributes: { name: 'x' } } }],
		['DELETE', '/groups/{id}', `/groups/${missing}`, undefined],
		['GET', '/users/{id}', `/users/${missing}`, undefined],
		['PATCH', '/users/{id}', `/users/${missing}`, { data: { id: missing, type: 'users', attributes: { firstName: 'x' } } }],
		['DELETE', '/users/{id}', `/users/${missing}`, undefined],
		['GET', '/jobs/{id}', `/jobs/${missing}`, undefined],
		['PATCH', '/jobs/{id}', `/jobs/${missing}`, { data: { id: missing, type: 'jobs', attributes: { status: 'paused' } } }],
		['GET', '/jobs/{id}/transfers', `/jobs/${missing}/transfers`, undefined],
		['GET', '/jobs/{id}/errors', `/jobs/${missing}/errors`, undefined],
	];

	it.each(cases)('%s %s with an unknown id', async (method, _route, path, body) => {
		const res = await h.api.request(method as 'GET', path, { body });
		expectNotFound(res);
	});

	it('an id that is not even a UUID is also entity-not-found', async () => {
		expectNotFound(await h.api.get('/jobs/not-a-uuid'));
		expectNotFound(await h.api.get('/groups/not-a-uuid'));
	});
});
