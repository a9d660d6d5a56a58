import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { OAuthErrorBody, TokenResponse } from '../../nodes/shared/api/types';
import { apiError } from './errors';

export interface TokenAnswer {
	status: number;
	body: TokenResponse | OAuthErrorBody;
	headers: Record<string, string>;
}

const sameText = (a: string, b: string): boolean => {
	const x = Buffer.from(a);
	const y = Buffer.from(b);
	return x.length === y.length && timingSafeEqual(x, y);
};

/** Tokens are kept (in memory and on disk) only as their SHA-256, never as issued. */
const tokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** OAuth 2.0 client-credentials issuer and bearer-token check (RFC 6749, RFC 6750). */
export class Auth {
	/** Token hash → expiry (ms since the epoch; 0 once expired on purpose). */
	private readonly tokens = new Map<string, number>();
	/** Hears of every issued or expired token (the data folder's journal). */
	onChange: ((hash: string, expiresAt: number) => void) | null = null;

	constructor(
		readonly clientId: string,
		readonly clientSecret: string,
		readonly ttlSeconds: number,
	) {}

	/** Answers POST /oauth/token; the body may be form-encoded or JSON, the client may use HTTP Basic. */
	token(rawBody: string, contentType: string, authorization: string | undefined): TokenAnswer {
		const fields = parseTokenBody(rawBody, contentType);
		const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
		const fail = (status: number, error: OAuthErrorBody['error'], description: string, extra = {}): TokenAnswer => ({
			status,
			body: { error, error_description: description },
			headers: { ...noStore, ...extra },
		});

		let basic: { id: string; secret: string } | undefined;
		if (authorization && /^basic\s/i.test(authorization)) {
			const decoded = Buffer.from(authorization.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
			const colon = decoded.indexOf(':');
			if (colon < 0) return fail(400, 'invalid_request', 'The Basic authorization header is malformed.');
			try {
				// RFC 6749 2.3.1: id and secret are form-urlencoded before they go into the Basic header.
				basic = {
					id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
					secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
				};
			} catch {
				basic = { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
			}
		}

		const grantType = fields.get('grant_type');
		if (!grantType) return fail(400, 'unsupported_grant_type', 'grant_type is required and must be "client_credentials".');
		if (grantType !== 'client_credentials') {
			return fail(400, 'unsupported_grant_type', `grant_type "${grantType}" is not supported; use "client_credentials".`);
		}
		const bodyId = fields.get('client_id') ?? undefined;
		const bodySecret = fields.get('client_secret') ?? undefined;
		if (basic && ((bodyId && bodyId !== basic.id) || (bodySecret && bodySecret !== basic.secret))) {
			return fail(400, 'invalid_request', 'Client credentials were sent both in the Basic header and in the body, and they differ.');
		}
		const id = basic?.id ?? bodyId;
		const secret = basic?.secret ?? bodySecret;
		if (!id || !secret) {
			return fail(400, 'invalid_request', 'client_id and client_secret are required (form body or HTTP Basic).');
		}
		if (!sameText(id, this.clientId) || !sameText(secret, this.clientSecret)) {
			return fail(
				401,
				'invalid_client',
				'Client authentication failed: check the client ID and client secret.',
				basic ? { 'WWW-Authenticate': 'Basic realm="sandbox"' } : {},
			);
		}
		const accessToken = randomBytes(24).toString('base64url');
		this.setToken(tokenHash(accessToken), Date.now() + this.ttlSeconds * 1000);
		return {
			status: 200,
			body: { access_token: accessToken, token_type: 'Bearer', expires_in: this.ttlSeconds },
			headers: noStore,
		};
	}

	/** Throws the contract's 401 unless the header carries a known, unexpired bearer token. */
	check(authorization: string | undefined): void {
		const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
		let detail = 'An access token is required: send "Authorization: Bearer <token>".';
		if (match) {
			const expiresAt = this.tokens.get(tokenHash(match[1]));
			if (expiresAt !== undefined && Date.now() < expiresAt) return;
			detail = expiresAt === undefined ? 'The access token is unknown.' : 'The access token has expired.';
		}
		throw apiError(401, 'unauthorized', detail, undefined, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
	}

	/** Expires one token (when given) or every token issued so far. */
	expire(authorization?: string): void {
		if (authorization === undefined) {
			for (const hash of [...this.tokens.keys()]) this.setToken(hash, 0);
			return;
		}
		const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
		const hash = match ? tokenHash(match[1]) : undefined;
		if (hash && this.tokens.has(hash)) this.setToken(hash, 0);
	}

	/** Tokens issued before a restart (hash → expiry), from the data folder. */
	load(tokens: Iterable<[string, number]>): void {
		for (const [hash, expiresAt] of tokens) this.tokens.set(hash, expiresAt);
	}

	get tokenCount(): number {
		return this.tokens.size;
	}

	private setToken(hash: string, expiresAt: number): void {
		this.tokens.set(hash, expiresAt);
		this.onChange?.(hash, expiresAt);
	}
}

function parseTokenBody(rawBody: string, contentType: string): Map<string, string> {
	const fields = new Map<string, string>();
	if (/json/i.test(contentType)) {
		try {
			const parsed: unknown = JSON.parse(rawBody);
			if (parsed && typeof parsed === 'object') {
				for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') fields.set(k, v);
			}
		} catch {
			// an unreadable body counts as empty: the grant_type check answers it
		}
		return fields;
	}
	for (const [k, v] of new URLSearchParams(rawBody)) fields.set(k, v);
	return fields;
}
