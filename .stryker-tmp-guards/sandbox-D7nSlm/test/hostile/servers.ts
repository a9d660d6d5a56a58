/**
 * Hostile servers for the hostile suite: plain node:http servers on 127.0.0.1 (the "service", in front of
 * the sandbox) and 127.0.0.2 (the "other host"), each recording every request it receives. A route
 * handler can answer anything: a redirect, an endless body, a lie. Whatever no handler takes is passed on
 * to the sandbox unchanged, so each test only writes the one misbehaviour it is about.
 *
 * Every server drops its sockets on close, and every endless answer stops when its client goes away or
 * after a bound of its own, so no test can hang on a server.
 */
// @ts-nocheck

import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Recorded {
	/** Which server received it: 'service' or 'other'. */
	server: string;
	origin: string;
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	at: number;
}

/** Everything any hostile server received in this test file (for the secret search). */
export const traffic: Recorded[] = [];

type Handler = (
	req: http.IncomingMessage,
	res: http.ServerResponse,
	body: string,
) => void | 'pass' | Promise<void | 'pass'>;

interface Route {
	method: string;
	path: string | RegExp;
	handler: Handler;
	/** How many more requests it takes (Infinity: all). */
	times: number;
}

export interface HostileServer {
	name: string;
	/** e.g. http://127.0.0.1:41234 */
	origin: string;
	requests: Recorded[];
	/** Answers matching requests with `handler` (first registered wins); `times` limits how often. */
	on(method: string, path: string | RegExp, handler: Handler, times?: number): void;
	/** Removes all routes and recorded requests. */
	reset(): void;
	close(): Promise<void>;
}

function matches(route: Route, method: string, pathname: string): boolean {
	if (route.method !== '*' && route.method !== method) return false;
	return typeof route.path === 'string' ? route.path === pathname : route.path.test(pathname);
}

/**
 * Starts a recording server on `host`. With `upstream` (the sandbox's base URL), requests that no route
 * takes are forwarded there; without, they get a JSON:API 404.
 */
export async function startHostile(name: string, host: string, upstream?: string): Promise<HostileServer> {
	const routes: Route[] = [];
	const requests: Recorded[] = [];
	const sockets = new Set<Socket>();
	const target = upstream ? new URL(upstream) : undefined;
	let origin = '';

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= 1_000_000) chunks.push(chunk);
		});
		req.on('end', () => {
			void (async () => {
				const body = Buffer.concat(chunks).toString('utf8');
				const url = req.url ?? '/';
				const record: Recorded = {
					server: name,
					origin,
					method: req.method ?? '',
					url,
					headers: req.headers,
					body,
					at: Date.now(),
				};
				requests.push(record);
				traffic.push(record);
				const pathname = new URL(url, 'http://x').pathname;
				const route = routes.find((r) => r.times > 0 && matches(r, record.method, pathname));
				if (route) {
					route.times -= 1;
					const outcome = await route.handler(req, res, body);
					if (outcome !== 'pass') return;
				}
				if (!target) {
					res.writeHead(404, { 'Content-Type': 'application/vnd.api+json' });
					res.end(JSON.stringify({ errors: [{ status: '404', code: 'route-not-found', title: 'Not found' }] }));
					return;
				}
				const upstreamRequest = http.request(
					{
						host: target.hostname,
						port: target.port,
						method: req.method,
						path: url,
						headers: { ...req.headers, host: target.host },
					},
					(answer) => {
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(res);
					},
				);
				upstreamRequest.on('error', () => {
					if (!res.headersSent) res.writeHead(502);
					res.end();
				});
				upstreamRequest.end(Buffer.concat(chunks));
			})().catch(() => {
				if (!res.headersSent) res.writeHead(500);
				res.end();
			});
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.keepAliveTimeout = 60_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, host, resolve);
	});
	const { port } = server.address() as AddressInfo;
	origin = `http://${host}:${port}`;
	return {
		name,
		origin,
		requests,
		on(method, path, handler, times = Infinity) {
			routes.push({ method: method.toUpperCase(), path, handler, times });
		},
		reset() {
			routes.length = 0;
			requests.length = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** A JSON:API answer. */
export function json(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'Content-Type': 'application/vnd.api+json', 'Content-Length': Buffer.byteLength(text), ...headers });
	res.end(text);
}

/** A JSON:API error document. */
export function apiError(res: http.ServerResponse, status: number, code: string, title: string, detail?: string) {
	json(res, status, { errors: [{ status: String(status), code, title, ...(detail === undefined ? {} : { detail }) }] });
}

/**
 * Writes `chunk` every `everyMs` until the client goes away or `maxMs` has passed (the bound that keeps a
 * broken test from running forever); headers first, chunked, never a proper end unless the bound hits.
 */
export function drip(res: http.ServerResponse, chunk: string | Buffer, everyMs: number, maxMs = 30_000): void {
	res.writeHead(200, { 'Content-Type': 'application/vnd.api+json' });
	const started = Date.now();
	const timer = setInterval(() => {
		if (res.destroyed || res.writableEnded || Date.now() - started > maxMs) {
			clearInterval(timer);
			if (!res.writableEnded) res.end();
			return;
		}
		res.write(chunk);
	}, everyMs);
	res.on('close', () => clearInterval(timer));
}

/** The traffic that reached `server`, as one text, for searching secrets. */
export function trafficText(records: Recorded[]): string {
	return records
		.map((r) => `${r.method} ${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`)
		.join('\n');
}
