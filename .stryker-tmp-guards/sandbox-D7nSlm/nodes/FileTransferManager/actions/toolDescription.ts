/**
 * The node's description in its tool variant (`<package>.fileTransferManagerTool`, what n8n's AI Agent and
 * MCP Server Trigger use), written for a model: the text a manual Tool Description starts with. n8n lays
 * `usableAsTool.replacements` over the description it sends to the editor only. The operations keep their
 * short actions: the editor names a new tool node after the action, and that name is the tool's (a long
 * action would make a long, cut tool name); the per-operation texts for a manual Tool Description are in
 * docs/ai-agents.md. docs/operations.md › As an AI agent tool.
 */
// @ts-nocheck

export const TOOL_NODE_DESCRIPTION =
	'File Transfer Management Service. Jobs: start copy, move or sync transfers between storages (file shares, S3 buckets), or dry runs that only estimate files, duration and cost; watch, pause, resume or cancel them; list their per-file transfers and errors. Storages: list the sources and targets with their IDs. Users and groups: create, read, update, delete. Accounts: read. API: version and compatibility check. Records are addressed by UUID; list them with Get Many to find one. Run From Dry Run starts the real job of a finished dry run only within limits set in the workflow (transfer types, conflict handling, target storages, dry-run age, estimated cost): a refusal names the limit, no tool call can change it, tell the user.';

/** What n8n lays over the node's description for its tool variant (`usableAsTool.replacements`). */
export function toolReplacements(): { description: string } {
	return { description: TOOL_NODE_DESCRIPTION };
}
