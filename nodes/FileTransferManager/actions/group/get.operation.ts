import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Group } from '../../api/types';
import { groupLocator } from '../../descriptions/common.descriptions';
import { flatten, asItems } from '../../helpers/output';
import { requestResource } from '../../helpers/checkedRequests';
import { requireLocatorId } from '../../helpers/validate';
import type { ItemContext } from '../../execution/item';

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
