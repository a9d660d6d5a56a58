// @ts-nocheck
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingServer {
	/** http://127.0.0.1:<port> */
	baseUrl: string;
	port: number;
	/** TCP connections opened to it, whatever came over them (a TLS handshake to this plain server too). */
	connections(): number;
	/** HTTP requests it read, with their Authorization header. */
	requests: Array<{ method: string; url: string; authorization?: string }>;
	close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 that stands for "another origin": it answers 200 to anything, and records every
 * connection and request, so a test can show that nothing at all reached it.
 */
export async function startRecordingServer(): Promise<RecordingServer> {
	let connections = 0;
	const requests: RecordingServer['requests'] = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
		req.resume();
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end('{"reached":true}');
	});
	server.on('connection', () => {
		connections++;
	});
	// A TLS handshake to this plain server is not HTTP: answer nothing, but it still counts as a connection.
	server.on('clientError', (_error, socket) => socket.destroy());
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		port,
		connections: () => connections,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
