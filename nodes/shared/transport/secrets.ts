/**
 * Keeping the access token and the client secret out of everything the service's answers can reach:
 * error messages, descriptions, output items and logs.
 */

/** Tokens this process fetched (newest last, a few only): a token renewed mid-run is still known. */
const issued: string[] = [];
const ISSUED_KEPT = 20;

export function rememberSecret(value: string): void {
	if (value.length < 8 || issued.includes(value)) return;
	issued.push(value);
	if (issued.length > ISSUED_KEPT) issued.shift();
}

/** The secrets to look for: the ones given plus every token this process fetched. */
export function knownSecrets(given: Array<string | undefined>): string[] {
	const all = new Set<string>();
	for (const value of [...given, ...issued]) {
		if (typeof value === 'string' && value.length >= 8) all.add(value);
	}
	return [...all];
}

/** Whether a text holds any of the secrets verbatim. */
export function holdsSecret(text: string, secrets: string[]): boolean {
	return secrets.some((secret) => text.includes(secret));
}

/**
 * Removes the given secrets wherever they appear, and anything that looks like a bearer token, a basic
 * credential or a secret parameter.
 */
export function redact(text: string, secrets: string[] = []): string {
	let out = text;
	for (const secret of secrets) out = out.split(secret).join('[redacted]');
	return out
		.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
		.replace(/(client_secret|access_token|refresh_token|token|secret|password)=([^&\s"']+)/gi, '$1=[redacted]')
		.replace(
			/("(?:client_secret|access_token|refresh_token|clientSecret|accessToken|authorization)"\s*:\s*)"[^"]*"/gi,
			'$1"[redacted]"',
		);
}

/** A URL as it may be shown: scheme, host, port and path; no user info, query or fragment. */
export function showUrl(value: string): string {
	try {
		const url = new URL(value);
		return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
	} catch {
		return redact(value.replace(/[?#].*$/, '').replace(/\/\/[^/@]*@/, '//'));
	}
}
