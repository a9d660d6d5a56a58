import type { INodeProperties } from 'n8n-workflow';

import * as getVersion from './getVersion.operation';

export { getVersion };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['api'] } },
		options: [
			{
				name: 'Get Version',
				value: 'getVersion',
				description: 'Get the version of the API the service runs',
				action: 'Get the API version',
			},
		],
		default: 'getVersion',
	},
	...getVersion.description,
];
