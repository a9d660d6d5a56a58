import { routes } from '../../../shared/api/routes';
import type { Storage, StorageType } from '../../../shared/api/types';
import { STORAGE_TYPES } from '../../../shared/api/types';
import { plainGetMany } from '../../helpers/list';
import { filtersCollection } from '../../../shared/descriptions/common.descriptions';

const TYPE_NAMES: Record<StorageType, string> = {
	file: 'File Share',
	'object-aws': 'Object Storage (AWS S3)',
};

const SORT_FIELDS = [
	{ name: 'Created At', value: 'createdAt' },
	{ name: 'Name', value: 'name' },
	{ name: 'Status', value: 'status' },
	{ name: 'Type', value: 'type' },
	{ name: 'Updated At', value: 'updatedAt' },
];

const filters = filtersCollection('Only storages that match all given filters (exact match)', [
	{
		displayName: 'Enabled',
		name: 'enabled',
		type: 'boolean',
		default: true,
		description: 'Whether to return only enabled storages (on) or only disabled ones (off)',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Archive',
		description: 'Only storages with exactly this name',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'string',
		default: '',
		placeholder: 'e.g. ready',
		description: 'Only storages in this status, e.g. "ready"',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: STORAGE_TYPES.map((type) => ({ name: TYPE_NAMES[type], value: type })),
		default: 'file',
		description: 'Only storages of this kind',
	},
]);

/** The filters' checks are derived from the collection above: each filter is declared once. */
export const { description, FILTERS, execute } = plainGetMany<Storage>({ resource: 'storage', route: () => routes.listStorages(), filters, sortFields: SORT_FIELDS, defaultSort: 'name' });
