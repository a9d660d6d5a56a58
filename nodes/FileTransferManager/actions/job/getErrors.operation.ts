import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { JobError } from '../../api/types';
import { jobLocator, returnAllOrLimit } from '../../descriptions/common.descriptions';
import { requireLocatorId, readLimit } from '../../helpers/validate';
import { jobErrorJson } from '../../helpers/jobOutput';
import { subListFailure } from '../../helpers/jobSubList';
import { recordChecker } from '../../helpers/shape';
import { apiRequestAllItems } from '../../transport';
import type { ItemContext } from '../../execution/item';

const properties: INodeProperties[] = [
	jobLocator({ description: 'The job whose errors and warnings to list' }),
	...returnAllOrLimit,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['getErrors'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const jobId = requireLocatorId(this, itemIndex, 'jobId', 'Job');
	const limit = readLimit(this, itemIndex);
	const route = routes.listJobErrors(jobId);
	const check = recordChecker<JobError>(this, 'job-errors', { route, itemIndex });
	try {
		return await apiRequestAllItems<unknown, INodeExecutionData>(this, route, {}, {
			limit,
			item,
			map: (record) => ({ json: jobErrorJson(jobId, check(record)) }),
		});
	} catch (error) {
		// A 404 or 405 for a job that exists: the deployment serves its errors at another route.
		throw await subListFailure(this, error, jobId, 'errors', route, item);
	}
}
