/**
 * Shared helpers of the trigger tests: a sandbox with its clock sped up, a trigger handle driven through
 * n8n-core's PollContext, and small tools to count what the trigger delivered.
 */
// @ts-nocheck

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { TriggerHandle } from '../harness/engine';
import { credentialsFor, triggerHandle } from '../harness/engine';
export { rl } from '../harness/locator';

export { DEMO_IDS };

export const NODE_NAME = 'File Transfer Manager Trigger';

export async function sandboxForTrigger(): Promise<Sandbox> {
	return await startSandbox({ speed: 1000 });
}

/** Trigger parameters as the editor stores them; retries off so that an injected fault fails the poll. */
export function params(overrides: INodeParameters = {}): INodeParameters {
	return {
		events: ['failed', 'finished', 'stuck'],
		filters: {},
		options: {},
		requestOptions: { maxRetries: 0 },
		...overrides,
	};
}

export function handleFor(sandbox: Sandbox, parameters: INodeParameters = params()): TriggerHandle {
	return triggerHandle(credentialsFor(sandbox), parameters);
}

/** The trigger's own state inside the workflow's static data. */
export function triggerState(handle: TriggerHandle): IDataObject {
	return (handle.staticData()[`node:${NODE_NAME}`] ?? {}) as IDataObject;
}

/** Polls once and returns the emitted items' json ([] for null). */
export async function pollJson(handle: TriggerHandle): Promise<IDataObject[]> {
	const items: INodeExecutionData[] | null = await handle.poll();
	return (items ?? []).map((item) => item.json);
}

/** "id:event" keys of delivered items, for multiset comparisons. */
export const keys = (items: IDataObject[]): string[] => items.map((json) => `${String(json.id)}:${String(json.event)}`);

export function countBy(values: string[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return counts;
}

/** Waits until the clock moved past the current millisecond, so that later updates get a newer updatedAt. */
export async function nextMillisecond(): Promise<void> {
	const start = Date.now();
	while (Date.now() <= start) await new Promise((resolve) => setImmediate(resolve));
}
