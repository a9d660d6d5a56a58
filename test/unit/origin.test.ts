/**
 * Where the credential's token may go (transport/origin.ts), through the credential's own `authenticate` alone:
 * which request targets get the Bearer header and which are refused, and with what message. The same through
 * n8n-core's helpers over real HTTP: test/credential/origin.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { FileTransferManagerOAuth2Api } from '../../credentials/FileTransferManagerOAuth2Api.credentials';

describe('the credential\'s `authenticate` alone: which targets get the Bearer header', () => {
	const credential = new FileTransferManagerOAuth2Api();
	const base = 'https://api.acme.example.com/v2';
	const authenticate = async (options: IDataObject, baseUrl = base) =>
		await credential.authenticate({ baseUrl, accessToken: 'tok-1' }, options as never);

	it.each([
		['the Base URL itself', { url: 'https://api.acme.example.com/v2/jobs' }],
		['the same origin outside the path prefix', { url: 'https://api.acme.example.com/other' }],
		['the default port written out', { url: 'https://api.acme.example.com:443/v2/jobs' }],
		['the host in capitals', { url: 'https://API.ACME.example.com/v2/jobs' }],
		['a legacy `uri`', { uri: 'https://api.acme.example.com/v2/jobs' }],
		['a URL object', { uri: new URL('https://api.acme.example.com/v2/jobs') }],
		['`baseURL` + relative `url`', { baseURL: 'https://api.acme.example.com/v2', url: '/jobs' }],
		['`baseURL` alone', { baseURL: 'https://api.acme.example.com/v2' }],
		['`baseURL` + an empty `url`', { baseURL: 'https://api.acme.example.com/v2', url: '' }],
		['`baseURL` with a trailing slash + `url` without one', { baseURL: 'https://api.acme.example.com/v2/', url: 'jobs' }],
		['`baseURL` + an absolute `url` of the same origin', { baseURL: 'https://api.acme.example.com/v2', url: 'https://api.acme.example.com/v2/jobs' }],
		['a `baseURL` as a URL object', { baseURL: new URL('https://api.acme.example.com/v2'), url: '/jobs' }],
		['a `url` of null beside a `uri`', { url: null, uri: 'https://api.acme.example.com/v2/jobs' }],
		['`baseURL` of the bare origin with a slash + a relative `url`', { baseURL: 'https://api.acme.example.com/', url: 'jobs' }],
		['an absolute `url` of the origin beside a `baseURL` elsewhere (axios ignores it)', { baseURL: 'https://elsewhere.example.org', url: 'https://api.acme.example.com/v2/jobs' }],
		['an absolute `url` of the origin beside a `baseURL` that is no URL', { baseURL: 'not a URL', url: 'https://api.acme.example.com/v2/jobs' }],
	])('%s: the header is set', async (_, options) => {
		expect((await authenticate(options)).headers).toEqual({ Authorization: 'Bearer tok-1' });
	});

	it.each([
		['another host', { url: 'https://elsewhere.example.org/v2/jobs' }, 'the request goes to https://elsewhere.example.org'],
		['a subdomain', { url: 'https://evil.api.acme.example.com/' }, 'the request goes to https://evil.api.acme.example.com'],
		['another port', { url: 'https://api.acme.example.com:8443/v2/' }, 'the request goes to https://api.acme.example.com:8443'],
		['http instead of https', { url: 'http://api.acme.example.com/v2/' }, 'the request goes to http://api.acme.example.com'],
		['user info naming the Base URL\'s host', { url: 'https://api.acme.example.com@elsewhere.example.org/' }, 'the request goes to https://elsewhere.example.org'],
		['backslashes (//host for the URL parser)', { baseURL: base, url: '\\\\elsewhere.example.org/x' }, 'the request goes to https://elsewhere.example.org'],
		['`url` and `uri` disagreeing', { url: 'https://api.acme.example.com/v2/', uri: 'https://elsewhere.example.org/' }, 'the request goes to https://elsewhere.example.org'],
		['another scheme', { url: 'ftp://api.acme.example.com/v2/' }, 'the request goes to ftp://api.acme.example.com'],
		['a scheme without origin', { url: 'file:///etc/hosts' }, 'the request goes to file:///etc/hosts'],
		['a relative URL without baseURL', { url: '/v2/jobs' }, 'the request\'s URL "/v2/jobs" cannot be read'],
		['no URL at all', {}, 'the request names no URL'],
		['a URL that is not text', { url: 42 }, "the request's URL cannot be read"],
		['a baseURL that is not text', { baseURL: { host: 'x' }, url: '/' }, "the request's base URL cannot be read"],
		['a `uri` that is not text beside a good `url`', { url: 'https://api.acme.example.com/v2/', uri: 7 }, "the request's URL cannot be read"],
		['`baseURL` + an absolute `url` elsewhere', { baseURL: base, url: 'https://elsewhere.example.org/x' }, 'the request goes to https://elsewhere.example.org'],
		['`baseURL` + a scheme-relative `url` elsewhere', { baseURL: base, url: '//elsewhere.example.org/x' }, 'the request goes to https://elsewhere.example.org'],
		['`baseURL` elsewhere + a relative `url`', { baseURL: 'https://elsewhere.example.org/v2', url: 'jobs' }, 'the request goes to https://elsewhere.example.org'],
		['`baseURL` elsewhere alone', { baseURL: 'https://elsewhere.example.org' }, 'the request goes to https://elsewhere.example.org'],
		['a relative `url` before an absolute `uri` elsewhere', { url: '/v2/jobs', uri: 'https://elsewhere.example.org/' }, 'the request goes to https://elsewhere.example.org'],
	])('%s: refused', async (_, options, where) => {
		const refusal = authenticate(options);
		await expect(refusal).rejects.toThrow(`This credential sends its token only to https://api.acme.example.com; ${where}`);
		await expect(refusal).rejects.toMatchObject({
			name: 'ForeignOriginError',
			message: expect.stringMatching(/; [^;]+$/),
			description:
				"Nothing was sent. Use a URL on https://api.acme.example.com (the scheme, host and port of the credential's Base URL), or a credential made for the other host.",
		});
	});

	it('names the other origin alone, not the URL\'s path', async () => {
		await expect(authenticate({ url: 'https://elsewhere.example.org/v2/jobs?x=1' })).rejects.toThrow(
			/; the request goes to https:\/\/elsewhere\.example\.org$/,
		);
	});

	// A URL without an origin (a scheme the URL parser does not know) is named by itself, path included: the
	// message shows the URL the request would go to as axios joins it, not a neighbour of it.
	it.each([
		['an empty `url` beside it: the base URL as it is, no slash added', { baseURL: 'foo://elsewhere.example.org/v2', url: '' }, 'foo://elsewhere.example.org/v2'],
		['a relative `url` joined to it: the base URL\'s trailing slash not doubled', { baseURL: 'foo://elsewhere.example.org/v2/', url: 'jobs' }, 'foo://elsewhere.example.org/v2/jobs'],
	])('a `baseURL` without an origin, %s', async (_, options, where) => {
		await expect(authenticate(options)).rejects.toThrow(
			new RegExp(`^This credential sends its token only to https://api\\.acme\\.example\\.com; the request goes to ${where.replace(/\./g, '\\.')}$`),
		);
	});

	it.each([
		['http', 'http://api.acme.example.com', 'http://api.acme.example.com/jobs', 'http://api.acme.example.com'],
		['a scheme in capitals', 'HTTPS://api.acme.example.com/v2', 'https://api.acme.example.com/v2/jobs', 'https://api.acme.example.com'],
		['blanks around it', '  https://api.acme.example.com/v2  ', 'https://api.acme.example.com/v2/jobs', 'https://api.acme.example.com'],
		['a port', 'https://api.acme.example.com:8443', 'https://api.acme.example.com:8443/jobs', 'https://api.acme.example.com:8443'],
	])('a Base URL with %s is accepted: its own origin gets the header, another is refused', async (_, baseUrl, url, origin) => {
		expect((await authenticate({ url }, baseUrl)).headers).toEqual({ Authorization: 'Bearer tok-1' });
		await expect(authenticate({ url: 'https://elsewhere.example.org/' }, baseUrl)).rejects.toThrow(
			`This credential sends its token only to ${origin}; the request goes to https://elsewhere.example.org`,
		);
	});

	it.each([
		['empty', ''],
		['without scheme', 'api.acme.example.com'],
		['with a query', 'https://api.acme.example.com/?a=1'],
		['with a port that is not a number', 'https://api.acme.example.com:x/'],
		['with a fragment', 'https://api.acme.example.com/#top'],
		['with user info', 'https://user@api.acme.example.com/'],
		['with a blank inside', 'https://api.acme.example.com/v 2'],
		['with a blank in the host', 'https://api acme.example.com/'],
		['another scheme', 'ftp://api.acme.example.com/'],
		['another scheme before an https URL', 'ftp://elsewhere.example.org/https://api.acme.example.com'],
		['a host with nothing else', 'https://'],
		['a path without a host', 'https:///v2'],
	])('a Base URL that is not one (%s): every request refused', async (_, baseUrl) => {
		await expect(authenticate({ url: 'https://api.acme.example.com/' }, baseUrl)).rejects.toThrow(
			/^The credential's Base URL ".*" is not an http\(s\) URL without query, fragment or user info$/,
		);
	});

	it('names the Base URL it refuses (without its query), and says how to go on', async () => {
		const refusal = authenticate({ url: 'https://api.acme.example.com/' }, 'api.acme.example.com/v2?key=secret');
		await expect(refusal).rejects.toThrow(
			'The credential\'s Base URL "api.acme.example.com/v2" is not an http(s) URL without query, fragment or user info',
		);
		await expect(refusal).rejects.toMatchObject({
			name: 'ForeignOriginError',
			description: 'Set Base URL to the API host of your deployment, with its scheme, e.g. https://api.acme.example.com. Nothing was sent.',
		});
		await expect(credential.authenticate({ accessToken: 'tok-1' }, { url: 'https://api.acme.example.com/' } as never)).rejects.toThrow(
			'The credential\'s Base URL "" is not',
		);
	});
});
