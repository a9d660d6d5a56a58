import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { AnyResource } from '../api/types';

/** Where an attribute goes whose name is one of the node's own output keys (docs/operations.md, "The node's own keys win"). */
const API_ATTRIBUTES_KEY = 'apiAttributes';

/**
 * Keys the node adds after the attributes of a record that is not a job (group and user Create). Every
 * output names its own: an attribute named like one of them, like `id`, or like `apiAttributes`, never
 * overwrites the node's value nor is overwritten by it: it is output under `apiAttributes` instead.
 */
export const CREATE_OUTPUT_KEYS = ['recoveredAfterAmbiguousError'] as const;

/** Sets an own property, whatever its name: a plain assignment of `__proto__` would replace the prototype. */
function put(target: IDataObject, key: string, value: unknown): void {
	if (key === '__proto__') {
		Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
	} else {
		target[key] = value as IDataObject[string];
	}
}

/**
 * A JSON:API resource as a workflow builder wants it: the node's own fields first (`leading`, then
 * `id`), then the attributes at top level. An attribute named like one of these, like `apiAttributes`,
 * or like a key in `reserved` (what the caller adds afterwards) goes under `apiAttributes`, so that the
 * node's keys always mean what docs/operations.md says and the API's value stays reachable.
 */
export function flatten(
	resource: AnyResource,
	leading: IDataObject = {},
	reserved: readonly string[] = [],
): IDataObject {
	const out: IDataObject = { ...leading };
	if ('id' in resource) out.id = resource.id;
	const clashes: IDataObject = {};
	let clashed = false;
	for (const [key, value] of Object.entries(resource.attributes as object)) {
		if (key === API_ATTRIBUTES_KEY || reserved.includes(key) || Object.prototype.hasOwnProperty.call(out, key)) {
			put(clashes, key, value);
			clashed = true;
		} else {
			put(out, key, value);
		}
	}
	if (clashed) out[API_ATTRIBUTES_KEY] = clashes;
	return out;
}

/** Wraps JSON objects as items of one input item. */
export function asItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((json) => ({ json }));
}
