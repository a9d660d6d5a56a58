import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { routes } from '../../shared/api/routes';
import type { Job, SettableJobStatus, UpdateBody } from '../../shared/api/types';
import type { ItemContext } from '../../shared/execution/item';
import { requestResource } from '../../shared/answers/checkedRequests';
import { requireLocatorId } from '../../shared/input/validate';

/** PATCH /jobs/{id} with a new status for the item's Job; safe to repeat, since it sets an absolute value. */
export async function setJobStatus(
	ctx: IExecuteFunctions,
	item: ItemContext,
	status: SettableJobStatus,
): Promise<Job> {
	const jobId = requireLocatorId(ctx, item.index, 'jobId', 'Job');
	const body: UpdateBody<'jobs', { status: SettableJobStatus }> = {
		data: { id: jobId, type: 'jobs', attributes: { status } },
	};
	return await requestResource<Job>(ctx, routes.updateJob(jobId), 'jobs', {
		body: body as unknown as IDataObject,
		item,
		idempotent: true,
	});
}
