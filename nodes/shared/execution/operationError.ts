import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isToolUse } from './toolUse';

/** Any context that knows its node: an action's execute, a trigger's poll, a list search. */
export interface NodeContext {
	getNode(): INode;
}

/** The options of NodeOperationError's constructor (n8n-workflow does not export the type by name). */
export type NodeOperationErrorOptions = NonNullable<ConstructorParameters<typeof NodeOperationError>[2]>;

/**
 * A NodeOperationError that keeps the message it was given.
 *
 * n8n's constructor replaces any message that merely contains a Node.js error code (ECONNREFUSED, ENOENT,
 * EACCES, … in any letter case) with a generic text, so that `"Filters → Name" must be …, got "enoent"`
 * would read "The file or directory does not exist". Our messages are written by us (and quote the user's
 * input), so the factory puts the message back. A wrapped Error keeps its own message the same way; an
 * error that already is a NodeOperationError is handed back unchanged, as the constructor does. A
 * `message` or `messageMapping` in the options is n8n's own way to set the text and is left to it.
 */
export function operationError(
	node: INode,
	message: string | Error,
	options: NodeOperationErrorOptions = {},
): NodeOperationError {
	if (message instanceof NodeOperationError) return new NodeOperationError(node, message, options);
	const error = new NodeOperationError(node, message, options);
	const text = typeof message === 'string' ? message : message.message;
	if (options.message === undefined && options.messageMapping === undefined && error.message !== text) {
		// The constructor keeps the replaced text as the last of `messages`; it is the message again now.
		if (error.messages[error.messages.length - 1] === text) error.messages.pop();
		error.message = text;
	}
	return error;
}

/**
 * The error of one input item, from a message written without the item: the one place that adds the item's
 * number, ` [item N]` at the end of the message (its description stays as given), and sets the error's
 * `itemIndex`. Without an item (the trigger's poll, list search, the credential test) the message stays as
 * it is, and so it does in tool use: a tool call is one item, and "[item 0]" tells a model nothing
 * (execution/toolUse.ts).
 */
export function itemError(
	node: INode,
	message: string,
	itemIndex: number | undefined,
	options: Omit<NodeOperationErrorOptions, 'itemIndex'> = {},
): NodeOperationError {
	if (itemIndex === undefined) return operationError(node, message, options);
	const numbered = isToolUse(node) ? message : `${message} [item ${itemIndex}]`;
	return operationError(node, numbered, { ...options, itemIndex });
}
