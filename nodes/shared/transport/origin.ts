/**
 * Where the credential's token may go: only to the origin (scheme, host and port) of its Base URL. The
 * credential's `authenticate` asks this for every request n8n sends with it, before it sets the Bearer
 * header: the package's own requests, the credential test, and the HTTP Request node's requests when a
 * user picks this credential there ("Predefined Credential Type") with a URL of any host.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { showUrl } from './secrets';

/** What the credential accepts as Base URL: http(s), a host, an optional path; no query, fragment or user info. */
const BASE_URL_PATTERN = /^https?:\/\/[^/\s?#@]+(\/[^\s?#]*)?$/i;

/** axios's test for an absolute URL (its isAbsoluteURL): a scheme followed by //, or a bare //. */
const AXIOS_ABSOLUTE = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/** A request the credential refuses to authenticate; nothing has been sent for it. */
class ForeignOriginError extends Error {
	/** How to go on; n8n shows it under the message (NodeApiError takes an error's `description`). */
	readonly description: string;

	constructor(message: string, description: string) {
		super(message);
		this.name = 'ForeignOriginError';
		this.description = description;
	}
}

/** The origin of the credential's Base URL, or a refusal when the Base URL is not one. */
function credentialOrigin(credentials: ICredentialDataDecryptedObject): string {
	const baseUrl = String(credentials.baseUrl ?? '').trim();
	let origin: string | undefined;
	if (BASE_URL_PATTERN.test(baseUrl)) {
		try {
			origin = new URL(baseUrl).origin;
		} catch {
			origin = undefined;
		}
	}
	if (origin === undefined || origin === 'null') {
		throw new ForeignOriginError(
			`The credential's Base URL "${showUrl(baseUrl)}" is not an http(s) URL without query, fragment or user info`,
			'Set Base URL to the API host of your deployment, with its scheme, e.g. https://api.acme.example.com. Nothing was sent.',
		);
	}
	return origin;
}

/** A URL option as text: undefined when absent, null when it is there but not a string or a URL. */
function urlText(value: unknown): string | undefined | null {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return value;
	if (value instanceof URL) return value.href;
	return null;
}

/**
 * Every way the request's URL can be read: what axios does with `baseURL` + `url` (it joins a relative
 * `url` to `baseURL` as text) and what the WHATWG URL parser makes of them (n8n's own checks read it so).
 * The request is authenticated only when all of them are the credential's origin.
 */
function readings(target: string | undefined, base: string | undefined): string[] {
	if (base === undefined) return target === undefined ? [] : [target];
	if (target === undefined || target === '') return [base];
	const joined = AXIOS_ABSOLUTE.test(target) ? target : `${base.replace(/\/?\/$/, '')}/${target.replace(/^\/+/, '')}`;
	let parsed: string;
	try {
		parsed = new URL(target, base).href;
	} catch {
		parsed = target;
	}
	return [joined, parsed];
}

/** Why a request may not have the token, or undefined when every reading of its URL is `origin`. */
function whereElse(origin: string, options: { url?: unknown; uri?: unknown; baseURL?: unknown }): string | undefined {
	const base = urlText(options.baseURL);
	if (base === null) return "the request's base URL cannot be read";
	const targets = [urlText(options.url), urlText(options.uri)];
	if (targets.includes(null)) return "the request's URL cannot be read";
	const given = targets.filter((target): target is string => typeof target === 'string');
	const all = (given.length > 0 ? given : [undefined]).flatMap((target) => readings(target, base));
	if (all.length === 0) return 'the request names no URL';
	let unreadable: string | undefined;
	for (const reading of all) {
		let target: URL;
		try {
			target = new URL(reading);
		} catch {
			unreadable ??= `the request's URL "${showUrl(reading)}" cannot be read`;
			continue;
		}
		if (target.origin !== origin) {
			return `the request goes to ${target.origin === 'null' ? showUrl(reading) : target.origin}`;
		}
	}
	return unreadable;
}

/**
 * Refuses, with a message naming both origins, any request whose target is not the credential's origin
 * or cannot be read. Reads `url` (n8n's httpRequest helpers) and `uri` (the legacy request helpers, which
 * the HTTP Request node uses), each joined to `baseURL` when there is one (the credential test).
 */
export function assertCredentialOrigin(credentials: ICredentialDataDecryptedObject, requestOptions: object): void {
	const origin = credentialOrigin(credentials);
	const where = whereElse(origin, requestOptions);
	if (where !== undefined) {
		throw new ForeignOriginError(
			`This credential sends its token only to ${origin}; ${where}`,
			`Nothing was sent. Use a URL on ${origin} (the scheme, host and port of the credential's Base URL), or a credential made for the other host.`,
		);
	}
}
