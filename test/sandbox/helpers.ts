/**
 * Shared helpers of the sandbox conformance suite: one sandbox per test file, a small JSON:API client over
 * real HTTP (axios, keep-alive), error assertions, job polling and on-disk checks.
 */
import axios, { type AxiosInstance, type AxiosResponse, type Method } from 'axios';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import * as path from 'node:path';
import { startSandbox } from '../../sandbox/src';
import type { Sandbox, SandboxOptions } from '../../sandbox/src/api';
import type {
	ErrorCode,
	JobCreateAttributes,
	JobStatus,
	StorageType,
} from '../../nodes/shared/api/types';

export const JSONAPI = 'application/vnd.api+json';
const NOT_FOUND_TITLE = 'Entity Not Found';
const NOT_FOUND_DETAIL = 'The requested entity was not found.';

// Response bodies are checked field by field in the tests; `any` keeps those checks short.
export type Res = AxiosResponse<any>;

export interface RequestOptions {
	query?: Record<string, string | number | boolean>;
	body?: unknown;
	/** Sent as is (for bad JSON). */
	rawBody?: string;
	contentType?: string;
	headers?: Record<string, string>;
	/** Bearer token to send; null sends no Authorization header; default: the client's own token. */
	token?: string | null;
	timeoutMs?: number;
	responseType?: 'json' | 'text';
}

/** Builds a query string; keys and values are percent-encoded (brackets included). */
function queryString(query: Record<string, string | number | boolean> | undefined): string {
	if (!query) return '';
	const parts = Object.entries(query).map(
		([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`,
	);
	return parts.length ? `?${parts.join('&')}` : '';
}

/** A JSON:API client for the sandbox, over one keep-alive agent. */
export class Api {
	readonly agent = new Agent({ keepAlive: true });
	readonly http: AxiosInstance;
	token = '';

	constructor(readonly baseUrl: string) {
		this.http = axios.create({
			httpAgent: this.agent,
			validateStatus: () => true,
			maxRedirects: 0,
			proxy: false,
		});
	}

	/** Raw request; `url` is a path (joined to baseUrl) or an absolute URL. */
	async request(method: Method, url: string, opts: RequestOptions = {}): Promise<Res> {
		const headers: Record<string, string> = { Accept: JSONAPI, ...(opts.headers ?? {}) };
		const token = opts.token === undefined ? this.token : opts.token;
		if (token !== null && headers.Authorization === undefined) headers.Authorization = `Bearer ${token}`;
		let data: string | undefined;
		if (opts.rawBody !== undefined) data = opts.rawBody;
		else if (opts.body !== undefined) data = JSON.stringify(opts.body);
		if (data !== undefined) headers['Content-Type'] = opts.contentType ?? JSONAPI;
		const full = (url.startsWith('http') ? url : this.baseUrl + url) + queryString(opts.query);
		return this.http.request({
			method,
			url: full,
			headers,
			data,
			timeout: opts.timeoutMs ?? 5000,
			responseType: opts.responseType === 'text' ? 'text' : 'json',
			transformResponse: opts.responseType === 'text' ? [(d: unknown) => d] : undefined,
		});
	}

	get(url: string, query?: RequestOptions['query'], opts: RequestOptions = {}): Promise<Res> {
		return this.request('GET', url, { ...opts, query });
	}

	post(url: string, body: unknown, opts: RequestOptions = {}): Promise<Res> {
		return this.request('POST', url, { ...opts, body });
	}

	patch(url: string, body: unknown, opts: RequestOptions = {}): Promise<Res> {
		return this.request('PATCH', url, { ...opts, body });
	}

	delete(url: string, opts: RequestOptions = {}): Promise<Res> {
		return this.request('DELETE', url, opts);
	}

	/** POST /oauth/token with a form body. */
	tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}): Promise<Res> {
		return this.http.request({
			method: 'POST',
			url: `${this.baseUrl}/oauth/token`,
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
			data: new URLSearchParams(form).toString(),
			timeout: 20000,
		});
	}

	/** Fetches a token with the client credentials and returns it (does not store it). */
	async fetchToken(clientId: string, clientSecret: string): Promise<string> {
		const res = await this.tokenRequest({
			grant_type: 'client_credentials',
			client_id: clientId,
			client_secret: clientSecret,
		});
		if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.data)}`);
		return res.data.access_token as string;
	}

	close(): void {
		this.agent.destroy();
	}
}

export interface Harness {
	sb: Sandbox;
	api: Api;
	/** Fetches a fresh token and makes it the client's token. */
	relogin(): Promise<void>;
}

/** Starts one sandbox for the calling test file (beforeAll) and closes it (afterAll). */
export function useSandbox(options: SandboxOptions = {}): Harness {
	const h = {} as Harness;
	h.relogin = async () => {
		h.api.token = await h.api.fetchToken(h.sb.clientId, h.sb.clientSecret);
	};
	beforeAll(async () => {
		h.sb = await startSandbox({ port: 0, speed: 1000, ...options });
		h.api = new Api(h.sb.baseUrl);
		await h.relogin();
	});
	afterAll(async () => {
		h.api?.close();
		await h.sb?.close();
	});
	return h;
}

let counter = 0;
/** A name unique within this process. */
export function uniq(prefix = 't'): string {
	counter += 1;
	return `${prefix}-${counter}-${randomUUID().slice(0, 8)}`;
}

/** Asserts a JSON:API error response: HTTP status, one error with `code`, non-empty title/detail, pointer. */
export function expectError(res: Res, status: number, code: ErrorCode, pointer?: string): void {
	const errors: Array<Record<string, unknown>> | undefined = Array.isArray(res.data?.errors)
		? res.data.errors
		: undefined;
	expect({ httpStatus: res.status, codes: errors?.map((e) => e.code) }).toEqual({
		httpStatus: status,
		codes: expect.arrayContaining([code]),
	});
	expect(String(res.headers['content-type'])).toMatch(/^application\/vnd\.api\+json/);
	const err = errors!.find((e) => e.code === code)!;
	expect(err.status).toBe(String(status));
	expect(typeof err.title).toBe('string');
	expect((err.title as string).length).toBeGreaterThan(0);
	expect(typeof err.detail).toBe('string');
	expect((err.detail as string).length).toBeGreaterThan(0);
	if (pointer !== undefined) {
		expect(errors!.map((e) => (e.source as { pointer?: string } | undefined)?.pointer)).toContain(pointer);
	}
}

/** Asserts the 401 of the contract: WWW-Authenticate invalid_token and JSON:API code `unauthorized`. */
export function expectUnauthorized(res: Res): void {
	expectError(res, 401, 'unauthorized');
	expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer\b.*error="invalid_token"/);
}

