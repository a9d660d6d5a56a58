/**
 * Deviation modes: the sandbox plays a plausible real server that departs from docs/api-contract.md in one
 * named way per mode (modes combine). The layer sits between the auth check and the API routes: it rewrites
 * the request (query, path, body checks) and the answer (meta, links, attributes, status) and leaves the
 * store, the engine and the handlers alone. With no mode set it passes every request through untouched.
 */
import {
	CONFLICT_HANDLINGS,
	PAGE_LIMIT_DEFAULT,
	PAGE_LIMIT_MAX,
	type ApiErrorObject,
	type Job,
	type JobStatus,
} from '../../nodes/shared/api/types';
import type { Engine } from './engine';
import { ApiError, apiError, errorObject, methodNotAllowed } from './errors';
import { TIMING } from './pricing';
import type { Answer, RequestContext, Router } from './router';
import type { Store } from './store';
import { isObject } from './util';

/** Every mode; `<…>` marks a mode's parameter. */
export const DEVIATION_MODES = [
	'ignore-sort',
	'ignore-filters',
	'ignore-filter:<field>',
	'reject-unknown-filters',
	'cursor-name',
	'links-only',
	'max-page:<n>',
	'json-only',
	'sync-needs-conflict',
	'extra-status[:<name>]',
	'extra-attributes',
	'no-total',
	'other-routes',
	'moved-subroutes',
	'no-deployment-id',
	'root-shape',
	'delete-200',
	'auth-403',
] as const;

/** Filters a server in `reject-unknown-filters` knows; every other `filter[...]` gets 400 invalid-filter. */
export const KNOWN_FILTERS: Record<string, readonly string[]> = {
	accounts: ['name'],
	groups: ['accountId', 'name'],
	users: ['accountId', 'deploymentId', 'email'],
	jobs: ['status', 'name', 'dryRun'],
	storages: ['type', 'enabled'],
};

/** Extra job status of `extra-status` when no name is given. */
const DEFAULT_EXTRA_STATUS = 'analyzing';
/** How long a job stays in the extra status, in ms at speed 1 (divided by the speed like every stage). */
const EXTRA_STATUS_MS = 2 * TIMING.stageMs;
/** Attributes `extra-attributes` adds to every resource. */
const EXTRA_ATTRIBUTES = { 'x-region': 'eu-central-1', labels: { env: 'sandbox' } } as const;
/** Version `root-shape` reports under meta.version. */
export const ROOT_SHAPE_VERSION = '2024-06-01';

interface Modes {
	ignoreSort: boolean;
	ignoreFilters: boolean;
	ignoredFilters: Set<string>;
	rejectUnknownFilters: boolean;
	cursorName: boolean;
	linksOnly: boolean;
	maxPage: number | null;
	jsonOnly: boolean;
	syncNeedsConflict: boolean;
	extraStatus: string | null;
	extraAttributes: boolean;
	noTotal: boolean;
	otherRoutes: boolean;
	movedSubroutes: boolean;
	noDeploymentId: boolean;
	rootShape: boolean;
	delete200: boolean;
	auth403: boolean;
}

const emptyModes = (): Modes => ({
	ignoreSort: false,
	ignoreFilters: false,
	ignoredFilters: new Set(),
	rejectUnknownFilters: false,
	cursorName: false,
	linksOnly: false,
	maxPage: null,
	jsonOnly: false,
	syncNeedsConflict: false,
	extraStatus: null,
	extraAttributes: false,
	noTotal: false,
	otherRoutes: false,
	movedSubroutes: false,
	noDeploymentId: false,
	rootShape: false,
	delete200: false,
	auth403: false,
});

/**
 * Reads a list of modes; each entry may itself be a comma-separated list (as `--deviate a,b` gives it).
 * Returns the normalised list (trimmed, duplicates dropped) and what it switches on; throws on an unknown
 * or malformed mode.
 */
