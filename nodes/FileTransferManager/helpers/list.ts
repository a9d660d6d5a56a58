import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Route } from '../api/routes';
import type { AnyResource } from '../api/types';
import { apiRequestAllItems } from '../transport';
import { flatten } from './output';
import { readLimit, sortParameter } from './validate';

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
	return await apiRequestAllItems<T, INodeExecutionData>(ctx, route, qs, {
		limit,
		itemIndex,
		map: (record) => ({ json: toJson(record) }),
	});
}
