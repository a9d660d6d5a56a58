// @ts-nocheck
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

interface RecordedRequest {
	method: string;
	/** Path and query as the client sent them (before the prefix is stripped). */
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export interface RecordingProxy {
	/** e.g. http://127.0.0.1:40000/v2 when started with prefix '/v2'. */
	baseUrl: string;
	requests: RecordedRequest[];
	/** Connections that sent something other than HTTP, e.g. a TLS handshake. */
	clientErrors(): number;
	close(): Promise<void>;
}

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of the sandbox that records every request with its body
 * (the sandbox's own log has no bodies). With a prefix, it serves the API under that path, as a real
 * deployment behind a path prefix would, and answers 404 for paths outside it.
 */
export async function startRecordingProxy(
	targetBaseUrl: string,
	prefix = '',
	/** Paths (as sent) the proxy answers itself with a 302 to the given location, instead of passing them on. */
	redirects: Record<string, string> = {},
): Promise<RecordingProxy> {
	const target = new URL(targetBaseUrl);
	const requests: RecordedRequest[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const url = req.url ?? '/';
			requests.push({ method: req.method ?? '', url, headers: req.headers, body: body.toString('utf8') });
			if (redirects[url] !== undefined) {
				res.writeHead(302, { Location: redirects[url] });
				res.end();
				return;
			}
			if (prefix && url !== prefix && !url.startsWith(`${prefix}/`) && !url.startsWith(`${prefix}?`)) {
				res.writeHead(404, { 'Content-Type': 'text/plain' });
				res.end('outside the path prefix');
				return;
			}
			const path = prefix ? url.slice(prefix.length) || '/' : url;
			const upstream = http.request(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: path.startsWith('/') ? path : `/${path}`,
					headers: { ...req.headers, host: target.host },
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			upstream.on('error', () => {
				res.writeHead(502);
				res.end();
			});
			upstream.end(body);
		});
	});
	let clientErrors = 0;
	server.on('clientError', (_error, socket) => {
		clientErrors++;
		socket.destroy();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}${prefix}`,
		requests,
		clientErrors: () => clientErrors,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
