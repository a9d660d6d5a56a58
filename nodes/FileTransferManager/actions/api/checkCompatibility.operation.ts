import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../api/routes';
import { routes } from '../../api/routes';
import type { ResourceType } from '../../api/types';
import { JOB_STATUSES, TRANSFER_TYPES } from '../../api/types';
import { checkList } from '../../helpers/shape';
import { shown } from '../../helpers/validate';
import { apiRequest, sendsPlainJson, servedPageLimit } from '../../transport';

/**
 * API › Check Compatibility: probes the deployment behind the credential and outputs one item per
 * assumption of docs/api-contract.md (the check ids are the ones used there). Read-only: every request
 * is a GET, except the media-type probe, a PATCH of a job id that does not exist (nothing can change).
 * Each check catches its own failures, so one failing probe never stops the others.
 */

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['api'], operation: ['checkCompatibility'] } },
	properties,
);

export type CheckResult = 'pass' | 'fail' | 'cannot tell';

interface Outcome {
	result: CheckResult;
	observed: string;
	fix: string;
}

interface CheckSpec {
	check: string;
	title: string;
	run: (probe: Probe) => Promise<Outcome>;
}

/** An id no record has: the API's ids are random (version 4) UUIDs, this one is all zeros. */
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const NOTHING_TO_FIX = 'Nothing to change.';

type Doc = Record<string, unknown>;
type Rec = { id?: string; type?: string; attributes: Doc };

/** A request's outcome, kept so that several checks can look at one request. */
type Answer = { ok: true; doc: unknown } | { ok: false; error: unknown };

function isObject(value: unknown): value is Doc {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function httpCodeOf(error: unknown): string | undefined {
	const code = isObject(error) ? error.httpCode : undefined;
	return typeof code === 'string' && code !== '' ? code : undefined;
}

/** The error code the transport put on the error: the API's `code`, or its own (`TOKEN`, …). */
function errorCodeOf(error: unknown): string | undefined {
	const response = isObject(error) ? error.errorResponse : undefined;
	const code = isObject(response) ? response.code : undefined;
	return typeof code === 'string' ? code : undefined;
}

/** An error in one line: HTTP status, message and description, as the transport wrote them (no secrets). */
function errorText(error: unknown): string {
	const http = httpCodeOf(error);
	const message = error instanceof Error ? error.message : String(error);
	const detail = isObject(error) && typeof error.description === 'string' ? error.description : '';
	return [http ? `HTTP ${http}` : '', message, detail ? `(${detail})` : ''].filter(Boolean).join(' ');
}

/** A value at a dotted path of a record's attributes (`source.id`). */
function attributeAt(record: Rec, path: string): unknown {
	let value: unknown = record.attributes;
	for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined;
	return value;
}

/** How a filter compares: the record's value as the text the query carries. */
function asFilterText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'boolean' || typeof value === 'number') return String(value);
	return undefined;
}

