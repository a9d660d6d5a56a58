import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { Group } from '../../../shared/api/types';
import { groupLocator } from '../../../shared/descriptions/common.descriptions';
import { flatten, asItems } from '../../../shared/answers/output';
import { requestResource } from '../../../shared/answers/checkedRequests';
import { requireLocatorId } from '../../../shared/input/validate';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [groupLocator({ description: 'The group to get' })];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const groupId = requireLocatorId(this, itemIndex, 'groupId', 'Group');
	const record = await requestResource<Group>(this, routes.getGroup(groupId), 'groups', { item });
	return asItems([flatten(record)]);
}
