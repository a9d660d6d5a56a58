import { routes } from '../../../shared/api/routes';
import type { Group } from '../../../shared/api/types';
import { accountLocator, filtersCollection } from '../../../shared/descriptions/common.descriptions';
import { plainGetMany } from '../../helpers/list';

const SORT_FIELDS = [
	{ name: 'Account ID', value: 'accountId' },
	{ name: 'Created At', value: 'createdAt' },
	{ name: 'Name', value: 'name' },
	{ name: 'Updated At', value: 'updatedAt' },
];

const filters = filtersCollection('Only groups that match all given filters (exact match)', [
	accountLocator({ required: false, description: 'Only groups of this account' }),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Finance',
		description: 'Only groups with exactly this name',
	},
]);

/** The filters' checks are derived from the collection above: each filter is declared once. */
export const { description, FILTERS, execute } = plainGetMany<Group>({ resource: 'group', route: () => routes.listGroups(), filters, sortFields: SORT_FIELDS, defaultSort: 'name' });
