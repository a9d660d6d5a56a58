import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../shared/api/routes';
import type { AnyResource, ResourceType } from '../../shared/api/types';
import { RESOURCE_TYPES } from '../../shared/api/types';
import type { ItemContext } from '../../shared/execution/item';
import { apiRequestAllItems } from '../../shared/transport';
import { flatten } from '../../shared/answers/output';
import { filterChecker, orderChecker } from '../../shared/answers/listChecks';
import { recordChecker } from '../../shared/answers/shape';
import { returnAllOrLimit } from '../../shared/descriptions/common.descriptions';
import type { FilterSpec } from '../../shared/input/filters';
import { filterQuery, filterSpecsOf } from '../../shared/input/filters';
import { readLimit } from '../../shared/input/validate';
import { sortCollection, sortParameter } from './sort';

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
	item: ItemContext,
	route: Route,
	filterQs: IDataObject,
	sortFields: ReadonlyArray<{ value: string }>,
	toJson: (record: T) => IDataObject = flatten,
): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
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
		item,
		map: (record) => {
			const checked = check(record);
			filtered(checked);
			ordered(checked);
			return { json: toJson(checked) };
		},
	});
}

/** What a plain Get Many is made of: its resource, route, Filters collection and sort fields. */
interface GetManySpec {
	resource: string;
	route: () => Route;
	/** The Filters collection, declared in the operation's file; each filter's checks are derived from it. */
	filters: INodeProperties;
	sortFields: Array<{ name: string; value: string }>;
	defaultSort: string;
}

/**
 * A Get Many with nothing of its own beyond its filters: Return All / Limit, the Filters collection and Sort;
 * the filter query built and checked from the collection (filterSpecsOf), then getManyRecords.
 */
export function plainGetMany<T extends AnyResource>(
	spec: GetManySpec,
): {
	description: INodeProperties[];
	FILTERS: FilterSpec[];
	execute: (this: IExecuteFunctions, item: ItemContext) => Promise<INodeExecutionData[]>;
} {
	const FILTERS = filterSpecsOf(spec.filters);
	return {
		description: updateDisplayOptions({ show: { resource: [spec.resource], operation: ['getMany'] } }, [
			...returnAllOrLimit,
			spec.filters,
			sortCollection(spec.sortFields, spec.defaultSort),
		]),
		FILTERS,
		async execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
			const qs = filterQuery(this, item.index, this.getNodeParameter('filters', item.index, {}), FILTERS);
			return await getManyRecords<T>(this, item, spec.route(), qs, spec.sortFields);
		},
	};
}
