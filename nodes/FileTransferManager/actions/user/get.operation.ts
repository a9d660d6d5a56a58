import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { User } from '../../api/types';
import { userLocator } from '../../descriptions/common.descriptions';
import { flatten, asItems } from '../../helpers/output';
import { requestResource } from '../../helpers/checkedRequests';
import { requireLocatorId } from '../../helpers/validate';
import type { ItemContext } from '../../execution/item';

const properties: INodeProperties[] = [userLocator({ description: 'The user to get' })];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const userId = requireLocatorId(this, itemIndex, 'userId', 'User');
	const record = await requestResource<User>(this, routes.getUser(userId), 'users', { item });
	return asItems([flatten(record)]);
}
