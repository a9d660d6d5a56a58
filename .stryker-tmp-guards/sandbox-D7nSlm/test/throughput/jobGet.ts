/** The workload of the Parallel Requests tests: Job Get of one demo job, once per input item. */
// @ts-nocheck

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS } from '../../sandbox/src';
import { rl } from '../harness/locator';

/** Job › Get of the item's `id`, with the given Request Options (none: the node's defaults, Auto). */
export const jobGet = (requestOptions?: INodeParameters): INodeParameters => ({
	resource: 'job',
	operation: 'get',
	jobId: rl('={{ $json.id }}'),
	...(requestOptions ? { requestOptions } : {}),
});

/** `count` input items, each the id of the same demo job. */
export const jobItems = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, () => ({ json: { id: DEMO_IDS.jobIds.copied } }));
