/**
 * The walk through the job list across polls (drain.ts, sweep.ts) against a simulated service: a list sorted
 * newest first with keyset page cursors, jobs that change between polls (many in the same millisecond), and
 * polls stopped by their budget after a random number of requests, anywhere, also inside a millisecond. The
 * state goes through JSON between polls. Every event must come exactly once. docs/trigger.md says what the
 * drain promises; the integration tests (test/trigger/drain.test.ts) do the same over HTTP, with fewer cases.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { Job, JobStatus } from '../../nodes/shared/api/types';
import { OWN_POLL_BOUND_MS, PollBudget, pollBudgetOf } from '../../nodes/FileTransferManagerTrigger/budget';
import type { Budget, ListSource } from '../../nodes/FileTransferManagerTrigger/drain';
import { sweepList } from '../../nodes/FileTransferManagerTrigger/drain';
import type { PageToken, TriggerState } from '../../nodes/FileTransferManagerTrigger/state';
import { readState } from '../../nodes/FileTransferManagerTrigger/state';
import type { WatchedEvent } from '../../nodes/FileTransferManagerTrigger/watch';
import { serviceClock } from '../../nodes/FileTransferManagerTrigger/watch';
import { makeJob, uuid } from './fixtures';
import { seededRandom } from '../../sandbox/src/util';

const BASE = Date.UTC(2026, 10, 21, 10, 0, 0, 0);
const iso = (t: number): string => new Date(BASE + t).toISOString();
const WATCHED = new Set<WatchedEvent>(['finished', 'failed', 'stuck']);

/** A service's job list: updatedAt descending, ties by id ascending, keyset cursors, pages of `pageSize`. */
class SimulatedList {
	readonly jobs = new Map<string, { status: JobStatus; t: number }>();
	now = 0;
	requests = 0;
	constructor(private readonly pageSize: number) {}

	/** The list in its order, kept between changes (a poll asks for many pages of the same list). */
	private order: Array<{ id: string; status: JobStatus; t: number }> | undefined;

	set(id: string, status: JobStatus): void {
		this.jobs.set(id, { status, t: this.now });
		this.order = undefined;
	}

