import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { Job } from '../../../shared/api/types';
import { JOB_STATUSES, TRANSFER_TYPES } from '../../../shared/api/types';
import {
	filtersCollection,
	accountLocator,
	groupLocator,
	returnAllOrLimit,
	storageLocator,
	userLocator,
} from '../../../shared/descriptions/common.descriptions';
import { jobItemJson, readJobShape, simplifyJobProperty, jobToolOutputProperties } from '../../helpers/jobOutput';
import { JOB_FILTER_API } from '../../../shared/jobs/jobFilters';
import { filterQuery, filterSpecsOf } from '../../../shared/input/filters';
import { sortCollection } from '../../helpers/sort';
import { getManyRecords } from '../../helpers/list';
import type { ItemContext } from '../../../shared/execution/item';

/** Fields jobs can be sorted on, with their UI names; `stats.*` sorts on the job's statistics. */
export const JOB_SORT_FIELDS = [
	{ name: 'Created At', value: 'createdAt' },
	{ name: 'Estimated Duration (stats.estimatedDuration)', value: 'stats.estimatedDuration' },
	{ name: 'Estimated Finish (stats.estimatedFinishedAt)', value: 'stats.estimatedFinishedAt' },
	{ name: 'Files Count (stats.filesCount)', value: 'stats.filesCount' },
	{ name: 'Files Size (stats.filesSize)', value: 'stats.filesSize' },
	{ name: 'Finished At (stats.finishedAt)', value: 'stats.finishedAt' },
	{ name: 'Name', value: 'name' },
	{ name: 'Scanned Files Count (stats.scannedFilesCount)', value: 'stats.scannedFilesCount' },
	{ name: 'Started At (stats.startedAt)', value: 'stats.startedAt' },
	{ name: 'Status', value: 'status' },
	{ name: 'Transfer Type', value: 'transferType' },
	{ name: 'Transferred Count (stats.transferredCount)', value: 'stats.transferredCount' },
	{ name: 'Transferred Size (stats.transferredSize)', value: 'stats.transferredSize' },
	{ name: 'Updated At', value: 'updatedAt' },
] as const;

const title = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

const filters = filtersCollection('Only jobs that match all of these are returned', [
	accountLocator({ required: false, description: 'Only jobs of this account' }),
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: true,
		description: 'Whether to return only dry-run jobs (on) or only real jobs (off)',
	},
	groupLocator({ required: false, description: 'Only jobs of this group' }),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Only jobs with exactly this name',
	},
	storageLocator('sourceStorageId', 'Source Storage', {
		required: false,
		description: 'Only jobs that read from this storage',
	}),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'running',
		options: JOB_STATUSES.map((status) => ({ name: title(status), value: status })).sort((a, b) =>
			a.name.localeCompare(b.name),
		),
		description: 'Only jobs in this status',
	},
	storageLocator('targetStorageId', 'Target Storage', {
		required: false,
		description: 'Only jobs that write to this storage',
	}),
	{
		displayName: 'Transfer Type',
		name: 'transferType',
		type: 'options',
		default: 'copy',
		options: TRANSFER_TYPES.map((type) => ({ name: title(type), value: type })),
		description: 'Only jobs of this transfer type',
	},
	userLocator({ required: false, description: 'Only jobs started by this user' }),
]);

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filters,
	sortCollection([...JOB_SORT_FIELDS], 'createdAt'),
	simplifyJobProperty,
	...jobToolOutputProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['getMany'] } },
	properties,
);

/** The specs of the Filters collection: each filter is declared once, above. */
export const FILTERS = filterSpecsOf(filters, JOB_FILTER_API);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const qs = filterQuery(this, itemIndex, this.getNodeParameter('filters', itemIndex, {}), FILTERS);
	const shape = readJobShape(this, itemIndex);
	return await getManyRecords<Job>(this, item, routes.listJobs(), qs, JOB_SORT_FIELDS, (job) =>
		jobItemJson(job, shape),
	);
}
