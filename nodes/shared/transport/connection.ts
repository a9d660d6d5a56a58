/**
 * What the transport reads from the credential once per node context (one execution of the node, one
 * poll, one list search), and the service's clock as its answers show it.
 */
import { itemError } from '../execution/operationError';
import { showUrl } from './secrets';
import { clientKey } from './token';
import type { ApiContext } from './settings';

/** The credential type's name, as n8n knows it. */
export const CREDENTIAL_TYPE = 'fileTransferManagerOAuth2Api';

export interface Connection {
	baseUrl: string;
	/** Scheme, host and port of the Base URL: the only origin that ever gets the token. */
	origin: string;
	/** The user turned on "Ignore SSL Issues" in the credential. */
	skipTls: boolean;
	/** The client secret and the token as read, to keep them out of anything shown. */
	secrets: string[];
	/** Which client this is, for the token requests of this process. */
	client: string;
	/** Which service and client, without the secret: what Parallel Requests Auto learnt is remembered by it (pace/remembered.ts). */
	service: string;
}

const connections = new WeakMap<ApiContext, Connection>();

/**
 * The key of a service and client: the Base URL (its origin as the URL parser writes it, and its path
 * without trailing slashes) and the Client ID. Not the secret: a key is not a credential.
 */
export function serviceKey(baseUrl: string, clientId: unknown): string {
	let base = baseUrl.trim();
	try {
		const url = new URL(base);
		base = url.origin + url.pathname;
	} catch {
		// An unreadable Base URL fails before any request (../connection.ts); the key is only a name.
	}
	return JSON.stringify([base.replace(/\/+$/, ''), String(clientId ?? '').trim()]);
}


export async function connectionOf(ctx: ApiContext, itemIndex?: number): Promise<Connection> {
	const known = connections.get(ctx);
	if (known) return known;
	const connection = await readConnection(ctx, itemIndex);
	connections.set(ctx, connection);
	return connection;
}

async function readConnection(ctx: ApiContext, itemIndex?: number): Promise<Connection> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const baseUrl = String(credentials.baseUrl ?? '').trim();
	const secrets = [credentials.clientSecret, credentials.accessToken].filter(
		(value): value is string => typeof value === 'string' && value.length > 0,
	);
	if (!/^https?:\/\/[^/\s?#@]+(\/[^\s?#]*)?$/i.test(baseUrl)) {
		throw itemError(
			ctx.getNode(),
			`The credential's Base URL "${showUrl(baseUrl)}" is not an http(s) URL without query, fragment or user info`,
			itemIndex,
			{
				description:
					'Set Base URL to the API host of your deployment, with its scheme, e.g. https://api.acme.example.com (a path prefix such as https://api.acme.example.com/v2/ is fine). Nothing was sent.',
			},
		);
	}
	return {
		baseUrl,
		origin: new URL(baseUrl).origin,
		skipTls: credentials.ignoreSSLIssues === true,
		secrets,
		client: clientKey(credentials),
		service: serviceKey(baseUrl, credentials.clientId),
	};
}

/** The service's time (its Date header) and the local time when that answer arrived. */
export interface ServerClock {
	server: number;
	local: number;
}

const clocks = new WeakMap<ApiContext, ServerClock>();

export function noteServerDate(ctx: ApiContext, value: string | undefined): void {
	if (!value) return;
	const server = Date.parse(value);
	if (Number.isFinite(server)) clocks.set(ctx, { server, local: Date.now() });
}

/** The service's clock as of its latest answer in this node context, if it sent a Date header. */
export function serverClockOf(ctx: ApiContext): ServerClock | undefined {
	return clocks.get(ctx);
}
