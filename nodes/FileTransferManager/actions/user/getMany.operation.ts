import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { User } from '../../../shared/api/types';
import { accountLocator, filtersCollection, groupLocator, returnAllOrLimit } from '../../../shared/descriptions/common.descriptions';
import { filterQuery, filterSpecsOf } from '../../../shared/input/filters';
import { requireEmail } from '../../../shared/input/validate';
import { sortCollection } from '../../helpers/sort';
import { getManyRecords } from '../../helpers/list';
import type { ItemContext } from '../../../shared/execution/item';

const SORT_FIELDS = [
	{ name: 'Created At', value: 'createdAt' },
	{ name: 'Email', value: 'email' },
	{ name: 'First Name', value: 'firstName' },
	{ name: 'Last Name', value: 'lastName' },
	{ name: 'Updated At', value: 'updatedAt' },
];

const filters = filtersCollection('Only users that match all given filters (exact match)', [
	accountLocator({ required: false, description: 'Only users of this account' }),
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Only the user with exactly this e-mail address',
	},
	groupLocator({ required: false, description: 'Only users in this group' }),
]);

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filters,
	sortCollection(SORT_FIELDS, 'email'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['getMany'] } },
	properties,
);

/** The specs of the Filters collection: each filter is declared once, above. */
export const FILTERS = filterSpecsOf(filters);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const qs = filterQuery(this, itemIndex, this.getNodeParameter('filters', itemIndex, {}), FILTERS);
	// An e-mail filter must be an address: a typo would otherwise just find nobody.
	if (qs['filter[email]'] !== undefined) {
		qs['filter[email]'] = requireEmail(this, itemIndex, 'Filters → Email', qs['filter[email]']);
	}
	return await getManyRecords<User>(this, item, routes.listUsers(), qs, SORT_FIELDS);
}
