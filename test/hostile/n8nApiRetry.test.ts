/**
 * The n8n API client of the scripts and the e2e suites (scripts/n8n/n8nApi.ts) against a server that closes a
 * connection without answering, as a long-lived n8n does when a kept-alive connection is reused just as it
 * closes it: the request is sent once more on a new connection; a second close is the caller's error.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RestClient } from '../../scripts/n8n/n8nApi';

let server: http.Server;
let closeNext = 0;
let requests = 0;

beforeAll(async () => {
	server = http.createServer((req, res) => {
		requests++;
		if (closeNext > 0) {
			closeNext--;
			req.socket.destroy();
			return;
		}
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ data: { ok: true } }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

const client = () => new RestClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'n8n-auth=x');

beforeEach(() => {
	requests = 0;
});

test('a connection closed before the answer: sent again once, and the answer is returned', async () => {
	closeNext = 1;
	await expect(client().call('GET', '/settings')).resolves.toEqual({ ok: true });
	expect(requests).toBe(2);
});

test('closed twice: the error reaches the caller after two tries', async () => {
	closeNext = 2;
	await expect(client().call('GET', '/settings')).rejects.toThrow(/fetch failed/);
	expect(requests).toBe(2);
	closeNext = 0;
});
