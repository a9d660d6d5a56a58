/**
 * The bearer token of an MCP Server Trigger (example 5): n8n's own Bearer Auth credential (`httpBearerAuth`,
 * from n8n-nodes-base), which the trigger checks on every request when its Authentication is Bearer Auth.
 * `npm start` makes it with a random token for the local demo and prints that token once.
 */
import { randomBytes } from 'node:crypto';
import type { CredentialRef } from './credentials';
import type { PublicApiClient } from './n8nApi';
import { n8nMajor } from './paths';
import { MCP_TRIGGER_TYPE, type WorkflowJson } from './workflows';

/** n8n's Bearer Auth credential type, the one the MCP Server Trigger asks for under Authentication Bearer Auth. */
export const BEARER_CREDENTIAL_TYPE = 'httpBearerAuth';

type WorkflowNode = WorkflowJson['nodes'][number];

/** The trigger nodes of a workflow that ask for a bearer token (Authentication Bearer Auth), enabled or not. */
function bearerTriggers(workflow: WorkflowJson): WorkflowNode[] {
	return workflow.nodes.filter(
		(node) => node.type === MCP_TRIGGER_TYPE && (node.parameters as { authentication?: unknown } | undefined)?.authentication === 'bearerAuth',
	);
}

/** The names of the Bearer Auth credentials a workflow's MCP Server Triggers refer to. */
function bearerCredentialNames(workflow: WorkflowJson): string[] {
	const names = bearerTriggers(workflow)
		.map((node) => node.credentials?.[BEARER_CREDENTIAL_TYPE]?.name)
		.filter((name): name is string => typeof name === 'string' && name !== '');
	return [...new Set(names)];
}

/** Points every MCP Server Trigger of a workflow that uses Bearer Auth with a credential of that name at `credential`. */
export function withBearerCredential(workflow: WorkflowJson, credential: CredentialRef): WorkflowJson {
	const targets = new Set(bearerTriggers(workflow).filter((node) => node.credentials?.[BEARER_CREDENTIAL_TYPE]?.name === credential.name));
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			targets.has(node)
				? { ...node, credentials: { ...node.credentials, [BEARER_CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } } }
				: node,
		),
	};
}

/** A new random bearer token: 32 random bytes, base64url (43 characters). */
function newBearerToken(): string {
	return randomBytes(32).toString('base64url');
}

/**
 * The Bearer Auth credential of that name: created with `token` (a new random one when not given) when
 * missing, and then returned with its token; an existing one is left exactly as it is and returned without a
 * token (n8n never gives a stored secret back; the user may have set their own).
 */
export async function ensureBearerCredential(
	api: PublicApiClient,
	name: string,
	token: string = newBearerToken(),
): Promise<CredentialRef & { created: boolean; token?: string }> {
	// n8n 1.x's public API cannot list credentials: the owner's session does (as ensureCredential).
	const all =
		n8nMajor() < 2 && api.session
			? await api.session.call<Array<{ id: string; name: string; type: string }>>('GET', '/credentials')
			: await api.list<{ id: string; name: string; type: string }>('/credentials');
	const found = all.find((c) => c.name === name && c.type === BEARER_CREDENTIAL_TYPE);
	if (found) return { id: found.id, name, created: false };
	const created = await api.call<{ id: string }>('POST', '/credentials', { name, type: BEARER_CREDENTIAL_TYPE, data: { token } });
	return { id: created.id, name, created: true, token };
}

/**
 * For each Bearer Auth credential the workflows' MCP Server Triggers name: the credential, made when
 * missing (see ensureBearerCredential), and the workflows pointed at it.
 */
export async function withBearerCredentials(
	api: PublicApiClient,
	workflows: WorkflowJson[],
): Promise<{ workflows: WorkflowJson[]; credentials: Array<CredentialRef & { created: boolean; token?: string }> }> {
	const names = [...new Set(workflows.flatMap(bearerCredentialNames))];
	const credentials: Array<CredentialRef & { created: boolean; token?: string }> = [];
	for (const name of names) credentials.push(await ensureBearerCredential(api, name));
	return {
		workflows: workflows.map((workflow) => credentials.reduce((w, credential) => withBearerCredential(w, credential), workflow)),
		credentials,
	};
}
