/**
 * An https proxy with a self-signed certificate (made by openssl for this run) in front of an http server:
 * what a TLS-terminating proxy or a service with a private certificate looks like to the nodes.
 */
// @ts-nocheck

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface TlsProxy {
	/** e.g. https://127.0.0.1:40123 */
	baseUrl: string;
	server: https.Server;
	close(): Promise<void>;
}

export async function startTlsProxy(targetBaseUrl: string): Promise<TlsProxy> {
	const dir = mkdtempSync(path.join(tmpdir(), 'ftm-tls-'));
	execFileSync(
		'openssl',
		['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
			'-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
		{ stdio: 'ignore' },
	);
	const target = new URL(targetBaseUrl);
	const server = https.createServer(
		{ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) },
		(req, res) => {
			const upstream = http.request(
				{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			upstream.on('error', () => res.destroy());
			req.pipe(upstream);
		},
	);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
		server,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
