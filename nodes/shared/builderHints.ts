/**
 * `builderHint` of both nodes (n8n-workflow 2.x, `INodeTypeDescription.builderHint`): what n8n's AI workflow
 * builder reads to find a node (`searchHint`) and to wire the chains users build (`relatedNodes`). Plain data:
 * n8n 1.x, whose descriptions have no such key, carries it along unread.
 */
import type { IBuilderHint } from 'n8n-workflow';

/** The package's name: the prefix of its node types in n8n. */
const PACKAGE = 'n8n-nodes-file-transfer-manager';
const ACTION_NODE_TYPE = `${PACKAGE}.fileTransferManager`;
const TRIGGER_NODE_TYPE = `${PACKAGE}.fileTransferManagerTrigger`;

export const actionBuilderHint: IBuilderHint = {
	searchHint:
		'Starts and tracks copy, move and sync jobs between file shares and S3 buckets in the File Transfer Management Service, with dry runs that estimate files, duration and cost before any data moves, and manages its users, groups and storages.',
	relatedNodes: [
		{
			nodeType: ACTION_NODE_TYPE,
			relationHint:
				'The dry-run chain: Job › Create with Dry Run and Wait for Completion on, then a second node with Job › Run From Dry Run on the dry run\'s id and Max Estimated Cost, which starts the real job only when the estimate is within it (refused items go to the error output).',
		},
		{
			nodeType: TRIGGER_NODE_TYPE,
			relationHint: 'Starts a workflow when a job finishes, fails, gets stuck or is canceled.',
		},
		{
			nodeType: 'n8n-nodes-base.wait',
			relationHint:
				'For jobs longer than a few minutes: Wait, then Job › Get, then If the status is final, looping back to Wait, instead of Wait for Completion.',
		},
	],
};

export const triggerBuilderHint: IBuilderHint = {
	searchHint:
		'Starts a workflow when a job of the File Transfer Management Service finishes, fails, gets stuck or is canceled: one item per event, with the job, and for failed or stuck jobs their file errors.',
	relatedNodes: [
		{
			nodeType: 'n8n-nodes-base.switch',
			relationHint: 'Routes each item by its event field (finished, failed, stuck, canceled) to a branch of its own.',
		},
		{
			nodeType: ACTION_NODE_TYPE,
			relationHint: 'Acts on the job of an event: Job › Get Errors lists what went wrong, Job › Resume continues a paused job.',
		},
	],
};
