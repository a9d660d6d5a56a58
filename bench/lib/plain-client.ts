/**
 * The baseline: what a hand-written client does with the same API. axios with one keep-alive socket,
 * a token fetched once, and cursor paging with page[limit]=100 / page[after].
 */
import * as http from 'node:http';
import axios, { type AxiosInstance } from 'axios';

import type { Document, Job, ListDocument } from '../../nodes/shared/api/types';

export class PlainClient {
	private readonly http: AxiosInstance;
	private readonly agent: http.Agent;
	private token: string | undefined;

	/** keepAlive false: a new TCP connection for every request (for comparison only). */
	constructor(
		baseUrl: string,
		private readonly clientId: string,
		private readonly clientSecret: string,
		keepAlive = true,
		/** Requests in flight at once (getJobs); one socket each. */
		readonly parallel = 1,
	) {
		this.agent = new http.Agent({ keepAlive, maxSockets: parallel });
		this.http = axios.create({ baseURL: baseUrl, httpAgent: this.agent, headers: { Accept: 'application/vnd.api+json' } });
	}

	/** Fetches the access token on first use only. */
	async authorize(): Promise<void> {
		if (this.token) return;
		const body = new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: this.clientId,
			client_secret: this.clientSecret,
		}).toString();
		const { data } = await this.http.post<{ access_token: string }>('/oauth/token', body, {
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		this.token = data.access_token;
		this.http.defaults.headers.common.Authorization = `Bearer ${this.token}`;
	}

	/** The access token (fetched on first use); the HTTP Request node's Bearer header uses it. */
	async bearerToken(): Promise<string> {
		await this.authorize();
		return this.token as string;
	}

	/** Every job, page by page. */
	async listAllJobs(): Promise<Job[]> {
		const jobs: Job[] = [];
		for await (const page of this.jobPages()) for (const job of page) jobs.push(job);
		return jobs;
	}

	/** The pages of /jobs, 100 jobs each, following meta.page.after. */
	async *jobPages(): AsyncGenerator<Job[]> {
		await this.authorize();
		let after: string | null = null;
		do {
			const params: Record<string, string | number> = { 'page[limit]': 100 };
			if (after !== null) params['page[after]'] = after;
			const { data } = await this.http.get<ListDocument<Job>>('/jobs', { params });
			yield data.data;
			after = data.meta.page.after;
		} while (after !== null);
	}

	async getJob(id: string): Promise<Job> {
		await this.authorize();
		return (await this.http.get<Document<Job>>(`/jobs/${id}`)).data.data;
	}

	/** One job per id, `parallel` requests in flight at once; in id order. */
	async getJobs(ids: string[]): Promise<Job[]> {
		await this.authorize();
		const jobs: Job[] = new Array<Job>(ids.length);
		let next = 0;
		const worker = async () => {
			while (next < ids.length) {
				const i = next++;
				jobs[i] = await this.getJob(ids[i]);
			}
		};
		await Promise.all(Array.from({ length: this.parallel }, worker));
		return jobs;
	}

	close(): void {
		this.agent.destroy();
	}
}
