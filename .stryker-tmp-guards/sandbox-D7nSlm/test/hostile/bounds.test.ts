/**
 * Bounds: Timeout bounds each attempt whole (connect, headers and body); an answer larger than Max
 * Response Size is refused, decompression included; Retry-After cannot make a request repeat at once.
 */
// @ts-nocheck

import * as zlib from 'node:zlib';

import { DEMO_IDS, FAST, getGroup, useHostileSuite } from './helpers';
import { apiError, drip, json } from './servers';

const h = useHostileSuite();

const GROUP = DEMO_IDS.groupIds[0];
const MB = 1024 * 1024;

/** Writes `total` bytes of a JSON string value as fast as the client reads, then closes properly. */
function bigBody(res: import('node:http').ServerResponse, total: number) {
	res.writeHead(200, { 'Content-Type': 'application/vnd.api+json' });
	const chunk = Buffer.alloc(64 * 1024, 'a');
	let sent = 0;
	res.write(`{"data":{"id":"${GROUP}","type":"groups","attributes":{"name":"`);
	const pump = () => {
		while (sent < total) {
			sent += chunk.length;
			if (!res.write(chunk)) {
				res.once('drain', pump);
				return;
			}
		}
		res.end('"}}}');
	};
	res.on('close', () => {
		sent = total;
	});
	pump();
}

describe('Timeout bounds the whole attempt', () => {
	it('headers, then an endless chunked body: the 2 s Timeout ends it at about 2 s, with a clear error', async () => {
		let bytes = 0;
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => {
			res.on('close', () => undefined);
			drip(res, Buffer.alloc(16 * 1024, ' '), 5, 20_000);
			const write = res.write.bind(res);
			res.write = ((chunk: Buffer) => {
				bytes += chunk.length;
				return write(chunk);
			}) as typeof res.write;
		});
		const { error, ms, items } = await h.run(getGroup({ timeout: 2, maxRetries: 0 }));
		expect(items).toEqual([]);
		expect(error?.message).toBe(`The service did not answer GET /groups/${GROUP} completely within 2 seconds`);
		expect(error?.description).toContain('connecting, the headers and the whole body');
		expect(ms).toBeGreaterThanOrEqual(1900);
		expect(ms).toBeLessThan(3500);
		expect(bytes).toBeLessThan(40 * MB);
	});

	it('one byte per second: ends at the Timeout, not when the server stops', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => drip(res, '{', 1000, 20_000));
		const { error, ms } = await h.run(getGroup({ timeout: 1.5, maxRetries: 0 }));
		expect(error?.message).toBe(`The service did not answer GET /groups/${GROUP} completely within 1.5 seconds`);
		expect(ms).toBeLessThan(3000);
	});

	it('a GET that times out is repeated within Max Retries, each attempt bounded', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => drip(res, ' ', 100, 20_000));
		const { error, ms } = await h.run(getGroup({ timeout: 1, maxRetries: 2, ...FAST }));
		expect(h.service.requests.filter((r) => r.method === 'GET')).toHaveLength(3);
		expect(error?.description).toContain('The request was tried 3 times.');
		expect(ms).toBeLessThan(5000);
	});

	it('no headers at all: ends at the Timeout', async () => {
		h.service.on('GET', `/groups/${GROUP}`, () => undefined);
		const { error, ms } = await h.run(getGroup({ timeout: 1, maxRetries: 0 }));
		expect(error?.message).toBe(`The service did not answer GET /groups/${GROUP} completely within 1 seconds`);
		expect(ms).toBeLessThan(2500);
	});

	it('an error answer with an endless body is bounded too', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => {
			res.writeHead(500, { 'Content-Type': 'application/vnd.api+json' });
			const timer = setInterval(() => res.write(' '), 20);
			res.on('close', () => clearInterval(timer));
			setTimeout(() => clearInterval(timer), 20_000);
		});
		const { error, ms } = await h.run(getGroup({ timeout: 1, maxRetries: 0 }));
		expect(error).toBeDefined();
		expect(ms).toBeLessThan(2500);
	});

	it('a POST whose answer never ends: one attempt, not repeated, reported as unclear', async () => {
		h.service.on('POST', '/groups', (_req, res) => drip(res, ' ', 50, 20_000));
		const { error, ms } = await h.run({
			resource: 'group',
			operation: 'create',
			accountId: { __rl: true, mode: 'id', value: DEMO_IDS.accountId },
			name: 'bounded create',
			requestOptions: { timeout: 1, maxRetries: 3, ...FAST },
		});
		expect(h.service.requests.filter((r) => r.method === 'POST' && r.url === '/groups')).toHaveLength(1);
		// The recoverable create looked for the group and found none, and says so instead of guessing.
		expect(error?.message).toBe(
			'The group may or may not have been created: the service did not answer the create request, and no new matching group was found [item 0]',
		);
		expect(ms).toBeLessThan(15_000);
	});
});

