// @ts-nocheck
import * as net from 'node:net';
import { DEMO_IDS } from '../../sandbox/src/index';
import { harness, type Harness } from './helpers';

describe('sandbox server basics', () => {
	let h: Harness;
	beforeAll(async () => {
		h = await harness();
	});
	afterAll(() => h.sandbox.close());

	it('issues a token for form credentials and for HTTP Basic', async () => {
		const { baseUrl, clientId, clientSecret } = h.sandbox;
		const form = await fetch(`${baseUrl}/oauth/token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: `grant_type=client_credentials&client_id=${clientId}&client_secret=${clientSecret}`,
		});
		expect(form.status).toBe(200);
		expect(await form.json()).toMatchObject({ token_type: 'Bearer', expires_in: 86400 });
		const basic = await fetch(`${baseUrl}/oauth/token`, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/x-www-form-urlencoded',
				Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
			},
			body: 'grant_type=client_credentials',
		});
		expect(basic.status).toBe(200);
	});

	it('refuses a wrong secret without echoing it', async () => {
		const res = await fetch(`${h.sandbox.baseUrl}/oauth/token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: `grant_type=client_credentials&client_id=${h.sandbox.clientId}&client_secret=not-the-secret-123`,
		});
		const text = await res.text();
		expect(res.status).toBe(401);
		expect(JSON.parse(text).error).toBe('invalid_client');
		expect(text).not.toContain('not-the-secret-123');
	});

	it('answers the API version with a token and 401 invalid_token without one', async () => {
		const ok = await h.call('GET', '/');
		expect(ok.status).toBe(200);
		expect(typeof ok.body.meta.apiVersion).toBe('string');
		const res = await fetch(`${h.sandbox.baseUrl}/jobs`);
		expect(res.status).toBe(401);
		expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
		expect(((await res.json()) as any).errors[0].code).toBe('unauthorized');
	});

	it('serves the demo data under fixed ids', async () => {
		const res = await h.call('GET', `/storages/${DEMO_IDS.storageIds.bucket}`);
		expect(res.body.data.attributes.type).toBe('object-aws');
		const users = await h.call('GET', `/users?filter[groupId]=${DEMO_IDS.groupIds[0]}&sort=email`);
		expect(users.body.data.map((u: any) => u.id).sort()).toEqual(DEMO_IDS.userIds.slice(0, 2).sort());
	});

	it('applies a fault rule once, then answers normally, and logs both', async () => {
		h.sandbox.requests.clear();
		h.sandbox.faults.add({ kind: 'unavailable', method: 'GET', path: '/jobs/{id}', retryAfterSeconds: 2 });
		const first = await h.call('GET', `/jobs/${DEMO_IDS.jobIds.copied}`);
		expect(first.status).toBe(503);
		expect(first.headers.get('retry-after')).toBe('2');
		const second = await h.call('GET', `/jobs/${DEMO_IDS.jobIds.copied}`);
		expect(second.status).toBe(200);
		expect(h.sandbox.requests.count({ route: '/jobs/{id}', status: 503 })).toBe(1);
		expect(h.sandbox.requests.count({ route: '/jobs/{id}', status: 200 })).toBe(1);
	});

	it('close() stops listening', async () => {
		const other = await harness();
		const port = Number(new URL(other.sandbox.baseUrl).port);
		await other.call('GET', '/');
		await other.sandbox.close();
		const refused = await new Promise<boolean>((resolve) => {
			const socket = net.connect(port, '127.0.0.1');
			socket.on('connect', () => {
				socket.destroy();
				resolve(false);
			});
			socket.on('error', () => resolve(true));
		});
		expect(refused).toBe(true);
	});
});
