/**
 * The floor under any node: a bare node that does nothing per item but what every community node must do,
 * resolve the item's job id from an expression and call n8n-core's `httpRequestWithAuthentication` with our
 * credential (the same request options as our transport: a stream body, the full response, no redirects),
 * then read and parse the body. No checks, no retries, no limiter, no output shaping. `atOnce` items are in
 * flight at a time (a pool), or all of them when `atOnce` is at least the number of items.
 *
 * Run through the same n8n-core as our node, it shows what n8n-core and Node cost at a given concurrency,
 * so that what our node adds can be told apart from it.
 */
import type { IExecuteFunctions, IHttpRequestOptions, INodeExecutionData, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../nodes/shared/transport/connection';
import { nodeOf } from '../../test/harness/engine';
import type { TestCredentialsHelper } from '../../test/harness/credentials';
import { nodeTypesWith, runSingleNode } from './n8n';

const HELPER_NODE_TYPE = 'bench.helperOnly';

function helperOnlyType(baseUrl: string, atOnce: number): IVersionedNodeType {
	const node: INodeType = {
		description: {
			displayName: 'Helper Only',
			name: 'helperOnly',
			group: ['transform'],
			version: 1,
			description: 'n8n-core request helper per item, nothing else',
			defaults: { name: 'Helper Only' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [{ displayName: 'Job ID', name: 'jobId', type: 'string', default: '' }],
		} as INodeType['description'],
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const items = this.getInputData();
			const one = async (itemIndex: number): Promise<INodeExecutionData> => {
				const id = this.getNodeParameter('jobId', itemIndex) as string;
				const response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
					method: 'GET',
					url: `${baseUrl}/jobs/${id}`,
					headers: { Accept: 'application/vnd.api+json, application/json' },
					json: true,
					encoding: 'stream',
					returnFullResponse: true,
					disableFollowRedirect: true,
				} as IHttpRequestOptions)) as { body: AsyncIterable<Buffer> };
				const chunks: Buffer[] = [];
				for await (const chunk of response.body) chunks.push(chunk);
				const document = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: string } };
				return { json: { id: document.data.id }, pairedItem: { item: itemIndex } };
			};
			const output: INodeExecutionData[] = new Array<INodeExecutionData>(items.length);
			let next = 0;
			const worker = async () => {
				while (next < items.length) {
					const itemIndex = next++;
					output[itemIndex] = await one(itemIndex);
				}
			};
			await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
			return [output];
		},
	};
	return {
		nodeVersions: { 1: node },
		currentVersion: 1,
		description: { displayName: 'Helper Only', name: 'helperOnly', defaultVersion: 1 },
		getNodeType: () => node,
	} as unknown as IVersionedNodeType;
}

/** Job Get through the bare helper node, `atOnce` items at a time; returns its items (`json.id` per job). */
export async function helperOnlyJobGet(
	credentials: TestCredentialsHelper,
	baseUrl: string,
	ids: string[],
	atOnce: number,
): Promise<INodeExecutionData[]> {
	const types = nodeTypesWith(helperOnlyType(baseUrl, atOnce), HELPER_NODE_TYPE);
	const node = nodeOf(HELPER_NODE_TYPE, { jobId: '={{ $json.id }}' }, { id: 'helper-only', name: 'Helper Only' });
	const { items, error } = await runSingleNode(types, node, credentials, ids.map((id) => ({ json: { id } })));
	if (error) throw new Error(`helper-only node failed: ${error.message}`);
	return items;
}
