/**
 * Clients of a running n8n: the internal REST API (/rest, the owner's session cookie) and the public API
 * (/api/v1, an API key); the owner's account, login and API key.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

export class HttpError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: string,
	) {
		super(message);
	}
}

async function request(
	url: string,
	method: string,
	headers: Record<string, string>,
	body?: unknown,
): Promise<{ status: number; json: unknown; text: string; headers: Headers }> {
	// Each request on its own connection (`connection: close`): a kept-alive connection that n8n closes just as
	// it is reused (a long-lived n8n shared by several clients, on a loaded machine) fails a request that n8n may
	// or may not have carried out, and a POST (a workflow run, a credential) cannot be sent again on a guess.
	const res = await fetch(url, {
		method,
		headers: { accept: 'application/json', connection: 'close', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(60000),
	});
	const text = await res.text();
	let json: unknown;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	if (!res.ok) {
		throw new HttpError(`${method} ${url} -> ${res.status}: ${text.slice(0, 500)}`, res.status, text);
	}
	return { status: res.status, json, text, headers: res.headers };
}

function authCookie(headers: Headers): string {
	const cookie = headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('n8n answered without an n8n-auth cookie');
	return cookie.split(';')[0];
}

/** The internal REST API (/rest), as the editor uses it, with the owner's session cookie. */
export class RestClient {
	constructor(
		readonly url: string,
		readonly cookie: string,
	) {}

	/** The cookie's value alone (for a browser). */
	get cookieValue(): string {
		return this.cookie.slice('n8n-auth='.length);
	}

	async call<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
		const { json } = await request(`${this.url}/rest${route}`, method, { cookie: this.cookie }, body);
		return (json as { data: T }).data;
	}
}

/**
 * The public API (/api/v1) with an API key. `session`, the owner's REST client, stands in for the routes
 * n8n 1.x's public API lacks (it cannot list, update or test credentials): pass it to run in every version.
 */
export class PublicApiClient {
	constructor(
		readonly url: string,
		readonly apiKey: string,
		readonly session?: RestClient,
	) {}

	async call<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
		const { json } = await request(`${this.url}/api/v1${route}`, method, { 'X-N8N-API-KEY': this.apiKey }, body);
		return json as T;
	}

	/** Every item of a paginated list. */
	async list<T>(route: string): Promise<T[]> {
		const items: T[] = [];
		let cursor: string | null | undefined;
		do {
			const sep = route.includes('?') ? '&' : '?';
			const page = await this.call<{ data: T[]; nextCursor?: string | null }>(
				'GET',
				`${route}${sep}limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			items.push(...page.data);
			cursor = page.nextCursor;
		} while (cursor);
		return items;
	}
}

export interface OwnerAccount {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** A password n8n accepts (8+ characters, a digit, an upper-case letter). */
export function generatePassword(): string {
	return `Ftm-${randomBytes(6).toString('hex')}-Q7`;
}

/** Creates the instance owner, or logs in when the owner exists already. */
export async function ensureOwner(url: string, owner: OwnerAccount): Promise<{ client: RestClient; created: boolean }> {
	try {
		const res = await request(`${url}/rest/owner/setup`, 'POST', {}, owner);
		return { client: new RestClient(url, authCookie(res.headers)), created: true };
	} catch (error) {
		if (!(error instanceof HttpError) || error.status !== 400) throw error;
	}
	return { client: await login(url, owner.email, owner.password), created: false };
}

/** Logs in with email and password. */
async function login(url: string, email: string, password: string): Promise<RestClient> {
	try {
		const res = await request(`${url}/rest/login`, 'POST', {}, { emailOrLdapLoginId: email, password });
		return new RestClient(url, authCookie(res.headers));
	} catch (error) {
		if (error instanceof HttpError && error.status === 401) {
			throw new Error(
				`n8n at ${url} has an owner already, and ${email} with the stored password cannot log in: ${error.body}`,
			);
		}
		throw error;
	}
}

/** Creates an API key with every scope the owner may grant; returns the raw key. */
export async function createApiKey(rest: RestClient, label: string): Promise<string> {
	type Key = { id: string; label: string };
	// 2.x answers { items, counts, ... }; older versions a plain array.
	const listed = await rest.call<Key[] | { items: Key[] }>('GET', `/api-keys?label=${encodeURIComponent(label)}`);
	const existing = Array.isArray(listed) ? listed : listed.items;
	for (const key of existing.filter((k) => k.label === label)) {
		await rest.call('DELETE', `/api-keys/${key.id}`);
	}
	const scopes = await rest.call<string[]>('GET', '/api-keys/scopes');
	const created = await rest.call<{ rawApiKey: string }>('POST', '/api-keys', { label, expiresAt: null, scopes });
	return created.rawApiKey;
}

/** Whether an API key works. */
async function apiKeyWorks(url: string, apiKey: string): Promise<boolean> {
	try {
		await new PublicApiClient(url, apiKey).call('GET', '/workflows?limit=1');
		return true;
	} catch {
		return false;
	}
}

/** The owner login `npm start` and the queue stack keep in their data folder, with the API key. */
export interface StoredLogin extends OwnerAccount {
	apiKey?: string;
	/** The sandbox address the credential was last written for. */
	sandboxBaseUrl?: string;
}

/**
 * The owner of the n8n at `url` (set up on first use) with a working API key (a new one, labelled
 * `keyLabel`, when the stored one fails). The login is read from `file`, a new one when there is none, and
 * saved there (mode 600) as soon as the owner exists and again with the key; `save` writes later changes.
 */
export async function ensureOwnerLogin(
	url: string,
	file: string,
	keyLabel: string,
): Promise<{ login: StoredLogin & { apiKey: string }; rest: RestClient; created: boolean; save: () => void }> {
	let login: StoredLogin;
	try {
		login = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredLogin;
	} catch {
		login = { email: 'owner@example.com', password: generatePassword(), firstName: 'Dev', lastName: 'Owner' };
	}
	const save = () => fs.writeFileSync(file, JSON.stringify(login, null, 2), { mode: 0o600 });
	const { client: rest, created } = await ensureOwner(url, login);
	save();
	if (!login.apiKey || !(await apiKeyWorks(url, login.apiKey))) {
		login.apiKey = await createApiKey(rest, keyLabel);
		save();
	}
	return { login: login as StoredLogin & { apiKey: string }, rest, created, save };
}

/** A public API client with a new API key of the owner's (labelled `label`), and the owner's session. */
export async function publicApi(rest: RestClient, label: string): Promise<PublicApiClient> {
	return new PublicApiClient(rest.url, await createApiKey(rest, label), rest);
}
