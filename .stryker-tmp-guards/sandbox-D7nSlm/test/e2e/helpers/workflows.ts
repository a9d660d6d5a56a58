/**
 * Workflows and runs shared by the suites that drive a running n8n (the end-to-end suites and the queue-mode
 * suite).
 */
// @ts-nocheck

import { DEMO_IDS } from '../../../sandbox/src';
import type { RunResult } from '../../../scripts/n8n/headless';
import { HttpError, type PublicApiClient, type RestClient } from '../../../scripts/n8n/n8nApi';
import { CREDENTIAL_TYPE, NODE_TYPE } from '../../../scripts/n8n/packaging';
import { until } from '../../../scripts/n8n/waiting';
import { withCredential, type WorkflowJson } from '../../../scripts/n8n/workflows';
import { N8N_VERSION, n8nMajor } from '../../../scripts/n8n/paths';

const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';

/** The statuses of an execution that has ended (n8n's ExecutionStatus). */
export const FINAL_STATUSES = ['success', 'error', 'crashed', 'canceled'];

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

/** Creates a workflow from JSON under a new name (public API); activates it when asked. */
export async function createWorkflow(
	api: PublicApiClient,
	workflow: WorkflowJson,
	name: string,
	options: { activate?: boolean } = {},
): Promise<string> {
	const body = {
		name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		settings: workflow.settings ?? { executionOrder: 'v1' },
	};
	const { id } = await api.call<{ id: string }>('POST', '/workflows', body);
	if (options.activate) await api.call('POST', `/workflows/${id}/activate`);
	return id;
}

/** A run of runOnServer: the execution as the public API answers with includeData=true. */
export interface ServerRun extends RunResult {
	id: string;
	workflowId: string;
	status: string;
	finished: boolean;
}

let serverRuns = 0;

/**
 * Runs a workflow once in a running n8n, as a user does from the editor: creates it through the public API
 * (under its name and a number, so that a changed copy never meets an earlier one), starts a manual run from
 * its manual trigger (`trigger`, or its only Manual Trigger node) through the REST API, waits up to
 * `timeoutMs` for the execution to end, and returns it with its data from the public API: the RunResult that
 * nodeOutput() reads, with n8n's status ('success', 'error', ...) in place of `n8n execute`'s exit code.
 */
export async function runOnServer(
	stack: { api: PublicApiClient; rest: RestClient },
	workflow: WorkflowJson,
	options: { trigger?: string; timeoutMs?: number } = {},
): Promise<ServerRun> {
	const trigger = options.trigger ?? onlyManualTrigger(workflow);
	const timeoutMs = options.timeoutMs ?? 5 * 60 * 1000;
	const t0 = Date.now();
	const workflowId = await createWorkflow(stack.api, workflow, `${workflow.name} #${++serverRuns}`);
	const t1 = Date.now();
	const executionId = await runManually(stack.rest, workflowId, trigger);
	const execution = await endedExecution(stack.api, executionId, `execution ${executionId} of "${workflow.name}"`, timeoutMs);
	if (!execution.data?.resultData) throw new Error(`execution ${executionId} of "${workflow.name}" has no run data: ${JSON.stringify(execution)}`);
	const t2 = Date.now();
	process.stderr.write(
		`[runOnServer] ${workflow.name}: create ${(t1 - t0) / 1000} s, run ${(t2 - t1) / 1000} s, status ${execution.status}\n`,
	);
	return { ...execution, workflowId };
}

/**
 * Waits up to `timeoutMs` for an execution to end (a FINAL_STATUSES status; not stored yet counts as not
 * ended) and returns it with its data, from the public API. `what` names it in the timeout's error.
 */
export async function endedExecution(api: PublicApiClient, executionId: string, what: string, timeoutMs: number): Promise<ServerRun> {
	const get = async (includeData: boolean): Promise<ServerRun | undefined> => {
		try {
			return await api.call<ServerRun>('GET', `/executions/${executionId}?includeData=${includeData}`);
		} catch (error) {
			if (error instanceof HttpError && error.status === 404) return undefined; // not stored yet
			throw error;
		}
	};
	let last: string | undefined;
	try {
		await until(`${what} to end`, timeoutMs, async () => {
			const execution = await get(false);
			last = execution?.status;
			return execution && FINAL_STATUSES.includes(execution.status) ? true : undefined;
		}, 250);
	} catch (error) {
		throw new Error(`${(error as Error).message} in n8n ${N8N_VERSION} (last status: ${last ?? 'not stored'})`);
	}
	const execution = await get(true);
	if (!execution) throw new Error(`${what} ended, then was gone from n8n ${N8N_VERSION}`);
	return { ...execution, id: String(execution.id) };
}

/** runOnServer for a run that must succeed: any other status fails with n8n's error. */
export async function runToSuccess(
	stack: { api: PublicApiClient; rest: RestClient },
	workflow: WorkflowJson,
	options: { trigger?: string; timeoutMs?: number } = {},
): Promise<ServerRun> {
	const run = await runOnServer(stack, workflow, options);
	if (run.status !== 'success') {
		const error = JSON.stringify(run.data.resultData.error ?? null).slice(0, 4000);
		throw new Error(`execution ${run.id} of "${workflow.name}" ended with status ${run.status} in n8n ${N8N_VERSION}: ${error}`);
	}
	return run;
}

function onlyManualTrigger(workflow: WorkflowJson): string {
	const triggers = workflow.nodes.filter((node) => node.type === MANUAL_TRIGGER_TYPE && node.disabled !== true);
	if (triggers.length !== 1) {
		throw new Error(`"${workflow.name}" has ${triggers.length} Manual Trigger nodes: name the one to start from (options.trigger)`);
	}
	return triggers[0].name;
}
