import { routes } from '../../../shared/api/routes';
import type { Account } from '../../../shared/api/types';
import { plainGetMany } from '../../helpers/list';
import { filtersCollection } from '../../../shared/descriptions/common.descriptions';

const SORT_FIELDS = [
	{ name: 'Created At', value: 'createdAt' },
	{ name: 'Name', value: 'name' },
	{ name: 'Updated At', value: 'updatedAt' },
];

const filters = filtersCollection('Only accounts that match all given filters (exact match)', [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Acme Corp',
		description: 'Only accounts with exactly this name',
	},
]);

/** The filters' checks are derived from the collection above: each filter is declared once. */
export const { description, FILTERS, execute } = plainGetMany<Account>({ resource: 'account', route: () => routes.listAccounts(), filters, sortFields: SORT_FIELDS, defaultSort: 'name' });
