import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { UserUpdateAttributes } from '../../../shared/api/types';
import { userLocator } from '../../../shared/descriptions/common.descriptions';
import { updateRecord } from '../../helpers/recordUpdate';
import { requireLocatorId, requireNonEmpty, requireTimeZone } from '../../../shared/input/validate';
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
			displayName: 'First Name',
			name: 'firstName',
			type: 'string',
			default: '',
			placeholder: 'e.g. Ada',
			description: 'New first name of the user',
		},
		{
			displayName: 'Last Name',
			name: 'lastName',
			type: 'string',
			default: '',
			placeholder: 'e.g. Lovelace',
			description: 'New last name of the user',
		},
		{
			displayName: 'Time Zone',
			name: 'timezone',
			type: 'string',
			default: '',
			placeholder: 'e.g. Europe/Berlin',
			description: 'New time zone of the user, as an IANA time-zone name such as Europe/Berlin or America/New_York',
		},
	],
};

const properties: INodeProperties[] = [userLocator({ description: 'The user to update' }), updateFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const userId = requireLocatorId(this, itemIndex, 'userId', 'User');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const attributes: UserUpdateAttributes = {};
	if (fields.firstName !== undefined) {
		attributes.firstName = requireNonEmpty(this, itemIndex, 'First Name', fields.firstName);
	}
	if (fields.lastName !== undefined) {
		attributes.lastName = requireNonEmpty(this, itemIndex, 'Last Name', fields.lastName);
	}
	if (fields.timezone !== undefined) {
		attributes.timezone = requireTimeZone(this, itemIndex, 'Time Zone', fields.timezone);
	}
	return await updateRecord(this, item, {
		type: 'users',
		id: userId,
		route: routes.updateUser(userId),
		attributes,
		updateFields,
	});
}
