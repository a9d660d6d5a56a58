/**
 * Shared pieces of the example-workflow e2e tests: the example files, the files on the sandbox's disk, and a
 * small client for the sandbox's API.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Sandbox } from '../../../sandbox/src';
import type { RunResult } from '../../../scripts/n8n/headless';
import { projectRoot } from '../../../scripts/n8n/paths';
import type { WorkflowJson } from '../../../scripts/n8n/workflows';
export { until } from '../../../scripts/n8n/waiting';
import type { Document, Job, JobCreateAttributes } from '../../../nodes/shared/api/types';

export const EXAMPLES_DIR = path.join(projectRoot, 'examples');

/** The credential name the example workflows refer to. */
export const EXAMPLE_CREDENTIAL_NAME = 'File Transfer Manager (sandbox)';

export const EXAMPLE_FILES = {
	dryRunThenRun: '01-dry-run-then-run.json',
	alert: '02-alert-failed-or-stuck.json',
	housekeeping: '03-housekeeping-bytes-per-storage.json',
	longJob: '04-long-job-wait-loop.json',
	mcpAssistant: '05-mcp-assistant.json',
	agentReview: '06-agent-with-review.json',
} as const;

/** An example workflow as stored in examples/. */
export function readExample(file: string): WorkflowJson {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as WorkflowJson;
}

/** Every file under a folder, by path relative to it (with "/"), sorted. */
export function listFiles(dir: string): string[] {
	if (!fs.existsSync(dir)) return [];
	const out: string[] = [];
	const walk = (sub: string) => {
		for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
			const rel = sub ? `${sub}/${entry.name}` : entry.name;
			if (entry.isDirectory()) walk(rel);
			else out.push(rel);
		}
	};
	walk('');
	return out.sort();
}

export function md5File(file: string): string {
	return createHash('md5').update(fs.readFileSync(file)).digest('hex');
}

/** Output items of a node in a run, or undefined when the node did not run. */
export function ranItems(run: RunResult, nodeName: string, outputIndex = 0): Array<Record<string, unknown>> | undefined {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs?.length) return undefined;
	return (runs[0].data?.main?.[outputIndex] ?? []).map((item) => item.json);
}

/** The sandbox's own API over HTTP, with the client credentials: to create jobs the way a client does. */
export class SandboxClient {
	private token?: string;

	constructor(private readonly sandbox: Sandbox) {}

	private async bearer(): Promise<string> {
		if (this.token) return this.token;
		const res = await fetch(`${this.sandbox.baseUrl}/oauth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'client_credentials',
				client_id: this.sandbox.clientId,
				client_secret: this.sandbox.clientSecret,
			}),
		});
		if (!res.ok) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
		this.token = ((await res.json()) as { access_token: string }).access_token;
		return this.token;
	}

	/** POST /jobs; returns the created job. */
	async createJob(attributes: JobCreateAttributes): Promise<Job> {
		const res = await fetch(`${this.sandbox.baseUrl}/jobs`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${await this.bearer()}`,
				accept: 'application/vnd.api+json',
				'content-type': 'application/vnd.api+json',
			},
			body: JSON.stringify({ data: { type: 'jobs', attributes } }),
		});
		const text = await res.text();
		if (res.status !== 201 && res.status !== 200) throw new Error(`POST /jobs -> ${res.status}: ${text}`);
		return (JSON.parse(text) as Document<Job>).data;
	}
}

