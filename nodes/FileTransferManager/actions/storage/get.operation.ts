import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Storage } from '../../api/types';
import { storageLocator } from '../../descriptions/common.descriptions';
import { flatten, asItems } from '../../helpers/output';
import { requestResource } from '../../helpers/checkedRequests';
import { requireLocatorId } from '../../helpers/validate';
import type { ItemContext } from '../../execution/item';

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
