import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { Account } from '../../../shared/api/types';
import { accountLocator } from '../../../shared/descriptions/common.descriptions';
import { flatten, asItems } from '../../../shared/answers/output';
import { requestResource } from '../../../shared/answers/checkedRequests';
import { requireLocatorId } from '../../../shared/input/validate';
import type { ItemContext } from '../../../shared/execution/item';

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
