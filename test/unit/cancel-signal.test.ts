/**
 * The execution's cancel signal and n8n's request helper (transport/request.ts attemptOnce). n8n-core hands every
 * request the signal its `this.getExecutionCancelSignal()` returns (httpRequestWithAuthentication), and each
 * request in flight adds a listener to it; Node checks a new listener against every one already there, so with
 * hundreds in flight one shared signal costs CPU per request (bench/README.md). The transport calls the helper
 * with a view of the context whose cancel signal is the attempt's own: still aborted with the execution.
 *
 * The fake helper does what n8n-core does with `this` (asks it for the cancel signal, reads the node from it)
 * and answers when its signal aborts, or never.
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { routes } from '../../nodes/shared/api/routes';
import { apiRequest } from '../../nodes/shared/transport/request';
import { NODE, rejected, uuid } from './fixtures';

interface Seen {
	signal: AbortSignal | undefined;
	nodeName: string;
}

function fakeContext(cancel: AbortController, answer: (signal: AbortSignal | undefined) => Promise<unknown>) {
	const seen: Seen[] = [];
	const ctx = {
		getNode: () => NODE,
		getExecutionCancelSignal: () => cancel.signal,
		getCredentials: async () => ({ baseUrl: 'https://ftm.example.com/v2', clientId: 'unit-client', clientSecret: 'unit-client-secret' }),
		helpers: {
			async httpRequestWithAuthentication(this: IExecuteFunctions, _type: string, _options: IHttpRequestOptions) {
				const signal = this.getExecutionCancelSignal();
				seen.push({ signal, nodeName: this.getNode().name });
				return await answer(signal);
			},
		},
	};
	return { ctx: ctx as unknown as IExecuteFunctions, seen };
}

const okAnswer = async () => ({ statusCode: 200, headers: {}, body: JSON.stringify({ data: { id: uuid(1), type: 'jobs', attributes: {} } }) });

describe("n8n's request helper gets a cancel signal of the attempt's own", () => {
	it('each request sees a signal of its own, not the execution one all requests share, and the context behind it', async () => {
		const cancel = new AbortController();
		const { ctx, seen } = fakeContext(cancel, okAnswer);
		await Promise.all([apiRequest(ctx, routes.getJob(uuid(1))), apiRequest(ctx, routes.getJob(uuid(2)))]);
		expect(seen).toHaveLength(2);
		for (const { signal, nodeName } of seen) {
			expect(signal).toBeInstanceOf(AbortSignal);
			expect(signal).not.toBe(cancel.signal);
			expect(signal?.aborted).toBe(false);
			expect(nodeName).toBe(NODE.name);
		}
		expect(seen[0].signal).not.toBe(seen[1].signal);
	});

	it("stopping the execution aborts the signal the helper holds, and the request fails as stopped", async () => {
		const cancel = new AbortController();
		const { ctx, seen } = fakeContext(cancel, () => new Promise(() => undefined));
		const request = apiRequest(ctx, routes.getJob(uuid(1)), { settings: { maxRetries: 0 } });
		// The helper is called once the request holds its slot: a few turns of the event loop.
		for (let turn = 0; turn < 20 && seen.length === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
		expect(seen).toHaveLength(1);
		cancel.abort();
		expect(seen[0].signal?.aborted).toBe(true);
		const error = await rejected(request);
		expect(error.message).toContain('was stopped with the execution');
	});
});
