/**
 * n8n's SSRF protection (`N8N_SSRF_PROTECTION_ENABLED=true`, n8n 2.x): n8n itself refuses a request to a
 * blocked address before anything is sent, and no repeat can change that; only the n8n administrator can, by
 * allowing the service. This module recognises that refusal in whatever n8n's request helper threw, and words
 * the error that says what to set.
 *
 * n8n throws it from @n8n/backend-network (`SsrfBlockedIpError` with `ip`, `SsrfBlockedHostnameError` with
 * `hostname`), before any connection (its pre-flight check of the URL) or when the connection resolves a
 * blocked address (its DNS lookup and connection guard). The package cannot import those classes (it has no
 * runtime dependencies), so it knows them by their `name` and the property each carries, anywhere in the
 * error's cause chain: the errors set both themselves, and n8n wraps them without changing either.
 */

/** What n8n's SSRF protection refused. */
export interface EgressRefusal {
	/** `ip`: the host is or resolves to an address in a blocked range; `hostname`: the name is on the deny-list. */
	kind: 'ip' | 'hostname';
	/** The blocked address, for `ip`. */
	ip?: string;
	/** The blocked name, for `hostname`. */
	hostname?: string;
}

const IP_ERROR = 'SsrfBlockedIpError';
const HOSTNAME_ERROR = 'SsrfBlockedHostnameError';

/** A value n8n put there, printable: an address or host name, never more than a host. */
const HOST_TEXT = /^[A-Za-z0-9.:_[\]%-]{1,255}$/;

const hostText = (value: unknown): string | undefined =>
	typeof value === 'string' && HOST_TEXT.test(value) ? value : undefined;

/** n8n's SSRF refusal, when `error` or an error in its cause chain is one. */
export function egressRefusalOf(error: unknown): EgressRefusal | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as { name?: unknown; ip?: unknown; hostname?: unknown; cause?: unknown };
		if (candidate.name === IP_ERROR && typeof candidate.ip === 'string') {
			return { kind: 'ip', ip: hostText(candidate.ip), hostname: hostText(candidate.hostname) };
		}
		if (candidate.name === HOSTNAME_ERROR && typeof candidate.hostname === 'string') {
			return { kind: 'hostname', hostname: hostText(candidate.hostname) };
		}
		current = candidate.cause;
	}
	return undefined;
}

/** The host of a URL as n8n's settings name it (no brackets around an IPv6 address). */
function hostOf(url: string): string | undefined {
	try {
		const host = new URL(url).hostname;
		return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
	} catch {
		return undefined;
	}
}

const isIpLiteral = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(':');

/** A range of one address, as N8N_SSRF_ALLOWED_IP_RANGES takes it. */
const singleRange = (ip: string): string => (ip.includes(':') ? `${ip}/128` : `${ip}/32`);

/**
 * The error's texts: the message names the host (and the address it resolved to), the description the n8n
 * settings that allow it, with the values for this service. No "Retry On Fail": no repeat can pass.
 */
export function egressTexts(refusal: EgressRefusal, url: string, what: string): { message: string; description: string } {
	const host = hostOf(url) ?? refusal.hostname ?? refusal.ip ?? 'the service';
	const address = refusal.ip && refusal.ip !== host ? ` (${refusal.ip})` : '';
	const message = `n8n's SSRF protection blocked the ${what} to ${host}${address}: nothing was sent`;
	const allow: string[] = [];
	if (refusal.kind === 'hostname') {
		allow.push(
			`The host name ${host} is on n8n's deny-list (N8N_SSRF_BLOCKED_HOSTNAMES). To allow it, remove it there or set N8N_SSRF_ALLOWED_HOSTNAMES=${host}.`,
		);
	} else if (isIpLiteral(host)) {
		allow.push(
			`${host} is in a range n8n blocks (private, loopback and link-local addresses by default). To allow it, set N8N_SSRF_ALLOWED_IP_RANGES=${singleRange(host)} (or the service's network range).`,
		);
	} else {
		allow.push(
			`${host} resolves to ${refusal.ip ?? 'an address'} in a range n8n blocks (private, loopback and link-local addresses by default). To allow it, set N8N_SSRF_ALLOWED_HOSTNAMES=${host}, or N8N_SSRF_ALLOWED_IP_RANGES=${refusal.ip ? singleRange(refusal.ip) : '<its address>/32'} (or the service's network range).`,
		);
	}
	const description = [
		'n8n runs with N8N_SSRF_PROTECTION_ENABLED=true and refused to send the request; the service was not reached, and no repeat or retry can pass until the n8n administrator allows the service.',
		...allow,
		'Add the value to any list the variable already holds (comma-separated), and restart n8n.',
	].join(' ');
	return { message, description };
}