/** Asserts the 404 of the API description, with its exact title and detail. */
export function expectNotFound(res: Res): void {
	expectError(res, 404, 'entity-not-found');
	const err = res.data.errors.find((e: { code: string }) => e.code === 'entity-not-found');
	expect({ title: err.title, detail: err.detail }).toEqual({ title: NOT_FOUND_TITLE, detail: NOT_FOUND_DETAIL });
}

/** Asserts a JSON:API resource object of the given type. */
export function expectResource(resource: unknown, type: string): void {
	expect(resource).toEqual(
		expect.objectContaining({ type, id: expect.any(String), attributes: expect.any(Object) }),
	);
}

export function expectJsonApi(res: Res, status: number): void {
	expect({ status: res.status, body: res.status === status ? undefined : res.data }).toEqual({
		status,
		body: undefined,
	});
	expect(String(res.headers['content-type'])).toMatch(/^application\/vnd\.api\+json/);
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Full stats object with nulls and zeros, for control.insertJobs. */
export { emptyStats } from '../../sandbox/src/util';

export type JobInput = Omit<Partial<JobCreateAttributes>, 'source' | 'target'> & {
	source?: Partial<JobCreateAttributes['source']> & Record<string, unknown>;
	target?: Partial<JobCreateAttributes['target']> & Record<string, unknown>;
	[extra: string]: unknown;
};

/** The body of POST /jobs. */
export function jobBody(attributes: Record<string, unknown>): unknown {
	return { data: { type: 'jobs', attributes } };
}

/** Storage type of a storage, as the sandbox holds it. */
function storageType(h: Harness, storageId: string): StorageType {
	const s = h.sb.state.storages().find((x) => x.id === storageId);
	if (!s) throw new Error(`no storage ${storageId}`);
	return s.attributes.type;
}

/** POST /jobs; fills source.type from the storage when left out, conflictHandling 'skip' for copy/move. */
export async function createJob(h: Harness, attrs: JobInput): Promise<Res> {
	const a: Record<string, unknown> = { transferType: 'copy', ...attrs };
	const source = { ...(attrs.source ?? {}) } as Record<string, unknown>;
	if (source.type === undefined && typeof source.id === 'string') source.type = storageType(h, source.id);
	a.source = source;
	if (!('conflictHandling' in attrs) && a.transferType !== 'sync') a.conflictHandling = 'skip';
	return h.api.post('/jobs', jobBody(a));
}

/** POST /jobs and expect 201; returns the job id. */
export async function createJobOk(h: Harness, attrs: JobInput): Promise<string> {
	const res = await createJob(h, attrs);
	if (res.status !== 201) throw new Error(`job create: ${res.status} ${JSON.stringify(res.data)}`);
	return res.data.data.id as string;
}

export async function getJob(h: Harness, id: string): Promise<Res> {
	return h.api.get(`/jobs/${id}`);
}

export function setStatus(h: Harness, id: string, status: string, extra: Record<string, unknown> = {}): Promise<Res> {
	return h.api.patch(`/jobs/${id}`, { data: { id, type: 'jobs', attributes: { status, ...extra } } });
}

const FINAL = ['finished', 'failed', 'canceled'];

/**
 * Polls GET /jobs/{id} until `until(status)` holds; returns the job and every distinct status seen, in order.
 * Fails after a generous deadline.
 */
export async function pollJob(
	h: Harness,
	id: string,
	until: (status: JobStatus) => boolean,
	timeoutMs = 30000,
): Promise<{ job: Res['data']['data']; seen: JobStatus[] }> {
	const seen: JobStatus[] = [];
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await getJob(h, id);
		if (res.status !== 200) throw new Error(`GET /jobs/${id}: ${res.status} ${JSON.stringify(res.data)}`);
		const status = res.data.data.attributes.status as JobStatus;
		if (seen[seen.length - 1] !== status) seen.push(status);
		if (until(status)) return { job: res.data.data, seen };
		if (Date.now() > deadline) throw new Error(`job ${id}: waited for a status; saw ${seen.join(' -> ')}`);
		await sleep(10);
	}
}

