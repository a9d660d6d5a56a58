import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import { groupLocator } from '../../descriptions/common.descriptions';
import { requireLocatorId } from '../../helpers/validate';
import { apiRequest } from '../../transport';
import type { ItemContext } from '../../execution/item';

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
