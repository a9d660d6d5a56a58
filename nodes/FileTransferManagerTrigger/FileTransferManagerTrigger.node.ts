import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { listSearch } from '../FileTransferManager/methods';
import { properties } from './description';
import { pollJobs } from './poll';

export class FileTransferManagerTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'File Transfer Manager Trigger',
		name: 'fileTransferManagerTrigger',
		icon: {
			light: 'file:../FileTransferManager/fileTransferManager.svg',
			dark: 'file:../FileTransferManager/fileTransferManager.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Watch " + ($parameter["events"] || []).join(", ")}}',
		description: 'Starts the workflow when a transfer job finishes, fails, gets stuck or is canceled',
		defaults: { name: 'File Transfer Manager Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fileTransferManagerOAuth2Api', required: true }],
		properties,
	};

	methods = { listSearch };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollJobs.call(this);
	}
}
