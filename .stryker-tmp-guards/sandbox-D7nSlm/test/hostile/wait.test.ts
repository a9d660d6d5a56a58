/**
 * Max Wait is a real upper bound. Wait for Completion never sleeps past the deadline, and each
 * status check is bounded by the time left (at least half a second), so a run ends within Max Wait plus
 * one check even when the service is slow or answers 503 with a long Retry-After.
 */
// @ts-nocheck

import { apiError, json } from './servers';
import type { Recorded } from './servers';
import { ONE_JOB, delay, jobLike, useHostileService } from './shapesHarness';
import { demoDryRunCopy } from '../harness/parameters';

const t = useHostileService();

// The first run of a file pays for loading n8n-core and the token: not part of what is timed here.
beforeAll(async () => {
	await t.run({ resource: 'api', operation: 'getVersion' });
});

const create = (over: Record<string, unknown> = {}) => ({
	...demoDryRunCopy('/wait-test'),
	waitForCompletion: true,
	...over,
});

/** The status checks of the wait: GET /jobs/{id} after the POST. */
const statusChecks = (): Recorded[] =>
	t.recorded().filter((r) => r.method === 'GET' && ONE_JOB.test(new URL(r.url, 'http://x').pathname));
const postAt = (): number => t.recorded().find((r) => r.method === 'POST')!.at;

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
	const started = Date.now();
	const result = await run();
	return [result, Date.now() - started];
}

describe('hostile wait: Max Wait bounds the run', () => {
	it('Max Wait 1 s against a service that takes 3 s per status answer ends in under 2.5 s', async () => {
		t.service.on('GET', ONE_JOB, async () => {
			await delay(3000);
			return 'pass' as const;
		});
		const [{ error }, elapsed] = await timed(() => t.run(create({ maxWait: 1 })));
		const ended = Date.now();
		expect(elapsed).toBeLessThan(2500);
		// From the create's answer: Max Wait (1 s) plus a little; the first check (at once) is bounded by
		// the time left, so it ends by the deadline.
		expect(ended - postAt()).toBeLessThan(2000);
		expect(error?.message).toMatch(/^Job [0-9a-f-]{36} did not end within 1 seconds; its last status was "scanning" \[item 0\]$/);
		expect(error?.description).toMatch(
			/The last status check failed: The service did not answer GET \/jobs\/[0-9a-f-]{36} completely within (1|0\.\d+) seconds\./,
		);
		// The first check goes out at once, and takes the whole second.
		expect(statusChecks()).toHaveLength(1);
		expect(statusChecks()[0].at - postAt()).toBeLessThan(500);
	});

	it('503 with Retry-After 10 s on every check: no 10 s sleep, the wait ends at Max Wait', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) => {
			res.setHeader('Retry-After', '10');
			apiError(res, 503, 'unavailable', 'Service Unavailable', 'Restarting.');
		});
		const [{ error }, elapsed] = await timed(() => t.run(create({ maxWait: 1 })));
		expect(elapsed).toBeLessThan(2500);
		expect(error?.message).toMatch(/did not end within 1 seconds; its last status was "scanning" \[item 0\]$/);
		expect(error?.description).toContain('The last status check failed: Service Unavailable.');
		// At once, then after the backoff (at least 0.5 s: the Poll Interval schedule or the retry
		// backoff, never the 10 s asked): two or three checks within the second.
		expect(statusChecks().length).toBeGreaterThanOrEqual(2);
		expect(statusChecks().length).toBeLessThanOrEqual(3);
	});

	it('a short Poll Interval checks until the deadline, never sleeping past it', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) => json(res, 200, { data: jobLike(t.sandbox, { status: 'running' }) }));
		const [{ error }, elapsed] = await timed(() => t.run(create({ maxWait: 1, pollInterval: 0.3 })));
		expect(error?.message).toMatch(/did not end within 1 seconds; its last status was "running" \[item 0\]$/);
		expect(elapsed).toBeLessThan(2000);
		const checks = statusChecks();
		// At once, then about 0.3, 0.6, 0.9 and 1.0 s after the start of the wait (0.5 s backoff capped
		// by the 0.3 s Poll Interval).
		expect(checks.length).toBeGreaterThanOrEqual(4);
		expect(checks.length).toBeLessThanOrEqual(5);
		expect(checks[checks.length - 1].at - postAt()).toBeLessThan(1400);
	});
});

describe('hostile wait: failures while waiting', () => {
	it('one 503 while time is left: the next poll goes on, and the job is output when it ends', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) => apiError(res, 503, 'unavailable', 'Service Unavailable'), 1);
		const { items, error } = await t.run(create({ maxWait: 20, pollInterval: 0.05 }));
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('finished');
		expect(statusChecks().length).toBeGreaterThanOrEqual(2);
	});

	it('404 while waiting fails at once with the API\'s error, without more checks', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) =>
			apiError(res, 404, 'entity-not-found', 'Entity Not Found', 'The requested entity was not found.'),
		);
		const [{ error }, elapsed] = await timed(() => t.run(create({ maxWait: 20, pollInterval: 0.05 })));
		expect(error?.message).toBe('Entity Not Found');
		expect(error?.httpCode).toBe('404');
		expect(elapsed).toBeLessThan(2000);
		expect(statusChecks()).toHaveLength(1);
	});

	it('Max Retries 0: the first 503 while waiting fails the item', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) => apiError(res, 503, 'unavailable', 'Service Unavailable'));
		const { error } = await t.run(create({ maxWait: 20, pollInterval: 0.05, requestOptions: { maxRetries: 0 } }));
		expect(error?.message).toBe('Service Unavailable');
		expect(statusChecks()).toHaveLength(1);
	});

	it('Max Retries 2: three 503 in a row fail the item after three checks', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) => apiError(res, 503, 'unavailable', 'Service Unavailable'));
		const { error } = await t.run(
			create({ maxWait: 30, pollInterval: 0.05, requestOptions: { maxRetries: 2, maxRetryWait: 0.1 } }),
		);
		expect(error?.message).toBe('Service Unavailable');
		expect(statusChecks()).toHaveLength(3);
	});

	it('a malformed status answer fails at once, naming it', async () => {
		t.service.on('GET', ONE_JOB, (_req, res) => json(res, 200, { data: jobLike(t.sandbox, { status: 7 }) }));
		const { error } = await t.run(create({ maxWait: 20, pollInterval: 0.05 }));
		expect(error?.message).toMatch(
			/^The service sent a job without a status: "data.attributes.status" is a number \(7\) \(GET \/jobs\/[0-9a-f-]{36}\) \[item 0\]$/,
		);
		expect(statusChecks()).toHaveLength(1);
	});
});
