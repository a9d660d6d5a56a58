/**
 * A node of a type outside this package that has our credential, and the ExecuteContext n8n-core gives it:
 * how n8n's HTTP Request node with "Predefined Credential Type", or the CredentialsTester's temporary node,
 * reaches the credential.
 */
// @ts-nocheck

import { ExecuteContext } from 'n8n-core';
import type { INode, INodeExecutionData, INodeProperties, INodeType, WorkflowExecuteMode } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { CREDENTIAL_ID, CREDENTIAL_TYPE, type TestCredentialsHelper } from './credentials';
import { additionalDataFor } from './engine';

export interface ForeignNodeOptions {
	/** The node type's display name and name, e.g. 'HTTP Request stand-in' and 'test.httpRequest'. */
	displayName: string;
	typeName: string;
	group: string[];
	/** The node's id and name in the workflow. */
	id: string;
	name: string;
	/** The type's default node name; default: `name`. */
	defaultName?: string;
	properties?: INodeProperties[];
	mode: WorkflowExecuteMode;
	/** The items the context sees as its input (connectionInputData). */
	inputItems: INodeExecutionData[];
}

export interface ForeignNode {
	nodeType: INodeType;
	node: INode;
	context: ExecuteContext;
}

/** The node type (with our credential, required), the node in a one-node workflow, and its ExecuteContext. */
export function foreignNodeContext(credentials: TestCredentialsHelper, options: ForeignNodeOptions): ForeignNode {
	const nodeType = {
		description: {
			displayName: options.displayName,
			name: options.typeName,
			group: options.group,
			version: 1,
			description: '',
			defaults: { name: options.defaultName ?? options.name },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: options.properties ?? [],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: options.id,
		parameters: {},
		name: options.name,
		type: options.typeName,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: 'File Transfer Manager account' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) },
	});
	const context = new ExecuteContext(
		workflow,
		node,
		additionalDataFor(credentials),
		options.mode,
		createRunExecutionData({ resultData: { runData: {} } } as never),
		0,
		options.inputItems,
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	return { nodeType, node, context };
}

/**
 * A stand-in for n8n's HTTP Request node with our credential as its "Predefined Credential Type": a node of
 * another type that may use the credential, with `items` input items.
 */
export function httpRequestStandIn(credentials: TestCredentialsHelper, items = 1): ForeignNode {
	return foreignNodeContext(credentials, {
		displayName: 'HTTP Request stand-in',
		typeName: 'test.httpRequest',
		group: ['output'],
		id: 'http-request',
		name: 'HTTP Request',
		mode: 'manual',
		inputItems: Array.from({ length: items }, () => ({ json: {} })),
	});
}
