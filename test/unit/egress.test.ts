/**
 * n8n's SSRF refusal as the transport reads it (transport/egress.ts, failure.ts): found by the
 * error classes' names and their properties anywhere in the cause chain, never retried, an actionable cause,
 * and the texts that name the host and the setting. The errors are n8n's own (@n8n/backend-network, from
 * n8n-core's folder); test/hardening/ssrf.test.ts shows them thrown by n8n-core's request helpers.
 */
import { NodeApiError } from 'n8n-workflow';

import { egressRefusalOf, egressTexts } from '../../nodes/shared/transport/egress';
import { failureFacts, verdictOf } from '../../nodes/shared/transport/failure';
import { loadSignalOf } from '../../nodes/shared/transport/pace/auto';
import { failureCauseOf } from '../../nodes/shared/transport/failure';

import { n8nSsrfErrors } from '../harness/ssrf';

const network = n8nSsrfErrors();

const node = { id: 'n', name: 'File Transfer Manager', type: 't', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

describe('egressRefusalOf', () => {
	it("finds n8n's blocked-address error, also wrapped the way n8n-core wraps a request error", () => {
		const blocked = new network.SsrfBlockedIpError('10.1.2.3');
		expect(egressRefusalOf(blocked)).toEqual({ kind: 'ip', ip: '10.1.2.3', hostname: undefined });
		const wrapped = new NodeApiError(node, blocked as never);
		expect(egressRefusalOf(wrapped)).toEqual({ kind: 'ip', ip: '10.1.2.3', hostname: undefined });
		expect(egressRefusalOf(new Error('outer', { cause: new Error('middle', { cause: blocked }) }))).toMatchObject({ ip: '10.1.2.3' });
	});

	it("finds n8n's deny-listed host name error", () => {
		expect(egressRefusalOf(new network.SsrfBlockedHostnameError('ftm.internal'))).toEqual({ kind: 'hostname', hostname: 'ftm.internal' });
	});

	it('ignores what only looks like it: the text alone, the name without its property, a connection failure', () => {
		expect(egressRefusalOf(new Error('The request was blocked because it resolves to a restricted IP address'))).toBeUndefined();
		expect(egressRefusalOf(Object.assign(new Error('x'), { name: 'SsrfBlockedIpError' }))).toBeUndefined();
		expect(egressRefusalOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8787'), { code: 'ECONNREFUSED' }))).toBeUndefined();
	});

	it('keeps no text that is not a host (a crafted property cannot carry a message)', () => {
		const blocked = Object.assign(new Error('x'), { name: 'SsrfBlockedIpError', ip: '10.0.0.1 <script>' });
		expect(egressRefusalOf(blocked)).toEqual({ kind: 'ip', ip: undefined, hostname: undefined });
	});
});

describe('the verdict on a refused request', () => {
	it('is final, says nothing of the load, and declares configuration-invalid', async () => {
		const facts = await failureFacts(new NodeApiError(node, new network.SsrfBlockedIpError('127.0.0.1') as never), 1024, new AbortController().signal);
		expect(facts.blocked).toEqual({ kind: 'ip', ip: '127.0.0.1', hostname: undefined });
		expect(verdictOf(facts)).toBe('final');
		expect(loadSignalOf(facts)).toBe('neutral');
		expect(failureCauseOf(facts)).toEqual({ cause: 'configuration-invalid' });
	});

	it('the same for a refused token request', () => {
		const facts = { headers: {}, body: undefined, token: { kind: 'blocked' as const, problem: 'p' }, blocked: { kind: 'ip' as const, ip: '10.0.0.5' } };
		expect(verdictOf(facts)).toBe('final');
		expect(failureCauseOf(facts)).toEqual({ cause: 'configuration-invalid' });
	});
});

describe('egressTexts', () => {
	it('an address: N8N_SSRF_ALLOWED_IP_RANGES with that address', () => {
		const { message, description } = egressTexts({ kind: 'ip', ip: '10.1.2.3' }, 'http://10.1.2.3:8080/v2/jobs', 'request GET /jobs');
		expect(message).toBe("n8n's SSRF protection blocked the request GET /jobs to 10.1.2.3: nothing was sent");
		expect(description).toContain('N8N_SSRF_ALLOWED_IP_RANGES=10.1.2.3/32');
		expect(description).not.toContain('N8N_SSRF_ALLOWED_HOSTNAMES');
	});

	it('an IPv6 address: the range of one address, without brackets', () => {
		const { message, description } = egressTexts({ kind: 'ip', ip: 'fd00::5' }, 'http://[fd00::5]:8080', 'token request');
		expect(message).toContain('to fd00::5: nothing was sent');
		expect(description).toContain('N8N_SSRF_ALLOWED_IP_RANGES=fd00::5/128');
	});

	it('a host name: the address it resolved to, and both settings', () => {
		const { message, description } = egressTexts({ kind: 'ip', ip: '10.9.8.7' }, 'https://ftm.internal/api', 'token request');
		expect(message).toBe("n8n's SSRF protection blocked the token request to ftm.internal (10.9.8.7): nothing was sent");
		expect(description).toContain('N8N_SSRF_ALLOWED_HOSTNAMES=ftm.internal');
		expect(description).toContain('N8N_SSRF_ALLOWED_IP_RANGES=10.9.8.7/32');
	});

	it('never advises a retry', () => {
		const { description } = egressTexts({ kind: 'hostname', hostname: 'ftm.internal' }, 'https://ftm.internal', 'token request');
		expect(description).toContain('N8N_SSRF_BLOCKED_HOSTNAMES');
		expect(description).not.toMatch(/Retry On Fail|Max Retries/);
	});
});
