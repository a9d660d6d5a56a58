import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Document, User } from '../../api/types';
import { userLocator } from '../../descriptions/common.descriptions';
import { flatten, toItems } from '../../helpers/output';
import { requireLocatorId } from '../../helpers/validate';
import { apiRequest } from '../../transport';

const properties: INodeProperties[] = [userLocator({ description: 'The user to get' })];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const userId = requireLocatorId(this, itemIndex, 'userId', 'User');
	const document = await apiRequest<Document<User>>(this, routes.getUser(userId), { itemIndex });
	return toItems([flatten(document.data)]);
}
