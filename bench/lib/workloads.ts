/** The measured operations, shared by the in-process benchmarks and the memory child process. */
import './resolve-node-ts';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { TestCredentialsHelper } from '../../test/harness/credentials';
import { runNode } from '../../test/harness/engine';
import { forgetRemembered } from '../../nodes/shared/transport/pace/remembered';
import type { CountingCredentialsHelper } from './n8n';
import { httpRequestGetNode, httpRequestPagingNode, nodeTypesWith, runSingleNode } from './n8n';
import type { IVersionedNodeType } from 'n8n-workflow';

export const RETURN_ALL: INodeParameters = { resource: 'job', operation: 'getMany', returnAll: true };

/** Our node, Job → Get Many with Return All (defaults otherwise: Simplify on, no filters). */
export async function oursReturnAll(credentials: TestCredentialsHelper): Promise<INodeExecutionData[]> {
	const { items, error } = await runNode({ credentials, parameters: RETURN_ALL });
	if (error) throw new Error(`our node failed: ${error.message} ${error.description ?? ''}`);
	return items;
}

/**
 * Our node, Job → Get, one job per input item, the ID mapped from the item by an expression. At Auto (no
 * `parallel`), a first execution: what Auto learnt in the runs before is forgotten, as in a new n8n process
 * (bench/concurrency.ts measures the second execution too).
 */
export async function oursJobGet(credentials: TestCredentialsHelper, ids: string[], parallel?: number): Promise<INodeExecutionData[]> {
	if (parallel === undefined) forgetRemembered();
	const { items, error } = await runNode({
		credentials,
		parameters: {
			resource: 'job',
			operation: 'get',
			jobId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			...(parallel === undefined ? {} : { requestOptions: { parallelRequests: parallel } }),
		},
		items: ids.map((id) => ({ json: { id } })),
	});
	if (error) throw new Error(`our node failed: ${error.message} ${error.description ?? ''}`);
	return items;
}

/** n8n's HTTP Request node paging /jobs with its built-in pagination; one item per page. */
export async function httpNodeReturnAll(
	httpRequest: IVersionedNodeType,
	credentials: CountingCredentialsHelper,
	baseUrl: string,
): Promise<INodeExecutionData[]> {
	const { items, error } = await runSingleNode(nodeTypesWith(httpRequest), httpRequestPagingNode(baseUrl), credentials);
	if (error) {
		const described = error as Error & { description?: string };
		throw new Error(`HTTP Request node failed: ${error.message} ${described.description ?? ''}`);
	}
	return items;
}

/** n8n's HTTP Request node getting one job per input item. */
export async function httpNodeJobGet(
	httpRequest: IVersionedNodeType,
	credentials: CountingCredentialsHelper,
	baseUrl: string,
	ids: string[],
): Promise<INodeExecutionData[]> {
	const { items, error } = await runSingleNode(
		nodeTypesWith(httpRequest),
		httpRequestGetNode(baseUrl),
		credentials,
		ids.map((id) => ({ json: { id } })),
	);
	if (error) {
		const described = error as Error & { description?: string };
		throw new Error(`HTTP Request node failed: ${error.message} ${described.description ?? ''}`);
	}
	return items;
}

/** Records in the HTTP Request node's output: one item per page, each holding `data`. */
export function recordsInPages(items: INodeExecutionData[]): number {
	return items.reduce((sum, item) => sum + (Array.isArray(item.json.data) ? item.json.data.length : 0), 0);
}
