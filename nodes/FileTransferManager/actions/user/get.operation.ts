import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { User } from '../../../shared/api/types';
import { userLocator } from '../../../shared/descriptions/common.descriptions';
import { flatten, asItems } from '../../../shared/answers/output';
import { requestResource } from '../../../shared/answers/checkedRequests';
import { requireLocatorId } from '../../../shared/input/validate';
import type { ItemContext } from '../../../shared/execution/item';

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
