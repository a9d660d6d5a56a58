import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import type { Route } from '../api/routes';
import { routes } from '../api/routes';
import type { AnyResource, ResourceType } from '../api/types';
import { PAGE_LIMIT_MAX } from '../api/types';
import { requestPage } from '../answers/checkedRequests';
import type { NextPage } from '../transport';
import { pages } from '../transport';

/** Marks a pagination token that is the service's links.next URL rather than its cursor. */
const LINK = 'link:';

/** Pages read at most per call while a search text finds nothing, before handing back a cursor. */
const MAX_PAGES_PER_SEARCH = 10;

/**
 * Records matching the search text, filtered on the client since the API filters by exact match only.
 * Reads pages until something matches (up to MAX_PAGES_PER_SEARCH); the pagination token is the
 * API's own cursor, so the picker can go on through everything.
 */
async function searchPage(
	ctx: ILoadOptionsFunctions,
	route: Route,
	type: ResourceType,
	sort: string,
	toItem: (record: AnyResource) => INodeListSearchItems,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	// The token is the service's own way to the next page: its links.next URL, or its cursor.
	let after: string | undefined = paginationToken || undefined;
	for (let searched = 0; searched < MAX_PAGES_PER_SEARCH; searched++) {
		const next: NextPage | null = after === undefined ? null : after.startsWith(LINK) ? { url: after.slice(LINK.length) } : { after };
		// Every record is checked (a UUID id, attributes) before it is offered: its id is used in paths later.
		const page = await requestPage<AnyResource>(ctx, route, type, pages.pageRequest({ sort }, PAGE_LIMIT_MAX, next));
		for (const item of page.data.map(toItem)) {
			if (
				!needle ||
				item.name.toLowerCase().includes(needle) ||
				String(item.value).toLowerCase() === needle
			) {
				results.push(item);
			}
		}
		const following = page.nextUrl ? `${LINK}${page.nextUrl}` : (page.after ?? undefined);
		if (!following || following === after) return { results };
		after = following;
		if (results.length > 0) break;
	}
	return { results, paginationToken: after };
}

type SearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** A list-search method over one collection, sorted so that the picker reads well, labelled per record. */
function searcher(
	route: () => Route,
	type: ResourceType,
	sort: string,
	text: (record: AnyResource) => string,
): SearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		return await searchPage(
			this,
			route(),
			type,
			sort,
			(record) => ({ name: text(record), value: 'id' in record ? record.id : '' }),
			filter,
			paginationToken,
		);
	};
}

export const searchJobs = searcher(routes.listJobs, 'jobs', '-createdAt', (record) => {
	const attributes = record.attributes as { name?: string; status?: string; dryRun?: boolean };
	const name = attributes.name || ('id' in record ? record.id : '');
	return `${name} (${attributes.status}${attributes.dryRun ? ', dry run' : ''})`;
});

export const searchStorages = searcher(routes.listStorages, 'storages', 'name', (record) => {
	const attributes = record.attributes as { name?: string; type?: string };
	return `${attributes.name} (${attributes.type})`;
});

export const searchUsers = searcher(routes.listUsers, 'users', 'email', (record) => {
	const attributes = record.attributes as { email?: string; firstName?: string; lastName?: string };
	const fullName = [attributes.firstName, attributes.lastName].filter(Boolean).join(' ');
	return fullName ? `${fullName} <${attributes.email}>` : String(attributes.email);
});

export const searchGroups = searcher(routes.listGroups, 'groups', 'name', (record) =>
	String((record.attributes as { name?: string }).name),
);

export const searchAccounts = searcher(routes.listAccounts, 'accounts', 'name', (record) =>
	String((record.attributes as { name?: string }).name),
);