export function parseDeviations(input: readonly string[] | string): { list: string[]; modes: Modes } {
	const items = (typeof input === 'string' ? [input] : input)
		.flatMap((entry) => String(entry).split(','))
		.map((s) => s.trim())
		.filter(Boolean);
	const list: string[] = [];
	const m = emptyModes();
	for (const item of items) {
		if (list.includes(item)) continue;
		const colon = item.indexOf(':');
		const name = colon < 0 ? item : item.slice(0, colon);
		const arg = colon < 0 ? undefined : item.slice(colon + 1);
		const noArg = () => {
			if (arg !== undefined) throw new Error(`The deviation "${name}" takes no parameter (got "${item}").`);
		};
		switch (name) {
			case 'ignore-sort':
				noArg();
				m.ignoreSort = true;
				break;
			case 'ignore-filters':
				noArg();
				m.ignoreFilters = true;
				break;
			case 'ignore-filter':
				if (!arg || !/^[A-Za-z0-9_.-]+$/.test(arg)) throw new Error(`"${item}": name the filter field, e.g. ignore-filter:status.`);
				m.ignoredFilters.add(arg);
				break;
			case 'reject-unknown-filters':
				noArg();
				m.rejectUnknownFilters = true;
				break;
			case 'cursor-name':
				noArg();
				m.cursorName = true;
				break;
			case 'links-only':
				noArg();
				m.linksOnly = true;
				break;
			case 'max-page': {
				const n = Number(arg);
				if (!arg || !/^\d+$/.test(arg) || n < 1 || n > PAGE_LIMIT_MAX) {
					throw new Error(`"${item}": the maximum page size must be an integer from 1 to ${PAGE_LIMIT_MAX}, e.g. max-page:50.`);
				}
				if (m.maxPage !== null && m.maxPage !== n) throw new Error(`max-page is given twice (${m.maxPage} and ${n}).`);
				m.maxPage = n;
				break;
			}
			case 'json-only':
				noArg();
				m.jsonOnly = true;
				break;
			case 'sync-needs-conflict':
				noArg();
				m.syncNeedsConflict = true;
				break;
			case 'extra-status': {
				const status = arg ?? DEFAULT_EXTRA_STATUS;
				if (!/^[a-z][a-z0-9-]*$/.test(status)) throw new Error(`"${item}": the extra status must be a lower-case word, e.g. extra-status:analyzing.`);
				if (m.extraStatus !== null && m.extraStatus !== status) throw new Error(`extra-status is given twice (${m.extraStatus} and ${status}).`);
				m.extraStatus = status;
				break;
			}
			case 'extra-attributes':
				noArg();
				m.extraAttributes = true;
				break;
			case 'no-total':
				noArg();
				m.noTotal = true;
				break;
			case 'other-routes':
				noArg();
				m.otherRoutes = true;
				break;
			case 'moved-subroutes':
				noArg();
				m.movedSubroutes = true;
				break;
			case 'no-deployment-id':
				noArg();
				m.noDeploymentId = true;
				break;
			case 'root-shape':
				noArg();
				m.rootShape = true;
				break;
			case 'delete-200':
				noArg();
				m.delete200 = true;
				break;
			case 'auth-403':
				noArg();
				m.auth403 = true;
				break;
			default:
				throw new Error(`Unknown deviation "${item}"; known: ${DEVIATION_MODES.join(', ')}.`);
		}
		list.push(item);
	}
	return { list, modes: m };
}

const JSON_API = 'application/vnd.api+json';
const PLAIN_JSON = 'application/json';
const COLLECTION = /^\/(accounts|groups|users|jobs|storages)$/;
const SUB_LIST = /^\/jobs\/([^/]+)\/(transfers|errors)$/;
const OTHER_SUB_LIST = /^\/job-(transfers|errors)$/;

/** An error object whose code the project's types do not know (the deviating server's own codes). */
function foreignError(status: number, code: string, title: string, detail: string, headers: Record<string, string> = {}): ApiError {
	const error = { status: String(status), code, title, detail } as unknown as ApiErrorObject;
	return new ApiError(status, [error], headers);
}

/** Absolute URL of the next page: the client's own path and query with the cursor parameter replaced. */
function nextUrl(baseUrl: string, path: string, query: URLSearchParams, cursorParam: string, cursor: string): string {
	const parts: string[] = [];
	const enc = (s: string) => encodeURIComponent(s).replace(/%5B/gi, '[').replace(/%5D/gi, ']');
	for (const [k, v] of query) {
		if (k === 'page[after]' || k === 'page[cursor]') continue;
		parts.push(`${enc(k)}=${enc(v)}`);
	}
	parts.push(`${enc(cursorParam)}=${enc(cursor)}`);
	return `${baseUrl}${path}?${parts.join('&')}`;
}

/** What the layer calls: the token check and the contract's routes. */
export interface DeviationTarget {
	auth(): void;
	route(ctx: RequestContext): Promise<Answer>;
}

/** The deviations of one running sandbox; changeable at run time. */
export class Deviations {
	private current: { list: string[]; modes: Modes } = { list: [], modes: emptyModes() };
	/** Last status seen per job, to spot scanning -> running (extra-status). */
	private readonly lastStatus = new Map<string, string>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private closed = false;

