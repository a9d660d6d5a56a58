import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Document, Job } from '../../api/types';
import { jobLocator } from '../../descriptions/common.descriptions';
import { requireLocatorId } from '../../helpers/validate';
import { jobJson, readSimplify, simplifyJobProperty } from '../../helpers/jobOutput';
import { apiRequest } from '../../transport';

const properties: INodeProperties[] = [
	jobLocator({ description: 'The job to get' }),
	simplifyJobProperty,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const jobId = requireLocatorId(this, itemIndex, 'jobId', 'Job');
	const simplify = readSimplify(this, itemIndex);
	const document = await apiRequest<Document<Job>>(this, routes.getJob(jobId), { itemIndex });
	return [{ json: jobJson(document.data, simplify) }];
}
