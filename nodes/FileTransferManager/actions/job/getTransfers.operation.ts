import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { JobTransfer } from '../../api/types';
import { jobLocator, returnAllOrLimit } from '../../descriptions/common.descriptions';
import { requireLocatorId, readLimit } from '../../helpers/validate';
import { transferJson } from '../../helpers/jobOutput';
import { apiRequestAllItems } from '../../transport';

const properties: INodeProperties[] = [
	jobLocator({ description: 'The job whose per-file transfer records to list' }),
	...returnAllOrLimit,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['getTransfers'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const jobId = requireLocatorId(this, itemIndex, 'jobId', 'Job');
	const limit = readLimit(this, itemIndex);
	const transfers = await apiRequestAllItems<JobTransfer>(this, routes.listJobTransfers(jobId), {}, {
		limit,
		itemIndex,
	});
	return transfers.map((transfer) => ({ json: transferJson(jobId, transfer) }));
}
