import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import { groupLocator } from '../../../shared/descriptions/common.descriptions';
import { requireLocatorId } from '../../../shared/input/validate';
import { apiRequest } from '../../../shared/transport';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [
	groupLocator({
		description: 'The group to delete. Its users are kept and no longer belong to a group.',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['deleteGroup'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const groupId = requireLocatorId(this, itemIndex, 'groupId', 'Group');
	await apiRequest(this, routes.deleteGroup(groupId), { item });
	return [{ json: { id: groupId, deleted: true } }];
}
