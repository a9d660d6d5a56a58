import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { Account, Document } from '../../api/types';
import { accountLocator } from '../../descriptions/common.descriptions';
import { flatten, toItems } from '../../helpers/output';
import { requireLocatorId } from '../../helpers/validate';
import { apiRequest } from '../../transport';

const properties: INodeProperties[] = [accountLocator({ description: 'The account to get' })];

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const accountId = requireLocatorId(this, itemIndex, 'accountId', 'Account');
	const document = await apiRequest<Document<Account>>(this, routes.getAccount(accountId), { itemIndex });
	return toItems([flatten(document.data)]);
}
