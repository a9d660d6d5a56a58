import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { JobError } from '../../../shared/api/types';
import { jobLocator, returnAllOrLimit } from '../../../shared/descriptions/common.descriptions';
import { requireLocatorId, readLimit } from '../../../shared/input/validate';
import { jobErrorJson } from '../../helpers/jobOutput';
import { subListFailure } from '../../../shared/jobs/jobSubList';
import { recordChecker } from '../../../shared/answers/shape';
import { apiRequestAllItems } from '../../../shared/transport';
import type { ItemContext } from '../../../shared/execution/item';

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
