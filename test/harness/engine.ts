import { ExecutionLifecycleHooks, PollContext, WorkflowExecute } from 'n8n-core';
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IPinData,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, NodeHelpers, setSafeRegexEngine, Workflow } from 'n8n-workflow';

import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import { FileTransferManagerTrigger } from '../../nodes/FileTransferManagerTrigger/FileTransferManagerTrigger.node';
import { forgetFetchedTokens } from '../../nodes/shared/transport/token';
import { forgetRemembered } from '../../nodes/shared/transport/pace/remembered';
import { CREDENTIAL_ID, CREDENTIAL_TYPE, TestCredentialsHelper } from './credentials';

/**
 * n8n runs every regular expression of a node's description (here the By ID modes' UUID rule, checked before
 * each execution) in node:vm with a 250 ms budget of wall time, kept by a thread node:vm starts for each run. This
 * layer runs four jest workers beside n8n's install on two cores; there the budget can run out although the
 * check itself takes microseconds, and n8n reports "Regular expression execution timed out" (seen once in CI,
 * failing an unrelated test). The budget guards n8n against users' runaway patterns, not our code's behaviour,
 * so the engine here runs the same patterns without it; the benchmarks, which run through this harness too, save
 * that one check per execution. docs/troubleshooting.md tells users what the message means when their own n8n
 * is that loaded.
 */
setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) => input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) => [...input.matchAll(new RegExp(pattern, flags?.includes('g') ? flags : `${flags ?? ''}g`))],
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});

export const NODE_TYPE = 'n8n-nodes-file-transfer-manager.fileTransferManager';
export const TRIGGER_TYPE = 'n8n-nodes-file-transfer-manager.fileTransferManagerTrigger';

/** Name of the upstream node in runWorkflow's two-node workflows. */
export const UPSTREAM_NAME = 'Input';
/** Name of the action node in every workflow the harness builds. */
const NODE_NAME = 'File Transfer Manager';

/** A stand-in upstream node: outputs the items in its `items` parameter (a JSON array of objects). */
const INPUT_TYPE = 'test.input';

class TestInput implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Input',
		name: 'input',
		group: ['transform'],
		version: 1,
		description: 'Outputs fixed items',
		defaults: { name: UPSTREAM_NAME },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}

