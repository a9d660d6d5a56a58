/**
 * The credential's test, as n8n's CredentialsTester runs it: the credential's `test` request through a
 * RoutingNode on a temporary node (its token request first), and the message the tester reports.
 */
// @ts-nocheck

import { RoutingNode } from 'n8n-core';
import type { INodeExecutionData } from 'n8n-workflow';

import { FileTransferManagerOAuth2Api } from '../../credentials/FileTransferManagerOAuth2Api.credentials';
import { CREDENTIAL_ID, CREDENTIAL_TYPE, type TestCredentialsHelper } from './credentials';
import { foreignNodeContext } from './foreignNode';

/** The credential's `test` request run the way n8n's CredentialsTester runs it: a RoutingNode on a temporary node. */
export async function runCredentialTest(credentials: TestCredentialsHelper): Promise<INodeExecutionData[][] | null | undefined> {
	const credentialType = new FileTransferManagerOAuth2Api();
	const { nodeType, context } = foreignNodeContext(credentials, {
		displayName: 'Temp',
		typeName: 'n8n-nodes-base.noOp',
		group: ['transform'],
		id: 'temp',
		name: 'Temp-Node',
		defaultName: 'Temp',
		properties: [
			{
				displayName: 'Temp',
				name: 'temp',
				type: 'string',
				routing: { request: credentialType.test.request },
				default: '',
			},
		],
		mode: 'internal',
		inputItems: [],
	});
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
