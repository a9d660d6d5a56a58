import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Job } from '../FileTransferManager/api/types';
import type { PollBudget } from './budget';
import type { TriggerConfig } from './config';
import { clockOf, listPage, listQuery, pageLoop } from './fetch';
import { itemNeedsRequest, toItem } from './items';
import type { PageToken, TriggerState } from './state';
import { byChange, Sweep } from './sweep';
import type { Observation } from './watch';

/** A page cursor kept from an earlier poll that the service no longer takes (400: expired, or signed by another instance). */
const refusedCursor = (error: unknown): boolean => error instanceof NodeApiError && Number(error.httpCode) === 400;

export interface DrainResult {
	/** The items of this poll's events, oldest change first. */
	items: INodeExecutionData[];
	next: TriggerState;
}

/**
 * One poll: reads the job list newest first, the fresh part and then each gap that earlier polls left (see
 * sweep.ts), until everything is read or the budget allows no further request. The first request is always
 * made, and a poll always handles at least one job or page before it stops: every poll makes progress.
 * Attach Errors' requests are made job by job, within the same budget.
 */
export async function drain(
	ctx: IPollFunctions,
	config: TriggerConfig,
	state: TriggerState,
	budget: PollBudget,
): Promise<DrainResult> {
	const qs = listQuery(config);
	const delivered: Array<{ event: Observation; item: INodeExecutionData }> = [];
	let sweep: Sweep | undefined;
	let progressed = false;
	let stopped = false;
	const regions = state.gaps.length + 1;

	for (let index = 0; index < regions && !stopped; index++) {
		let page: PageToken = index === 0 ? null : state.gaps[index - 1].page;
		let stored = page !== null;
		let previous: Job | undefined;
		const cursors = new Set<string>();
		const ids = new Set<string>();
		for (;;) {
			if (progressed && !budget.allows()) {
				stopped = true;
				break;
			}
			let listed: Awaited<ReturnType<typeof listPage>>;
			try {
				const from = page;
				listed = await budget.timed(async () => await listPage(ctx, qs, from, previous));
			} catch (error) {
				if (!stored || !refusedCursor(error)) throw error;
				// Read the gap from the front instead: what comes before it is skipped by position.
				page = null;
				stored = false;
				sweep?.restartFromFront(index);
				continue;
			}
			stored = false;
			sweep ??= new Sweep(state, config.watched, clockOf(ctx));
			let done = false;
			let fresh = 0;
			for (const job of listed.jobs) {
				if (!ids.has(job.id)) fresh++;
				ids.add(job.id);
				const placement = sweep.place(index, job);
				if (placement === 'skip') continue;
				if (placement === 'done') {
					done = true;
					break;
				}
				const event = sweep.eventOf(index, job);
				if (event) {
					if (itemNeedsRequest(config, event) && progressed && !budget.allows()) {
						stopped = true;
						break;
					}
					const item = await budget.timed(async () => await toItem(ctx, config, event));
					delivered.push({ event, item });
				}
				sweep.take(index, job, page);
				progressed = true;
			}
			if (stopped) break;
			if (done || listed.next === null) {
				sweep.complete(index);
				break;
			}
			const key = 'url' in listed.next ? listed.next.url : listed.next.after;
			// A page that brings no job not seen before, under a new cursor, would otherwise page forever.
			if (cursors.has(key) || listed.jobs.length === 0 || fresh === 0) throw pageLoop(ctx);
			cursors.add(key);
			sweep.advance(index, listed.next);
			progressed = true;
			page = listed.next;
			previous = listed.jobs[listed.jobs.length - 1];
		}
	}

	const { next } = (sweep as Sweep).result();
	delivered.sort((a, b) => byChange(a.event, b.event));
	return { items: delivered.map(({ item }) => item), next };
}
