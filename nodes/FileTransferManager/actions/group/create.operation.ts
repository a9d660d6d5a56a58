import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { CreateBody, Group, GroupCreateAttributes } from '../../../shared/api/types';
import { accountLocator } from '../../../shared/descriptions/common.descriptions';
import { CREATE_OUTPUT_KEYS, flatten, asItems } from '../../../shared/answers/output';
import { MAX_NAME_LENGTH, requireLocatorId, requireMaxLength, requireNonEmpty } from '../../../shared/input/validate';
import { createRecord } from '../../helpers/recordCreate';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [
	accountLocator({ description: 'The account the new group belongs to' }),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Finance',
		description: 'Name of the new group',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const accountId = requireLocatorId(this, itemIndex, 'accountId', 'Account');
	const name = requireMaxLength(
		this,
		itemIndex,
		'Name',
		requireNonEmpty(this, itemIndex, 'Name', this.getNodeParameter('name', itemIndex, '')),
		MAX_NAME_LENGTH,
	);
	// deploymentId is deprecated but older servers read only it, so both carry the account.
	const body: CreateBody<'groups', GroupCreateAttributes> = {
		data: { type: 'groups', attributes: { accountId, deploymentId: accountId, name } },
	};
	// Group names are not unique, so a create repeated after a lost answer would make a second group.
	const { record, recovered } = await createRecord<Group>(
		this,
		{
			noun: 'group',
			type: 'groups',
			createRoute: routes.createGroup(),
			listRoute: routes.listGroups(),
			body: body as unknown as IDataObject,
			candidateFilters: { 'filter[accountId]': accountId, 'filter[name]': name },
			matches: (group) => group.attributes.name === name && group.attributes.accountId === accountId,
			lookHint: 'Group → Get Many (filter by account and name)',
		},
		item,
	);
	const json = flatten(record, {}, CREATE_OUTPUT_KEYS);
	if (recovered) json.recoveredAfterAmbiguousError = true;
	return asItems([json]);
}
