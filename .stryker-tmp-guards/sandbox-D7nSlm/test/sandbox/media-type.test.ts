// @ts-nocheck
import { DEMO_IDS } from '../../sandbox/src';
import { expectError, expectJsonApi, uniq, useSandbox } from './helpers';

const h = useSandbox({ demo: true });

describe('GET / version document', () => {
	it('answers 200 with jsonapi.version 1.1 and a string meta.apiVersion', async () => {
		const res = await h.api.get('/');
		expectJsonApi(res, 200);
		expect(res.data).toEqual({ jsonapi: { version: '1.1' }, meta: { apiVersion: expect.any(String) } });
		expect(res.data.meta.apiVersion.length).toBeGreaterThan(0);
	});
});

describe('media type', () => {
	it.each(['/', '/accounts', '/groups', '/users', '/jobs', '/storages', `/accounts/${DEMO_IDS.accountId}`])(
		'GET %s answers application/vnd.api+json',
		async (path) => {
			const res = await h.api.get(path);
			expectJsonApi(res, 200);
		},
	);

	it('error responses are application/vnd.api+json too', async () => {
		const res = await h.api.get('/groups/00000000-0000-4000-8000-000000000000');
		expect(res.status).toBe(404);
		expect(String(res.headers['content-type'])).toMatch(/^application\/vnd\.api\+json/);
	});

	it.each(['application/vnd.api+json', 'application/json', 'application/json; charset=utf-8'])(
		'accepts a request body sent as %s',
		async (contentType) => {
			const name = uniq('media');
			const res = await h.api.post(
				'/groups',
				{ data: { type: 'groups', attributes: { accountId: DEMO_IDS.accountId, name } } },
				{ contentType },
			);
			expectJsonApi(res, 201);
			expect(res.data.data.attributes.name).toBe(name);
			const patched = await h.api.patch(
				`/groups/${res.data.data.id}`,
				{ data: { id: res.data.data.id, type: 'groups', attributes: { name: `${name}-2` } } },
				{ contentType },
			);
			expectJsonApi(patched, 200);
			expect(patched.data.data.attributes.name).toBe(`${name}-2`);
		},
	);

	it('a body that is not JSON is invalid-request whatever the media type says', async () => {
		const res = await h.api.request('POST', '/groups', { rawBody: '{"data":', contentType: 'application/json' });
		expectError(res, 400, 'invalid-request');
	});
});