	constructor(
		private readonly store: Store,
		private readonly engine: Engine,
		private readonly speed: number,
		initial: readonly string[] = [],
	) {
		this.set(initial);
		store.onJobChange((job) => this.jobChanged(job));
	}

	/** Replaces the active modes; throws (and keeps the old ones) on an unknown mode. Returns the new list. */
	set(list: readonly string[] | string): string[] {
		this.current = parseDeviations(list);
		return this.list();
	}

	/** Adds modes to the active ones. */
	add(list: readonly string[] | string): string[] {
		const more = typeof list === 'string' ? [list] : [...list];
		return this.set([...this.current.list, ...more]);
	}

	list(): string[] {
		return [...this.current.list];
	}

	clear(): void {
		this.set([]);
	}

	close(): void {
		this.closed = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	/** Content-Type of the API's answers (not the token endpoint's). */
	mediaType(): string {
		return this.current.modes.jsonOnly ? PLAIN_JSON : JSON_API;
	}

	/**
	 * Handles one API request (everything but /oauth/token and /__sandbox): `api.auth` checks the token (it
	 * throws the contract's 401), `api.route` routes the (possibly rewritten) request to the contract's handlers.
	 */
	async handle(ctx: RequestContext, contentType: string | undefined, api: DeviationTarget): Promise<Answer> {
		const { list, modes: m } = this.current;
		const next = api.route;
		if (list.length === 0) {
			api.auth();
			const answer = await next(ctx);
			this.noteCreatedJob(ctx, answer);
			return answer;
		}
		const { method } = ctx;
		const clientPath = ctx.path;
		const clientQuery = ctx.query;
		let path = ctx.path;
		let query = ctx.query;
		let body = ctx.body;
		let otherSubList = false;
		let syncConflict: string | undefined;

		const run = async (): Promise<Answer> => {
			// The token is checked first, as on the contract's server.
			api.auth();
			if (m.jsonOnly && ['POST', 'PATCH', 'PUT'].includes(method) && body.trim() !== '') {
				const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
				if (type !== PLAIN_JSON) {
					throw foreignError(
						415,
						'unsupported-media-type',
						'Unsupported Media Type',
						`Content-Type "${type || '(none)'}" is not supported; send the request body as application/json.`,
					);
				}
			}
			if (m.otherRoutes || m.movedSubroutes) {
				if (SUB_LIST.test(path)) {
					// other-routes says so in a code of its own; moved-subroutes answers as the contract's server
					// answers a path it does not know: 404 entity-not-found, as for an unknown job.
					if (m.otherRoutes) throw foreignError(404, 'route-not-found', 'Route Not Found', `No route matches ${method} ${path}.`);
					throw apiError(404, 'entity-not-found', `No route matches ${method} ${path}.`);
				}
				const other = OTHER_SUB_LIST.exec(path);
				if (other) {
					if (method !== 'GET') throw methodNotAllowed(method, ['GET']);
					const jobId = query.get('filter[job.id]');
					if (!jobId) throw apiError(400, 'invalid-filter', `filter[job.id] is required on /job-${other[1]}.`);
					query = new URLSearchParams(query);
					query.delete('filter[job.id]');
					path = `/jobs/${encodeURIComponent(jobId)}/${other[1]}`;
					otherSubList = true;
				}
			}
			const isList = method === 'GET' && (COLLECTION.test(path) || SUB_LIST.test(path));
			if (isList) query = this.rewriteQuery(m, path, query);
			if (m.syncNeedsConflict && method === 'POST' && path === '/jobs') {
				({ body, conflictHandling: syncConflict } = this.syncConflict(body));
			}
			let answer: Answer;
			try {
				answer = await next({ ...ctx, path, query, body });
			} catch (error) {
				if (otherSubList && error instanceof ApiError && error.status === 404) {
					// A filter on an unknown job matches nothing.
					answer = { status: 200, body: { data: [], meta: { page: { after: null, total: 0 } }, links: { next: null } } };
				} else throw error;
			}
			this.noteCreatedJob({ ...ctx, path }, answer);
			if (syncConflict !== undefined && answer.status === 201) this.applySyncConflict(answer, syncConflict);
			if (isList) answer = this.rewriteList(m, answer, ctx.baseUrl, clientPath, clientQuery);
			if (m.rootShape && method === 'GET' && path === '/' && answer.status === 200) {
				answer = { ...answer, body: { jsonapi: { version: '1.0' }, meta: { version: ROOT_SHAPE_VERSION } } };
			}
			if (m.delete200 && method === 'DELETE' && answer.status === 204) {
				answer = { ...answer, status: 200, body: { meta: { deleted: true } } };
			}
			if ((m.extraAttributes || m.noDeploymentId) && isObject(answer.body) && 'data' in answer.body) {
				answer = { ...answer, body: this.decorate(m, answer.body) };
			}
			return answer;
		};

		try {
			return await run();
		} catch (error) {
			if (!(error instanceof ApiError)) throw error;
			if (m.auth403 && error.status === 401) {
				throw foreignError(403, 'forbidden', 'Forbidden', 'The access token is missing, invalid or expired.');
			}
			if (m.cursorName && error.errors.some((e) => e.code === 'invalid-page')) {
				const errors = error.errors.map((e) => ({ ...e, detail: e.detail.replace(/page\[after\]/g, 'page[cursor]') }));
				throw new ApiError(error.status, errors, error.headers);
			}
			throw error;
		}
	}

	/** filter, sort and page of a list request, as the deviating server reads them. */
	private rewriteQuery(m: Modes, path: string, query: URLSearchParams): URLSearchParams {
		const collection = COLLECTION.exec(path)?.[1];
		const out = new URLSearchParams();
		for (const [key, value] of query) {
			if (key === 'filter' || key.startsWith('filter[')) {
				const field = /^filter\[([^\]]+)\]$/.exec(key)?.[1];
				if (m.rejectUnknownFilters && collection) {
					const known = KNOWN_FILTERS[collection];
					if (!field || !known.includes(field)) {
						throw apiError(
							400,
							'invalid-filter',
							`Unknown filter field "${field ?? key}"; ${collection} can be filtered by ${known.join(', ')} only.`,
						);
					}
				}
				if (m.ignoreFilters || (field !== undefined && m.ignoredFilters.has(field))) continue;
			} else if (key === 'sort') {
				if (m.ignoreSort) continue;
			} else if (m.cursorName && key === 'page[after]') {
				continue;
			} else if (m.cursorName && key === 'page[cursor]') {
				out.append('page[after]', value);
				continue;
			} else if (m.maxPage !== null && key === 'page[limit]') {
				if (!/^\d+$/.test(value) || Number(value) < 1) {
					throw apiError(400, 'invalid-page', `page[limit] must be an integer from 1 to ${m.maxPage}.`);
				}
				if (Number(value) > m.maxPage) throw apiError(400, 'invalid-page', `page[limit] must be at most ${m.maxPage}.`);
			}
			out.append(key, value);
		}
		// The default order of such a server: creation order ascending (ties by id).
		if (m.ignoreSort && collection) out.set('sort', 'createdAt');
		if (m.maxPage !== null && m.maxPage < PAGE_LIMIT_DEFAULT && !out.has('page[limit]')) out.set('page[limit]', String(m.maxPage));
		return out;
	}

