import type { IDataObject, INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Job } from '../shared/api/types';
import { operationError } from '../shared/execution/operationError';
import type { TriggerConfig } from './config';
import { readConfig } from './config';
import type { PollBudget } from './budget';
import { pollBudgetOf } from './budget';
import { drain } from './drain';
import { listNewest, listStuck, newestInStatus, newestJobs } from './fetch';
import { toItems } from './items';
import type { TriggerState } from './state';
import { readState, STATE_VERSION, stateFingerprint, writeState } from './state';
import { claimPoll, forgetTakenPosition, keepTakenPosition, notePoll, pollKey, startsBehind, takenPosition } from './inFlight';
import { processWindow } from './sweep';
import type { WatchedEvent } from './watch';
import { timeOf } from './watch';

const AFTER_FAILURE =
	'Nothing from this poll was saved: the next successful poll delivers every event this one would have.';

/**
 * Fetch Test Event: the most recently changed matching job in a watched status, so that the user can map
 * fields. Reads only; the stored state is not touched.
 */
async function sample(ctx: IPollFunctions, config: TriggerConfig): Promise<INodeExecutionData[][]> {
	let found: Job | undefined = (await newestJobs(ctx, config)).find((job) =>
		config.watched.has(job.attributes.status as WatchedEvent),
	);
	if (!found && !config.serverStatus) {
		// None among the newest page: ask per watched status (one request each) and keep the newest.
		for (const status of config.watched) {
			const job = await newestInStatus(ctx, config, status);
			if (job && (!found || timeOf(job.attributes.updatedAt) > timeOf(found.attributes.updatedAt))) {
				found = job;
			}
		}
	}
	if (!found) {
		throw operationError(ctx.getNode(), 'No job matching the events and filters found', {
			description: `No job is ${[...config.watched].join(', ')} with these filters yet. Let a job reach one of these statuses, or loosen the filters, then fetch again.`,
		});
	}
	return [await toItems(ctx, config, [{ job: found, event: found.attributes.status as WatchedEvent }])];
}

/**
 * First activation (or the watched set changed): remember where the job list stands and which jobs are
 * stuck already, and emit nothing, so that only statuses entered from now on fire.
 */
async function activate(ctx: IPollFunctions, config: TriggerConfig): Promise<TriggerState> {
	const newest = await listNewest(ctx, config);
	const start: TriggerState = {
		version: STATE_VERSION,
		fingerprint: config.fingerprint,
		cursor: null,
		atCursor: [],
		stuck: [],
		ahead: [],
		gaps: [],
	};
	// Jobs stamped ahead of the service's clock are listed too, and kept in `ahead` as already there.
	const { next } = processWindow(start, newest.jobs, config.watched, newest.clock, false);
	if (config.watched.has('stuck')) {
		// Listed after the position, so a job stuck before activation never fires for that entry.
		const stuck = new Set(next.stuck);
		for (const job of await listStuck(ctx, config)) stuck.add(job.id);
		next.stuck = [...stuck].sort();
	}
	return next;
}

/** Reads within the budget from the saved position, and saves the next position once every request succeeded. */
async function pollOnce(
	ctx: IPollFunctions,
	config: TriggerConfig,
	budget: PollBudget,
	key: string,
): Promise<INodeExecutionData[][] | null> {
	// Static data is written once, at the end, after every request has succeeded: older n8n versions
	// keep whatever a failed poll wrote.
	const staticData = ctx.getWorkflowStaticData('node') as IDataObject;
	const from = stateFingerprint(staticData);
	if (startsBehind(key, from)) {
		ctx.logger.debug('n8n has not saved the position of the previous poll of this trigger yet; this poll is skipped', {
			node: ctx.getNode().name,
		});
		return null;
	}
	const saved = readState(staticData);
	if (saved) forgetTakenPosition(key);
	// Handed no position: the one this process took at the activation, which n8n did not save, if any.
	const state = saved ?? takenPosition(key);
	if (!state || state.fingerprint !== config.fingerprint) {
		const start = await activate(ctx, config);
		writeState(staticData, start);
		if (!saved) keepTakenPosition(key, start);
		return null;
	}

	const { items, next } = await drain(ctx, config, state, budget);
	writeState(staticData, next);
	if (items.length === 0) return null;
	// n8n saves this position with the execution of these items, after the poll returned (a poll that returns
	// nothing has its position saved before its turn ends).
	notePoll(key, from, stateFingerprint(staticData));
	return [items];
}

/** One poll of the trigger; docs/trigger.md says what it watches and what it costs. */
export async function pollJobs(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const config = readConfig(this);
	const budget = pollBudgetOf(this);
	try {
		if (this.getMode() === 'manual') return await sample(this, config);

		const node = this.getNode();
		const key = pollKey(this.getWorkflow().id, node.id, node.name);
		const release = claimPoll(key);
		if (!release) {
			this.logger.debug('A poll of this trigger is still running in this n8n process; this one is skipped', {
				node: node.name,
			});
			return null;
		}
		try {
			return await pollOnce(this, config, budget, key);
		} finally {
			release();
		}
	} catch (error) {
		// The transport's errors already carry the API's title and detail; the poll adds what was kept.
		const failure =
			error instanceof NodeApiError
				? new NodeApiError(this.getNode(), error as unknown as JsonObject)
				: operationError(this.getNode(), error as Error);
		if (this.getMode() !== 'manual' && !String(failure.description ?? '').includes(AFTER_FAILURE)) {
			failure.description = [failure.description, AFTER_FAILURE].filter((part) => part).join(' ');
		}
		throw failure;
	}
}
