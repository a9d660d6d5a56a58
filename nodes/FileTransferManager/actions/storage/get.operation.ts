import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { Storage } from '../../../shared/api/types';
import { storageLocator } from '../../../shared/descriptions/common.descriptions';
import { flatten, asItems } from '../../../shared/answers/output';
import { requestResource } from '../../../shared/answers/checkedRequests';
import { requireLocatorId } from '../../../shared/input/validate';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [
	storageLocator('storageId', 'Storage', { description: 'The storage to get, with its capacity' }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['storage'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const storageId = requireLocatorId(this, itemIndex, 'storageId', 'Storage');
	const record = await requestResource<Storage>(this, routes.getStorage(storageId), 'storages', { item });
	return asItems([flatten(record)]);
}
