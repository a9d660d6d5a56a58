import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { CreateBody, User, UserCreateAttributes } from '../../../shared/api/types';
import { accountLocator, groupLocator } from '../../../shared/descriptions/common.descriptions';
import { CREATE_OUTPUT_KEYS, flatten, asItems } from '../../../shared/answers/output';
import {
	locatorValue,
	MAX_EMAIL_LENGTH,
	optionalUuid,
	requireEmail,
	requireLocatorId,
	requireMaxLength,
	requireTimeZone,
} from '../../../shared/input/validate';
import { createRecord } from '../../helpers/recordCreate';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [
	{
		displayName:
			'The user is created as a stub without a password: nobody can sign in as this user until an administrator grants access in the administrative dashboard of the service',
		name: 'stubNotice',
		type: 'notice',
		default: '',
	},
	accountLocator({ description: 'The account the new user belongs to' }),
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'E-mail address of the new user; unique within the account',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'First Name',
				name: 'firstName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Ada',
				description: 'First name of the user',
			},
			groupLocator({ required: false, description: 'Group the user belongs to' }),
			{
				displayName: 'Last Name',
				name: 'lastName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Lovelace',
				description: 'Last name of the user',
			},
			{
				displayName: 'Time Zone',
				name: 'timezone',
				type: 'string',
				default: '',
				placeholder: 'e.g. Europe/Berlin',
				description: 'Time zone of the user, as an IANA time-zone name such as Europe/Berlin or America/New_York',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const accountId = requireLocatorId(this, itemIndex, 'accountId', 'Account');
	const email = requireMaxLength(
		this,
		itemIndex,
		'Email',
		requireEmail(this, itemIndex, 'Email', this.getNodeParameter('email', itemIndex, '')),
		MAX_EMAIL_LENGTH,
	);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	// deploymentId is deprecated but older servers read only it, so both carry the account.
	const attributes: UserCreateAttributes = { accountId, deploymentId: accountId, email };
	if (fields.firstName !== undefined) attributes.firstName = String(fields.firstName);
	if (fields.lastName !== undefined) attributes.lastName = String(fields.lastName);
	const groupId = optionalUuid(this, itemIndex, 'Group', locatorValue(fields.groupId), 'additionalFields.groupId');
	if (groupId) attributes.groupId = groupId;
	if (fields.timezone !== undefined && fields.timezone !== '') {
		attributes.timezone = requireTimeZone(this, itemIndex, 'Time Zone', fields.timezone);
	}
	const body: CreateBody<'users', UserCreateAttributes> = { data: { type: 'users', attributes } };
	// E-mail addresses are unique per account: a user listed with it that was not there before is this one.
	const { record, recovered } = await createRecord<User>(
		this,
		{
			noun: 'user',
			type: 'users',
			createRoute: routes.createUser(),
			listRoute: routes.listUsers(),
			body: body as unknown as IDataObject,
			candidateFilters: { 'filter[accountId]': accountId, 'filter[email]': email },
			matches: (user) =>
				typeof user.attributes.email === 'string' &&
				user.attributes.email.toLowerCase() === email.toLowerCase() &&
				user.attributes.accountId === accountId,
			lookHint: 'User → Get Many (filter by account and e-mail)',
		},
		item,
	);
	const json = flatten(record, {}, CREATE_OUTPUT_KEYS);
	if (recovered) json.recoveredAfterAmbiguousError = true;
	return asItems([json]);
}
