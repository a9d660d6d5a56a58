import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Storage, StorageType } from '../../api/types';
import { STORAGE_TYPES } from '../../api/types';
import { returnAllOrLimit } from '../../descriptions/common.descriptions';
import { filterQuery, filterSpecsOf, sortCollection } from '../../helpers/validate';
import { getManyRecords } from '../../helpers/list';

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

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Only storages that match all given filters (exact match)',
	options: [
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
	],
};

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filters,
	sortCollection(SORT_FIELDS, 'name'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['storage'], operation: ['getMany'] } },
	properties,
);

/** The specs of the Filters collection: each filter is declared once, above. */
export const FILTERS = filterSpecsOf(filters);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const qs = filterQuery(this, itemIndex, this.getNodeParameter('filters', itemIndex, {}), FILTERS);
	return await getManyRecords<Storage>(this, itemIndex, routes.listStorages(), qs, SORT_FIELDS);
}
