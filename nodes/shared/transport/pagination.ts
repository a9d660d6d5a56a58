/**
 * Lists: following the service's cursors page by page, with a stop where a page does not advance.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Route } from '../api/routes';
import type { ListDocument } from '../api/types';
import { PAGE_LIMIT_MAX } from '../api/types';
import { itemError } from '../execution/operationError';
import type { RequestItem, RequestParams } from './request';
import { apiRequest } from './request';
import { servedPageLimit } from './adaptations';
import { CONFIGURATION_INVALID, declareFailure } from '../execution/declareFailure';
import type { ApiContext, TransportSettings } from './settings';

export interface PageOptions<T = unknown, U = T> {
	/** Stop once this many records are collected; undefined for all. */
	limit?: number;
	/** The item the list is read for: its index is named in errors; once it is stopped, no further page is asked for. */
	item?: RequestItem;
	settings?: Partial<TransportSettings>;
	/** Turns each record into what is kept, page by page, so that the raw pages need not all stay in memory. */
	map?: (record: T) => U;
}

/** How to ask for the next page: the service's own link, or its cursor as `page[after]`. */
export type NextPage = { url: string } | { after: string };

/**
 * Where a list page says the next page is, or null on the last page. `links.next` (an absolute URL) is
 * followed when the service gives one, whatever it calls its cursor; else `meta.page.after`. A full page
 * that gives neither (not even `after: null`) leaves it unknown whether more records exist: that is an
 * error, never a list cut short in silence. A total (`meta.page.total`) is never needed.
 */
export function nextPageOf(
	ctx: ApiContext,
	document: unknown,
	requested: number,
	route: Route,
	itemIndex?: number,
): NextPage | null {
	const doc = (document ?? {}) as { data?: unknown; meta?: { page?: { after?: unknown } }; links?: { next?: unknown } };
	const link = doc.links && typeof doc.links === 'object' ? doc.links.next : undefined;
	if (typeof link === 'string' && link !== '') return { url: link };
	const page = doc.meta && typeof doc.meta === 'object' ? doc.meta.page : undefined;
	const after = page && typeof page === 'object' ? page.after : undefined;
	if (typeof after === 'string' && after !== '') return { after };
	const told = link === null || after === null;
	const count = Array.isArray(doc.data) ? doc.data.length : 0;
	if (!told && count >= requested) {
		const error = itemError(
			ctx.getNode(),
			`The service sent a full page of ${route.path} without a way to the next one`,
			itemIndex,
			{
				description:
					'The page has neither links.next nor meta.page.after (not even null), so it cannot be told whether more records exist. Nothing was returned, so that no partial list passes for a complete one. Your deployment pages differently from the API contract: run API › Check Compatibility.',
			},
		);
		throw declareFailure(error, CONFIGURATION_INVALID);
	}
	return null;
}

/** The request options for one page: the first, or the one `next` points to. */
export function pageRequest(qs: IDataObject, limit: number, next: NextPage | null): Pick<RequestParams, 'qs' | 'url'> {
	if (next && 'url' in next) return { url: next.url };
	const pageQs: IDataObject = { ...qs, 'page[limit]': limit };
	if (next) pageQs['page[after]'] = next.after;
	return { qs: pageQs };
}

function stepKey(next: NextPage): string {
	return 'url' in next ? `url:${next.url}` : `after:${next.after}`;
}

/**
 * Follows the service's pages (`links.next`, else `meta.page.after` cursors). Requests pages of 100 (or
 * fewer when a limit is near) and stops as soon as it has enough. A next page seen twice, or a page that
 * brings no new record, stops with an error instead of looping; a page that fails after its retries fails
 * the whole list (never a partial one).
 */
export async function apiRequestAllItems<T, U = T>(
	ctx: ApiContext,
	route: Route,
	qs: IDataObject = {},
	options: PageOptions<T, U> = {},
): Promise<U[]> {
	const map = options.map ?? ((record: T) => record as unknown as U);
	const results: U[] = [];
	const seen = new Set<string>();
	const ids = new Set<string>();
	let next: NextPage | null = null;
	const itemIndex = options.item?.index;
	const stop = (description: string) =>
		itemError(ctx.getNode(), 'The service returned a page that does not advance; stopped to avoid an endless loop', itemIndex, {
			description: `${description} Nothing was returned, so that no partial list passes for a complete one.`,
		});
	for (;;) {
		const remaining = options.limit === undefined ? PAGE_LIMIT_MAX : options.limit - results.length;
		if (remaining <= 0) break;
		const requested = Math.min(PAGE_LIMIT_MAX, remaining);
		const page = await apiRequest<ListDocument<T>>(ctx, route, {
			...pageRequest(qs, requested, next),
			item: options.item,
			settings: options.settings,
		});
		if (!Array.isArray(page?.data)) {
			throw itemError(ctx.getNode(), `The service answered ${route.method} ${route.path} with a list without a "data" array`, itemIndex, {
				description: 'The answer does not have the shape of a JSON:API list, so nothing was read from it.',
			});
		}
		let fresh = 0;
		for (const record of page.data) {
			const id = (record as { id?: unknown })?.id;
			if (typeof id !== 'string' || !ids.has(id)) fresh++;
			if (typeof id === 'string') ids.add(id);
			if (options.limit !== undefined && results.length >= options.limit) continue;
			results.push(map(record));
		}
		if (options.limit !== undefined && results.length >= options.limit) break;
		// What the service reports as page size may be smaller than asked (a deployment maximum).
		const following = nextPageOf(ctx, page, Math.min(requested, servedPageLimit(ctx, route, requested)), route, itemIndex);
		if (following === null) break;
		const key = stepKey(following);
		if (seen.has(key)) {
			throw stop(`The next page "${'url' in following ? following.url : following.after}" came back after ${results.length} records.`);
		}
		if (fresh === 0) {
			throw stop(
				page.data.length === 0
					? `An empty page still pointed to a next page after ${results.length} records.`
					: `A page repeated records already listed, after ${results.length} records.`,
			);
		}
		seen.add(key);
		next = following;
	}
	return results;
}