/** `meta.page` of a list document, when it is an object. */
function pageMetaOf(doc: Doc): Doc | undefined {
	const meta = doc.meta;
	return isObject(meta) && isObject(meta.page) ? meta.page : undefined;
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Attributes the package knows per type (the API description's fields); the rest are reported. */
const KNOWN_ATTRIBUTES: Partial<Record<ResourceType, readonly string[]>> = {
	accounts: ['name', 'createdAt', 'updatedAt'],
	groups: ['accountId', 'deploymentId', 'name', 'createdAt', 'updatedAt'],
	users: ['accountId', 'deploymentId', 'groupId', 'email', 'firstName', 'lastName', 'timezone', 'createdAt', 'updatedAt'],
	jobs: [
		'name',
		'status',
		'accountId',
		'deploymentId',
		'groupId',
		'userId',
		'dryRun',
		'transferType',
		'source',
		'target',
		'scope',
		'conflictHandling',
		'failureConditions',
		'transferRateLimit',
		'stats',
		'createdAt',
		'updatedAt',
	],
	storages: ['type', 'name', 'status', 'metadata', 'stats', 'createdAt', 'updatedAt'],
};
const KNOWN_JOB_STATS = [
	'startedAt',
	'finishedAt',
	'estimatedDuration',
	'estimatedCost',
	'estimatedFinishedAt',
	'scannedFilesCount',
	'filesCount',
	'filesSize',
	'transferredCount',
	'transferredSize',
];

const COLLECTIONS: Array<{ type: ResourceType; route: () => Route }> = [
	{ type: 'accounts', route: routes.listAccounts },
	{ type: 'groups', route: routes.listGroups },
	{ type: 'users', route: routes.listUsers },
	{ type: 'jobs', route: routes.listJobs },
	{ type: 'storages', route: routes.listStorages },
];

/** The requests of one run, each made once however many checks look at it. */
class Probe {
	private readonly answers = new Map<string, Promise<Answer>>();

	constructor(
		readonly ctx: IExecuteFunctions,
		readonly itemIndex: number,
	) {}

	/** One request, made once per key; never throws. */
	request(
		key: string,
		route: Route,
		qs?: IDataObject,
		body?: IDataObject,
		idempotent?: boolean,
		url?: string,
	): Promise<Answer> {
		let answer = this.answers.get(key);
		if (!answer) {
			answer = apiRequest<unknown>(this.ctx, route, { qs, body, idempotent, url, itemIndex: this.itemIndex }).then(
				(doc): Answer => ({ ok: true, doc }),
				(error: unknown): Answer => ({ ok: false, error }),
			);
			this.answers.set(key, answer);
		}
		return answer;
	}

	/** A list request whose answer has the JSON:API list shape (shape checks of helpers/shape.ts). */
	async list(key: string, type: ResourceType, route: Route, qs?: IDataObject, url?: string): Promise<ListAnswer> {
		const answer = await this.request(key, route, qs, undefined, undefined, url);
		if (!answer.ok) return { ok: false, error: answer.error };
		try {
			const page = checkList<Rec>(this.ctx, answer.doc, type, { route, itemIndex: this.itemIndex });
			return { ok: true, doc: answer.doc as Doc, records: page.data };
		} catch (error) {
			return { ok: false, error };
		}
	}

	/** The first page of a collection as the service orders it by default (no page size, sort or filter). */
	sample(type: ResourceType): Promise<ListAnswer> {
		const collection = COLLECTIONS.find((c) => c.type === type)!;
		return this.list(`sample:${type}`, type, collection.route());
	}

	/** A page of one record (list-routes, page-total, cursor-paging, account-id share it). */
	firstOfOne(type: ResourceType): Promise<ListAnswer> {
		const collection = COLLECTIONS.find((c) => c.type === type)!;
		return this.list(`one:${type}`, type, collection.route(), { 'page[limit]': 1 });
	}
}

type ListAnswer = { ok: true; doc: Doc; records: Rec[] } | { ok: false; error: unknown };

const cannotTell = (observed: string, fix = 'See the check that failed for this request.'): Outcome => ({
	result: 'cannot tell',
	observed,
	fix,
});

/** The sample of jobs, or the outcome to report when it cannot be had or is empty. */
async function jobSample(probe: Probe): Promise<Rec[] | Outcome> {
	const sample = await probe.sample('jobs');
	if (!sample.ok) return cannotTell(`GET /jobs failed: ${errorText(sample.error)}`, 'See the check "list-routes".');
	if (sample.records.length === 0) {
		return cannotTell('No job is visible to this API client, so there is nothing to test with.', 'Run the check again once the deployment has jobs (a dry run is enough).');
	}
	return sample.records;
}

// ---- token, root, media type, errors ---------------------------------------------------------------

const rootAnswer = (probe: Probe) => probe.request('root', routes.apiVersion());

function isTokenFailure(error: unknown): boolean {
	const http = httpCodeOf(error);
	return errorCodeOf(error) === 'TOKEN' || http === '401' || http === '403';
}

const token: CheckSpec = {
	check: 'token',
	title: 'The credential gets an access token, and the API takes it',
	async run(probe) {
		const answer = await rootAnswer(probe);
		if (answer.ok) {
			return {
				result: 'pass',
				observed: 'A token was issued at <Base URL>/oauth/token, and GET / was answered with it.',
				fix: NOTHING_TO_FIX,
			};
		}
		if (errorCodeOf(answer.error) === 'TOKEN') {
			return {
				result: 'fail',
				observed: `No usable token: ${errorText(answer.error)}`,
				fix: 'Check the credential: Base URL must be the API host of your deployment (the token URL is <Base URL>/oauth/token), and Client ID and Secret a pair from the API section of its web interface.',
			};
		}
		const http = httpCodeOf(answer.error);
		if (http === '401' || http === '403') {
			return {
				result: 'fail',
				observed: `A token was issued, but GET / refused it: ${errorText(answer.error)}`,
				fix: 'The API host did not take the token its token endpoint gave. Check that Base URL is the API host of the deployment whose web interface issued the Client ID and Secret.',
			};
		}
		if (http === undefined) return cannotTell(`GET / got no answer: ${errorText(answer.error)}`, 'Check the Base URL and the network path to the service, then run the check again.');
		return {
			result: 'pass',
			observed: `A token was issued, and GET / with it was answered HTTP ${http} (see the check "root").`,
			fix: NOTHING_TO_FIX,
		};
	},
};

const root: CheckSpec = {
	check: 'root',
	title: 'GET / reports the API version in meta.apiVersion',
	async run(probe) {
		const answer = await rootAnswer(probe);
		if (!answer.ok) {
			if (isTokenFailure(answer.error)) return cannotTell(`GET / was not answered with a token: ${errorText(answer.error)}`, 'See the check "token".');
			return {
				result: 'fail',
				observed: `GET / failed: ${errorText(answer.error)}`,
				fix: 'Check the Base URL of the credential: an authenticated GET of it must answer with the API\'s root document.',
			};
		}
		const doc = answer.doc;
		const meta = isObject(doc) ? doc.meta : undefined;
		const version = isObject(meta) ? meta.apiVersion : undefined;
		if (typeof version === 'string') {
			const jsonapi = isObject(doc) && isObject(doc.jsonapi) ? doc.jsonapi.version : undefined;
			return {
				result: 'pass',
				observed: `meta.apiVersion is ${JSON.stringify(version)}${typeof jsonapi === 'string' ? `, jsonapi.version ${JSON.stringify(jsonapi)}` : ''}.`,
				fix: NOTHING_TO_FIX,
			};
		}
		return {
			result: 'fail',
			observed: `meta.apiVersion is ${version === undefined ? 'missing' : shown(version)}; the root document is ${shown(doc)}.`,
			fix: 'API › Get Version outputs apiVersion null on this deployment; read the version from its "root" output (the document as sent). Nothing else in the nodes reads the root.',
		};
	},
};

const mediaType: CheckSpec = {
	check: 'media-type',
	title: 'Request bodies sent as application/vnd.api+json are accepted',
	async run(probe) {
		// A read-only way to send a body: a PATCH of a job that does not exist, with no attribute to change.
		// A server that takes the media type answers 404 (or another refusal of the request itself); one
		// that does not answers 415 before it looks for the job, and the transport repeats the body once as
		// application/json (sendsPlainJson tells).
		const route = routes.updateJob(NO_SUCH_ID);
		const answer = await probe.request(
			'media-type',
			route,
			undefined,
			{ data: { type: 'jobs', id: NO_SUCH_ID, attributes: {} } },
			true,
		);
		const answers =
			'What Content-Type the answers carry is not visible through the node (it reads application/vnd.api+json and application/json alike).';
		const sent = `PATCH /jobs/${NO_SUCH_ID} (no such job, no attribute) with Content-Type application/vnd.api+json`;
		if (answer.ok) {
			return cannotTell(`${sent} was answered with success, so a job with that id exists. ${answers}`, 'Nothing changed (the body names no attribute). Report this output to the package maintainers.');
		}
		const http = httpCodeOf(answer.error);
		if (sendsPlainJson(probe.ctx)) {
			return {
				result: 'fail',
				observed: `${sent} was refused with HTTP 415; repeated as application/json it was answered ${http ? `HTTP ${http}` : errorText(answer.error)}. ${answers}`,
				fix: 'Nothing to change: the nodes send a refused body once more as application/json and keep doing so for the rest of the execution (one extra request per execution that creates or changes something).',
			};
		}
		if (http === '415') {
			return {
				result: 'fail',
				observed: `${sent}: ${errorText(answer.error)}. ${answers}`,
				fix: 'This deployment refuses request bodies as application/vnd.api+json and as application/json, so every create, update, pause, resume and cancel of the nodes is refused with HTTP 415. Report this output to the package maintainers; reads (Get, Get Many, the trigger) are not affected.',
			};
		}
		if (http === undefined || isTokenFailure(answer.error)) {
			return cannotTell(`${sent}: ${errorText(answer.error)}. ${answers}`);
		}
		return {
			result: 'pass',
			observed: `${sent} was answered HTTP ${http} (${errorCodeOf(answer.error) ?? 'no code'}): the body's media type was not refused. ${answers}`,
			fix: NOTHING_TO_FIX,
		};
	},
};

const notFound: CheckSpec = {
	check: 'not-found',
	title: 'A missing record gets 404 entity-not-found',
	async run(probe) {
		const answer = await probe.request('not-found', routes.getJob(NO_SUCH_ID));
		if (answer.ok) return cannotTell(`GET /jobs/${NO_SUCH_ID} found a job: there is nothing missing to test with.`, NOTHING_TO_FIX);
		const http = httpCodeOf(answer.error);
		const code = errorCodeOf(answer.error);
		if (http === '404' && code === 'entity-not-found') {
			return { result: 'pass', observed: `GET /jobs/${NO_SUCH_ID}: ${errorText(answer.error)}.`, fix: NOTHING_TO_FIX };
		}
		if (http === undefined || isTokenFailure(answer.error)) return cannotTell(`GET /jobs/${NO_SUCH_ID}: ${errorText(answer.error)}`);
		return {
			result: 'fail',
			observed: `GET /jobs/${NO_SUCH_ID}: ${errorText(answer.error)} (code ${code ?? 'none'}); expected HTTP 404 entity-not-found.`,
			fix: 'Errors of the nodes for an unknown ID show what the service sent; the hint "Check the ID" is given for 404 entity-not-found only.',
		};
	},
};

// ---- collections --------------------------------------------------------------------------------

const listRoutes: CheckSpec = {
	check: 'list-routes',
	title: 'The lists /accounts, /groups, /users, /jobs and /storages answer JSON:API lists',
	async run(probe) {
		const seen: string[] = [];
		const failed: string[] = [];
		let undecided = 0;
		for (const { type } of COLLECTIONS) {
			const page = await probe.firstOfOne(type);
			if (page.ok) {
				const total = pageMetaOf(page.doc)?.total;
				seen.push(`/${type}: ${typeof total === 'number' ? `${total} in all` : plural(page.records.length, 'record')}`);
				continue;
			}
			// No token, or no answer at all: the token check (or the network) is at fault, not the route.
			const malformed = page.error instanceof Error && /^The service sent/.test(page.error.message);
			if (isTokenFailure(page.error) || (httpCodeOf(page.error) === undefined && !malformed)) undecided++;
			failed.push(`/${type}: ${errorText(page.error)}`);
		}
		if (failed.length === 0) return { result: 'pass', observed: `${seen.join('; ')}.`, fix: NOTHING_TO_FIX };
		if (undecided === failed.length && seen.length === 0) return cannotTell(failed.join('; '), 'See the check "token"; check the Base URL and the network path to the service.');
		return {
			result: 'fail',
			observed: [...failed, ...seen].join('; '),
			fix: 'The nodes read these lists at <Base URL>/accounts, /groups, /users, /jobs and /storages (nodes/FileTransferManager/api/routes.ts); the operations on a failing one do not work on this deployment. Check the Base URL (a path prefix such as /v2 belongs in it).',
		};
	},
};

const pageSize: CheckSpec = {
	check: 'page-size',
	title: 'Pages of 100 records (page[limit]=100) are accepted',
	async run(probe) {
		const page = await probe.list('page-size', 'jobs', routes.listJobs(), { 'page[limit]': 100 });
		if (page.ok) {
			if (page.records.length > 100) {
				return { result: 'fail', observed: `GET /jobs?page[limit]=100 returned ${page.records.length} records.`, fix: 'The service does not keep to page[limit]; report this output to the package maintainers.' };
			}
			const served = servedPageLimit(probe.ctx, routes.listJobs(), 100);
			if (served < 100) {
				return {
					result: 'fail',
					observed: `GET /jobs?page[limit]=100 was refused with a stated maximum of ${served}; asked again with page[limit]=${served} it was answered with ${plural(page.records.length, 'job')}.`,
					fix: `Nothing to change: the nodes learn the maximum from the refusal and ask for pages of ${served} (one extra request per list and execution).`,
				};
			}
			return { result: 'pass', observed: `GET /jobs?page[limit]=100 was answered with ${plural(page.records.length, 'job')}.`, fix: NOTHING_TO_FIX };
		}
		const http = httpCodeOf(page.error);
		if (http === undefined || isTokenFailure(page.error)) return cannotTell(`GET /jobs?page[limit]=100: ${errorText(page.error)}`);
		return {
			result: 'fail',
			observed: `GET /jobs?page[limit]=100: ${errorText(page.error)}`,
			fix: 'The nodes ask for pages of 100 records (Get Many with Return All, the pickers, the trigger) and adapt only to a refusal that states its maximum ("page[limit] must be at most 50"); this one does not, so those lists fail. Report this output to the package maintainers.',
		};
	},
};

const pageTotal: CheckSpec = {
	check: 'page-total',
	title: 'Lists give the count of all matching records in meta.page.total',
	async run(probe) {
		const page = await probe.firstOfOne('jobs');
		if (!page.ok) return cannotTell(`GET /jobs?page[limit]=1 failed: ${errorText(page.error)}`, 'See the check "list-routes".');
		const pageMeta = pageMetaOf(page.doc);
		const total = pageMeta?.total;
		if (typeof total === 'number' && Number.isInteger(total) && total >= 0) {
			return { result: 'pass', observed: `meta.page.total is ${total}.`, fix: NOTHING_TO_FIX };
		}
		return {
			result: 'fail',
			observed: `meta.page.total is ${total === undefined ? 'missing' : shown(total)}; meta.page is ${pageMeta === undefined ? 'missing' : shown(pageMeta)}.`,
			fix: 'The nodes page without it, so nothing fails; only counts that a workflow might read from the service are not available.',
		};
	},
};

const cursorPaging: CheckSpec = {
	check: 'cursor-paging',
	title: 'Paging follows meta.page.after with page[after]',
	async run(probe) {
		const first = await probe.firstOfOne('jobs');
		if (!first.ok) return cannotTell(`GET /jobs?page[limit]=1 failed: ${errorText(first.error)}`, 'See the check "list-routes".');
		if (first.records.length === 0) return cannotTell('No job is visible, so there is no second page to ask for.', 'Run the check again once the deployment has two jobs or more.');
		if (first.records.length > 1) {
			return {
				result: 'fail',
				observed: `GET /jobs?page[limit]=1 returned ${first.records.length} jobs: page[limit] is not taken.`,
				fix: 'The nodes size their pages with page[limit] (a Limit of 5 is one request for 5 records). Report this output to the package maintainers.',
			};
		}
		const pageMeta = pageMetaOf(first.doc) ?? {};
		const after = pageMeta.after;
		const total = pageMeta.total;
		const links = isObject(first.doc.links) ? first.doc.links : undefined;
		const fix =
			'The nodes ask for the next page with page[after]=<meta.page.after>, or follow links.next; this deployment offers neither, so Get Many with Return All, the pickers and the trigger stop with an error after the first page. Report this output to the package maintainers.';
		if (typeof after !== 'string') {
			const more = (typeof total === 'number' && total > 1) || typeof links?.next === 'string';
			if (!more) return cannotTell(`The first page of one job has no cursor (meta.page is ${shown(pageMeta)}): it seems to be the only job.`, 'Run the check again once the deployment has two jobs or more.');
			const observed = `A page of 1 of ${typeof total === 'number' ? total : 'several'} jobs has no meta.page.after: meta.page is ${shown(pageMeta)}${links ? `, links is ${shown(links)}` : ''}`;
			if (typeof links?.next !== 'string') return { result: 'fail', observed: `${observed}.`, fix };
			// Paging by links.next only: the nodes follow it (same origin); see whether it leads on.
			const next = await probe.list('cursor-next', 'jobs', routes.listJobs(), undefined, links.next);
			const nextId = next.ok ? next.records[0]?.id : undefined;
			if (nextId !== undefined && nextId !== first.records[0].id) {
				return {
					result: 'fail',
					observed: `${observed}; following links.next gave job ${nextId}.`,
					fix: 'Nothing to change: the nodes follow links.next when meta.page.after is missing.',
				};
			}
			return {
				result: 'fail',
				observed: `${observed}; following links.next ${next.ok ? `gave ${nextId === undefined ? 'an empty page' : 'the same job again'}` : `failed: ${errorText(next.error)}`}.`,
				fix,
			};
		}
		const second = await probe.list('cursor-second', 'jobs', routes.listJobs(), { 'page[limit]': 1, 'page[after]': after });
		if (!second.ok) {
			if (httpCodeOf(second.error) === undefined) return cannotTell(`The second page failed: ${errorText(second.error)}`, 'Run the check again.');
			return { result: 'fail', observed: `GET /jobs?page[limit]=1&page[after]=<cursor>: ${errorText(second.error)}`, fix };
		}
		const firstId = first.records[0].id;
		const secondId = second.records[0]?.id;
		if (secondId === undefined) {
			return { result: 'fail', observed: `The first page gave the cursor ${shown(after)}, but the page it leads to is empty.`, fix };
		}
		if (secondId === firstId) {
			return { result: 'fail', observed: `The page after cursor ${shown(after)} holds the same job (${firstId}) as the first page: page[after] is not taken.`, fix };
		}
		return { result: 'pass', observed: `Page 1 held job ${firstId}; page[after]=<meta.page.after> gave job ${secondId}.`, fix: NOTHING_TO_FIX };
	},
};

function sortCheck(field: 'updatedAt' | 'createdAt', use: string): CheckSpec {
	return {
		check: `sort-${field}`,
		title: `Lists sort by ${field} (sort=${field} and sort=-${field})`,
		async run(probe) {
			const notes: string[] = [];
			let distinct = false;
			for (const direction of ['-', ''] as const) {
				const sort = `${direction}${field}`;
				const page = await probe.list(`sort:${sort}`, 'jobs', routes.listJobs(), { sort });
				if (!page.ok) {
					if (httpCodeOf(page.error) === undefined || isTokenFailure(page.error)) return cannotTell(`GET /jobs?sort=${sort}: ${errorText(page.error)}`);
					return { result: 'fail', observed: `GET /jobs?sort=${sort}: ${errorText(page.error)}`, fix: `The nodes sort jobs by ${field} (${use}); this deployment refuses it. Report this output to the package maintainers.` };
				}
				const times = page.records.map((r) => ({ id: r.id, at: attributeAt(r, field), ms: Date.parse(String(attributeAt(r, field))) }));
				for (let i = 1; i < times.length; i++) {
					const [a, b] = [times[i - 1], times[i]];
					if (!Number.isFinite(a.ms) || !Number.isFinite(b.ms)) continue;
					if (a.ms !== b.ms) distinct = true;
					if (direction === '-' ? b.ms > a.ms : b.ms < a.ms) {
						return {
							result: 'fail',
							observed: `GET /jobs?sort=${sort} listed job ${a.id} (${field} ${String(a.at)}) before job ${b.id} (${field} ${String(b.at)}).`,
							fix: `The nodes rely on this order (${use}). They check it and stop with "The service ignored sort=…" rather than miss jobs, so on this deployment they fail. Report this output to the package maintainers.`,
						};
					}
				}
				notes.push(`sort=${sort}: ${plural(page.records.length, 'job')} in order`);
			}
			if (!distinct) {
				return cannotTell(`Fewer than two jobs with different ${field} values were listed (${notes.join('; ')}), so an order cannot be seen.`, 'Run the check again once the deployment has two jobs or more.');
			}
			return { result: 'pass', observed: `${notes.join('; ')}.`, fix: NOTHING_TO_FIX };
		},
	};
}

/** A filter check: ask with a value and see that every record returned has it. */
interface FilterSpecOfCheck {
	check: string;
	type: ResourceType;
	route: () => Route;
	field: string;
	/** Who relies on the filter, for the fix. */
	use: string;
	/** A value no listed record has, for a sample where every record has the same value. */
	absent: (seen: Set<string>) => string;
}

function firstNotIn(options: readonly string[], fallback: string): (seen: Set<string>) => string {
	return (seen) => options.find((o) => !seen.has(o)) ?? fallback;
}

function filterCheck(spec: FilterSpecOfCheck): CheckSpec {
	const noun = spec.type === 'jobs' ? 'job' : spec.type === 'users' ? 'user' : 'group';
	return {
		check: spec.check,
		title: `Lists of ${spec.type} honour filter[${spec.field}]`,
		async run(probe) {
			const sample = await probe.sample(spec.type);
			if (!sample.ok) return cannotTell(`GET /${spec.type} failed: ${errorText(sample.error)}`, 'See the check "list-routes".');
			if (sample.records.length === 0) {
				return cannotTell(`No ${noun} is visible, so there is nothing to filter.`, `Run the check again once the deployment has ${spec.type}.`);
			}
			// The value held by the fewest listed records, so that an ignored filter shows; when every record
			// holds the same value, one that none holds (an ignored filter then returns them all).
			const counts = new Map<string, number>();
			for (const record of sample.records) {
				const value = asFilterText(attributeAt(record, spec.field));
				if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
			}
			const rarest = [...counts.entries()].sort((a, b) => a[1] - b[1])[0];
			const fromSample = rarest !== undefined && rarest[1] < sample.records.length;
			const value = fromSample ? rarest[0] : spec.absent(new Set(counts.keys()));
			const query = `filter[${spec.field}]=${value}`;
			const page = await probe.list(`filter:${spec.type}:${spec.field}`, spec.type, spec.route(), { [`filter[${spec.field}]`]: value });
			const fix = `${spec.use} rely on this filter. Get Many and the trigger re-check every record they get and stop with "The service ignored the filter …" rather than return ${spec.type} that do not match; leave the filter out and filter in the workflow (an If or Filter node after the node) on this deployment.`;
			if (!page.ok) {
				if (httpCodeOf(page.error) === undefined || isTokenFailure(page.error)) return cannotTell(`GET /${spec.type}?${query}: ${errorText(page.error)}`);
				return {
					result: 'fail',
					observed: `GET /${spec.type}?${query}: ${errorText(page.error)}`,
					fix: `${spec.use} send this filter; this deployment refuses it, so they fail. Report this output to the package maintainers.`,
				};
			}
			const wrong = page.records.filter((r) => asFilterText(attributeAt(r, spec.field)) !== value);
			if (wrong.length > 0) {
				return {
					result: 'fail',
					observed: `GET /${spec.type}?${query} returned ${plural(page.records.length, noun)}, ${wrong.length} of them with ${spec.field} ≠ ${JSON.stringify(value)} (e.g. ${wrong[0].id ?? 'a record'}: ${shown(attributeAt(wrong[0], spec.field))}): the filter is not applied.`,
					fix,
				};
			}
			if (fromSample && page.records.length === 0) {
				return {
					result: 'fail',
					observed: `GET /${spec.type}?${query} returned nothing, though ${plural(rarest[1], noun)} listed without the filter ${rarest[1] === 1 ? 'has' : 'have'} that value.`,
					fix,
				};
			}
			return {
				result: 'pass',
				observed:
					page.records.length === 0
						? `GET /${spec.type}?${query} (a value none of the ${plural(sample.records.length, `listed ${noun}`)} has) returned none.`
						: `GET /${spec.type}?${query} returned ${plural(page.records.length, noun)}, all with ${spec.field} ${JSON.stringify(value)}.`,
				fix: NOTHING_TO_FIX,
			};
		},
	};
}

const TRIGGER = 'The trigger (its Filters) and Job › Get Many';
const RECOVERY = 'the lookup that protects Job › Create against a double create';
const idAbsent = () => NO_SUCH_ID;

const filterChecks: CheckSpec[] = [
	filterCheck({ check: 'filter-status', type: 'jobs', route: routes.listJobs, field: 'status', use: `${TRIGGER} (one watched final status)`, absent: firstNotIn(JOB_STATUSES, 'canceled') }),
	filterCheck({ check: 'filter-source', type: 'jobs', route: routes.listJobs, field: 'source.id', use: `${TRIGGER}, and ${RECOVERY},`, absent: idAbsent }),
	filterCheck({ check: 'filter-target', type: 'jobs', route: routes.listJobs, field: 'target.id', use: `${TRIGGER}, and ${RECOVERY},`, absent: idAbsent }),
	filterCheck({ check: 'filter-transferType', type: 'jobs', route: routes.listJobs, field: 'transferType', use: `${TRIGGER}, and ${RECOVERY},`, absent: firstNotIn(TRANSFER_TYPES, 'move') }),
	filterCheck({ check: 'filter-accountId', type: 'jobs', route: routes.listJobs, field: 'accountId', use: TRIGGER, absent: idAbsent }),
	filterCheck({ check: 'filter-groupId', type: 'jobs', route: routes.listJobs, field: 'groupId', use: TRIGGER, absent: idAbsent }),
	filterCheck({ check: 'filter-userId', type: 'jobs', route: routes.listJobs, field: 'userId', use: TRIGGER, absent: idAbsent }),
	filterCheck({ check: 'filter-dryRun', type: 'jobs', route: routes.listJobs, field: 'dryRun', use: `${TRIGGER} (Dry Runs), and ${RECOVERY},`, absent: firstNotIn(['true', 'false'], 'true') }),
	filterCheck({ check: 'filter-email', type: 'users', route: routes.listUsers, field: 'email', use: 'User › Get Many and the lookup that protects User › Create', absent: () => 'no-such-user@check-compatibility.invalid' }),
	filterCheck({ check: 'filter-name', type: 'groups', route: routes.listGroups, field: 'name', use: 'Group › Get Many and the lookup that protects Group › Create', absent: () => 'no such group (check compatibility)' }),
];

const filterUnknown: CheckSpec = {
	check: 'filter-unknown',
	title: 'A filter on an unknown field is refused (400), not ignored',
	async run(probe) {
		const query = 'filter[no-such-field]=x';
		const page = await probe.list('filter-unknown', 'jobs', routes.listJobs(), { 'filter[no-such-field]': 'x' });
		if (page.ok) {
			return {
				result: 'fail',
				observed: `GET /jobs?${query} was answered with ${plural(page.records.length, 'job')}: a filter on a field the service does not know is ignored.`,
				fix: 'A filter this deployment does not support would silently widen a list instead of failing. Run the filter checks above: each one that passes is applied.',
			};
		}
		const http = httpCodeOf(page.error);
		if (http === '400') return { result: 'pass', observed: `GET /jobs?${query}: ${errorText(page.error)}.`, fix: NOTHING_TO_FIX };
		if (http === undefined || isTokenFailure(page.error)) return cannotTell(`GET /jobs?${query}: ${errorText(page.error)}`);
		return { result: 'fail', observed: `GET /jobs?${query}: ${errorText(page.error)}; expected HTTP 400 invalid-filter.`, fix: 'Report this output to the package maintainers.' };
	},
};

// ---- jobs and records -----------------------------------------------------------------------------

const jobStatuses: CheckSpec = {
	check: 'job-statuses',
	title: 'Jobs have only the seven statuses of the API description',
	async run(probe) {
		const jobs = await jobSample(probe);
		if (!Array.isArray(jobs)) return jobs;
		const seen = new Set(jobs.map((j) => String(j.attributes.status)));
		const unknown = [...seen].filter((s) => !(JOB_STATUSES as readonly string[]).includes(s));
		if (unknown.length > 0) {
			return {
				result: 'fail',
				observed: `Statuses not in the API description: ${unknown.map((s) => JSON.stringify(s)).join(', ')} (of ${plural(jobs.length, 'listed job')}).`,
				fix: 'The trigger never fires for such a status, and Wait for Completion keeps waiting through it (it ends only on finished, failed, canceled or stuck). Job › Get Many cannot filter by it.',
			};
		}
		return { result: 'pass', observed: `Statuses of ${plural(jobs.length, 'listed job')}: ${[...seen].join(', ')}.`, fix: NOTHING_TO_FIX };
	},
};

const unknownAttributes: CheckSpec = {
	check: 'unknown-attributes',
	title: 'Records carry only the attributes the package knows',
	async run(probe) {
		const found = new Map<string, Set<string>>();
		let read = 0;
		const note = (type: string, name: string) => {
			if (!found.has(type)) found.set(type, new Set());
			found.get(type)!.add(name);
		};
		for (const { type } of COLLECTIONS) {
			const pages = [await probe.firstOfOne(type), ...(['jobs', 'users', 'groups'].includes(type) ? [await probe.sample(type)] : [])];
			for (const page of pages) {
				if (!page.ok) continue;
				for (const record of page.records) {
					read++;
					const known = KNOWN_ATTRIBUTES[type] ?? [];
					for (const name of Object.keys(record.attributes)) if (!known.includes(name)) note(type, name);
					if (type === 'jobs' && isObject(record.attributes.stats)) {
						for (const name of Object.keys(record.attributes.stats)) if (!KNOWN_JOB_STATS.includes(name)) note(type, `stats.${name}`);
					}
				}
			}
		}
		if (read === 0) return cannotTell('No record could be read.', 'See the check "list-routes".');
		if (found.size === 0) return { result: 'pass', observed: `None in ${plural(read, 'record')} read.`, fix: NOTHING_TO_FIX };
		// A departure from the contract the nodes cope with: reported as such, with nothing to change.
		return {
			result: 'fail',
			observed: `Seen in ${plural(read, 'record')}: ${[...found].map(([type, names]) => `${type}: ${[...names].join(', ')}`).join('; ')}.`,
			fix: 'Nothing to change: the nodes output them with the record (Simplify leaves them out), and an attribute under a name the nodes use themselves goes under apiAttributes.',
		};
	},
};

const accountId: CheckSpec = {
	check: 'account-id',
	title: 'Groups, users and jobs carry accountId',
	async run(probe) {
		let records = 0;
		const missing: string[] = [];
		const failed: string[] = [];
		let withoutDeploymentId = 0;
		for (const type of ['groups', 'users', 'jobs'] as const) {
			const page = await probe.sample(type);
			if (!page.ok) {
				failed.push(`/${type}: ${errorText(page.error)}`);
				continue;
			}
			for (const record of page.records) {
				records++;
				if (typeof record.attributes.accountId !== 'string') missing.push(`${type} ${record.id}`);
				if (!('deploymentId' in record.attributes)) withoutDeploymentId++;
			}
		}
		if (missing.length > 0) {
			return {
				result: 'fail',
				observed: `${plural(missing.length, 'record')} of ${records} without accountId, e.g. ${missing.slice(0, 3).join(', ')}.`,
				fix: 'Outputs of this deployment show no account for those records; the trigger\'s Account filter and the Account fields still send accountId.',
			};
		}
		if (records === 0) return cannotTell(failed.length ? failed.join('; ') : 'No group, user or job is visible.', 'See the check "list-routes".');
		const note =
			withoutDeploymentId > 0
				? ` The deprecated deploymentId is left out on ${plural(withoutDeploymentId, 'record')} (the nodes do not read it; they still send it on creates, for older servers).`
				: '';
		return { result: 'pass', observed: `accountId on all ${plural(records, 'record')} read.${note}`, fix: NOTHING_TO_FIX };
	},
};

/** The most recently created job of the sample (by createdAt, not by the service's sort). */
function newestJob(jobs: Rec[]): Rec {
	return jobs.reduce((newest, job) =>
		Date.parse(String(job.attributes.createdAt)) > Date.parse(String(newest.attributes.createdAt)) ? job : newest,
	);
}

function subListCheck(kind: 'transfers' | 'errors'): CheckSpec {
	const type: ResourceType = kind === 'transfers' ? 'job-transfers' : 'job-errors';
	return {
		check: `${kind}-route`,
		title: `A job's ${kind} are listed at /jobs/{id}/${kind}`,
		async run(probe) {
			const jobs = await jobSample(probe);
			if (!Array.isArray(jobs)) return jobs;
			const job = newestJob(jobs);
			if (typeof job.id !== 'string') return cannotTell('The newest job has no id.', 'See the check "list-routes".');
			const route = kind === 'transfers' ? routes.listJobTransfers(job.id) : routes.listJobErrors(job.id);
			const page = await probe.list(`sub:${kind}`, type, route, { 'page[limit]': 1 });
			const path = `GET /jobs/${job.id}/${kind}?page[limit]=1`;
			if (!page.ok) {
				if (httpCodeOf(page.error) === undefined || isTokenFailure(page.error)) return cannotTell(`${path}: ${errorText(page.error)}`);
				return {
					result: 'fail',
					observed: `${path}: ${errorText(page.error)}`,
					fix: `Job › Get ${kind === 'transfers' ? 'Transfers' : 'Errors'}${kind === 'errors' ? ' and the trigger\'s Attach Errors' : ''} read this list and fail on this deployment. Report where it serves a job's ${kind} to the package maintainers (nodes/FileTransferManager/api/routes.ts holds the paths).`,
				};
			}
			const links = isObject(page.doc.links) ? page.doc.links : undefined;
			const next = links ? links.next : undefined;
			const note = typeof next === 'string' || next === null ? `links.next is ${next === null ? 'null' : 'a URL'}` : 'links.next is missing (the nodes page by meta.page.after)';
			return { result: 'pass', observed: `${path} (the newest job) was answered with ${plural(page.records.length, 'record')}; ${note}.`, fix: NOTHING_TO_FIX };
		},
	};
}

const syncConflict: CheckSpec = {
	check: 'sync-conflict',
	title: 'Sync jobs have no conflict handling (null)',
	async run(probe) {
		const jobs = await jobSample(probe);
		if (!Array.isArray(jobs)) return jobs;
		const syncs = jobs.filter((j) => j.attributes.transferType === 'sync');
		if (syncs.length === 0) {
			return cannotTell(
				`None of the ${plural(jobs.length, 'listed job')} is a sync job. (Read-only: the check does not try to create one.)`,
				'If creating a sync job fails with an error on conflictHandling, set Job › Create › Sync Conflict Handling to the value your deployment expects.',
			);
		}
		const withValue = syncs.filter((j) => j.attributes.conflictHandling !== null && j.attributes.conflictHandling !== undefined);
		if (withValue.length > 0) {
			const example = withValue[0];
			return {
				result: 'fail',
				observed: `${plural(withValue.length, 'sync job')} of ${syncs.length} listed carry a conflict handling, e.g. ${example.id}: ${shown(example.attributes.conflictHandling)}. This deployment takes (and may require) one for sync jobs.`,
				fix: 'Set Job › Create › Sync Conflict Handling to the value your deployment expects (Skip, Rename or Overwrite). Run From Dry Run copies the dry run\'s value.',
			};
		}
		return { result: 'pass', observed: `Every listed sync job (${syncs.length}) has conflictHandling null.`, fix: NOTHING_TO_FIX };
	},
};

/** The checks, in the order they are output; ids as in docs/api-contract.md. */
export const CHECKS: readonly CheckSpec[] = [
	token,
	root,
	mediaType,
	listRoutes,
	pageSize,
	pageTotal,
	cursorPaging,
	sortCheck('updatedAt', 'the trigger lists jobs by sort=-updatedAt'),
	sortCheck('createdAt', 'the lookup that protects creates against a double create'),
	...filterChecks,
	filterUnknown,
	jobStatuses,
	unknownAttributes,
	accountId,
	subListCheck('transfers'),
	subListCheck('errors'),
	syncConflict,
	notFound,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const probe = new Probe(this, itemIndex);
	// A credential whose Base URL is unusable is an input error (nothing was sent), not a finding.
	const first = await rootAnswer(probe);
	if (!first.ok && first.error instanceof NodeOperationError && /Base URL/.test(first.error.message)) throw first.error;
	const items: INodeExecutionData[] = [];
	for (const spec of CHECKS) {
		let outcome: Outcome;
		try {
			outcome = await spec.run(probe);
		} catch (error) {
			outcome = cannotTell(`The check itself failed: ${errorText(error)}`, 'Report this output to the package maintainers.');
		}
		items.push({ json: { check: spec.check, title: spec.title, ...outcome } });
	}
	return items;
}
