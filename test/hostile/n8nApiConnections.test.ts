/**
 * The n8n API client of the scripts and the e2e suites (scripts/n8n/n8nApi.ts): every request on a connection of
 * its own (`connection: close`), so that no kept-alive connection can be closed by n8n just as it is reused; and
 * a request whose connection closed before any answer is never sent again, since n8n may have carried it out
 * (a workflow run, a credential): the error reaches the caller.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RestClient } from '../../scripts/n8n/n8nApi';

let server: http.Server;
let closeNext = 0;
let requests = 0;
let connections = 0;
const connectionHeaders: Array<string | undefined> = [];

beforeAll(async () => {
	server = http.createServer((req, res) => {
		requests++;
		connectionHeaders.push(req.headers.connection);
		if (closeNext > 0) {
			closeNext--;
			req.socket.destroy();
			return;
		}
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ data: { ok: true } }));
	});
	server.on('connection', () => connections++);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

const client = () => new RestClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'n8n-auth=x');

beforeEach(() => {
	requests = 0;
	connections = 0;
	closeNext = 0;
	connectionHeaders.length = 0;
});

test('every request asks for its own connection and gets one', async () => {
	const rest = client();
	await expect(rest.call('GET', '/settings')).resolves.toEqual({ ok: true });
	await expect(rest.call('POST', '/workflows', { name: 'w' })).resolves.toEqual({ ok: true });
	await expect(rest.call('GET', '/settings')).resolves.toEqual({ ok: true });
	expect(connectionHeaders).toEqual(['close', 'close', 'close']);
	expect(connections).toBe(3);
});

test.each(['POST', 'GET'])('a %s whose connection closed before the answer is not sent again: the caller gets the error', async (method) => {
	closeNext = 1;
	await expect(client().call(method, '/workflows/1/run', method === 'POST' ? {} : undefined)).rejects.toThrow(/fetch failed/);
	expect(requests).toBe(1);
});
