import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { jobLocator } from '../../../shared/descriptions/common.descriptions';
import { jobToolOutputProperties, statusJobJson } from '../../helpers/jobOutput';
import { setJobStatus } from '../../helpers/jobStatus';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [
	jobLocator({
		description:
			'The job to cancel; any job that is not finished, failed or canceled. Canceling is final: a canceled job cannot be resumed.',
	}),
	...jobToolOutputProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['cancel'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	return [{ json: statusJobJson(this, await setJobStatus(this, item, 'canceled'), item.index) }];
}
