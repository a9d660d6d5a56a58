import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { JobTransfer } from '../../api/types';
import { jobLocator, returnAllOrLimit } from '../../descriptions/common.descriptions';
import { requireLocatorId } from '../../helpers/jobBody';
import { transferJson } from '../../helpers/jobOutput';
import { requirePositiveInteger } from '../../helpers/validate';
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
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll
		? undefined
		: requirePositiveInteger(this, itemIndex, 'Limit', this.getNodeParameter('limit', itemIndex, 50));
	const transfers = await apiRequestAllItems<JobTransfer>(this, routes.listJobTransfers(jobId), {}, {
		limit,
		itemIndex,
	});
	return transfers.map((transfer) => ({ json: transferJson(jobId, transfer) }));
}
