// @ts-nocheck
import * as http from 'node:http';
import type { RequestRecord } from './api';
import type { Auth } from './auth';
import { ApiError, apiError, errorObject } from './errors';
import type { Deviations } from './deviations';
import type { Fault, FaultInjector, RequestLog } from './faults';
import type { NetworkModel } from './network';
import type { Answer, RequestContext, Router } from './router';

const JSON_API = 'application/vnd.api+json';
const TOKEN_PATH = '/oauth/token';
const ADMIN_PREFIX = '/__sandbox';
const MAX_BODY = 20 * 1024 * 1024;

export interface ServerParts {
	api: Router;
	admin: Router;
	auth: Auth;
	faults: FaultInjector;
	log: RequestLog;
	/** Deviation modes (sandbox/src/deviations.ts), between the token check and the API routes. */
	deviations?: Deviations;
	/** The network and capacity model (sandbox/src/network.ts), in front of everything but the admin routes. */
	network?: NetworkModel;
}

/**
 * The HTTP front: admin routes, the request log, the network model, fault injection, the token endpoint, auth,
 * the API routes.
 */
export class HttpFront {
	private readonly timers = new Set<NodeJS.Timeout>();
	private closed = false;

	constructor(private readonly parts: ServerParts) {}

	listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
		this.handle(req, res).catch((error) => {
			if (!res.headersSent && !res.destroyed) {
				send(res, 500, { errors: [errorObject(500, 'internal-error', String(error))] }, JSON_API);
			}
		});
	};

	close(): void {
		this.closed = true;
		this.parts.deviations?.close();
		this.parts.network?.close();
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	private delay(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		const path = url.pathname;
		const baseUrl = `http://${req.headers.host ?? '127.0.0.1'}`;
		const authorization = req.headers.authorization;

		if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) {
			const body = await readBody(req);
			const ctx: RequestContext = { method, path, query: url.searchParams, params: {}, body, baseUrl, authorization };
			let answer: Answer;
			try {
				const match = this.parts.admin.match(method, path);
				answer = match
					? await match.handler({ ...ctx, params: match.params })
					: { status: 404, body: { error: `No admin route ${method} ${path}.` } };
			} catch (error) {
				answer =
					error instanceof ApiError
						? { status: error.status, body: error.body(), headers: error.headers }
						: { status: (error as { status?: number }).status ?? 400, body: { error: (error as Error).message } };
			}
			send(res, answer.status, answer.body, 'application/json', answer.headers);
			return;
		}

		const route = path === TOKEN_PATH ? TOKEN_PATH : this.parts.api.template(path);
		const record: RequestRecord = {
			method,
			path,
			route,
			query: Object.fromEntries(url.searchParams),
			status: 0,
			authorization,
			at: Date.now(),
		};
		const ticket = this.parts.network?.enter();
		if (!ticket) {
			const fault = this.parts.faults.pick(method, path, route);
			if (fault) record.fault = fault.kind;
			this.parts.log.push(record);
			try {
				await this.serve(req, res, url, record, fault);
			} finally {
				record.doneAt = Date.now();
			}
			return;
		}
		// The network model: a place in service (or 503 when the queue is full), the service time, then the
		// fault rules and the handler as without it, all while holding the place.
		this.parts.log.push(record);
		if (ticket.overloaded) {
			record.status = 503;
			record.overloaded = true;
			record.doneAt = record.at;
			const detail = 'The service is overloaded; retry later.';
			send(res, 503, { errors: [errorObject(503, 'unavailable', detail)] }, JSON_API, {
				'Retry-After': String(ticket.retryAfterSeconds),
			});
			return;
		}
		const place = await ticket.admitted;
		if (!place) {
			record.doneAt = Date.now();
			return;
		}
		const gone = () => req.destroyed || req.socket.destroyed;
		try {
			// A client that gave up while its request waited gets nothing; the place is free at once.
			if (gone()) return;
			record.latencyMs = place.latencyMs;
			if (place.latencyMs > 0) await this.delay(place.latencyMs);
			// Nor is a request carried out whose client left during its service time (its body can no longer
			// be read); the place is free after that time.
			if (this.closed || gone()) return;
			const fault = this.parts.faults.pick(method, path, route);
			if (fault) record.fault = fault.kind;
			await this.serve(req, res, url, record, fault);
		} finally {
			record.doneAt = Date.now();
			place.leave();
		}
	}

	/** One API or token request after its admission: its fault, its body, the token endpoint or auth and the routes. */
	private async serve(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		url: URL,
		record: RequestRecord,
		fault: Fault | undefined,
	): Promise<void> {
		const { method, path } = record;
		const baseUrl = `http://${req.headers.host ?? '127.0.0.1'}`;
		const authorization = req.headers.authorization;
		if (fault?.kind === 'drop-before-body') {
			req.socket.destroy();
			return;
		}
		const body = await readBody(req);
		if (fault && this.answerWithFault(fault, res, record)) return;
		if (fault?.kind === 'slow') await this.delay(fault.delayMs ?? 1000);
		if (this.closed) return;
		if (fault?.kind === 'expire-token') this.parts.auth.expire(authorization);

		let answer: Answer;
		let contentType = JSON_API;
		try {
			if (path === TOKEN_PATH) {
				contentType = 'application/json';
				if (method !== 'POST') {
					contentType = JSON_API;
					throw apiError(405, 'method-not-allowed', 'Use POST to get a token.', undefined, { Allow: 'POST' });
				}
				answer = this.parts.auth.token(body, req.headers['content-type'] ?? '', authorization);
			} else {
				contentType = this.parts.deviations?.mediaType() ?? JSON_API;
				const auth = () => this.parts.auth.check(authorization);
				const route = async (c: RequestContext): Promise<Answer> => {
					const match = this.parts.api.match(c.method, c.path);
					if (!match) throw apiError(404, 'entity-not-found', `No route matches ${c.method} ${c.path}.`);
					return match.handler({ ...c, params: match.params });
				};
				const ctx: RequestContext = { method, path, query: url.searchParams, params: {}, body, baseUrl, authorization };
				if (this.parts.deviations) answer = await this.parts.deviations.handle(ctx, req.headers['content-type'], { auth, route });
				else {
					auth();
					answer = await route(ctx);
				}
			}
		} catch (error) {
			if (error instanceof ApiError) {
				answer = { status: error.status, body: error.body(), headers: error.headers };
			} else {
				answer = { status: 500, body: { errors: [errorObject(500, 'internal-error', (error as Error).message)] } };
			}
		}
		record.status = answer.status;
		if (fault?.kind === 'drop-after-body') {
			record.status = 0;
			req.socket.destroy();
			return;
		}
		send(res, answer.status, answer.body, contentType, answer.headers);
	}

	/** Answers instead of the route for faults that are not carried out; true when answered. */
	private answerWithFault(fault: Fault, res: http.ServerResponse, record: RequestRecord): boolean {
		const retry: Record<string, string> =
			fault.retryAfterSeconds !== undefined && fault.retryAfterSeconds !== null ? { 'Retry-After': String(fault.retryAfterSeconds) } : {};
		const error = (status: number, code: 'rate-limited' | 'internal-error' | 'unavailable', detail: string, headers = {}) => {
			record.status = status;
			send(res, status, { errors: [errorObject(status, code, detail)] }, JSON_API, headers);
			return true;
		};
		switch (fault.kind) {
			case 'rate-limit':
				return error(429, 'rate-limited', 'Too many requests; retry later.', retry);
			case 'internal-error':
				return error(500, 'internal-error', 'The server met an internal error.');
			case 'bad-gateway':
				return error(502, 'unavailable', 'Bad gateway: the upstream service did not answer properly.');
			case 'unavailable':
				return error(503, 'unavailable', 'The service is unavailable; retry later.', retry);
			case 'malformed-json':
				record.status = 200;
				res.writeHead(200, { 'Content-Type': JSON_API });
				res.end('{"data": [{"id": "truncated", "type": ');
				return true;
			case 'wrong-content-type':
				record.status = 200;
				res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
				res.end('<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We will be back soon</h1></body></html>');
				return true;
			default:
				return false;
		}
	}
}

function send(res: http.ServerResponse, status: number, body: unknown, contentType: string, headers: Record<string, string> = {}): void {
	if (res.destroyed) return;
	if (status === 204 || body === undefined) {
		res.writeHead(status, headers);
		res.end();
		return;
	}
	const text = JSON.stringify(body);
	res.writeHead(status, { ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
	res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_BODY) chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
		req.on('aborted', () => resolve(''));
	});
}
