/**
 * The requests the operations send for one record or one page of a list: sent through the transport, their
 * answer checked for its shape (shape.ts) before anything reads it.
 */
import type { Route } from '../api/routes';
import type { ResourceType } from '../api/types';
import type { ApiContext, RequestParams } from '../transport';
import { apiRequest } from '../transport';
import type { CheckedPage } from './shape';
import { checkDocument, checkList } from './shape';

/** One request whose answer is a single resource, checked (GET, PATCH or POST of one record). */
export async function requestResource<T>(
	ctx: ApiContext,
	route: Route,
	type: ResourceType,
	params: RequestParams = {},
): Promise<T> {
	const document = await apiRequest<unknown>(ctx, route, params);
	return checkDocument<T>(ctx, document, type, { route, itemIndex: params.item?.index });
}

/** One request whose answer is one page of a list, checked. */
export async function requestPage<T>(
	ctx: ApiContext,
	route: Route,
	type: ResourceType,
	params: RequestParams = {},
): Promise<CheckedPage<T>> {
	const document = await apiRequest<unknown>(ctx, route, params);
	return checkList<T>(ctx, document, type, { route, itemIndex: params.item?.index });
}
