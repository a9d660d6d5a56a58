import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Group } from '../../api/types';
import { accountLocator, returnAllOrLimit } from '../../descriptions/common.descriptions';
import { filterQuery, filterSpecsOf, sortCollection } from '../../helpers/validate';
import { getManyRecords } from '../../helpers/list';

const SORT_FIELDS = [
	{ name: 'Account ID', value: 'accountId' },
	{ name: 'Created At', value: 'createdAt' },
	{ name: 'Name', value: 'name' },
	{ name: 'Updated At', value: 'updatedAt' },
];

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Only groups that match all given filters (exact match)',
	options: [
		accountLocator({ required: false, description: 'Only groups of this account' }),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Finance',
			description: 'Only groups with exactly this name',
		},
	],
};

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filters,
	sortCollection(SORT_FIELDS, 'name'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['getMany'] } },
	properties,
);

/** The specs of the Filters collection: each filter is declared once, above. */
export const FILTERS = filterSpecsOf(filters);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const qs = filterQuery(this, itemIndex, this.getNodeParameter('filters', itemIndex, {}), FILTERS);
	return await getManyRecords<Group>(this, itemIndex, routes.listGroups(), qs, SORT_FIELDS);
}