describe('Max Response Size', () => {
	it('a 200 MB answer is refused at the default 16 MB, with a clear error', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => bigBody(res, 200 * MB));
		const { error, items, ms } = await h.run(getGroup({ maxRetries: 0 }));
		expect(items).toEqual([]);
		expect(error?.message).toBe(`The answer to GET /groups/${GROUP} was larger than 16 MB and was refused`);
		expect(error?.description).toContain('Max Response Size (MB)');
		expect(ms).toBeLessThan(10_000);
	});

	it('Max Response Size 1 (MB): a 2 MB answer is refused, a 0.5 MB one accepted', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => bigBody(res, 2 * MB), 1);
		const refused = await h.run(getGroup({ maxResponseSize: 1, maxRetries: 0 }));
		expect(refused.error?.message).toBe(`The answer to GET /groups/${GROUP} was larger than 1 MB and was refused`);
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => bigBody(res, MB / 2), 1);
		const accepted = await h.run(getGroup({ maxResponseSize: 1, maxRetries: 0 }));
		expect(accepted.error).toBeUndefined();
		expect(String(accepted.items[0].json.name).length).toBeGreaterThanOrEqual(MB / 2);
	});

	it('a 400 KB gzip that inflates to 400 MB counts decompressed: refused at the cap', async () => {
		const bomb = zlib.gzipSync(Buffer.concat([Buffer.from('{"data":{"id":"x","type":"groups","attributes":{"name":"'), Buffer.alloc(400 * MB, 'a'), Buffer.from('"}}}')]), { level: 9 });
		expect(bomb.length).toBeLessThan(1 * MB);
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/vnd.api+json', 'Content-Encoding': 'gzip', 'Content-Length': bomb.length });
			res.end(bomb);
		});
		const used = process.memoryUsage().rss;
		const { error } = await h.run(getGroup({ maxRetries: 0 }));
		expect(error?.message).toBe(`The answer to GET /groups/${GROUP} was larger than 16 MB and was refused`);
		expect(process.memoryUsage().rss - used).toBeLessThan(300 * MB);
	});

	it('a list page over the cap fails the whole Get Many (never a partial list)', async () => {
		h.service.on('GET', '/groups', (_req, res) => bigBody(res, 2 * MB));
		const { error, items } = await h.run({ resource: 'group', operation: 'getMany', returnAll: true, requestOptions: { maxResponseSize: 1, maxRetries: 0 } });
		expect(items).toEqual([]);
		expect(error?.message).toBe('The answer to GET /groups was larger than 1 MB and was refused');
	});

	it('Max Response Size outside 0.001–1024 is an input error before anything is sent', async () => {
		const { error } = await h.run(getGroup({ maxResponseSize: 0 }));
		expect(error?.message).toBe('"Request Options → Max Response Size (MB)" must be a number above 0 to 1024, got 0 [item 0]');
		expect(h.service.requests).toEqual([]);
	});
});

describe('Retry-After', () => {
	it.each(['-5', '1e9x', 'soon', '-0.5'])('Retry-After: %s is ignored: the normal backoff applies, not an immediate repeat', async (value) => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => {
			res.setHeader('Retry-After', value);
			apiError(res, 503, 'unavailable', 'Service Unavailable');
		}, 1);
		const { error } = await h.run(getGroup({ maxRetries: 1 }));
		expect(error).toBeUndefined();
		const gets = h.service.requests.filter((r) => r.method === 'GET');
		expect(gets).toHaveLength(2);
		// Backoff for the first repeat: between 250 and 500 ms.
		expect(gets[1].at - gets[0].at).toBeGreaterThanOrEqual(240);
	});

	it('Retry-After larger than Max Wait Between Retries is capped', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => {
			res.setHeader('Retry-After', '3600');
			apiError(res, 429, 'rate-limited', 'Too Many Requests');
		}, 1);
		const { error, ms } = await h.run(getGroup({ maxRetries: 1, maxRetryWait: 0.3 }));
		expect(error).toBeUndefined();
		expect(ms).toBeLessThan(2000);
	});
});

describe('answers that are not what they claim', () => {
	it('a 200 whose body is cut off mid-JSON is "not JSON", repeated for a GET', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/vnd.api+json' });
			res.end('{"data":{"id":');
		}, 1);
		const { error, items } = await h.run(getGroup({ ...FAST }));
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(GROUP);
		expect(h.service.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
	});

	it('a connection dropped mid-body is an unclear failure, repeated for a GET', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/vnd.api+json', 'Content-Length': 1000 });
			res.write('{"data":');
			setTimeout(() => res.destroy(), 20);
		}, 1);
		const { error, items } = await h.run(getGroup({ ...FAST }));
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(GROUP);
	});

	it('a JSON string or number where a document belongs is refused', async () => {
		h.service.on('GET', `/groups/${GROUP}`, (_req, res) => json(res, 200, 'just a string'));
		const { error } = await h.run(getGroup({ maxRetries: 0 }));
		expect(error?.message).toBe('The service answered with something that is not JSON');
	});
});
