// @ts-nocheck
import type { Sandbox } from '../../../sandbox/src';

/** The API version the sandbox itself reports (a token, then GET /), asked directly, without n8n. */
export async function sandboxApiVersion(sandbox: Sandbox): Promise<string> {
	const tokenRes = await fetch(`${sandbox.baseUrl}/oauth/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ grant_type: 'client_credentials', client_id: sandbox.clientId, client_secret: sandbox.clientSecret }),
	});
	const { access_token: token } = (await tokenRes.json()) as { access_token: string };
	const res = await fetch(`${sandbox.baseUrl}/`, { headers: { authorization: `Bearer ${token}` } });
	return ((await res.json()) as { meta: { apiVersion: string } }).meta.apiVersion;
}
