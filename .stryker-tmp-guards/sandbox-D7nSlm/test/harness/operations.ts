/**
 * Every operation the action node offers, read from its description: the one list that completeness tests
 * compare the hand-written lists (docs, fault matrix, settings cases, subtitles) with.
 */
// @ts-nocheck

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';

export interface OfferedOperation {
	/** `resource.operation`, e.g. `job.getMany`. */
	key: string;
	resource: string;
	operation: string;
	/** Display names, e.g. `Job` and `Get Many`. */
	resourceName: string;
	operationName: string;
}

const options = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];

export function offeredOperations(): OfferedOperation[] {
	const { properties } = new FileTransferManager().description;
	const resourceProperty = properties.find((p) => p.name === 'resource');
	if (!resourceProperty) throw new Error('the action node has no Resource property');
	return options(resourceProperty).flatMap((resource) =>
		properties
			.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value))
			.flatMap((property) =>
				options(property).map((op) => ({
					key: `${String(resource.value)}.${String(op.value)}`,
					resource: String(resource.value),
					operation: String(op.value),
					resourceName: resource.name,
					operationName: op.name,
				})),
			),
	);
}

/** The anchor GitHub gives the heading "### Job: Get Many": `job-get-many`. */
export function headingAnchor(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.trim()
		.replace(/\s/g, '-');
}
