import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { triggerBuilderHint } from '../shared/builderHints';
import { listSearch } from '../shared/methods';
import { properties, subtitle } from './description';
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
		subtitle,
		// n8n's node creator merges this trigger into the action node's entry and shows this text for both: it
		// has to read right while adding an action too (as n8n's own "n8n" node pair does).
		description:
			'Run and track file transfer jobs, or start a workflow when a job finishes, fails, gets stuck or is canceled',
		defaults: { name: 'File Transfer Manager Trigger' },
		polling: true,
		// For n8n's AI workflow builder (n8n 2.x); n8n 1.x carries it along unread.
		builderHint: triggerBuilderHint,
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
