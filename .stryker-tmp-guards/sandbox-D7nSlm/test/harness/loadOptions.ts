// @ts-nocheck
import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INode, INodeParameters } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { CREDENTIAL_ID, CREDENTIAL_TYPE, type TestCredentialsHelper } from './credentials';
import { additionalDataFor, NODE_TYPE, nodeTypes } from './engine';

/**
 * A LoadOptions context for the action node, as n8n builds one when the editor asks a list-search
 * method for results: the node with its current parameters, our credentials, and the parameter path.
 */
export function loadOptionsContext(
	credentials: TestCredentialsHelper,
	parameters: INodeParameters = {},
	path = 'parameters.jobId',
): ILoadOptionsFunctions {
	const node: INode = {
		id: 'node-under-test',
		name: 'File Transfer Manager',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: 'File Transfer Manager account' } },
	};
	const workflow = new Workflow({
		id: 'wf-load-options',
		name: 'load options',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	return new LoadOptionsContext(workflow, node, additionalDataFor(credentials), path);
}
