/**
 * n8n-side pieces of the benchmarks: a credentials helper that counts its work and also serves a Header
 * Auth credential, n8n's own HTTP Request node loaded from the real n8n install in .n8n-cache/, and a
 * one-node WorkflowExecute run for any registered node type.
 */
import './resolve-node-ts';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	INodeCredentialsDetails,
	IHttpRequestOptions,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, type Workflow } from 'n8n-workflow';

import { n8nInstallDir } from '../../scripts/n8n/paths';
import { TestCredentialsHelper, applyAuthenticate } from '../../test/harness/credentials';
import { executeWorkflow, nodeTypes as ourNodeTypes } from '../../test/harness/engine';

const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const HEADER_AUTH_TYPE = 'httpHeaderAuth';
const HEADER_AUTH_ID = 'cred-header-1';

/**
 * The test credentials helper (our OAuth2 credential, token kept between executions) plus a Header Auth
 * credential for the HTTP Request node, counting getDecrypted calls and the time spent in them.
 */
export class CountingCredentialsHelper extends TestCredentialsHelper {
	decryptCalls = 0;
	decryptMs = 0;
	headerValue = '';

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: unknown,
		raw?: boolean,
	): Promise<ICredentialDataDecryptedObject> {
		const start = performance.now();
		this.decryptCalls++;
		try {
			if (type === HEADER_AUTH_TYPE) return { name: 'Authorization', value: this.headerValue };
			return await super.getDecrypted(additionalData, nodeCredentials, type, mode, executeData, raw);
		} finally {
			this.decryptMs += performance.now() - start;
		}
	}

	/**
	 * Header Auth applies n8n-nodes-base's own HttpHeaderAuth `authenticate` (generic: name and value are
	 * expressions resolved per request, as n8n's CredentialsHelper does); ours goes to the harness.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		if (typeName !== HEADER_AUTH_TYPE) return await super.authenticate(credentials, typeName, requestOptions, workflow, node);
		return await applyAuthenticate(headerAuthType().authenticate, credentials, requestOptions, workflow, node);
	}

	resetCounters(): void {
		this.decryptCalls = 0;
		this.decryptMs = 0;
	}
}

let headerAuth: ICredentialType | undefined;

/** n8n-nodes-base's Header Auth credential type, from the real n8n install. */
function headerAuthType(): ICredentialType {
	if (headerAuth) return headerAuth;
	const file = path.join(n8nInstallDir(), 'node_modules', 'n8n-nodes-base', 'dist', 'credentials', 'HttpHeaderAuth.credentials.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { HttpHeaderAuth } = require(file) as { HttpHeaderAuth: new () => ICredentialType };
	headerAuth = new HttpHeaderAuth();
	return headerAuth;
}

/** Where n8n-nodes-base's HTTP Request node lives inside the cached n8n install. */
export function httpRequestNodePath(): string {
	return path.join(
		n8nInstallDir(),
		'node_modules',
		'n8n-nodes-base',
		'dist',
		'nodes',
		'HttpRequest',
		'HttpRequest.node.js',
	);
}

/** Loads n8n's HTTP Request node class (versioned: V1..V4.5) from the real n8n install. */
export function loadHttpRequestNode(): IVersionedNodeType {
	const file = httpRequestNodePath();
	if (!fs.existsSync(file)) throw new Error(`n8n's HTTP Request node not found at ${file}`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { HttpRequest } = require(file) as { HttpRequest: new () => IVersionedNodeType };
	return new HttpRequest();
}

/**
 * Our two node types and one more (n8n's HTTP Request node unless named otherwise) in one INodeTypes, as an
 * n8n instance would hold them.
 */
export function nodeTypesWith(extra: IVersionedNodeType, name: string = HTTP_REQUEST_TYPE): INodeTypes {
	const types: Record<string, INodeType | IVersionedNodeType> = {
		[name]: extra,
	};
	return {
		getByName: (name) => types[name] ?? ourNodeTypes.getByName(name),
		getByNameAndVersion: (name, version) =>
			types[name] ? NodeHelpers.getVersionedNodeType(types[name], version) : ourNodeTypes.getByNameAndVersion(name, version),
		getKnownTypes: () => ({}),
	};
}

export interface SingleNodeRun {
	items: INodeExecutionData[];
	error?: Error;
	run: IRun;
}

/** Runs one node of any registered type through the harness's WorkflowExecute run (test/harness/engine.ts), as runNode does. */
export async function runSingleNode(
	nodeTypes: INodeTypes,
	node: INode,
	credentials: TestCredentialsHelper,
	items: INodeExecutionData[] = [{ json: {} }],
	mode: WorkflowExecuteMode = 'manual',
): Promise<SingleNodeRun> {
	const run = await executeWorkflow({ credentials, nodeTypes, nodes: [node], connections: {}, start: { node, items }, mode });
	const taskData = run.data.resultData.runData[node.name]?.[0];
	const error = (taskData?.error ?? run.data.resultData.error) as Error | undefined;
	return { items: error ? [] : ((taskData?.data?.main?.[0] ?? []) as INodeExecutionData[]), error, run };
}

/**
 * An HTTP Request node (v4.5) that gets one job per input item, the URL built from the item's `id` by an
 * expression; same Header Auth credential. Note that the node starts all items' requests at once.
 */
export function httpRequestGetNode(baseUrl: string): INode {
	return {
		id: 'http-request-get',
		name: 'HTTP Request',
		type: HTTP_REQUEST_TYPE,
		typeVersion: 4.5,
		position: [0, 0],
		credentials: { [HEADER_AUTH_TYPE]: { id: HEADER_AUTH_ID, name: 'Bearer header' } },
		parameters: {
			method: 'GET',
			url: `={{ ${JSON.stringify(`${baseUrl}/jobs/`)} + $json.id }}`,
			authentication: 'genericCredentialType',
			genericAuthType: HEADER_AUTH_TYPE,
			options: { response: { response: { responseFormat: 'json' } } },
		},
	};
}

/**
 * An HTTP Request node (v4.5) that lists /jobs with n8n's built-in pagination: page[limit]=100, then
 * page[after] from the previous response's meta.page.after, until that is null. Auth: a Header Auth
 * credential holding "Bearer <token>", the token fetched beforehand.
 */
export function httpRequestPagingNode(baseUrl: string): INode {
	return {
		id: 'http-request',
		name: 'HTTP Request',
		type: HTTP_REQUEST_TYPE,
		typeVersion: 4.5,
		position: [0, 0],
		credentials: { [HEADER_AUTH_TYPE]: { id: HEADER_AUTH_ID, name: 'Bearer header' } },
		parameters: {
			method: 'GET',
			url: `${baseUrl}/jobs`,
			authentication: 'genericCredentialType',
			genericAuthType: HEADER_AUTH_TYPE,
			sendQuery: true,
			specifyQuery: 'keypair',
			queryParameters: { parameters: [{ name: 'page[limit]', value: '100' }] },
			options: {
				response: { response: { responseFormat: 'json' } },
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [{ type: 'qs', name: 'page[after]', value: '={{ $response.body.meta.page.after }}' }],
						},
						paginationCompleteWhen: 'other',
						completeExpression: '={{ $response.body.meta.page.after === null }}',
						limitPagesFetched: false,
						requestInterval: 0,
					},
				},
			},
		},
	};
}
