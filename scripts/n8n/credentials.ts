/** This package's credential in a running n8n: created or updated through its APIs, and tested as the editor does. */
import { N8N_VERSION, n8nMajor } from './paths';
import type { PublicApiClient, RestClient } from './n8nApi';
import { CREDENTIAL_TYPE } from './packaging';

export interface CredentialRef {
	id: string;
	name: string;
}

export interface FileTransferManagerCredentialData {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
}

/**
 * The credential of that name and type: created when missing; an existing one is updated with `data`, or,
 * with `keepExisting`, left exactly as it is (so that a user's edits in n8n survive).
 */
export async function ensureCredential(
	api: PublicApiClient,
	name: string,
	data: FileTransferManagerCredentialData,
	options: { keepExisting?: boolean } = {},
): Promise<CredentialRef & { created: boolean; updated: boolean }> {
	// n8n 1.x's public API has neither GET nor PATCH /credentials (405): the editor's routes do it there.
	const legacy = n8nMajor() < 2;
	const all = legacy
		? await sessionOf(api, 'list credentials').call<Array<{ id: string; name: string; type: string }>>('GET', '/credentials')
		: await api.list<{ id: string; name: string; type: string }>('/credentials');
	const found = all.find((c) => c.name === name && c.type === CREDENTIAL_TYPE);
	if (found) {
		if (options.keepExisting) return { id: found.id, name, created: false, updated: false };
		if (legacy) await sessionOf(api, 'update a credential').call('PATCH', `/credentials/${found.id}`, { name, type: CREDENTIAL_TYPE, data });
		else await api.call('PATCH', `/credentials/${found.id}`, { name, type: CREDENTIAL_TYPE, data });
		return { id: found.id, name, created: false, updated: true };
	}
	return { ...(await createCredential(api, name, data)), created: true, updated: false };
}

/** A new credential of that name and type, whether or not one of that name exists. */
export async function createCredential(api: PublicApiClient, name: string, data: FileTransferManagerCredentialData): Promise<CredentialRef> {
	// n8n 1.x adds "Allowed HTTP Request Domains" to this credential type, and its public API then refuses
	// data without it ('request.body.data requires property "allowedDomains"'): send the editor's default.
	const body = n8nMajor() < 2 ? { ...data, allowedHttpRequestDomains: 'all' } : data;
	const created = await api.call<{ id: string }>('POST', '/credentials', { name, type: CREDENTIAL_TYPE, data: body });
	return { id: created.id, name };
}

/** The owner's session of a public API client, for what n8n 1.x's public API cannot do. */
function sessionOf(api: PublicApiClient, what: string): RestClient {
	if (!api.session) {
		throw new Error(`n8n ${N8N_VERSION}'s public API cannot ${what}: create the PublicApiClient with the owner's session (publicApi())`);
	}
	return api.session;
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** Tests a stored credential as n8n's Test button does: 'OK', or 'Error' with n8n's message. */
export async function testStoredCredential(api: PublicApiClient, id: string): Promise<CredentialTestResult> {
	if (n8nMajor() >= 2) return api.call<CredentialTestResult>('POST', `/credentials/${id}/test`);
	// n8n 1.x's public API has no test route: the editor's, with the stored (redacted) data sent back as it does.
	const rest = sessionOf(api, 'test a credential');
	const stored = await rest.call<{ name: string; type: string; data: Record<string, unknown> }>('GET', `/credentials/${id}?includeData=true`);
	return rest.call<CredentialTestResult>('POST', '/credentials/test', {
		credentials: { id, name: stored.name, type: stored.type, data: stored.data },
	});
}

/**
 * Tests credential data that is not stored, as the editor's credential modal does before saving (2.x). n8n 1.x
 * tests stored credentials only (403 Forbidden for any other): there it is stored, tested and deleted again.
 */
export async function testCredentialData(
	rest: RestClient,
	credential: { name: string; type: string; data: Record<string, unknown> },
): Promise<CredentialTestResult> {
	if (n8nMajor() >= 2) return rest.call<CredentialTestResult>('POST', '/credentials/test', { credentials: { id: '', ...credential } });
	const stored = await rest.call<{ id: string }>('POST', '/credentials', credential);
	try {
		return await rest.call<CredentialTestResult>('POST', '/credentials/test', { credentials: { id: stored.id, ...credential } });
	} finally {
		await rest.call('DELETE', `/credentials/${stored.id}`);
	}
}
