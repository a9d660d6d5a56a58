// @ts-nocheck
import type { IPollFunctions } from 'n8n-workflow';

/**
 * The longest a poll reads, whatever n8n allows: 30 seconds. n8n 1.x and n8n 2.x's own poll scheduler give
 * no budget (2.x's poll context says 5 minutes there), and n8n polls at most once a minute: a poll that read
 * a huge backlog for minutes would hold its execution that long, and run into the next poll. Under n8n's
 * durable scheduler the budget it gives is smaller by default (36 s of a 45 s poll timeout), and wins.
 */
export const OWN_POLL_BOUND_MS = 30_000;

/** Kept free at the end of the budget for what follows the last request: building the items, the state. */
const FINISHING_MS = 200;

/**
 * The time one poll may spend on requests. A request starts only when, taking as long as the slowest one of
 * this poll so far, it ends with time to spare; so the poll ends within its budget unless a single request
 * takes longer than all the ones before it.
 */
export class PollBudget {
	private readonly deadline: number;
	private slowest = 0;

	constructor(
		/** The bound this poll keeps to, in milliseconds. */
		readonly ms: number,
		start = Date.now(),
	) {
		this.deadline = start + ms;
	}

	/** Whether one more request fits in. */
	allows(): boolean {
		return Date.now() + this.slowest + FINISHING_MS <= this.deadline;
	}

	/** Makes a request, learning from how long it took. */
	async timed<T>(request: () => Promise<T>): Promise<T> {
		const start = Date.now();
		try {
			return await request();
		} finally {
			this.slowest = Math.max(this.slowest, Date.now() - start);
		}
	}
}

/**
 * The budget of this poll: n8n's `getPollBudgetMs()` where it exists (n8n-workflow 2.41 and later; it is
 * missing from n8n 1.x's poll context), capped by OWN_POLL_BOUND_MS.
 */
export function pollBudgetOf(ctx: IPollFunctions): PollBudget {
	const ask = (ctx as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	let ms = OWN_POLL_BOUND_MS;
	if (typeof ask === 'function') {
		const given: unknown = ask.call(ctx);
		if (typeof given === 'number' && Number.isFinite(given) && given > 0) ms = Math.min(ms, given);
	}
	return new PollBudget(ms);
}
