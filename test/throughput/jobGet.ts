/** The workload of the Parallel Requests tests: Job Get of one demo job, once per input item, and how to read the sandbox's record of it. */
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

/** The most requests the sandbox had in service (from arrival to answer) at once. */
export function mostAtOnce(records: Array<{ at: number; doneAt?: number }>): number {
	const events = records.flatMap((r): Array<[number, number]> => [[r.at, 1], [r.doneAt ?? r.at, -1]]);
	events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let level = 0;
	let most = 0;
	for (const [, change] of events) {
		level += change;
		most = Math.max(most, level);
	}
	return most;
}
