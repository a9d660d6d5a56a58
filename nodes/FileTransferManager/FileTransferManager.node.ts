import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account/Account.resource';
import * as api from './actions/api/Api.resource';
import * as group from './actions/group/Group.resource';
import * as job from './actions/job/Job.resource';
import * as storage from './actions/storage/Storage.resource';
import * as user from './actions/user/User.resource';
import { router } from './actions/router';
import { requestOptions } from './descriptions/common.descriptions';
import { listSearch } from './methods';

export class FileTransferManager implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'File Transfer Manager',
		name: 'fileTransferManager',
		icon: { light: 'file:fileTransferManager.svg', dark: 'file:fileTransferManager.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Run and track file transfer jobs (copy, move, sync, dry runs with cost estimates) between storages of the File Transfer Management Service',
		defaults: { name: 'File Transfer Manager' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fileTransferManagerOAuth2Api', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'API', value: 'api' },
					{ name: 'Group', value: 'group' },
					{ name: 'Job', value: 'job' },
					{ name: 'Storage', value: 'storage' },
					{ name: 'User', value: 'user' },
				],
				default: 'job',
			},
			...account.description,
			...api.description,
			...group.description,
			...job.description,
			...storage.description,
			...user.description,
			requestOptions,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
