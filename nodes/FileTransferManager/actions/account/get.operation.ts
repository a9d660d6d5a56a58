import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Account } from '../../api/types';
import { accountLocator } from '../../descriptions/common.descriptions';
import { flatten, asItems } from '../../helpers/output';
import { requestResource } from '../../helpers/checkedRequests';
import { requireLocatorId } from '../../helpers/validate';
import type { ItemContext } from '../../execution/item';

const properties: INodeProperties[] = [accountLocator({ description: 'The account to get' })];

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const accountId = requireLocatorId(this, itemIndex, 'accountId', 'Account');
	const record = await requestResource<Account>(this, routes.getAccount(accountId), 'accounts', { item });
	return asItems([flatten(record)]);
}
