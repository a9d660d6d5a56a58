// @ts-nocheck
import { DEMO_IDS } from '../../sandbox/src';
import { expectError, expectJsonApi, uniq, useSandbox } from './helpers';

const h = useSandbox({ demo: true });

const ACCOUNT = () => DEMO_IDS.accountId;
/** An id of a second account when the demo has one, else a made-up id (only used where it must differ). */
const OTHER = () => h.sb.state.accounts().find((a) => a.id !== ACCOUNT())?.id ?? '11111111-1111-4111-8111-111111111111';

const createGroup = (attributes: Record<string, unknown>) => h.api.post('/groups', { data: { type: 'groups', attributes } });
const createUser = (attributes: Record<string, unknown>) =>
	h.api.post('/users', {
		data: { type: 'users', attributes: { firstName: 'F', lastName: 'L', email: `${uniq('u')}@example.com`, ...attributes } },
	});

describe('users and groups: accountId and deploymentId', () => {
	it.each<[string, () => Record<string, unknown>]>([
		['accountId only', () => ({ accountId: ACCOUNT() })],
		['deploymentId only', () => ({ deploymentId: ACCOUNT() })],
		['both, equal', () => ({ accountId: ACCOUNT(), deploymentId: ACCOUNT() })],
	])('group create with %s -> 201, both returned', async (_name, ids) => {
		const res = await createGroup({ ...ids(), name: uniq('g') });
		expectJsonApi(res, 201);
		expect(res.data.data.attributes).toEqual(expect.objectContaining({ accountId: ACCOUNT(), deploymentId: ACCOUNT() }));
		const shown = await h.api.get(`/groups/${res.data.data.id}`);
		expect(shown.data.data.attributes).toEqual(expect.objectContaining({ accountId: ACCOUNT(), deploymentId: ACCOUNT() }));
	});

	it.each<[string, () => Record<string, unknown>]>([
		['accountId only', () => ({ accountId: ACCOUNT() })],
		['deploymentId only', () => ({ deploymentId: ACCOUNT() })],
		['both, equal', () => ({ accountId: ACCOUNT(), deploymentId: ACCOUNT() })],
	])('user create with %s -> 201, both returned', async (_name, ids) => {
		const res = await createUser(ids());
		expectJsonApi(res, 201);
		expect(res.data.data.attributes).toEqual(expect.objectContaining({ accountId: ACCOUNT(), deploymentId: ACCOUNT() }));
	});

	it('both, different -> 400 validation-failed (groups and users), nothing created', async () => {
		const groups = h.sb.state.groups().length;
		const users = h.sb.state.users().length;
		const g = await createGroup({ accountId: ACCOUNT(), deploymentId: OTHER(), name: uniq('g') });
		expectError(g, 400, 'validation-failed');
		expect(['/data/attributes/accountId', '/data/attributes/deploymentId']).toContain(g.data.errors[0].source?.pointer);
		const u = await createUser({ accountId: ACCOUNT(), deploymentId: OTHER() });
		expectError(u, 400, 'validation-failed');
		expect(['/data/attributes/accountId', '/data/attributes/deploymentId']).toContain(u.data.errors[0].source?.pointer);
		expect(h.sb.state.groups().length).toBe(groups);
		expect(h.sb.state.users().length).toBe(users);
	});
});

describe('users: email and password', () => {
	it('email is required', async () => {
		const res = await h.api.post('/users', {
			data: { type: 'users', attributes: { accountId: ACCOUNT(), firstName: 'F', lastName: 'L' } },
		});
		expectError(res, 400, 'validation-failed', '/data/attributes/email');
	});

	it.each(['not-an-email', 'a@', '@example.com', 'a b@example.com', ''])('email %p is invalid -> 400', async (email) => {
		const res = await createUser({ accountId: ACCOUNT(), email });
		expectError(res, 400, 'validation-failed', '/data/attributes/email');
	});

	it('email is unique per account: 409 conflict, nothing created', async () => {
		const email = `${uniq('dup')}@example.com`;
		expectJsonApi(await createUser({ accountId: ACCOUNT(), email }), 201);
		const before = h.sb.state.users().length;
		const again = await createUser({ deploymentId: ACCOUNT(), email });
		expectError(again, 409, 'conflict');
		expect(h.sb.state.users().length).toBe(before);
	});

	it('a password attribute on create -> 400 read-only-attribute, nothing created', async () => {
		const before = h.sb.state.users().length;
		const res = await createUser({ accountId: ACCOUNT(), password: 'hunter2' });
		expectError(res, 400, 'read-only-attribute', '/data/attributes/password');
		expect(h.sb.state.users().length).toBe(before);
	});

	it('a password attribute on update -> 400 read-only-attribute, nothing changed', async () => {
		const created = await createUser({ accountId: ACCOUNT() });
		const id = created.data.data.id;
		const res = await h.api.patch(`/users/${id}`, {
			data: { id, type: 'users', attributes: { firstName: 'Changed', password: 'hunter2' } },
		});
		expectError(res, 400, 'read-only-attribute', '/data/attributes/password');
		expect((await h.api.get(`/users/${id}`)).data.data.attributes.firstName).toBe('F');
	});
});

