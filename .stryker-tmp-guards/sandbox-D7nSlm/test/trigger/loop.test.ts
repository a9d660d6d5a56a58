/**
 * A service that keeps handing out new cursors for pages of jobs already listed (something the sandbox,
 * which follows the contract, never does): the trigger must stop with an error and save nothing,
 * instead of paging forever.
 */
// @ts-nocheck

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { credentialsFor, triggerHandle } from '../harness/engine';
import { params, triggerState } from './helpers';

const ACCOUNT = '00000000-0000-4000-8000-00000000000a';

function job(n: number, updatedAt: string) {
	return {
		id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
		type: 'jobs',
		attributes: {
			name: `job ${n}`,
			status: 'finished',
			accountId: ACCOUNT,
			deploymentId: ACCOUNT,
			groupId: null,
			userId: null,
			dryRun: false,
			transferType: 'copy',
			source: { type: 'file', id: ACCOUNT, path: null },
			target: { id: ACCOUNT, path: null, type: 'file' },
			scope: { type: 'rules', method: 'include-if-all', rules: [] },
			conflictHandling: 'skip',
			failureConditions: [],
			transferRateLimit: null,
			stats: {},
			createdAt: updatedAt,
			updatedAt,
		},
	};
}

async function repeatingServer() {
	let listRequests = 0;
	const stamp = '2026-01-01T00:00:00.000Z';
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://stub.invalid');
		req.resume();
		req.on('end', () => {
			const send = (status: number, body: unknown, type = 'application/vnd.api+json') => {
				res.writeHead(status, { 'Content-Type': type });
				res.end(JSON.stringify(body));
			};
			if (url.pathname === '/oauth/token') {
				return send(200, { access_token: 'stub-token', token_type: 'Bearer', expires_in: 3600 }, 'application/json');
			}
			listRequests++;
			if (listRequests > 20) return send(500, { errors: [{ status: '500', code: 'internal-error', title: 'Stop', detail: 'loop' }] });
			const page = Number(url.searchParams.get('page[after]')?.slice(1) ?? 0);
			// Every page lists the same two jobs, at the newest stamp, under a new cursor.
			return send(200, { data: [job(1, stamp), job(2, stamp)], meta: { page: { after: `c${page + 1}`, total: 99 } } });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests: () => listRequests,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

it('pages that repeat jobs under new cursors stop the poll with a clear error and save nothing', async () => {
	const stub = await repeatingServer();
	try {
		const handle = triggerHandle(
			credentialsFor({ baseUrl: stub.baseUrl, clientId: 'c', clientSecret: 's' }),
			params({ events: ['finished'] }),
		);
		// First activation lists the jobs at the newest stamp: the same loop, stopped after the second page.
		await expect(handle.poll()).rejects.toThrow('page cursor that does not advance');
		expect(stub.requests()).toBe(2);
		expect(triggerState(handle)).toEqual({});
	} finally {
		await stub.close();
	}
});