	private sorted(): Array<{ id: string; status: JobStatus; t: number }> {
		this.order ??= [...this.jobs.entries()]
			.map(([id, { status, t }]) => ({ id, status, t }))
			.sort((x, y) => y.t - x.t || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
		return this.order;
	}

	source(needsRequest: (event: WatchedEvent) => boolean): ListSource {
		return {
			list: async (page: PageToken) => {
				this.requests++;
				const all = this.sorted();
				let from = 0;
				if (page !== null) {
					if (!('after' in page)) throw new Error('the simulated list issues cursors only');
					const [t, id] = JSON.parse(page.after) as [number, string];
					const at = all.findIndex((job) => job.t < t || (job.t === t && job.id > id));
					from = at === -1 ? all.length : at;
				}
				// Only the page's jobs are made (with their updatedAt as the service sends it).
				const slice = all.slice(from, from + this.pageSize);
				const jobs: Job[] = slice.map(({ id, status, t }) => makeJob(id, { status, updatedAt: iso(t) }));
				const last = slice[slice.length - 1];
				const more = from + this.pageSize < all.length;
				const next: PageToken = more && last ? { after: JSON.stringify([last.t, last.id]) } : null;
				return await Promise.resolve({ jobs, next });
			},
			clock: () => serviceClock(BASE + this.now, true),
			needsRequest: (event) => needsRequest(event.event),
			item: async (event): Promise<INodeExecutionData> => await Promise.resolve({ json: { id: event.job.id, event: event.event } }),
			refused: () => false,
			loop: () => new Error('page loop'),
			failure: (error) => error as Error,
		};
	}
}

/** A budget that allows `requests` more requests (a list page or an item's), then none. */
function countedBudget(requests: number): Budget {
	let left = requests;
	return {
		allows: () => left > 0,
		timed: async <T>(request: () => Promise<T>): Promise<T> => {
			left--;
			return await request();
		},
	};
}

const roundTrip = (state: TriggerState): TriggerState => readState(JSON.parse(JSON.stringify(state)) as never)!;

/**
 * Under `npm run test:mutation` (jest.mutation.config.js sets the global `FTM_MUTATION`), a mutant that made one
 * drain fail is caught: the drains after it in this file fail at once instead of running too (Stryker's jest
 * runner cannot bail, and runs every drain that covers a mutant). Which mutants are caught stays the same: a
 * mutant that no drain catches runs them all. In any other run every drain runs, whatever failed before.
 */
const bailAfterFailure = (globalThis as { FTM_MUTATION?: boolean }).FTM_MUTATION === true;
let drainFailed = false;
function bailing(drain: () => Promise<void>): () => Promise<void> {
	return async () => {
		if (bailAfterFailure && drainFailed) throw new Error('An earlier drain of this file failed (mutation run: the rest are not run)');
		try {
			await drain();
		} catch (error) {
			drainFailed = true;
			throw error;
		}
	};
}

/** The most polls after the last change that a drain of these seeds needs is 338 (seed 8): 1,000 is none's. */
const DRAIN_POLLS_BOUND = 1000;

// Cheapest first (0.1 to 1.3 s each on their own), so that a mutant that the cheap ones catch costs little.
describe.each([
	{ seed: 5, pageSize: 5, itemCosts: true },
	{ seed: 4, pageSize: 3, itemCosts: false },
	{ seed: 7, pageSize: 2, itemCosts: false },
	{ seed: 1, pageSize: 4, itemCosts: false },
	{ seed: 3, pageSize: 7, itemCosts: true },
	{ seed: 8, pageSize: 6, itemCosts: true },
	{ seed: 6, pageSize: 10, itemCosts: true },
	{ seed: 2, pageSize: 4, itemCosts: true },
])('polls stopped anywhere by their budget (seed $seed, pages of $pageSize, items cost a request: $itemCosts)', ({ seed, pageSize, itemCosts }) => {
	it(
		'deliver every event exactly once, with jobs changing between polls, many in one millisecond',
		bailing(async () => {
		const next = seededRandom(seed);
		const sim = new SimulatedList(pageSize);
		const ids = Array.from({ length: 400 }, (_, i) => uuid(0x1000 + i));
		sim.now = -1000;
		for (const id of ids) {
			sim.set(id, 'running');
			if (next() < 0.5) sim.now++;
		}
		sim.now = 0;
		let state: TriggerState = { version: 3, fingerprint: 'fp', cursor: iso(-1), atCursor: [], stuck: [], ahead: [], gaps: [] };
		const expected: string[] = [];
		const delivered: string[] = [];
		let fresh = 0;
		const change = () => {
			// Running jobs end, become stuck (and stay so), or are only touched; each at most one status change.
			const id = ids[fresh++];
			const draw = next();
			const to: JobStatus = draw < 0.4 ? 'finished' : draw < 0.7 ? 'failed' : draw < 0.85 ? 'stuck' : 'running';
			sim.set(id, to);
			if (to !== 'running') expected.push(`${id}:${to}`);
		};
		const touch = () => {
			// A running or stuck job updated without a status change: it moves to the front, no event.
			const candidates = ids.slice(0, fresh).filter((id) => ['running', 'stuck'].includes(sim.jobs.get(id)!.status));
			if (candidates.length === 0) return;
			const id = candidates[Math.floor(next() * candidates.length)];
			sim.set(id, sim.jobs.get(id)!.status);
		};
		const poll = async () => {
			const source = sim.source((event) => itemCosts && (event === 'failed' || event === 'stuck'));
			const { items, next: after } = await sweepList(source, state, WATCHED, countedBudget(1 + Math.floor(next() * 6)));
			delivered.push(...items.map(({ json }) => `${String(json.id)}:${String(json.event)}`));
			state = roundTrip(after);
		};

		let polls = 0;
		let quiet = 0;
		while (fresh < ids.length) {
			// A burst now and then, mostly in one millisecond: a backlog that takes many polls, often followed by
			// polls with nothing new; otherwise a few changes.
			const burst = quiet === 0 && next() < 0.1;
			const count = Math.min(ids.length - fresh, burst ? 60 : quiet > 0 ? 0 : Math.floor(next() * 8));
			if (burst) quiet = Math.floor(next() * 6);
			else if (quiet > 0) quiet--;
			for (let i = 0; i < count; i++) {
				change();
				if (next() < (burst ? 0.03 : 0.3)) sim.now++;
			}
			if (next() < 0.3) {
				// Where a stuck job's updatedAt moves (touch), it sits at a new place in the list; same job, same status.
				const stuck = ids.slice(0, fresh).find((id) => sim.jobs.get(id)!.status === 'stuck');
				if (stuck) sim.set(stuck, 'stuck');
				touch();
			}
			sim.now++;
			await poll();
			polls++;
		}
		let drainPolls = 0;
		while (state.gaps.length > 0) {
			sim.now++;
			await poll();
			if (++drainPolls > DRAIN_POLLS_BOUND) throw new Error(`the drain does not end: gaps left after ${DRAIN_POLLS_BOUND} polls`);
		}
		await poll();

		expect(polls).toBeGreaterThan(20);
		const count = (list: string[]) => list.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
		expect(count(delivered)).toEqual(count(expected));
		}),
		// The unit layer's bound, also under jest.mutation.config.js, whose 3 s suit every other test.
		60_000,
	);
});

describe('the budget of a poll', () => {
	const ctx = (getPollBudgetMs?: unknown) => (getPollBudgetMs === undefined ? {} : { getPollBudgetMs }) as never;

	it("takes n8n's budget where it is smaller than the trigger's own bound", () => {
		expect(pollBudgetOf(ctx(() => 5_000)).ms).toBe(5_000);
	});

	it(`keeps to its own bound of ${OWN_POLL_BOUND_MS / 1000} s where n8n gives more (n8n-core's 5 minutes without the durable scheduler)`, () => {
		expect(pollBudgetOf(ctx(() => 300_000)).ms).toBe(OWN_POLL_BOUND_MS);
	});

	it('keeps to its own bound where the method is missing (n8n 1.x) or answers nonsense', () => {
		expect(pollBudgetOf(ctx()).ms).toBe(OWN_POLL_BOUND_MS);
		expect(pollBudgetOf(ctx(() => Number.NaN)).ms).toBe(OWN_POLL_BOUND_MS);
		expect(pollBudgetOf(ctx(() => -1)).ms).toBe(OWN_POLL_BOUND_MS);
		expect(pollBudgetOf(ctx(() => '5000')).ms).toBe(OWN_POLL_BOUND_MS);
	});

	it('allows a request only while one as slow as the slowest so far still ends in time', async () => {
		const budget = new PollBudget(1_000, Date.now());
		expect(budget.allows()).toBe(true);
		const start = Date.now();
		await budget.timed(async () => {
			while (Date.now() - start < 450) await new Promise((resolve) => setImmediate(resolve));
		});
		// About 450 ms spent, the slowest took about 450 ms, 200 ms are kept for the end: 450 + 450 + 200 > 1,000.
		expect(budget.allows()).toBe(false);
	});
});
