import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import { userLocator } from '../../../shared/descriptions/common.descriptions';
import { requireLocatorId } from '../../../shared/input/validate';
import { apiRequest } from '../../../shared/transport';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [userLocator({ description: 'The user to delete' })];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['deleteUser'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const userId = requireLocatorId(this, itemIndex, 'userId', 'User');
	await apiRequest(this, routes.deleteUser(userId), { item });
	return [{ json: { id: userId, deleted: true } }];
}
