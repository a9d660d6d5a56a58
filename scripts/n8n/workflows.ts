/** Workflow exports: read from a folder, pointed at a credential, created in a running n8n through its public API. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CredentialRef } from './credentials';
import type { PublicApiClient } from './n8nApi';
import { CREDENTIAL_TYPE, PACKAGE_NAME } from './packaging';
import { N8N_VERSION, n8nMajor } from './paths';

/** The workflow exports of a folder (`*.json`, in name order), each named after its file when it has no name. */
export function readExamples(dir: string): Array<{ file: string; workflow: WorkflowJson }> {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const file = path.join(dir, name);
			const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as WorkflowJson;
			if (!Array.isArray(workflow.nodes) || typeof workflow.connections !== 'object') {
				throw new Error(`${file} is not a workflow export (needs "nodes" and "connections")`);
			}
			workflow.name ||= path.basename(name, '.json');
			return { file, workflow };
		});
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		credentials?: Record<string, { id?: string | null; name: string }>;
		[key: string]: unknown;
	}>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[key: string]: unknown;
}

/** Points every File Transfer Manager credential reference of a workflow at the given credential. */
export function withCredential(workflow: WorkflowJson, credential: CredentialRef): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const uses = node.credentials?.[CREDENTIAL_TYPE] !== undefined || node.type.startsWith(`${PACKAGE_NAME}.`);
			if (!uses) return node;
			return { ...node, credentials: { ...node.credentials, [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } } };
		}),
	};
}

/** n8n's MCP Server Trigger node type (@n8n/n8n-nodes-langchain). */
export const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * The production URLs of a workflow's MCP Server Triggers on the n8n at `n8nUrl`: `<n8nUrl>/mcp/<path>` (n8n's
 * default N8N_ENDPOINT_MCP). From typeVersion 2 one URL serves Streamable HTTP (POST) and SSE (GET).
 */
export function mcpServerUrls(workflow: WorkflowJson, n8nUrl: string): string[] {
	return workflow.nodes
		.filter((node) => node.type === MCP_TRIGGER_TYPE && node.disabled !== true)
		.map((node) => `${n8nUrl}/mcp/${String((node.parameters as { path?: unknown } | undefined)?.path ?? '').replace(/^\/+/, '')}`);
}

const WORKFLOW_CREATE_KEYS = ['name', 'nodes', 'connections', 'settings', 'staticData', 'pinData', 'description'];

/** Creates a workflow via the public API unless one with its name exists; activates it when asked. */
export async function ensureWorkflow(
	api: PublicApiClient,
	workflow: WorkflowJson,
	options: { activate?: boolean } = {},
): Promise<{ id: string; created: boolean; activated: boolean }> {
	const existing = await api.list<{ id: string; name: string; active: boolean }>(
		`/workflows?name=${encodeURIComponent(workflow.name)}`,
	);
	const found = existing.find((w) => w.name === workflow.name);
	if (found) return { id: found.id, created: false, activated: found.active };
	const body: Record<string, unknown> = {};
	for (const key of WORKFLOW_CREATE_KEYS) if (workflow[key] !== undefined) body[key] = workflow[key];
	if (n8nMajor() < 2) {
		// n8n 1.x's public API refuses pinData and description ("request/body must NOT have additional properties").
		const pinned = Object.keys((body.pinData as object | undefined) ?? {});
		if (pinned.length) throw new Error(`n8n ${N8N_VERSION}'s public API cannot create "${workflow.name}" with pinned data (${pinned.join(', ')})`);
		delete body.pinData;
		delete body.description;
	}
	body.settings ??= { executionOrder: 'v1' };
	const created = await api.call<{ id: string }>('POST', '/workflows', body);
	let activated = false;
	if (options.activate) {
		await api.call('POST', `/workflows/${created.id}/activate`);
		activated = true;
	}
	return { id: created.id, created: true, activated };
}
