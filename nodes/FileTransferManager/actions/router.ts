import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { operationError } from '../helpers/errors';
import * as account from './account/Account.resource';
import * as api from './api/Api.resource';
import * as group from './group/Group.resource';
import * as job from './job/Job.resource';
import * as storage from './storage/Storage.resource';
import * as user from './user/User.resource';
import type { FileTransferManagerMap, FileTransferManagerResource } from './node.type';

type OperationModule = {
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
};

/** Resource index modules, by resource value. Adding a resource means adding it here. */
const resources: Record<FileTransferManagerResource, Record<string, unknown>> = {
	account,
	api,
	group,
	job,
	storage,
	user,
};

function operationOf(
	ctx: IExecuteFunctions,
	resource: FileTransferManagerResource,
	operation: string,
): OperationModule {
	const module = resources[resource]?.[operation] as OperationModule | undefined;
	if (!module || typeof module.execute !== 'function') {
		throw operationError(
			ctx.getNode(),
			`The operation "${operation}" is not supported for resource "${resource}"`,
		);
	}
	return module;
}

/**
 * The item a failed input item becomes when the node continues on error, paired with its input item.
 *
 * - "Continue (regular output)" (and the legacy Continue On Fail): `{ error, description }` on the main
 *   output, beside the successful items.
 * - "Continue (using error output)": n8n 2.x moves an item to the error output when the item has its
 *   `error` property set, or when its JSON holds nothing but `error`, `message` and `details`
 *   (WorkflowExecute.handleNodeErrorOutput). An item with `error` set then has its JSON replaced by
 *   `{ error: <message> }` (WorkflowExecute.normalizeNodeErrors), which would drop the description;
 *   so the item carries `{ error, details }` in its JSON only, and n8n puts it on the error output and
 *   merges the input item's JSON under it.
 */
function errorItem(
	ctx: IExecuteFunctions,
	failure: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	// n8n routes on a non-empty `error`: an error without a message still needs one.
	const json: IDataObject = { error: failure.message || `Item ${itemIndex} failed` };
	if (failure.description) json[toErrorOutput ? 'details' : 'description'] = failure.description;
	return { json, pairedItem: { item: itemIndex } };
}

/** Runs the chosen operation once per input item; owns continueOnFail and paired items. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as FileTransferManagerResource;
	const operation = this.getNodeParameter(
		'operation',
		0,
	) as FileTransferManagerMap[FileTransferManagerResource];
	const { execute } = operationOf(this, resource, operation);
	const output: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await execute.call(this, itemIndex);
			for (const result of results) {
				output.push({ ...result, pairedItem: { item: itemIndex } });
			}
		} catch (error) {
			const failure =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: operationError(this.getNode(), error as Error, { itemIndex });
			if (failure.context.itemIndex === undefined) failure.context.itemIndex = itemIndex;
			if (this.continueOnFail()) {
				output.push(errorItem(this, failure, itemIndex));
				continue;
			}
			throw failure;
		}
	}
	return [output];
}