const types: Record<string, INodeType> = {
	[INPUT_TYPE]: new TestInput(),
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

/**
 * The credential as a user would fill it in, stored in a fresh credentials helper, as in a process that has
 * fetched no token yet (the tokens the transport keeps for a few seconds for callers without one are
 * forgotten; test/unit/token-sharing.test.ts tests that keeping) and has learnt nothing about any service
 * under Parallel Requests Auto (test/throughput/learnt.test.ts tests that memory).
 */
export function credentialsFor(sandbox: SandboxLike, overrides: IDataObject = {}): TestCredentialsHelper {
	forgetFetchedTokens();
	forgetRemembered();
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

/** A node of `type` with our credential, as a workflow holds it. */
export function nodeOf(type: string, parameters: INodeParameters, extra: Partial<INode> = {}): INode {
	return {
		id: 'node-under-test',
		name: type === TRIGGER_TYPE ? 'File Transfer Manager Trigger' : NODE_NAME,
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
	/** Extra node settings, e.g. n8n's own `retryOnFail`, `maxTries`, `waitBetweenTries`, `onError`. */
	node?: Partial<INode>;
	/** Stops the execution (as n8n's Stop button does) as soon as this returns true (checked every 10 ms). */
	cancelWhen?: () => boolean;
}

type RunError = Error & { description?: string; context?: IDataObject; httpCode?: string | null };

export interface NodeRunResult {
	/** Output items of the node's first output; empty when the node failed. */
	items: INodeExecutionData[];
	/**
	 * Every output of the node, as n8n recorded it: index 0 the main (success) output, index 1 the error
	 * output when the node's On Error setting is "Continue (using error output)". Empty when the node failed.
	 */
	outputs: INodeExecutionData[][];
	/** The error n8n recorded for the run, if the node failed. */
	error?: RunError;
	/**
	 * The node's output as n8n recorded it, also when the node failed as a whole and n8n went on anyway
	 * (On Error: Continue passes the node's input items on, and records the error beside them).
	 */
	recorded: INodeExecutionData[][];
	/** The error of the whole run: undefined when the run succeeded, also when n8n continued past a node's error. */
	runError?: RunError;
	run: IRun;
}

interface WorkflowSpec {
	credentials: TestCredentialsHelper;
	/** The node types the run knows; default: the package's nodes and the test input node. */
	nodeTypes?: INodeTypes;
	nodes: INode[];
	connections: IConnections;
	/** The node the run starts from, with its input items. */
	start: { node: INode; items: INodeExecutionData[] };
	pinData?: IPinData;
	mode: WorkflowExecuteMode;
	cancelWhen?: () => boolean;
}

/** Runs a workflow through n8n-core's WorkflowExecute, from one start node, as a workflow run does. */
export async function executeWorkflow(spec: WorkflowSpec): Promise<IRun> {
	const { nodes, connections, mode } = spec;
	const workflow = new Workflow({
		id: 'wf-test',
		name: 'test',
		nodes,
		connections,
		active: false,
		nodeTypes: spec.nodeTypes ?? nodeTypes,
		pinData: spec.pinData,
		settings: { executionOrder: 'v1' },
	});
	const runExecutionData = createRunExecutionData({
		resultData: { pinData: spec.pinData },
		executionData: {
			nodeExecutionStack: [{ node: spec.start.node, data: { main: [spec.start.items] }, source: null }],
		},
	});
	const additionalData = additionalDataFor(spec.credentials);
	additionalData.hooks = new ExecutionLifecycleHooks(mode, 'exec-test', {
		id: 'wf-test',
		name: 'test',
		nodes,
		connections,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const execute = new WorkflowExecute(additionalData, mode, runExecutionData);
	const running = execute.processRunExecutionData(workflow);
	const { cancelWhen } = spec;
	if (cancelWhen === undefined) return await running;
	const timer = setInterval(() => {
		if (!cancelWhen()) return;
		clearInterval(timer);
		running.cancel();
	}, 10);
	try {
		return await running;
	} finally {
		clearInterval(timer);
	}
}

/** What n8n recorded for one node of a run. */
function resultOf(run: IRun, nodeName: string): NodeRunResult {
	const taskData = run.data.resultData.runData[nodeName]?.[0];
	const error = (taskData?.error ?? run.data.resultData.error) as RunError | undefined;
	const recorded = ((taskData?.data?.main ?? []) as Array<INodeExecutionData[] | null>).map((o) => o ?? []);
	return {
		items: error ? [] : (recorded[0] ?? []),
		outputs: error ? [] : recorded,
		recorded,
		error,
		runError: run.data.resultData.error as RunError | undefined,
		run,
	};
}

/** Executes the action node once through n8n-core's WorkflowExecute, as a workflow run does. */
export async function runNode(options: NodeRunOptions): Promise<NodeRunResult> {
	const node = nodeOf(NODE_TYPE, options.parameters, {
		continueOnFail: options.continueOnFail ?? false,
		...options.node,
	});
	const run = await executeWorkflow({
		credentials: options.credentials,
		nodes: [node],
		connections: {},
		start: { node, items: options.items ?? [{ json: {} }] },
		mode: options.mode ?? 'manual',
		cancelWhen: options.cancelWhen,
	});
	return resultOf(run, node.name);
}

export interface WorkflowRunOptions {
	credentials: TestCredentialsHelper;
	/** The action node's parameters. */
	parameters: INodeParameters;
	/** The action node's settings, e.g. `onError`, `executeOnce`, `alwaysOutputData`. */
	node?: Partial<INode>;
	/** What the upstream node "Input" outputs: it runs and returns these items. */
	upstreamItems?: IDataObject[];
	/** Pinned data of the upstream node (workflow pinData): n8n uses it instead of running the node. */
	upstreamPinData?: INodeExecutionData[];
	/** Makes the upstream node the File Transfer Manager Trigger, with these parameters, instead of "Input". */
	upstreamTrigger?: INodeParameters;
	/** The upstream node's settings. */
	upstreamNode?: Partial<INode>;
	mode?: WorkflowExecuteMode;
}

export interface WorkflowRunResult extends NodeRunResult {
	/** The upstream node's output, as n8n recorded it. */
	upstream: INodeExecutionData[];
}

/**
 * A two-node workflow, "Input" → "File Transfer Manager" ("Input" being a stand-in node or the trigger), run through n8n-core's WorkflowExecute: the
 * action node sees a real upstream node, so expressions such as `$input.all()`, `$('Input').item` and
 * paired items resolve as in n8n. "Input" either runs (returning `upstreamItems`) or is pinned
 * (`upstreamPinData`, a workflow's pinData).
 */
export async function runWorkflow(options: WorkflowRunOptions): Promise<WorkflowRunResult> {
	const upstream: INode = options.upstreamTrigger
		? nodeOf(TRIGGER_TYPE, options.upstreamTrigger, {
				id: 'node-upstream',
				name: UPSTREAM_NAME,
				position: [-200, 0],
				...options.upstreamNode,
			})
		: {
				...options.upstreamNode,
				id: 'node-upstream',
				name: UPSTREAM_NAME,
				type: INPUT_TYPE,
				typeVersion: 1,
				position: [-200, 0],
				parameters: { items: JSON.stringify(options.upstreamItems ?? []) },
			};
	const node = nodeOf(NODE_TYPE, options.parameters, options.node);
	const run = await executeWorkflow({
		credentials: options.credentials,
		nodes: [upstream, node],
		connections: {
			[UPSTREAM_NAME]: { main: [[{ node: node.name, type: NodeConnectionTypes.Main, index: 0 }]] },
		},
		start: { node: upstream, items: [{ json: {} }] },
		pinData: options.upstreamPinData ? { [UPSTREAM_NAME]: options.upstreamPinData } : undefined,
		mode: options.mode ?? 'manual',
	});
	const upstreamTask = run.data.resultData.runData[UPSTREAM_NAME]?.[0];
	return {
		...resultOf(run, node.name),
		upstream: (upstreamTask?.data?.main?.[0] ?? []) as INodeExecutionData[],
	};
}

/**
 * The trigger as the start node of a manual run ("Execute workflow" / "Fetch Test Event" in the editor),
 * through n8n-core's WorkflowExecute, which calls the trigger's poll once.
 */
export async function runTriggerManually(
	credentials: TestCredentialsHelper,
	parameters: INodeParameters,
	settings: Partial<INode> = {},
): Promise<NodeRunResult> {
	const node = nodeOf(TRIGGER_TYPE, parameters, settings);
	const run = await executeWorkflow({
		credentials,
		nodes: [node],
		connections: {},
		start: { node, items: [{ json: {} }] },
		mode: 'manual',
	});
	return resultOf(run, node.name);
}

export interface TriggerHandle {
	/** Polls once, like n8n's poll job; returns the emitted items or null. */
	poll(mode?: WorkflowExecuteMode): Promise<INodeExecutionData[] | null>;
	/** The node's static data, as n8n would persist it. */
	staticData(): IDataObject;
	/** Replaces static data with a JSON round trip of itself (a restart). */
	restart(): void;
	/**
	 * Hands the next poll a copy of `data` as its static data, as n8n's durable scheduler hands each poll the
	 * position it read from its database.
	 */
	load(data: IDataObject): void;
	setParameters(parameters: INodeParameters): void;
}

let triggerHandles = 0;

/** A polling trigger driven through n8n-core's PollContext, with static data kept between polls. */
export function triggerHandle(
	credentials: TestCredentialsHelper,
	parameters: INodeParameters,
	/** Node settings, e.g. `onError`; n8n's poll ignores them, and so does the trigger. */
	settings: Partial<INode> = {},
	/**
	 * What the poll context's `getPollBudgetMs()` answers, as n8n's durable scheduler sets it; 'missing' takes
	 * the method away, as in n8n 1.x. Default: n8n-core's own (5 minutes).
	 */
	pollBudgetMs?: number | 'missing',
): TriggerHandle {
	let params = parameters;
	let staticData: IDataObject = {};
	const additionalData = additionalDataFor(credentials);
	const trigger = types[TRIGGER_TYPE];
	// A workflow of its own, as each active workflow in n8n: the trigger runs one poll at a time per node.
	const workflowId = `wf-trigger-${++triggerHandles}`;

	const poll = async (mode: WorkflowExecuteMode = 'trigger') => {
		const node = nodeOf(TRIGGER_TYPE, params, settings);
		const workflow = new Workflow({
			id: workflowId,
			name: 'trigger',
			nodes: [node],
			connections: {},
			active: mode === 'trigger',
			nodeTypes,
			staticData,
			settings: { executionOrder: 'v1' },
		});
		const budget = typeof pollBudgetMs === 'number' ? () => pollBudgetMs : undefined;
		const activation = mode === 'manual' ? 'manual' : 'activate';
		const context = new PollContext(workflow, node, additionalData, mode, activation, undefined, undefined, undefined, undefined, undefined, budget);
		if (pollBudgetMs === 'missing') delete (context as { getPollBudgetMs?: unknown }).getPollBudgetMs;
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
		load: (data) => {
			staticData = JSON.parse(JSON.stringify(data)) as IDataObject;
		},
		setParameters: (next) => {
			params = next;
		},
	};
}