describe('users and groups: update only allowed fields', () => {
	it('users: firstName, lastName, timezone (nullable) are updatable', async () => {
		const created = await createUser({ accountId: ACCOUNT(), timezone: 'Europe/Paris' });
		const id = created.data.data.id;
		expect(created.data.data.attributes.timezone).toBe('Europe/Paris');
		const res = await h.api.patch(`/users/${id}`, {
			data: { id, type: 'users', attributes: { firstName: 'N', lastName: 'M', timezone: null } },
		});
		expectJsonApi(res, 200);
		expect(res.data.data.attributes).toEqual(
			expect.objectContaining({ firstName: 'N', lastName: 'M', timezone: null, email: created.data.data.attributes.email }),
		);
		const partial = await h.api.patch(`/users/${id}`, { data: { id, type: 'users', attributes: { lastName: 'Only' } } });
		expect(partial.data.data.attributes).toEqual(expect.objectContaining({ firstName: 'N', lastName: 'Only' }));
	});

	it.each<[string, () => Record<string, unknown>]>([
		['email', () => ({ email: 'new@example.com' })],
		['accountId', () => ({ accountId: OTHER() })],
		['deploymentId', () => ({ deploymentId: OTHER() })],
		['createdAt', () => ({ createdAt: '2020-01-01T00:00:00.000Z' })],
	])('users: %s is not updatable -> 400 read-only-attribute', async (field, attrs) => {
		const created = await createUser({ accountId: ACCOUNT() });
		const id = created.data.data.id;
		const res = await h.api.patch(`/users/${id}`, { data: { id, type: 'users', attributes: attrs() } });
		expectError(res, 400, 'read-only-attribute', `/data/attributes/${field}`);
		expect((await h.api.get(`/users/${id}`)).data.data).toEqual(created.data.data);
	});

	it('groups: name is updatable; accountId is not', async () => {
		const created = await createGroup({ accountId: ACCOUNT(), name: uniq('g') });
		const id = created.data.data.id;
		const ok = await h.api.patch(`/groups/${id}`, { data: { id, type: 'groups', attributes: { name: 'new name' } } });
		expectJsonApi(ok, 200);
		expect(ok.data.data.attributes).toEqual(
			expect.objectContaining({ name: 'new name', accountId: ACCOUNT(), deploymentId: ACCOUNT() }),
		);
		const bad = await h.api.patch(`/groups/${id}`, { data: { id, type: 'groups', attributes: { accountId: OTHER() } } });
		expectError(bad, 400, 'read-only-attribute', '/data/attributes/accountId');
		expect((await h.api.get(`/groups/${id}`)).data.data.attributes.accountId).toBe(ACCOUNT());
	});
});

describe('groups: deleting a group', () => {
	it('sets groupId to null on its users and leaves other users alone', async () => {
		const g1 = (await createGroup({ accountId: ACCOUNT(), name: uniq('doomed') })).data.data.id;
		const g2 = (await createGroup({ accountId: ACCOUNT(), name: uniq('kept') })).data.data.id;
		const u1 = await createUser({ accountId: ACCOUNT(), groupId: g1 });
		const u2 = await createUser({ accountId: ACCOUNT(), groupId: g1 });
		const u3 = await createUser({ accountId: ACCOUNT(), groupId: g2 });
		expect(u1.data.data.attributes.groupId).toBe(g1);
		const del = await h.api.delete(`/groups/${g1}`, { responseType: 'text' });
		expect(del.status).toBe(204);
		expect(del.data ?? '').toBe('');
		for (const u of [u1, u2]) {
			const shown = await h.api.get(`/users/${u.data.data.id}`);
			expect(shown.data.data.attributes.groupId).toBeNull();
		}
		expect((await h.api.get(`/users/${u3.data.data.id}`)).data.data.attributes.groupId).toBe(g2);
		const listed = await h.api.get('/users', { 'filter[groupId]': g1 });
		expect(listed.data.data).toEqual([]);
	});

	it('deleting twice: the second is 404', async () => {
		const g = (await createGroup({ accountId: ACCOUNT(), name: uniq('twice') })).data.data.id;
		expect((await h.api.delete(`/groups/${g}`)).status).toBe(204);
		expectError(await h.api.delete(`/groups/${g}`), 404, 'entity-not-found');
	});
});