	/** meta.page and links of a list answer. */
	private rewriteList(m: Modes, answer: Answer, baseUrl: string, clientPath: string, clientQuery: URLSearchParams): Answer {
		const body = answer.body;
		if (answer.status !== 200 || !isObject(body) || !isObject(body.meta) || !isObject(body.meta.page)) return answer;
		const page: Record<string, unknown> = { ...body.meta.page };
		const out: Record<string, unknown> = { ...body, meta: { ...body.meta, page } };
		const cursor = typeof page.after === 'string' ? page.after : null;
		const cursorParam = m.cursorName ? 'page[cursor]' : 'page[after]';
		if (m.linksOnly || ((m.cursorName || m.otherRoutes || m.movedSubroutes) && 'links' in body)) {
			out.links = { ...(isObject(body.links) ? body.links : {}), next: cursor ? nextUrl(baseUrl, clientPath, clientQuery, cursorParam, cursor) : null };
		}
		if (m.linksOnly) delete page.after;
		else if (m.cursorName) {
			delete page.after;
			page.cursor = cursor;
		}
		if (m.noTotal) delete page.total;
		if (m.linksOnly || m.cursorName) {
			// keep `total` last, as the contract's server writes it
			const total = page.total;
			delete page.total;
			if (total !== undefined) page.total = total;
		}
		return { ...answer, body: out };
	}

