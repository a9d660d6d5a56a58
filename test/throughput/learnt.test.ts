/**
 * Parallel Requests Auto learns once per service, not once per execution (transport/pace/remembered.ts): a second
 * execution against the same Base URL and Client ID starts where the first one ended; a refusal still cuts
 * it; another service starts fresh; what was learnt is forgotten after its age; a fixed number neither reads
 * nor writes it. Through n8n-core's engine and the sandbox's network model; what the node sent is read from
 * the sandbox's request log, the ages on a shifted Date.now (the memory reads it at each look-up).
 */
import type { INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src';
import type { RequestRecord, Sandbox } from '../../sandbox/src/api';
import { TestCredentialsHelper } from '../harness/credentials';
import { runNode } from '../harness/engine';
import { useNodeSandbox } from '../harness/sandbox';
import { jobGet, jobItems, mostAtOnce } from './jobGet';
import { DEFAULT_PARALLEL } from '../../nodes/shared/transport/settings';
import type { Remembered } from '../../nodes/shared/transport/pace/remembered';
import { serviceKey } from '../../nodes/shared/transport/connection';
import { KEPT_MS, recall, remember } from '../../nodes/shared/transport/pace/remembered';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;
useNodeSandbox({ speed: 1 }, (running) => ({ sandbox, credentials } = running));

const realNow = Date.now.bind(Date);
/** How far the clock is shifted forward: as much time as has passed for the memory. */
let shift = 0;
beforeEach(() => {
	shift = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
});
afterEach(() => {
	jest.restoreAllMocks();
	sandbox.network.clear();
});

const items = jobItems;

/**
 * Auto's maximum in these executions unless a test sets its own: the limit an execution starts with must be on
 * the wire before the first answer (400 ms away) even on a loaded machine. Left to grow, a first execution
 * ends at 150 to 215 here, and beside CI's other stages the node had sent as few as 3 of those when the first
 * answer left.
 */
const AUTO = { parallelMode: 'auto', maxParallelRequests: 40 };

/**
 * Auto's maximum in the executions after it: above what the first one can leave behind (its own maximum, 40, and
 * the few it grows by in the executions measured here), so that an execution that resumed at the remembered
 * limit is told from one that started at its maximum as well as from one that started at 8.
 */
const RESUMED = { parallelMode: 'auto', maxParallelRequests: 100 };

/** One execution of Job Get × `count`; the Job Gets the sandbox received during it. */
async function execute(
	count: number,
	options: { on?: Sandbox; credentials?: TestCredentialsHelper; requestOptions?: INodeParameters } = {},
): Promise<RequestRecord[]> {
	const target = options.on ?? sandbox;
	target.requests.clear();
	const { items: out, error } = await runNode({
		credentials: options.credentials ?? credentials,
		parameters: jobGet(options.requestOptions ?? RESUMED),
		items: items(count),
	});
	expect(error).toBeUndefined();
	expect(out).toHaveLength(count);
	return target.requests.all().filter((r) => r.route === '/jobs/{id}');
}

/** The requests that arrived before the first answer left: how many the execution started with at once. */
function startedWith(gets: RequestRecord[]): number {
	const firstAnswer = Math.min(...gets.map((r) => r.doneAt ?? Infinity));
	return gets.filter((r) => r.at < firstAnswer).length;
}

/** The limit Auto learnt about the test's sandbox with its credential, if it remembers one. */
const learntLimit = (on: Sandbox = sandbox) => recall(serviceKey(on.baseUrl, on.clientId))?.parallel;

/**
 * A first execution against a healthy service 150 ms away: Auto climbs from 8. Returns the limit it ended
 * with, well above the start (else the tests below could not tell a remembered limit from a fresh one).
 */
async function learnAgainstHealthyService(): Promise<number> {
	sandbox.network.set({ latencyMs: 150 });
	const gets = await execute(300, { requestOptions: AUTO });
	// A fresh start, from nothing remembered: no more than Auto's 8 went out before the first answer. (Fewer
	// arrive first when the machine is so busy that the first answer leaves before the 8th request is sent: 5
	// were seen beside n8n's install; the executions measured below are 400 ms away for that reason.)
	expect(startedWith(gets)).toBeLessThanOrEqual(DEFAULT_PARALLEL);
	const learnt = learntLimit();
	expect(learnt).toBeDefined();
	// Anything above the start tells a remembered limit from a fresh one.
	expect(learnt!).toBeGreaterThan(DEFAULT_PARALLEL);
	return learnt!;
}

/** What Auto remembers besides its limit, when it learnt no rate budget. */
const NOTHING_ELSE: Omit<Remembered, 'parallel' | 'slowStart'> = { windowMs: 0, windowStart: 0, windowSent: 0, windowRefused: false };

// Answers held 1.5 s in the executions that are measured: the limit an execution starts with goes out
// before any answer, even on a busy machine (400 ms away, an integration run beside four other test processes
// sent 49 of a fixed 50 before the first answer).
const SLOW = { latencyMs: 1500 };

describe('Parallel Requests Auto remembers what it learnt about a service', () => {
	it('a second execution starts at the limit the first one ended with', async () => {
		const learnt = await learnAgainstHealthyService();
		sandbox.network.set(SLOW);
		const count = learnt + 40;
		const gets = await execute(count);
		expect(gets).toHaveLength(count);
		// Not 8, nor this execution's maximum: the learnt limit, and no more (the limit grows only on answers).
		expect(learnt).toBeLessThan(RESUMED.maxParallelRequests);
		expect(startedWith(gets)).toBe(learnt);
	}, 30_000);

	it('a refusal in the second execution still cuts the remembered limit at once, back to the start: one round of refusals, every item succeeds', async () => {
		// An earlier execution ended at 100 (set directly, so that the round of refusals is large on any machine;
		// the tests around this one learn it from a real first execution).
		const REMEMBERED = 100;
		remember(serviceKey(sandbox.baseUrl, sandbox.clientId), { ...NOTHING_ELSE, parallel: REMEMBERED, slowStart: false }, 1000);
		// The service now serves 4 at once and refuses beyond a queue of 8, at once, with Retry-After 2.
		sandbox.network.set({ latencyMs: 40, capacity: 4, queue: 8, overloadRetryAfterSeconds: 2 });
		const count = 150;
		// Auto up to its default maximum, above the remembered 100.
		const gets = await execute(count, { requestOptions: { parallelMode: 'auto' } });
		const refused = gets.filter((r) => r.status === 503);
		expect(gets.length - refused.length).toBe(count);
		// The first round is the remembered limit's 100 requests: all sent before the node read its first
		// refusal, or while it did. More refusals among them than a fresh start gets against this service (at most
		// 20, test/throughput/concurrency.test.ts) show the run started at the remembered limit; how many depends on
		// how fast the machine sends 100 requests while the service carries out 4 at once: 88 when all arrive before
		// it frees a place, fewer the longer the sending takes (65 were seen with the sandbox in the node's process).
		const arrivals = [...gets].sort((x, y) => x.at - y.at);
		const firstRound = arrivals.slice(0, REMEMBERED);
		expect(firstRound.filter((r) => r.status === 503).length).toBeGreaterThan(20);
		// A remembered limit refused in its first round goes back to the start: after that round, about as
		// few refusals as a fresh run gets. Halving it would keep 50 in flight against a service that takes 12:
		// at least 38 refusals more. The bound sits between the two, with room for a loaded machine (12 were seen
		// beside n8n's install). The refused requests wait their own Retry-After; under Auto a 503 holds back no
		// other request (pace/retryAfter.ts notePause).
		const later = arrivals.slice(REMEMBERED).filter((r) => r.status === 503);
		expect(later.length).toBeLessThanOrEqual(20);
		// And the memory holds what this run learnt, not the old limit, and no rate budget: a 503 says the service
		// cannot take more now, not how many it takes per window (read as a rate, what the service carried out
		// before the first refusal would hold every later window: 17 was seen). It says where the service ran
		// out of room: more than the 12 it holds, far fewer than the 100 the memory claimed.
		const kept = recall(serviceKey(sandbox.baseUrl, sandbox.clientId));
		expect(kept?.overload?.inFlight).toBeGreaterThan(12);
		expect(kept?.overload?.inFlight).toBeLessThan(REMEMBERED / 2);
		expect(learntLimit()!).toBeLessThanOrEqual(REMEMBERED / 4);
		expect(recall(serviceKey(sandbox.baseUrl, sandbox.clientId))?.budget).toBeUndefined();
	}, 60_000);

	it('a remembered limit refused in its first round by a few 503s, too few to mark the room, goes back to 8, not to half', async () => {
		// Against a service that runs out of room (the test above), where it ran out bounds the limit below that
		// room whether the refused memory halves or goes back to the start: its later refusals cannot tell the
		// two apart. Here the service refuses the first 3 of the round and takes the rest, so the 503s mark no
		// room (3 held, at most 10 bound nothing: pace/auto.ts OVERLOAD_LEARNT_ABOVE), and what follows shows the
		// limit the memory was cut to.
		const REMEMBERED = 100;
		remember(serviceKey(sandbox.baseUrl, sandbox.clientId), { ...NOTHING_ELSE, parallel: REMEMBERED, slowStart: false }, 1000);
		// Answers 1 s away: a busy machine that stalls for a moment (400 ms was seen) still sends the first round
		// before the first answer.
		sandbox.network.set({ latencyMs: 1000 });
		sandbox.faults.add({ kind: 'unavailable', method: 'GET', path: '/jobs/{id}', times: 3, retryAfterSeconds: 1 });
		const LATER = 60;
		const gets = await execute(REMEMBERED + LATER, { requestOptions: { parallelMode: 'auto' } });
		expect(gets.filter((r) => r.status === 503)).toHaveLength(3);
		// The first round is the remembered limit: far more than the bound below went out before any answer (all
		// 100 on an idle machine; with answers 400 ms away, 77 and 2 were seen on a loaded one).
		expect(startedWith(gets)).toBeGreaterThan(50);
		expect(recall(serviceKey(sandbox.baseUrl, sandbox.clientId))?.overload).toBeUndefined();
		// The requests that arrived after the first answer left (the items left, the 3 repeats, and on a busy
		// machine the first round's last ones): back at 8, the limit grows on the first round's clean answers by
		// √limit per limit's worth of them, to about 31 (33 at once seen); halved, it would resume at 50 and grow
		// to about 63, and the 60 items left would all be in service at once.
		const firstAnswer = Math.min(...gets.map((r) => r.doneAt ?? Infinity));
		const later = gets.filter((r) => r.at >= firstAnswer);
		expect(later.length).toBeGreaterThanOrEqual(LATER);
		expect(mostAtOnce(later)).toBeLessThanOrEqual(40);
	}, 60_000);

	it('a rate-limited service: the second execution starts with the learnt budget, its first window gets at most one 429, and it gets no more 429s than the first', async () => {
		const PER_SECOND = 10;
		const run = async () => {
			sandbox.faults.clear();
			sandbox.faults.add({ kind: 'rate-limit', method: 'GET', path: '/jobs/{id}', perSecond: PER_SECOND, retryAfterSeconds: 1 });
			const gets = await execute(40, { requestOptions: AUTO });
			const refused = gets.filter((r) => r.fault === 'rate-limit');
			expect(gets.length - refused.length).toBe(40);
			const start = Math.min(...gets.map((r) => r.at));
			return { refused: refused.length, inFirstWindow: refused.filter((r) => r.at < start + 1000).length };
		};
		// 40 ms away: the requests on the wire when the first 429 comes back are refused with it.
		sandbox.network.set({ latencyMs: 40 });
		const first = await run();
		expect(first.inFirstWindow).toBeGreaterThanOrEqual(3);
		// The service's window and the pause are over, as when a workflow runs again a little later.
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const second = await run();
		// The learnt budget from the start: at most the one request it tries beyond it after a full window.
		expect(second.inFirstWindow).toBeLessThanOrEqual(1);
		expect(second.refused).toBeLessThanOrEqual(first.refused);
	}, 40_000);

	it('another Client ID on the same Base URL, and the same Client ID on another Base URL, start fresh; the first service keeps its limit', async () => {
		const learnt = await learnAgainstHealthyService();
		sandbox.network.set(SLOW);
		// Another client of the same service: the sandbox knows one client, so this one holds a valid token
		// already (n8n sends it without asking for one) and differs only in its Client ID.
		const otherClient = credentialOf(sandbox, { clientId: 'another-client', accessToken: String(credentials.raw()?.accessToken) });
		expect(startedWith(await execute(60, { credentials: otherClient }))).toBe(DEFAULT_PARALLEL);

		const other = await startSandbox({ speed: 1 });
		try {
			expect(other.clientId).toBe(sandbox.clientId);
			expect(other.baseUrl).not.toBe(sandbox.baseUrl);
			other.network.set(SLOW);
			expect(startedWith(await execute(60, { on: other, credentials: credentialOf(other) }))).toBe(DEFAULT_PARALLEL);
		} finally {
			await other.close();
		}
		// The first service's memory is its own.
		expect(learntLimit()).toBe(learnt);
		expect(startedWith(await execute(learnt + 20))).toBe(learnt);
	}, 60_000);

	it('is forgotten once its age has passed since it was last confirmed', async () => {
		const learnt = await learnAgainstHealthyService();
		sandbox.network.set(SLOW);
		// Just within the age: remembered, and confirmed anew by this execution.
		shift = KEPT_MS - 30_000;
		const count = learnt + 20;
		const within = await execute(count);
		expect(startedWith(within)).toBe(learnt);
		const confirmed = learntLimit()!;
		expect(confirmed).toBeLessThan(RESUMED.maxParallelRequests);
		// The age counts from that confirmation: a whole age later, still remembered…
		shift += KEPT_MS - 30_000;
		expect(startedWith(await execute(confirmed + 20))).toBe(confirmed);
		// …and past it, forgotten: the execution starts at 8.
		shift += KEPT_MS + 1000;
		expect(startedWith(await execute(60))).toBe(DEFAULT_PARALLEL);
	}, 60_000);

	it('a fixed Parallel Requests neither reads nor confirms what was learnt, nor learns anything itself', async () => {
		const learnt = await learnAgainstHealthyService();
		sandbox.network.set(SLOW);
		// Does not read: a fixed number above the learnt limit sends that number at once, not the learnt limit.
		const fixed = await execute(learnt + 30, { requestOptions: { parallelMode: 'fixed', parallelRequests: learnt + 10 } });
		expect(startedWith(fixed)).toBe(learnt + 10);
		expect(learntLimit()).toBe(learnt);
		// Does not write: fixed runs, one of them against a rate limit (which makes a fixed run learn a budget),
		// late in the age of what Auto learnt, do not confirm it: past its age it is forgotten.
		shift = KEPT_MS - 20_000;
		sandbox.network.clear();
		sandbox.faults.add({ kind: 'rate-limit', method: 'GET', path: '/jobs/{id}', perSecond: 10, retryAfterSeconds: 1 });
		await execute(30, { requestOptions: { parallelMode: 'fixed', parallelRequests: 8 } });
		sandbox.faults.clear();
		await execute(30, { requestOptions: { parallelMode: 'fixed', parallelRequests: 20 } });
		expect(learntLimit()).toBe(learnt);
		shift = KEPT_MS + 1000;
		expect(learntLimit()).toBeUndefined();
		// And a fixed run on a service Auto knows nothing of leaves nothing behind.
		await execute(30, { requestOptions: { parallelMode: 'fixed', parallelRequests: 20 } });
		expect(learntLimit()).toBeUndefined();
		sandbox.network.set(SLOW);
		expect(startedWith(await execute(40))).toBe(DEFAULT_PARALLEL);
	}, 60_000);
});

/**
 * The credential of a sandbox, as credentialsFor fills it in, without forgetting what this process learnt
 * (credentialsFor starts as a new process).
 */
function credentialOf(on: Sandbox, overrides: Record<string, string> = {}): TestCredentialsHelper {
	const helper = new TestCredentialsHelper();
	helper.set({ baseUrl: on.baseUrl, clientId: on.clientId, clientSecret: on.clientSecret, ...overrides });
	return helper;
}
