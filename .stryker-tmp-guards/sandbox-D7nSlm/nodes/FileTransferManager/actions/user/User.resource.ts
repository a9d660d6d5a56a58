// @ts-nocheck
import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteUser from './deleteUser.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { create, deleteUser, get, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a user stub without a password; it cannot sign in until an administrator grants access',
				action: 'Create a user',
			},
			{
				name: 'Delete',
				value: 'deleteUser',
				description: 'Delete a user',
				action: 'Delete a user',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a user',
				action: 'Get a user',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List users, with filters and sorting',
				action: 'Get many users',
			},
			{
				name: 'Update',
				value: 'update',
				description: "Change a user's first name, last name or time zone",
				action: 'Update a user',
			},
		],
		default: 'get',
	},
	...create.description,
	...deleteUser.description,
	...get.description,
	...getMany.description,
	...update.description,
];
