/**
 * Workflows and runs shared by the suites that drive a running n8n (the end-to-end suites and the queue-mode
 * suite).
 */
import { DEMO_IDS } from '../../../sandbox/src';
import { CREDENTIAL_TYPE, NODE_TYPE, withCredential, type RestClient, type WorkflowJson } from '../../../scripts/n8n/lib';
import { n8nMajor } from '../../../scripts/n8n/paths';

/**
 * Poll Times of four polls a minute (at seconds 0, 15, 30 and 45). n8n refuses a cron with a wildcard in its
 * seconds (1.x and 2.x alike: "The polling interval is too short"), but takes a list of once-a-minute crons.
 */
const FAST_POLL_TIMES = { item: [0, 15, 30, 45].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) };

/** `workflow` with the trigger node `trigger` polling four times a minute (FAST_POLL_TIMES) instead of its own schedule. */
export function withFastPolling(workflow: WorkflowJson, trigger: string): WorkflowJson {
	if (!workflow.nodes.some((node) => node.name === trigger)) throw new Error(`the workflow has no node "${trigger}"`);
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === trigger ? { ...node, parameters: { ...(node.parameters as Record<string, unknown>), pollTimes: FAST_POLL_TIMES } } : node,
		),
	};
}

/** The node names of slowCreateWorkflow. */
export const SLOW_CREATE_TRIGGER = 'Start';
export const SLOW_CREATE_NODE = 'Create Job';

/**
 * Start → Job › Create of one copy job, with Wait for Completion, made slow by a transfer rate limit of 1
 * byte per second (the sandbox's transfer time is size / rate, divided by its speed). `extra` is merged into
 * the Create node's parameters and its Additional Fields.
 */
export function slowCreateWorkflow(
	credential: { id: string; name: string },
	jobName: string,
	sourcePath: string,
	extra: { parameters?: Record<string, unknown>; additionalFields?: Record<string, unknown> } = {},
): WorkflowJson {
	const { files, archive } = DEMO_IDS.storageIds;
	return withCredential(
		{
			name: `slow create (${jobName})`,
			nodes: [
				{
					id: '5a5a5a5a-0000-4000-8000-000000000001',
					name: SLOW_CREATE_TRIGGER,
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: '5a5a5a5a-0000-4000-8000-000000000002',
					name: SLOW_CREATE_NODE,
					type: NODE_TYPE,
					typeVersion: 1,
					position: [220, 0],
					parameters: {
						resource: 'job',
						operation: 'create',
						transferType: 'copy',
						sourceStorageId: { __rl: true, mode: 'id', value: files },
						sourcePath,
						targetStorageId: { __rl: true, mode: 'id', value: archive },
						targetPath: sourcePath,
						conflictHandling: 'overwrite',
						additionalFields: { name: jobName, transferRateLimit: 1, ...extra.additionalFields },
						waitForCompletion: true,
						pollInterval: 1,
						maxWait: 600,
						...extra.parameters,
					},
					credentials: { [CREDENTIAL_TYPE]: credential },
				},
			],
			connections: { [SLOW_CREATE_TRIGGER]: { main: [[{ node: SLOW_CREATE_NODE, type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
		credential,
	);
}

/**
 * Starts a manual run through the editor's route; returns the execution id. n8n 1.x's route takes the whole
 * stored workflow in the body (workflowData, with its id), 2.x's runs the stored workflow.
 */
export async function runManually(rest: RestClient, workflowId: string, trigger: string): Promise<string> {
	const body: Record<string, unknown> = { triggerToStartFrom: { name: trigger } };
	if (n8nMajor() < 2) body.workflowData = await rest.call<Record<string, unknown>>('GET', `/workflows/${workflowId}`);
	const result = await rest.call<{ executionId?: string }>('POST', `/workflows/${workflowId}/run`, body);
	if (!result?.executionId) throw new Error(`manual run of ${workflowId} started no execution: ${JSON.stringify(result)}`);
	return String(result.executionId);
}