/** Polls until the job is final (finished, failed, canceled). */
export function waitFinal(h: Harness, id: string, timeoutMs = 30000) {
	return pollJob(h, id, (s) => FINAL.includes(s), timeoutMs);
}

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** Polls `fn` until it returns a truthy value; fails after the deadline. */
export async function eventually<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 20000): Promise<NonNullable<T>> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const v = await fn();
		if (v) return v as NonNullable<T>;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(10);
	}
}

export function md5(content: string | Buffer): string {
	return createHash('md5').update(content).digest('hex');
}

/** Files (not folders) under `dir`, as sorted '/'-separated paths relative to it; [] when missing. */
export function listFiles(dir: string): string[] {
	const out: string[] = [];
	const walk = (d: string, rel: string) => {
		if (!existsSync(d)) return;
		for (const e of readdirSync(d, { withFileTypes: true })) {
			const r = rel ? `${rel}/${e.name}` : e.name;
			if (e.isDirectory()) walk(path.join(d, e.name), r);
			else out.push(r);
		}
	};
	walk(dir, '');
	return out.sort();
}

/** Absolute disk path of a path inside a storage. */
export function diskPath(h: Harness, storageId: string, storagePath: string): string {
	return path.join(h.sb.state.storageDir(storageId), ...storagePath.split('/').filter(Boolean));
}

