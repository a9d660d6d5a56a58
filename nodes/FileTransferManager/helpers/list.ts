import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Route } from '../api/routes';
import type { AnyResource, ResourceType } from '../api/types';
import { RESOURCE_TYPES } from '../api/types';
import { apiRequestAllItems } from '../transport';
import { flatten } from './output';
import { filterChecker, orderChecker } from './listChecks';
import { recordChecker } from './shape';
import { readLimit, sortParameter } from './validate';

/** The resource type a collection route lists: `/jobs` lists `jobs`. */
function collectionOf(route: Route): ResourceType {
	const segment = route.path.split('/')[1] as ResourceType;
	if (!RESOURCE_TYPES.includes(segment)) throw new Error(`No resource type for the route ${route.path}`);
	return segment;
}

/**
 * The common part of every Get Many: Return All / Limit and the Sort collection read and checked, then
 * the list paged with the given filter query, one output item per record.
 */
export async function getManyRecords<T extends AnyResource>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	route: Route,
	filterQs: IDataObject,
	sortFields: ReadonlyArray<{ value: string }>,
	toJson: (record: T) => IDataObject = flatten,
): Promise<INodeExecutionData[]> {
	const limit = readLimit(ctx, itemIndex);
	const sort = sortParameter(
		ctx,
		itemIndex,
		ctx.getNodeParameter('sort', itemIndex, {}),
		sortFields.map((field) => field.value),
	);
	const qs = sort ? { ...filterQs, sort } : filterQs;
	const check = recordChecker<T>(ctx, collectionOf(route), { route, itemIndex });
	const filtered = filterChecker(ctx, qs, itemIndex);
	const ordered = sort ? orderChecker(ctx, sort, itemIndex) : () => undefined;
	return await apiRequestAllItems<unknown, INodeExecutionData>(ctx, route, qs, {
		limit,
		itemIndex,
		map: (record) => {
			const checked = check(record);
			filtered(checked);
			ordered(checked);
			return { json: toJson(checked) };
		},
	});
}
