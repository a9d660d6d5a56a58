// @ts-nocheck
import type { INodeProperties } from 'n8n-workflow';

import * as checkCompatibility from './checkCompatibility.operation';
import * as getVersion from './getVersion.operation';

export { checkCompatibility, getVersion };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['api'] } },
		options: [
			{
				name: 'Check Compatibility',
				value: 'checkCompatibility',
				description:
					'Probe your deployment (read-only) and output one item per assumption the nodes make about the API: pass, fail or cannot tell, what was seen and what to change',
				action: 'Check the API for compatibility',
			},
			{
				name: 'Get Version',
				value: 'getVersion',
				description: 'Get the version of the API the service runs',
				action: 'Get the API version',
			},
		],
		default: 'getVersion',
	},
	...checkCompatibility.description,
	...getVersion.description,
];
