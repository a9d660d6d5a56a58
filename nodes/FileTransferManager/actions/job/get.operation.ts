import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Job } from '../../api/types';
import { jobLocator } from '../../descriptions/common.descriptions';
import { requestResource } from '../../helpers/checkedRequests';
import { requireLocatorId } from '../../helpers/validate';
import { jobItemJson, readJobShape, simplifyJobProperty, jobToolOutputProperties } from '../../helpers/jobOutput';
import type { ItemContext } from '../../execution/item';

const properties: INodeProperties[] = [
	jobLocator({ description: 'The job to get' }),
	simplifyJobProperty,
	...jobToolOutputProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const jobId = requireLocatorId(this, itemIndex, 'jobId', 'Job');
	const shape = readJobShape(this, itemIndex);
	const record = await requestResource<Job>(this, routes.getJob(jobId), 'jobs', { item });
	return [{ json: jobItemJson(record, shape) }];
}
