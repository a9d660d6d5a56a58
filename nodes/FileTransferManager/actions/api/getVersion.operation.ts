import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../api/routes';
import type { VersionDocument } from '../../api/types';
import { apiRequest } from '../../transport';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['api'], operation: ['getVersion'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const document = await apiRequest<Partial<VersionDocument>>(this, routes.apiVersion(), { itemIndex });
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
