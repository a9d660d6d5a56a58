// @ts-nocheck
import { type Sandbox, startSandbox } from '../../sandbox/src/index';
import type { SandboxOptions } from '../../sandbox/src/api';

interface Res {
	status: number;
	headers: Headers;
	body: any;
	text: string;
}

/** A started sandbox plus a small authenticated HTTP client for it. */
export interface Harness {
	sandbox: Sandbox;
	token(): Promise<string>;
	call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
}

export async function harness(options: SandboxOptions = {}): Promise<Harness> {
	const sandbox = await startSandbox({ speed: 1000, ...options });
	let token: string | undefined;
	const getToken = async () => {
		const res = await fetch(`${sandbox.baseUrl}/oauth/token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'client_credentials',
				client_id: sandbox.clientId,
				client_secret: sandbox.clientSecret,
			}).toString(),
		});
		token = ((await res.json()) as { access_token: string }).access_token;
		return token;
	};
	const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
		const res = await fetch(`${sandbox.baseUrl}${path}`, {
			method,
			headers: {
				Authorization: `Bearer ${token ?? (await getToken())}`,
				...(body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' }),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		let parsed: unknown;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			parsed = undefined;
		}
		return { status: res.status, headers: res.headers, body: parsed, text };
	};
	return { sandbox, token: getToken, call };
}