/** `{relative path: md5}` of every file under a storage folder. */
export function md5Tree(h: Harness, storageId: string, folder: string): Record<string, string> {
	const dir = diskPath(h, storageId, folder);
	const out: Record<string, string> = {};
	for (const f of listFiles(dir)) out[f] = md5(readFileSync(path.join(dir, ...f.split('/'))));
	return out;
}

/** Reads every page of a list by following `meta.page.after`. */
export async function readAll(h: Harness, url: string, query: Record<string, string> = {}): Promise<Res['data'][]> {
	const all: Res['data'][] = [];
	let after: string | null = null;
	for (let i = 0; i < 1000; i++) {
		const q: Record<string, string> = { ...query, 'page[limit]': '100' };
		if (after) q['page[after]'] = after;
		const res = await h.api.get(url, q);
		if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.data)}`);
		all.push(...res.data.data);
		after = res.data.meta.page.after;
		if (!after) return all;
	}
	throw new Error('too many pages');
}

export interface RouteIds {
	accountId: string;
	groupId: string;
	userId: string;
	jobId: string;
	storageId: string;
}

export interface RouteCase {
	name: string;
	method: Method;
	path: string;
	body?: unknown;
}

/** Every route of the contract's route table, with a valid body for writes. */
export function routeTable(ids: RouteIds, sourceStorage: { id: string; type: string }, targetId: string): RouteCase[] {
	return [
		{ name: 'API version', method: 'GET', path: '/' },
		{ name: 'accounts list', method: 'GET', path: '/accounts' },
		{ name: 'accounts show', method: 'GET', path: `/accounts/${ids.accountId}` },
		{ name: 'groups list', method: 'GET', path: '/groups' },
		{
			name: 'groups create',
			method: 'POST',
			path: '/groups',
			body: { data: { type: 'groups', attributes: { accountId: ids.accountId, name: 'g' } } },
		},
		{ name: 'groups show', method: 'GET', path: `/groups/${ids.groupId}` },
		{
			name: 'groups update',
			method: 'PATCH',
			path: `/groups/${ids.groupId}`,
			body: { data: { id: ids.groupId, type: 'groups', attributes: { name: 'renamed' } } },
		},
		{ name: 'groups delete', method: 'DELETE', path: `/groups/${ids.groupId}` },
		{ name: 'users list', method: 'GET', path: '/users' },
		{
			name: 'users create',
			method: 'POST',
			path: '/users',
			body: {
				data: {
					type: 'users',
					attributes: { accountId: ids.accountId, email: `${uniq('u')}@example.com`, firstName: 'A', lastName: 'B' },
				},
			},
		},
		{ name: 'users show', method: 'GET', path: `/users/${ids.userId}` },
		{
			name: 'users update',
			method: 'PATCH',
			path: `/users/${ids.userId}`,
			body: { data: { id: ids.userId, type: 'users', attributes: { firstName: 'Z' } } },
		},
		{ name: 'users delete', method: 'DELETE', path: `/users/${ids.userId}` },
		{ name: 'jobs list', method: 'GET', path: '/jobs' },
		{
			name: 'jobs create',
			method: 'POST',
			path: '/jobs',
			body: jobBody({
				transferType: 'copy',
				conflictHandling: 'skip',
				dryRun: true,
				source: { id: sourceStorage.id, type: sourceStorage.type, path: null },
				target: { id: targetId, path: '/auth-check' },
			}),
		},
		{ name: 'jobs show', method: 'GET', path: `/jobs/${ids.jobId}` },
		{
			name: 'jobs update status',
			method: 'PATCH',
			path: `/jobs/${ids.jobId}`,
			body: { data: { id: ids.jobId, type: 'jobs', attributes: { status: 'canceled' } } },
		},
		{ name: 'job-transfers of a job', method: 'GET', path: `/jobs/${ids.jobId}/transfers` },
		{ name: 'job-errors of a job', method: 'GET', path: `/jobs/${ids.jobId}/errors` },
		{ name: 'storages list', method: 'GET', path: '/storages' },
		{ name: 'storages show', method: 'GET', path: `/storages/${ids.storageId}` },
	];
}
