import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { jobLocator } from '../../../shared/descriptions/common.descriptions';
import { jobToolOutputProperties, statusJobJson } from '../../helpers/jobOutput';
import { setJobStatus } from '../../helpers/jobStatus';
import { waitForJob, waitProperties, waitSettingsFromParameters } from '../../helpers/jobWait';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [
	jobLocator({
		description:
			'The paused job to resume; it continues in the stage it was paused in (scanning or running)',
	}),
	...waitProperties,
	...jobToolOutputProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['resume'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const wait = waitSettingsFromParameters(this, itemIndex);
	const resumed = await setJobStatus(this, item, 'running');
	const job = wait ? await waitForJob(this, resumed, wait, item) : resumed;
	return [{ json: statusJobJson(this, job, itemIndex) }];
}
