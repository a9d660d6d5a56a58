// @ts-nocheck
import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['storage'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a storage with its capacity',
				action: 'Get a storage',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List storages, with filters and sorting',
				action: 'Get many storages',
			},
		],
		default: 'get',
	},
	...get.description,
	...getMany.description,
];
