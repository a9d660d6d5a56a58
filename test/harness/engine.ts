import { ExecutionLifecycleHooks, PollContext, WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';

import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import { FileTransferManagerTrigger } from '../../nodes/FileTransferManagerTrigger/FileTransferManagerTrigger.node';
import { CREDENTIAL_ID, CREDENTIAL_TYPE, TestCredentialsHelper } from './credentials';

export const NODE_TYPE = 'n8n-nodes-file-transfer-manager.fileTransferManager';
export const TRIGGER_TYPE = 'n8n-nodes-file-transfer-manager.fileTransferManagerTrigger';

const types: Record<string, INodeType> = {
	[NODE_TYPE]: new FileTransferManager(),
	[TRIGGER_TYPE]: new FileTransferManagerTrigger(),
};

export const nodeTypes: INodeTypes = {
	getByName: (name: string): INodeType | IVersionedNodeType => types[name],
	getByNameAndVersion: (name: string, version?: number): INodeType =>
		NodeHelpers.getVersionedNodeType(types[name], version),
	getKnownTypes: () => ({}),
};

export interface SandboxLike {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
}

/** The credential as a user would fill it in, stored in a fresh credentials helper. */
export function credentialsFor(sandbox: SandboxLike, overrides: IDataObject = {}): TestCredentialsHelper {
	const helper = new TestCredentialsHelper();
	helper.set({
		baseUrl: sandbox.baseUrl,
		clientId: sandbox.clientId,
		clientSecret: sandbox.clientSecret,
		...overrides,
	});
	return helper;
}

export function additionalDataFor(credentialsHelper: TestCredentialsHelper): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used in these tests');
		},
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		currentNodeParameters: undefined,
		userId: 'test-user',
		variables: {},
		logAiEvent: async () => {},
		getRunExecutionData: async () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}

function nodeOf(type: string, parameters: INodeParameters, extra: Partial<INode> = {}): INode {
	return {
		id: 'node-under-test',
		name: type === TRIGGER_TYPE ? 'File Transfer Manager Trigger' : 'File Transfer Manager',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: 'File Transfer Manager account' } },
		...extra,
	};
}

export interface NodeRunOptions {
	credentials: TestCredentialsHelper;
	parameters: INodeParameters;
	/** Input items; default one empty item. */
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	mode?: WorkflowExecuteMode;
	/** Extra node settings, e.g. n8n's own `retryOnFail`, `maxTries`, `waitBetweenTries`. */
	node?: Partial<INode>;
}

export interface NodeRunResult {
	/** Output items of the node's first output; empty when the node failed. */
	items: INodeExecutionData[];
	/** The error n8n recorded for the run, if the node failed. */
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string | null };
	run: IRun;
}

/** Executes the action node once through n8n-core's WorkflowExecute, as a workflow run does. */
export async function runNode(options: NodeRunOptions): Promise<NodeRunResult> {
	const node = nodeOf(NODE_TYPE, options.parameters, {
		continueOnFail: options.continueOnFail ?? false,
		...options.node,
	});
	const workflow = new Workflow({
		id: 'wf-test',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const mode = options.mode ?? 'manual';
	const items = options.items ?? [{ json: {} }];
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node, data: { main: [items] }, source: null }],
		},
	});
	const additionalData = additionalDataFor(options.credentials);
	additionalData.hooks = new ExecutionLifecycleHooks(mode, 'exec-test', {
		id: 'wf-test',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const execute = new WorkflowExecute(additionalData, mode, runExecutionData);
	const run = await execute.processRunExecutionData(workflow);
	const taskData = run.data.resultData.runData[node.name]?.[0];
	const error = (taskData?.error ?? run.data.resultData.error) as NodeRunResult['error'];
	const items_ = (taskData?.data?.main?.[0] ?? []) as INodeExecutionData[];
	return { items: error ? [] : items_, error, run };
}

export interface TriggerHandle {
	/** Polls once, like n8n's poll job; returns the emitted items or null. */
	poll(mode?: WorkflowExecuteMode): Promise<INodeExecutionData[] | null>;
	/** The node's static data, as n8n would persist it. */
	staticData(): IDataObject;
	/** Replaces static data with a JSON round trip of itself (a restart). */
	restart(): void;
	setParameters(parameters: INodeParameters): void;
}

/** A polling trigger driven through n8n-core's PollContext, with static data kept between polls. */
export function triggerHandle(credentials: TestCredentialsHelper, parameters: INodeParameters): TriggerHandle {
	let params = parameters;
	let staticData: IDataObject = {};
	const additionalData = additionalDataFor(credentials);
	const trigger = types[TRIGGER_TYPE];

	const poll = async (mode: WorkflowExecuteMode = 'trigger') => {
		const node = nodeOf(TRIGGER_TYPE, params);
		const workflow = new Workflow({
			id: 'wf-trigger',
			name: 'trigger',
			nodes: [node],
			connections: {},
			active: mode === 'trigger',
			nodeTypes,
			staticData,
			settings: { executionOrder: 'v1' },
		});
		const context = new PollContext(workflow, node, additionalData, mode, mode === 'manual' ? 'manual' : 'activate');
		const result = await trigger.poll!.call(context);
		staticData = workflow.staticData as IDataObject;
		return result === null ? null : (result[0] ?? []);
	};

	return {
		poll,
		staticData: () => staticData,
		restart: () => {
			staticData = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		},
		setParameters: (next) => {
			params = next;
		},
	};
}
