import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { AnyResource } from '../api/types';

/** A JSON:API resource as a workflow builder wants it: `id` first, attributes at top level. */
export function flatten(resource: AnyResource): IDataObject {
	const { attributes } = resource;
	const id = 'id' in resource ? { id: resource.id } : {};
	return { ...id, ...(attributes as unknown as IDataObject) };
}

/** Wraps JSON objects as items of one input item. */
export function toItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((json) => ({ json }));
}
