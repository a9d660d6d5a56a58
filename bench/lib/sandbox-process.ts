/**
 * The sandbox in its own process, driven over HTTP (its /__sandbox/ admin routes), so that its CPU and
 * memory do not count against the client being measured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import axios, { type AxiosInstance } from 'axios';

import type { JobAttributes, JobStatus } from '../../nodes/shared/api/types';
import type { NetworkSettings, NetworkState, RequestRecord } from '../../sandbox/src/api';
import { NODE_BIN, projectRoot } from './env';

export interface SandboxProcess {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	pid: number;
	insertJobs(count: number, attributes?: Partial<JobAttributes>): Promise<string[]>;
	requests(): Promise<RequestRecord[]>;
	clearRequests(): Promise<void>;
	setStatus(jobId: string, status: JobStatus): Promise<void>;
	expireTokens(): Promise<void>;
	/**
	 * Sets the network and capacity model (latency ± jitter, capacity, queue); its counters start from zero.
	 * A bad value is refused with the sandbox's message.
	 */
	setNetwork(settings: NetworkSettings): Promise<NetworkState>;
	/** Turns the model off (no delay, no limit); the counters of the last setting stay readable. */
	clearNetwork(): Promise<NetworkState>;
	/** The model's settings and counters: served, overloaded (503s), peakInFlight, peakQueued, … */
	network(): Promise<NetworkState>;
	/** Resident set size of the sandbox process in MB (from /proc), for the record. */
	rssMb(): number | undefined;
	close(): Promise<void>;
}

const CLIENT_ID = 'bench-client';
const CLIENT_SECRET = 'bench-secret';

/** Starts `sandbox/src/cli.ts` on a free port of 127.0.0.1, without demo data, and waits for its URL. */
export async function startSandboxProcess(): Promise<SandboxProcess> {
	const child: ChildProcess = spawn(
		NODE_BIN,
		['--import', 'tsx', 'sandbox/src/cli.ts', '--port', '0', '--no-demo', '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET],
		{ cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let stderr = '';
	child.stderr?.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const baseUrl = await new Promise<string>((resolve, reject) => {
		let stdout = '';
		const timer = setTimeout(() => reject(new Error(`sandbox did not start in 30 s: ${stdout}${stderr}`)), 30_000);
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
			if (match) {
				clearTimeout(timer);
				resolve(match[1]);
			}
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`sandbox exited with ${code}: ${stderr}`));
		});
	});
	child.removeAllListeners('exit');

	const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
	const admin: AxiosInstance = axios.create({ baseURL: `${baseUrl}/__sandbox`, httpAgent: agent, timeout: 120_000 });

	return {
		baseUrl,
		clientId: CLIENT_ID,
		clientSecret: CLIENT_SECRET,
		pid: child.pid ?? -1,
		async insertJobs(count, attributes = {}) {
			const ids: string[] = [];
			// Batches keep each answer small.
			for (let done = 0; done < count; done += 10_000) {
				const batch = Math.min(10_000, count - done);
				const { data } = await admin.post<{ ids: string[] }>('/jobs/insert', { count: batch, attributes });
				ids.push(...data.ids);
			}
			return ids;
		},
		async requests() {
			return (await admin.get<{ requests: RequestRecord[] }>('/requests')).data.requests;
		},
		async clearRequests() {
			await admin.delete('/requests');
		},
		async setStatus(jobId, status) {
			await admin.post(`/jobs/${jobId}/status`, { status });
		},
		async expireTokens() {
			await admin.post('/tokens/expire');
		},
		async setNetwork(settings) {
			const answer = await admin.put<NetworkState | { error: string }>('/network', settings, { validateStatus: () => true });
			if (answer.status !== 200 || 'error' in answer.data) {
				throw new Error(`network settings refused: ${'error' in answer.data ? answer.data.error : answer.status}`);
			}
			return answer.data;
		},
		async clearNetwork() {
			return (await admin.delete<NetworkState>('/network')).data;
		},
		async network() {
			return (await admin.get<NetworkState>('/network')).data;
		},
		rssMb() {
			try {
				const text = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
				const kb = Number(/VmRSS:\s+(\d+)/.exec(text)?.[1]);
				return Number.isFinite(kb) ? kb / 1024 : undefined;
			} catch {
				return undefined;
			}
		},
		async close() {
			agent.destroy();
			if (child.exitCode !== null) return;
			await new Promise<void>((resolve) => {
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
			});
		},
	};
}

/** Counts of a request log by kind. */
export function countRequests(records: RequestRecord[]): { total: number; token: number; list: number; get: number; unauthorized: number } {
	let token = 0;
	let list = 0;
	let get = 0;
	let unauthorized = 0;
	for (const record of records) {
		if (record.path.endsWith('/oauth/token')) token++;
		else if (record.route === '/jobs' && record.method === 'GET') list++;
		else if (record.route === '/jobs/{id}' && record.method === 'GET') get++;
		if (record.status === 401) unauthorized++;
	}
	return { total: records.length, token, list, get, unauthorized };
}
