// @ts-nocheck
import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteGroup from './deleteGroup.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { create, deleteGroup, get, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['group'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a group in an account',
				action: 'Create a group',
			},
			{
				name: 'Delete',
				value: 'deleteGroup',
				description: 'Delete a group; its users keep existing without a group',
				action: 'Delete a group',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a group',
				action: 'Get a group',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List groups, with filters and sorting',
				action: 'Get many groups',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Rename a group',
				action: 'Update a group',
			},
		],
		default: 'get',
	},
	...create.description,
	...deleteGroup.description,
	...get.description,
	...getMany.description,
	...update.description,
];
