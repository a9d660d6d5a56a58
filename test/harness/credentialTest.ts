/**
 * The credential's test, as n8n's CredentialsTester runs it: the credential's `test` request through a
 * RoutingNode on a temporary node (its token request first), and the message the tester reports.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type { INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { FileTransferManagerOAuth2Api } from '../../credentials/FileTransferManagerOAuth2Api.credentials';
import { CREDENTIAL_ID, CREDENTIAL_TYPE, type TestCredentialsHelper } from './credentials';
import { additionalDataFor } from './engine';

/** The credential's `test` request run the way n8n's CredentialsTester runs it: a RoutingNode on a temporary node. */
export async function runCredentialTest(credentials: TestCredentialsHelper): Promise<INodeExecutionData[][] | null | undefined> {
	const credentialType = new FileTransferManagerOAuth2Api();
	const nodeType = {
		description: {
			displayName: 'Temp',
			name: 'n8n-nodes-base.noOp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Temp' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: credentialType.test.request },
					default: '',
				},
			],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeType.description.name,
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
		'internal',
		createRunExecutionData({ resultData: { runData: {} } } as never),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const decrypted = credentials.applyDefaultsAndExpressions(credentials.raw()!);
	const routingNode = new RoutingNode(context, nodeType, {
		id: CREDENTIAL_ID,
		name: 'File Transfer Manager account',
		type: CREDENTIAL_TYPE,
		data: decrypted,
	});
	return await routingNode.runNode();
}

/** What CredentialsTester.testCredentials reports for an error thrown by the routing node. */
export function testerMessage(error: { message: string; cause?: { response?: { status: number; statusText?: string }; code?: string } }) {
	if (error.cause?.response) {
		const { status, statusText } = error.cause.response;
		if (status < 199 || status > 299) return statusText || `Received HTTP status code: ${status}`;
	} else if (error.cause?.code) {
		return error.cause.code;
	}
	return error.message.toString();
}
