/**
 * What a failed poll tells n8n about why it failed (`failure` on the error, transport/failure.ts failureCauseOf), through
 * n8n-core's PollContext against the sandbox: the wait a 429 or 503 asked for after the retries were used up,
 * a rejected client secret, a deployment that differs from the contract; nothing where the fault may pass.
 * The error's message and description stay what they were without it.
 */
import { NodeApiError } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src/api';
import { credentialsFor, triggerHandle } from '../harness/engine';
import { DEMO_IDS, handleFor, params, rl, sandboxForTrigger } from './helpers';

type Declared = NodeApiError & { failure?: unknown };

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await sandboxForTrigger();
});
afterEach(() => {
	sandbox.faults.clear();
	sandbox.deviations.set([]);
});
afterAll(async () => {
	await sandbox.close();
});

/** A trigger that has taken its position, then the error of its next poll. */
async function failedPoll(parameters = params(), arrange: () => void = () => undefined): Promise<Declared> {
	const handle = handleFor(sandbox, parameters);
	expect(await handle.poll()).toBeNull();
	arrange();
	const error = await handle.poll().then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as Declared;
}

describe('a poll that fails declares its cause', () => {
	it('429 with Retry-After, its retries used up: rate-limited with the wait the service asked, the message as before', async () => {
		const error = await failedPoll(params({ requestOptions: { maxRetries: 1, maxRetryWait: 0.1 } }), () =>
			sandbox.faults.add({ kind: 'rate-limit', path: '/jobs', retryAfterSeconds: 40, times: 2 }),
		);
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 40000 });
		expect(error.httpCode).toBe('429');
		expect(error.message).toBe('Too Many Requests');
		expect(error.description).toMatch(/The node waited and retried.*The request was tried 2 times\. Nothing from this poll was saved/);
	});

	it('503 without Retry-After: temporarily-unavailable, no wait', async () => {
		const error = await failedPoll(params(), () => sandbox.faults.add({ kind: 'unavailable', path: '/jobs', times: 1 }));
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('503 with Retry-After: temporarily-unavailable with its wait', async () => {
		const error = await failedPoll(params(), () => sandbox.faults.add({ kind: 'unavailable', path: '/jobs', retryAfterSeconds: 12, times: 1 }));
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable', retryAfterMs: 12000 });
	});

	it('a dropped connection: temporarily-unavailable', async () => {
		const error = await failedPoll(params(), () => sandbox.faults.add({ kind: 'drop-before-body', path: '/jobs', times: 1 }));
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('a rejected client secret: credential-invalid, and the message names the Client ID and Secret as before', async () => {
		const handle = triggerHandle(credentialsFor(sandbox, { clientSecret: 'not-the-secret' }), params());
		const error = (await handle.poll().catch((caught: unknown) => caught)) as Declared;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toContain('check your Client ID and Client Secret');
		expect(error.failure).toEqual({ cause: 'credential-invalid' });
		expect(JSON.stringify(error.failure)).not.toContain('not-the-secret');
	});

	it('the service refusing a filter the contract has (reject-unknown-filters): configuration-invalid', async () => {
		const parameters = params({ filters: { sourceStorageId: rl(DEMO_IDS.storageIds.files) } });
		const error = await failedPoll(parameters, () => sandbox.deviations.set(['reject-unknown-filters']));
		expect(error.message).toBe('Invalid Filter');
		expect(error.failure).toEqual({ cause: 'configuration-invalid' });
	});
});

describe('a poll that may fail only in passing declares nothing actionable', () => {
	it('an answer that is not JSON (a proxy\'s maintenance page): no cause', async () => {
		const error = await failedPoll(params(), () => sandbox.faults.add({ kind: 'wrong-content-type', path: '/jobs', times: 1 }));
		expect(error.message).toBe('The service answered with something that is not JSON');
		expect(error.failure).toBeUndefined();
	});

	it('HTTP 500: no cause (n8n decides from the status, as before)', async () => {
		const error = await failedPoll(params(), () => sandbox.faults.add({ kind: 'internal-error', path: '/jobs', times: 1 }));
		expect(error.failure).toBeUndefined();
	});
});
