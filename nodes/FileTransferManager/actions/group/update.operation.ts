import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { GroupAttributes } from '../../../shared/api/types';
import { groupLocator } from '../../../shared/descriptions/common.descriptions';
import { updateRecord } from '../../helpers/recordUpdate';
import { requireLocatorId, requireNonEmpty } from '../../../shared/input/validate';
import type { ItemContext } from '../../../shared/execution/item';

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	description: 'Fields to change; fields left out keep their current value',
	options: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Finance',
			description: 'New name of the group',
		},
	],
};

const properties: INodeProperties[] = [groupLocator({ description: 'The group to update' }), updateFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const groupId = requireLocatorId(this, itemIndex, 'groupId', 'Group');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const attributes: Partial<Pick<GroupAttributes, 'name'>> = {};
	if (fields.name !== undefined) attributes.name = requireNonEmpty(this, itemIndex, 'Name', fields.name);
	return await updateRecord(this, item, {
		type: 'groups',
		id: groupId,
		route: routes.updateGroup(groupId),
		attributes,
		updateFields,
	});
}
