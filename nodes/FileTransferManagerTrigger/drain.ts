import type { INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Job } from '../shared/api/types';
import { operationError } from '../shared/execution/operationError';
import type { PollBudget } from './budget';
import type { TriggerConfig } from './config';
import { clockOf, listPage, listQuery, pageLoop } from './fetch';
import { itemNeedsRequest, toItem } from './items';
import type { PageToken, TriggerState } from './state';
import { byChange, Sweep } from './sweep';
import type { Observation, ServiceClock, WatchedEvent } from './watch';

/** A page cursor kept from an earlier poll that the service no longer takes (400: expired, or signed by another instance). */
const refusedCursor = (error: unknown): boolean => error instanceof NodeApiError && Number(error.httpCode) === 400;

export interface DrainResult {
	/** The items of this poll's events, oldest change first. */
	items: INodeExecutionData[];
	next: TriggerState;
}

/** What the walk through the list needs from outside: the service's pages, its clock, the items. */
export interface ListSource {
	/** One page of the list, newest first: the first (`page` null) or the one `page` points to. */
	list(page: PageToken, previous: Job | undefined): Promise<{ jobs: Job[]; next: PageToken }>;
	/** The service's clock, as the first answer of the poll showed it. */
	clock(): ServiceClock;
	/** Whether the item of an event costs a request. */
	needsRequest(event: Observation): boolean;
	item(event: Observation): Promise<INodeExecutionData>;
	/** Whether an error of `list` says that a page cursor kept from an earlier poll is no longer taken. */
	refused(error: unknown): boolean;
	/** The error for a page that does not advance. */
	loop(): Error;
	/** The error a failed page request fails the poll with. */
	failure(error: unknown): Error;
}

/** The part of PollBudget the walk uses. */
export type Budget = Pick<PollBudget, 'allows' | 'timed'>;

/**
 * One poll: reads the job list newest first, the fresh part and then each gap that earlier polls left (see
 * sweep.ts), until everything is read or the budget allows no further request. A poll does not stop before it
 * has moved something on (sweep.progressed): every poll makes progress, however small its budget.
 * Attach Errors' requests are made job by job, within the same budget.
 */
export async function sweepList(
	source: ListSource,
	state: TriggerState,
	watched: ReadonlySet<WatchedEvent>,
	budget: Budget,
): Promise<DrainResult> {
	const delivered: Array<{ event: Observation; item: INodeExecutionData }> = [];
	let sweep: Sweep | undefined;
	let stopped = false;
	/** Until the poll has moved something on, it does not stop. */
	const mayStop = () => sweep?.progressed === true;
	const regions = state.gaps.length + 1;

	for (let index = 0; index < regions && !stopped; index++) {
		let page: PageToken = index === 0 ? null : state.gaps[index - 1].page;
		let stored = page !== null;
		let previous: Job | undefined;
		const cursors = new Set<string>();
		const ids = new Set<string>();
		for (;;) {
			if (mayStop() && !budget.allows()) {
				stopped = true;
				break;
			}
			let listed: { jobs: Job[]; next: PageToken };
			try {
				const from = page;
				listed = await budget.timed(async () => await source.list(from, previous));
			} catch (error) {
				if (!stored || !source.refused(error)) throw source.failure(error);
				// Read the gap from the front instead: what comes before it is skipped by position.
				page = null;
				stored = false;
				sweep?.restartFromFront(index);
				continue;
			}
			stored = false;
			sweep ??= new Sweep(state, watched, source.clock());
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
					if (source.needsRequest(event) && mayStop() && !budget.allows()) {
						stopped = true;
						break;
					}
					const item = await budget.timed(async () => await source.item(event));
					delivered.push({ event, item });
				}
				sweep.take(index, job, page);
			}
			if (stopped) break;
			if (done || listed.next === null) {
				sweep.complete(index);
				break;
			}
			const key = 'url' in listed.next ? listed.next.url : listed.next.after;
			// A page that brings no job not seen before, under a new cursor, would otherwise page forever.
			if (cursors.has(key) || listed.jobs.length === 0 || fresh === 0) throw source.loop();
			cursors.add(key);
			sweep.advance(index, listed.next);
			page = listed.next;
			previous = listed.jobs[listed.jobs.length - 1];
		}
	}

	const { next } = (sweep as Sweep).result();
	delivered.sort((a, b) => byChange(a.event, b.event));
	return { items: delivered.map(({ item }) => item), next };
}

/** One poll of the trigger against the service (see sweepList). */
export async function drain(
	ctx: IPollFunctions,
	config: TriggerConfig,
	state: TriggerState,
	budget: PollBudget,
): Promise<DrainResult> {
	const qs = listQuery(config);
	const source: ListSource = {
		list: async (page, previous) => await listPage(ctx, qs, page, previous),
		clock: () => clockOf(ctx),
		needsRequest: (event) => itemNeedsRequest(config, event),
		item: async (event) => await toItem(ctx, config, event),
		refused: refusedCursor,
		loop: () => pageLoop(ctx),
		failure: (error) =>
			error instanceof NodeApiError
				? new NodeApiError(ctx.getNode(), error as unknown as JsonObject)
				: operationError(ctx.getNode(), error as Error),
	};
	return await sweepList(source, state, config.watched, budget);
}
