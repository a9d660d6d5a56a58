import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { operationError } from '../../shared/execution/operationError';
import type { ItemContext } from '../../shared/execution/item';
import { requestSettings } from '../../shared/transport';
import * as account from './account/Account.resource';
import * as api from './api/Api.resource';
import * as group from './group/Group.resource';
import * as job from './job/Job.resource';
import * as storage from './storage/Storage.resource';
import * as user from './user/User.resource';
import { runItems } from './itemRun';
import type { FileTransferManagerMap, FileTransferManagerResource } from './node.type';

type OperationModule = {
	execute: (this: IExecuteFunctions, item: ItemContext) => Promise<INodeExecutionData[]>;
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
 * - "Continue (using error output)": `{ error, message }` on the error output.
 *
 * Both hold the error's message and its description, the message again when the error has none, so that
 * every failed item has the same fields. n8n moves an item to the error output by the shape of its JSON, and
 *   this is the one shape every supported version moves while keeping the description: n8n 1.x takes JSON
 *   of `error` alone or `error` and `message` exactly, n8n 2.x JSON of nothing but `error`, `message` and
 *   `details` (WorkflowExecute.handleNodeErrorOutput). An item with its `error` property set would be moved
 *   too, but both cut its JSON down to `{ error: <message> }` (normalizeNodeErrors). n8n merges the input
 *   item's JSON under it.
 */
function errorItem(
	ctx: IExecuteFunctions,
	failure: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	// n8n routes on a non-empty `error`: an error without a message still needs one.
	const error = failure.message || `Item ${itemIndex} failed`;
	const pairedItem = { item: itemIndex };
	if (ctx.getNode().onError === 'continueErrorOutput') {
		return { json: { error, message: failure.description || error }, pairedItem };
	}
	return { json: { error, description: failure.description || error }, pairedItem };
}

function failureOf(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: operationError(ctx.getNode(), error as Error, { itemIndex });
	// The item's own errors carry its number in their message already (itemError, execution/operationError.ts).
	if (failure.context.itemIndex === undefined) failure.context.itemIndex = itemIndex;
	return failure;
}

/**
 * Runs the chosen operation once per input item, up to "Parallel Requests" items at once (the item loop,
 * itemRun.ts); owns continueOnFail and paired items. The output is as with one item at a time: results in
 * item order, and without Continue On Fail the error of the first failing item, with no later item started
 * after it (later items already at work finish what they sent, and send nothing more).
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as FileTransferManagerResource;
	const operation = this.getNodeParameter(
		'operation',
		0,
	) as FileTransferManagerMap[FileTransferManagerResource];
	const { execute } = operationOf(this, resource, operation);
	const setting = requestSettings.parallelFromNode(this);
	requestSettings.setParallel(this, setting);
	// Items at work at once: a fixed number, or with Auto its maximum (the pacing holds the requests back).
	const parallel = setting.mode === 'auto' ? setting.max : setting.requests;

	const results = await runItems(items.length, parallel, async (item) => {
		try {
			const output = await execute.call(this, item);
			// The operations' own items: paired in place, not copied, all to one pairedItem object (as n8n's
			// constructExecutionMetaData does): a Return All makes 100,000 of them.
			const paired = { item: item.index };
			for (const result of output) result.pairedItem = paired;
			return output;
		} catch (error) {
			// A stopped item's failure is dropped by the loop: the node throws the earlier item's failure.
			const failure = failureOf(this, error, item.index);
			if (this.continueOnFail()) return [errorItem(this, failure, item.index)];
			throw failure;
		}
	});

	if (results.length === 1) return [results[0]];
	const output: INodeExecutionData[] = [];
	for (const itemResults of results) {
		for (const result of itemResults) output.push(result);
	}
	return [output];
}
