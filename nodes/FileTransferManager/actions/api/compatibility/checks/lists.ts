/** The checks of the list routes: that they answer, page sizes and totals, and cursor paging. */
import { routes } from '../../../../../shared/api/routes';
import { shown } from '../../../../../shared/input/validate';
import { deployment } from '../../../../../shared/transport';
import type { CheckSpec } from '../outcome';
import { NOTHING_TO_FIX, cannotTell, errorText, httpCodeOf, isTokenFailure, plural } from '../outcome';
import type { Doc } from '../probe';
import { COLLECTIONS, isObject } from '../probe';

/** `meta.page` of a list document, when it is an object. */
function pageMetaOf(doc: Doc): Doc | undefined {
	const meta = doc.meta;
	return isObject(meta) && isObject(meta.page) ? meta.page : undefined;
}

/**
 * How many records a list holds, as far as its first page tells: `meta.page.total`, else the records read
 * when the page says it is the last; else only how many were read, never as if that were the count.
 */
function countOf(doc: Doc, read: number): string {
	const pageMeta = pageMetaOf(doc);
	const total = pageMeta?.total;
	if (typeof total === 'number') return `${total} in all`;
	const next = isObject(doc.links) ? doc.links.next : undefined;
	const after = pageMeta?.after;
	const pointsOn = typeof next === 'string' || typeof after === 'string';
	if (!pointsOn && (next === null || after === null)) return `${read} in all`;
	return `${plural(read, 'record')} on the first page, no total given`;
}

export const listRoutes: CheckSpec = {
	check: 'list-routes',
	title: 'The lists /accounts, /groups, /users, /jobs and /storages answer JSON:API lists',
	async run(probe) {
		const seen: string[] = [];
		const failed: string[] = [];
		let undecided = 0;
		for (const { type } of COLLECTIONS) {
			const page = await probe.firstOfOne(type);
			if (page.ok) {
				seen.push(`/${type}: ${countOf(page.doc, page.records.length)}`);
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
			fix: 'The nodes read these lists at <Base URL>/accounts, /groups, /users, /jobs and /storages (nodes/shared/api/routes.ts); the operations on a failing one do not work on this deployment. Check the Base URL (a path prefix such as /v2 belongs in it).',
		};
	},
};

export const pageSize: CheckSpec = {
	check: 'page-size',
	title: 'Pages of 100 records (page[limit]=100) are accepted',
	async run(probe) {
		const page = await probe.list('page-size', 'jobs', routes.listJobs(), { 'page[limit]': 100 });
		if (page.ok) {
			if (page.records.length > 100) {
				return { result: 'fail', observed: `GET /jobs?page[limit]=100 returned ${page.records.length} records.`, fix: 'The service does not keep to page[limit]; report this output to the package maintainers.' };
			}
			const served = deployment.servedPageLimit(probe.ctx, routes.listJobs(), 100);
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

export const pageTotal: CheckSpec = {
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

export const cursorPaging: CheckSpec = {
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
