import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { VersionDocument } from '../../../shared/api/types';
import { apiRequest } from '../../../shared/transport';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['api'], operation: ['getVersion'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const document = await apiRequest<Partial<VersionDocument>>(this, routes.apiVersion(), { item });
	// `root` is the document as the service sent it, for deployments that report their version elsewhere.
	return [
		{
			json: {
				apiVersion: document.meta?.apiVersion ?? null,
				jsonapiVersion: document.jsonapi?.version ?? null,
				root: document as IDataObject,
			},
		},
	];
}
