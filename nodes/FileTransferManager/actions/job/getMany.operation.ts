import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	throw new NodeOperationError(this.getNode(), 'Job Get Many is not implemented yet', { itemIndex });
}
