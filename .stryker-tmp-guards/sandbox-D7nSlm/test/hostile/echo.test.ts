/**
 * What the service sends back cannot carry a secret or a trap into what the user sees: echoed tokens and
 * secrets are redacted in errors, output items and logs; error codes cannot reach into prototypes; huge
 * texts are trimmed; n8n's message rewriting cannot replace the API's own title.
 */
// @ts-nocheck

import { captureLogs } from '../hardening/harness';
import { DEMO_IDS, getGroup, rl, useHostileSuite } from './helpers';
import { json } from './servers';

const logs = captureLogs();
const h = useHostileSuite();

const GROUP = DEMO_IDS.groupIds[0];
const errorDoc = (status: number, fields: Record<string, unknown>) => ({ errors: [{ status: String(status), ...fields }] });

function everything(result: { items: unknown; error?: unknown; run?: unknown }): string {
	return [JSON.stringify(result.items), JSON.stringify(result.error ?? null), String((result.error as Error | undefined)?.stack ?? ''), logs.text()].join('\n');
}

describe('secrets echoed by the service', () => {
	it('a 404 whose detail repeats the Authorization header: the token is redacted from the error, the run data and the logs', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (req, res) =>
			json(res, 404, errorDoc(404, { code: 'entity-not-found', title: 'Not found', detail: `Your request carried ${req.headers.authorization}` })),
		);
		const credentials = h.credentials();
		logs.clear();
		const result = await h.run(getGroup(), { credentials });
		const token = credentials.tokenUpdates[0];
		expect(token).toBeDefined();
		expect(result.error?.description).toContain('Your request carried Bearer [redacted]');
		expect(everything(result)).not.toContain(token);
		expect(JSON.stringify(result.run)).not.toContain(token);
	});

	it('the token without "Bearer" in an error title is redacted too', async () => {
		const credentials = h.credentials();
		await h.run(getGroup(), { credentials });
		const token = credentials.tokenUpdates[0];
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => json(res, 400, errorDoc(400, { code: 'x', title: `bad token ${token}` })));
		const result = await h.run(getGroup(), { credentials });
		expect(result.error?.message).toBe('bad token [redacted]');
		expect(everything(result)).not.toContain(token);
	});

	it('the client secret echoed in an error detail is redacted', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) =>
			json(res, 409, errorDoc(409, { code: 'conflict', title: 'Conflict', detail: `client_secret was ${h.sandbox.clientSecret}` })),
		);
		const result = await h.run(getGroup());
		expect(result.error?.description).toContain('client_secret was [redacted]');
		expect(everything(result)).not.toContain(h.sandbox.clientSecret);
	});

	it('a record whose attribute holds the token is output redacted', async () => {
		const credentials = h.credentials();
		await h.run(getGroup(), { credentials });
		const token = credentials.tokenUpdates[0];
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) =>
			json(res, 200, { data: { id: GROUP, type: 'groups', attributes: { name: `echo ${token}`, note: h.sandbox.clientSecret } } }),
		);
		const result = await h.run(getGroup(), { credentials });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.name).toBe('echo [redacted]');
		expect(result.items[0].json.note).toBe('[redacted]');
	});

	it('a Base URL with a query string is refused without echoing it, and nothing is sent', async () => {
		const credentials = h.credentials({ baseUrl: `${h.service.origin}/?api_key=topsecret-query-value` });
		const result = await h.run(getGroup(), { credentials });
		expect(result.error?.message).toBe(
			`The credential's Base URL "${h.service.origin}" is not an http(s) URL without query, fragment or user info [item 0]`,
		);
		expect(everything(result)).not.toContain('topsecret-query-value');
		expect(h.service.requests).toEqual([]);
	});

	it('a Base URL with user info is refused without echoing it', async () => {
		const credentials = h.credentials({ baseUrl: `http://admin:hunter2-password@127.0.0.1:${new URL(h.service.origin).port}` });
		const result = await h.run(getGroup(), { credentials });
		expect(result.error?.message).toContain('is not an http(s) URL without query, fragment or user info [item 0]');
		expect(everything(result)).not.toContain('hunter2-password');
		expect(h.service.requests).toEqual([]);
	});
});

describe('error documents that try to trick the node', () => {
	it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('error code "%s" adds no hint from a prototype', async (code) => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => json(res, 400, errorDoc(400, { code, title: 'Odd', detail: 'd' })));
		const result = await h.run(getGroup());
		expect(result.error?.message).toBe('Odd');
		expect(result.error?.description).toBe('d');
	});

	it('a 1 MB detail is trimmed to 2,000 characters', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) =>
			json(res, 400, errorDoc(400, { code: 'x', title: 'T'.repeat(5000), detail: 'D'.repeat(1024 * 1024) })),
		);
		const result = await h.run(getGroup());
		expect(result.error?.message.length).toBeLessThan(260);
		expect(String(result.error?.description).length).toBeLessThan(2100);
		expect(result.error?.description).toContain('more characters cut');
	});

	it('an error array of non-objects is "HTTP 400 without an error document", not a TypeError', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => json(res, 400, { errors: [null, 5, 'x'] }));
		const result = await h.run(getGroup());
		expect(result.error?.message).toBe('The service answered HTTP 400 without an error document');
	});

	it.each(['ECONNREFUSED', 'enoent', 'ETIMEDOUT at the gateway', 'EACCES'])(
		'an API title containing "%s" is shown as the API said it, not replaced by n8n\'s generic text',
		async (title) => {
			h.service.on('GET', `/groups/${GROUP}`, (_req, res) => json(res, 422, errorDoc(422, { code: 'x', title })));
			const result = await h.run(getGroup());
			expect(result.error?.message).toBe(title);
		},
	);

	it('a dropped create is reported in our words, not as n8n\'s "You can retry the request immediately"', async () => {
		h.service.on('POST', '/jobs', (req) => {
			req.socket.destroy();
		});
		const result = await h.run({
			resource: 'job',
			operation: 'create',
			name: 'dropped',
			transferType: 'copy',
			sourceStorageId: rl(DEMO_IDS.storageIds.files),
			targetStorageId: rl(DEMO_IDS.storageIds.archive),
			requestOptions: { maxRetries: 0 },
		});
		expect(result.error?.message).not.toContain('You can retry the request immediately');
		expect(result.error?.message).toMatch(/may or may not have been (created|carried out)/);
	});
});
