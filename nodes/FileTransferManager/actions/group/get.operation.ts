import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Document, Group } from '../../api/types';
import { groupLocator } from '../../descriptions/common.descriptions';
import { flatten, toItems } from '../../helpers/output';
import { requireLocatorId } from '../../helpers/validate';
import { apiRequest } from '../../transport';

const properties: INodeProperties[] = [groupLocator({ description: 'The group to get' })];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const groupId = requireLocatorId(this, itemIndex, 'groupId', 'Group');
	const document = await apiRequest<Document<Group>>(this, routes.getGroup(groupId), { itemIndex });
	return toItems([flatten(document.data)]);
}
