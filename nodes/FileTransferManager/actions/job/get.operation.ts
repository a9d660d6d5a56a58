import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { Job } from '../../../shared/api/types';
import { jobLocator } from '../../../shared/descriptions/common.descriptions';
import { requestResource } from '../../../shared/answers/checkedRequests';
import { requireLocatorId } from '../../../shared/input/validate';
import { jobItemJson, readJobShape, simplifyJobProperty, jobToolOutputProperties } from '../../helpers/jobOutput';
import type { ItemContext } from '../../../shared/execution/item';

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
