import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Group, GroupAttributes, UpdateBody } from '../../api/types';
import { groupLocator } from '../../descriptions/common.descriptions';
import { flatten, asItems } from '../../helpers/output';
import { requestResource } from '../../helpers/checkedRequests';
import { invalidInput, requireLocatorId, requireNonEmpty } from '../../helpers/validate';

const properties: INodeProperties[] = [
	groupLocator({ description: 'The group to update' }),
	{
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
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const groupId = requireLocatorId(this, itemIndex, 'groupId', 'Group');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const attributes: Partial<Pick<GroupAttributes, 'name'>> = {};
	if (fields.name !== undefined) attributes.name = requireNonEmpty(this, itemIndex, 'Name', fields.name);
	if (Object.keys(attributes).length === 0) {
		throw invalidInput(
			this,
			itemIndex,
			'"Update Fields"',
			'is empty: add the field to change (Name)',
			'An update needs at least one field; nothing was sent.',
		);
	}
	const body: UpdateBody<'groups', typeof attributes> = {
		data: { id: groupId, type: 'groups', attributes },
	};
	// The PATCH sets absolute values, so repeating it after an ambiguous failure is harmless.
	const record = await requestResource<Group>(this, routes.updateGroup(groupId), 'groups', {
		body: body as unknown as IDataObject,
		itemIndex,
		idempotent: true,
	});
	return asItems([flatten(record)]);
}