	/** sync-needs-conflict: a sync job must name a conflict handling; the contract's handler must not see it. */
	private syncConflict(body: string): { body: string; conflictHandling: string | undefined } {
		let doc: unknown;
		try {
			doc = JSON.parse(body);
		} catch {
			return { body, conflictHandling: undefined }; // the handler answers invalid-request
		}
		if (!isObject(doc) || !isObject(doc.data) || !isObject(doc.data.attributes)) return { body, conflictHandling: undefined };
		const attributes = doc.data.attributes;
		if (attributes.transferType !== 'sync') return { body, conflictHandling: undefined };
		const value = attributes.conflictHandling;
		if (value === undefined || value === null || !CONFLICT_HANDLINGS.includes(value as never)) {
			throw new ApiError(400, [
				errorObject(
					400,
					'validation-failed',
					`conflictHandling is required for every job, sync included: one of ${CONFLICT_HANDLINGS.join(', ')}.`,
					'/data/attributes/conflictHandling',
				),
			]);
		}
		delete attributes.conflictHandling;
		return { body: JSON.stringify(doc), conflictHandling: value as string };
	}

	private applySyncConflict(answer: Answer, value: string): void {
		const data = isObject(answer.body) && isObject(answer.body.data) ? answer.body.data : undefined;
		const job = typeof data?.id === 'string' ? this.store.jobs.get(data.id) : undefined;
		if (!job) return;
		(job.attributes as unknown as Record<string, unknown>).conflictHandling = value;
		this.store.touchJob(job);
	}

	/** Copies a document and adds unknown attributes / drops deploymentId on each resource in `data`. */
	private decorate(m: Modes, body: Record<string, unknown>): Record<string, unknown> {
		const out = structuredClone(body);
		const each = (resource: unknown) => {
			if (!isObject(resource) || !isObject(resource.attributes)) return;
			const attributes = resource.attributes;
			if (m.noDeploymentId) delete attributes.deploymentId;
			if (m.extraAttributes) {
				Object.assign(attributes, structuredClone(EXTRA_ATTRIBUTES));
				if (resource.type === 'jobs' && isObject(attributes.stats)) {
					attributes.stats['x-verifiedCount'] = attributes.stats.transferredCount;
				}
			}
		};
		if (Array.isArray(out.data)) out.data.forEach(each);
		else each(out.data);
		return out;
	}

	/** Remembers a job created through the API, so that its scanning -> running step is seen. */
	private noteCreatedJob(ctx: RequestContext, answer: Answer): void {
		if (ctx.method !== 'POST' || ctx.path !== '/jobs' || answer.status !== 201) return;
		const data = isObject(answer.body) && isObject(answer.body.data) ? answer.body.data : undefined;
		const attributes = data && isObject(data.attributes) ? data.attributes : undefined;
		if (typeof data?.id === 'string' && typeof attributes?.status === 'string' && !this.lastStatus.has(data.id)) {
			this.lastStatus.set(data.id, attributes.status);
		}
	}

	/** extra-status: between scanning and running the job halts in the extra status for a while. */
	private jobChanged(job: Job): void {
		const status: string = job.attributes.status;
		const previous = this.lastStatus.get(job.id);
		if (previous === status) return;
		if (['finished', 'failed', 'canceled'].includes(status)) this.lastStatus.delete(job.id);
		else this.lastStatus.set(job.id, status);
		const extra = this.current.modes.extraStatus;
		if (extra === null || this.closed || previous !== 'scanning' || status !== 'running') return;
		this.engine.force(job, 'paused');
		job.attributes.status = extra as JobStatus;
		this.lastStatus.set(job.id, extra);
		this.store.touchJob(job);
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			if (this.closed || this.store.jobs.get(job.id) !== job || job.attributes.status !== extra) return;
			// Back to the engine: it resumes a paused job into the stage it halted in (running).
			job.attributes.status = 'paused';
			this.engine.resume(job);
		}, EXTRA_STATUS_MS / this.speed);
		timer.unref?.();
		this.timers.add(timer);
	}
}

/** Admin routes: GET / POST (replace) / DELETE /__sandbox/deviations. */
export function registerDeviationAdmin(router: Router, deviations: Deviations): void {
	const body = (ctx: RequestContext): unknown => {
		if (ctx.body.trim() === '') return [];
		const parsed: unknown = JSON.parse(ctx.body);
		const list = isObject(parsed) ? parsed.deviations : parsed;
		if (typeof list === 'string' || (Array.isArray(list) && list.every((x) => typeof x === 'string'))) return list;
		throw new Error('Send {"deviations": ["mode", …]} or {"deviations": "mode,mode"}.');
	};
	const answer = () => ({ status: 200, body: { deviations: deviations.list(), known: [...DEVIATION_MODES] } });
	router.add('/__sandbox/deviations', {
		GET: answer,
		POST: (ctx) => {
			deviations.set(body(ctx) as string[] | string);
			return answer();
		},
		DELETE: () => {
			deviations.clear();
			return answer();
		},
	});
}
