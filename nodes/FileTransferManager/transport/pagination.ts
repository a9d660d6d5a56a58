/**
 * Lists: following the service's cursors page by page, with a stop where a page does not advance.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Route } from '../api/routes';
import type { ListDocument } from '../api/types';
import { PAGE_LIMIT_MAX } from '../api/types';
import { operationError } from '../helpers/errors';
import { apiRequest } from './request';
import type { ApiContext, TransportSettings } from './settings';

function itemOptions(itemIndex: number | undefined): { itemIndex?: number } {
	return itemIndex === undefined ? {} : { itemIndex };
}

export interface PageOptions<T = unknown, U = T> {
	/** Stop once this many records are collected; undefined for all. */
	limit?: number;
	itemIndex?: number;
	settings?: Partial<TransportSettings>;
	/** Turns each record into what is kept, page by page, so that the raw pages need not all stay in memory. */
	map?: (record: T) => U;
}

/**
 * Follows `meta.page.after` cursors. Requests pages of 100 (or fewer when a limit is near) and stops as
 * soon as it has enough. A cursor seen twice, or a page that brings no new record, stops with an error
 * instead of looping; a page that fails after its retries fails the whole list (never a partial one).
 */
export async function apiRequestAllItems<T, U = T>(
	ctx: ApiContext,
	route: Route,
	qs: IDataObject = {},
	options: PageOptions<T, U> = {},
): Promise<U[]> {
	const map = options.map ?? ((record: T) => record as unknown as U);
	const results: U[] = [];
	const cursors = new Set<string>();
	const ids = new Set<string>();
	let after: string | null = null;
	const stop = (description: string) =>
		operationError(
			ctx.getNode(),
			`The service returned a page that does not advance; stopped to avoid an endless loop${
				options.itemIndex === undefined ? '' : ` [item ${options.itemIndex}]`
			}`,
			{
				description: `${description} Nothing was returned, so that no partial list passes for a complete one.`,
				...itemOptions(options.itemIndex),
			},
		);
	for (;;) {
		const remaining = options.limit === undefined ? PAGE_LIMIT_MAX : options.limit - results.length;
		if (remaining <= 0) break;
		const pageQs: IDataObject = { ...qs, 'page[limit]': Math.min(PAGE_LIMIT_MAX, remaining) };
		if (after !== null) pageQs['page[after]'] = after;
		const page = await apiRequest<ListDocument<T>>(ctx, route, {
			qs: pageQs,
			itemIndex: options.itemIndex,
			settings: options.settings,
		});
		if (!Array.isArray(page.data) || !page.meta?.page) {
			throw operationError(ctx.getNode(), 'The service answered a list without data or meta.page', {
				...itemOptions(options.itemIndex),
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
		const next = page.meta.page.after;
		if (next === null || next === undefined) break;
		if (options.limit !== undefined && results.length >= options.limit) break;
		if (cursors.has(next)) {
			throw stop(`Cursor "${next}" came back after ${results.length} records.`);
		}
		if (fresh === 0) {
			throw stop(
				page.data.length === 0
					? `An empty page still pointed to a next page after ${results.length} records.`
					: `A page repeated records already listed, after ${results.length} records.`,
			);
		}
		cursors.add(next);
		after = next;
	}
	return results;
}
