import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { UpdateBody, User, UserUpdateAttributes } from '../../api/types';
import { userLocator } from '../../descriptions/common.descriptions';
import { flatten, asItems } from '../../helpers/output';
import { requestResource } from '../../helpers/checkedRequests';
import { invalidInput, requireLocatorId, requireNonEmpty, requireTimeZone } from '../../helpers/validate';

const properties: INodeProperties[] = [
	userLocator({ description: 'The user to update' }),
	{
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
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
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
	if (Object.keys(attributes).length === 0) {
		throw invalidInput(
			this,
			itemIndex,
			'"Update Fields"',
			'is empty: add a field to change (First Name, Last Name or Time Zone)',
			'An update needs at least one field; nothing was sent.',
		);
	}
	const body: UpdateBody<'users', UserUpdateAttributes> = { data: { id: userId, type: 'users', attributes } };
	// The PATCH sets absolute values, so repeating it after an ambiguous failure is harmless.
	const record = await requestResource<User>(this, routes.updateUser(userId), 'users', {
		body: body as unknown as IDataObject,
		itemIndex,
		idempotent: true,
	});
	return asItems([flatten(record)]);
}
