import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * A NodeOperationError whose message stays ours. n8n replaces any message that contains a Node error
 * code ("ECONNRESET", "enoent", ...) with a generic text, also when the code is only part of a value the
 * user typed; this puts the message back.
 */
export function operationError(node: INode, message: string, options: ConstructorParameters<typeof NodeOperationError>[2] = {}): NodeOperationError {
	const error = new NodeOperationError(node, message, options);
	error.message = message;
	return error;
}
