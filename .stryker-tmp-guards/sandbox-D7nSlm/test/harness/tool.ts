/**
 * The action node as an AI agent's tool, through n8n-core's own tool path: a stand-in agent node asks n8n-core
 * for its tools (`getInputConnectionData(ai_tool)`, which builds a LangChain tool of the node with
 * `createNodeAsTool`: its name from the node's name, its description by n8n's `getToolDescriptionForNode`,
 * its input schema from the `$fromAI()` parameters) and calls the one tool with the arguments a model would
 * send. n8n-core then runs the node under its tool type (`…fileTransferManagerTool`) with those arguments as
 * its one input item, and hands the agent what a model reads: the JSON text of the output items, or the
 * error's message (with "Details: <description>" appended).
 *
 * The tool type is built as n8n's NodeTypes builds it at execution for a node that is `usableAsTool`
 * (n8n 2.41.1, packages/cli/src/node-types.ts, getByNameAndVersion): the node's own description, without
 * `usableAsTool.replacements` (n8n lays those over the descriptions it sends to the editor only), with "Tool"
 * appended to its name, no inputs, the ai_tool output, and the Tool Description parameters
 * (convertNodeToAiTool).
 */
// @ts-nocheck

import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

import type { TestCredentialsHelper } from './credentials';
import { executeWorkflow, NODE_TYPE, nodeOf, nodeTypes } from './engine';

const TOOL_TYPE = `${NODE_TYPE}Tool`;
const AGENT_TYPE = 'test.agent';
const AGENT_NAME = 'Agent';

/** What the stand-in agent got back from its one tool. */
interface ToolCallJson {
	name: string;
	description: string;
	/** The text a model reads on success: JSON of the output items' json. */
	text?: string;
	/** The message a model reads when the tool failed. */
	error?: string;
}

/** A stand-in AI agent: calls its one tool with the arguments in its `args` parameter. */
class TestAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent',
		name: 'agent',
		group: ['transform'],
		version: 1,
		description: 'Calls its tool once',
		defaults: { name: AGENT_NAME },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true }],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Arguments', name: 'args', type: 'json', default: '{}' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
			name: string;
			description: string;
			invoke: (args: IDataObject) => Promise<unknown>;
		}>;
		const [tool] = tools;
		const args = JSON.parse(this.getNodeParameter('args', 0) as string) as IDataObject;
		const json: ToolCallJson = { name: tool.name, description: tool.description };
		try {
			json.text = String(await tool.invoke(args));
		} catch (error) {
			json.error = (error as Error).message;
		}
		return [[{ json: json as unknown as IDataObject }]];
	}
}

/** The Tool Description parameters n8n adds to a tool variant with resources and operations. */
const TOOL_DESCRIPTION_PROPERTIES = (description: string): INodeProperties[] => [
	{
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Set Automatically', value: 'auto' },
			{ name: 'Set Manually', value: 'manual' },
		],
		default: 'auto',
	},
	{
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: description,
		required: true,
		displayOptions: { show: { descriptionType: ['manual'] } },
	},
];

/** The tool type of a node, as n8n builds it at execution (see the file's comment). */
function toolVariant(base: INodeType): INodeType {
	const description: INodeTypeDescription = {
		...base.description,
		name: `${base.description.name}Tool`,
		displayName: `${base.description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
		properties: [...TOOL_DESCRIPTION_PROPERTIES(base.description.description), ...base.description.properties],
	};
	delete description.usableAsTool;
	return Object.create(base, { description: { value: description } }) as INodeType;
}

const agent = new TestAgent();
const tool = toolVariant(nodeTypes.getByNameAndVersion(NODE_TYPE) as INodeType);

const toolNodeTypes: INodeTypes = {
	getByName: (name: string): INodeType | IVersionedNodeType =>
		name === TOOL_TYPE ? tool : name === AGENT_TYPE ? agent : nodeTypes.getByName(name),
	getByNameAndVersion: (name: string, version?: number): INodeType =>
		name === TOOL_TYPE
			? tool
			: name === AGENT_TYPE
				? agent
				: NodeHelpers.getVersionedNodeType(nodeTypes.getByName(name), version),
	getKnownTypes: () => ({}),
};

export interface ToolCallOptions {
	credentials: TestCredentialsHelper;
	/** The tool node's parameters: resource, operation, and `$fromAI()` expressions for what the model fills. */
	parameters: INodeParameters;
	/** What the model sends: the `$fromAI()` keys and their values. */
	args: IDataObject;
	/** The tool node's name; n8n makes the tool's name from it. */
	name?: string;
	/** Further settings of the tool node. */
	node?: Partial<INode>;
}

export interface ToolCall {
	/** The tool's name and description, as the model sees them. */
	name: string;
	description: string;
	/** The text the model reads on success (JSON of the output items' json), else undefined. */
	text?: string;
	/** The output items' json, parsed from `text`. */
	items?: IDataObject[];
	/** The message the model reads when the tool failed, else undefined. */
	error?: string;
}

/** Calls the action node once as a tool, as an agent would (see the file's comment). */
export async function callTool(options: ToolCallOptions): Promise<ToolCall> {
	const toolNode = nodeOf(TOOL_TYPE, options.parameters, { name: options.name ?? 'File Transfer Manager', ...options.node });
	const agentNode: INode = {
		id: 'node-agent',
		name: AGENT_NAME,
		type: AGENT_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: { args: JSON.stringify(options.args) },
	};
	const nodes = [agentNode, toolNode];
	const connections = {
		[toolNode.name]: {
			[NodeConnectionTypes.AiTool]: [[{ node: AGENT_NAME, type: NodeConnectionTypes.AiTool, index: 0 }]],
		},
	};
	const run = await executeWorkflow({
		credentials: options.credentials,
		nodes,
		connections,
		start: { node: agentNode, items: [{ json: {} }] },
		mode: 'manual',
		nodeTypes: toolNodeTypes,
	});
	const task = run.data.resultData.runData[AGENT_NAME]?.[0];
	const runError = task?.error ?? run.data.resultData.error;
	if (runError) throw runError;
	const json = task?.data?.main?.[0]?.[0]?.json as unknown as ToolCallJson;
	return {
		name: json.name,
		description: json.description,
		text: json.text,
		items: json.text === undefined ? undefined : (JSON.parse(json.text) as IDataObject[]),
		error: json.error,
	};
}
