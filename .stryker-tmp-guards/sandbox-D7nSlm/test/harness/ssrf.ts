/**
 * n8n's SSRF protection in process: the settings n8n reads from N8N_SSRF_PROTECTION_ENABLED,
 * N8N_SSRF_ALLOWED_IP_RANGES, N8N_SSRF_ALLOWED_HOSTNAMES and N8N_SSRF_BLOCKED_HOSTNAMES, put into n8n-core's
 * DI container. n8n-core's request helpers take `OutboundHttp` from that container for every request, and it
 * applies n8n's own egress filter (@n8n/backend-network's `SsrfProtectionService`), exactly as in a running
 * n8n. The service reads its lists when it is built, so each call builds a new one.
 *
 * n8n-core carries its own copies of @n8n/di, @n8n/config, @n8n/backend-network and @n8n/backend-common, so
 * they are loaded from n8n-core's folder (as test/hardening/harness.ts does).
 */
// @ts-nocheck

import * as path from 'node:path';

export interface SsrfSettings {
	enabled: boolean;
	allowedIpRanges?: string[];
	allowedHostnames?: string[];
	blockedHostnames?: string[];
}

type Constructor = new (...args: unknown[]) => unknown;

function fromN8nCore<T>(name: string): T {
	const base = path.dirname(require.resolve('n8n-core'));
	return require(require.resolve(name, { paths: [base] })) as T;
}

/** Sets n8n's SSRF protection for every request made through n8n-core in this test file from now on. */
export function setN8nSsrf(settings: SsrfSettings): void {
	const { Container } = fromN8nCore<{ Container: { get(key: unknown): unknown; set(key: unknown, value: unknown): void } }>('@n8n/di');
	const { SsrfProtectionConfig } = fromN8nCore<{ SsrfProtectionConfig: Constructor }>('@n8n/config');
	const { SsrfProtectionService, OutboundHttp, DnsResolver } = fromN8nCore<Record<string, Constructor>>('@n8n/backend-network');
	const { Logger } = fromN8nCore<{ Logger: Constructor }>('@n8n/backend-common');
	// n8n's defaults (the blocked ranges among them), then what the environment would set.
	const config = Object.assign(new SsrfProtectionConfig() as Record<string, unknown>, {
		enabled: settings.enabled,
		allowedIpRanges: settings.allowedIpRanges ?? [],
		allowedHostnames: settings.allowedHostnames ?? [],
		blockedHostnames: settings.blockedHostnames ?? [],
	});
	Container.set(SsrfProtectionConfig, config);
	const logger = Container.get(Logger);
	const service = new SsrfProtectionService(config, Container.get(DnsResolver), logger);
	Container.set(SsrfProtectionService, service);
	Container.set(OutboundHttp, new OutboundHttp(service, config, logger));
}

type ErrorClass = new (...args: string[]) => Error;

/** n8n's own SSRF errors (what its egress filter throws), for tests that build them. */
export function n8nSsrfErrors(): { SsrfBlockedIpError: ErrorClass; SsrfBlockedHostnameError: ErrorClass } {
	return fromN8nCore('@n8n/backend-network');
}
