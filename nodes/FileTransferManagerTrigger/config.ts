import type { IDataObject, IPollFunctions, NodeOperationError } from 'n8n-workflow';

import { FINAL_JOB_STATUSES } from '../shared/api/types';
import { operationError } from '../shared/execution/operationError';
import { JOB_FILTER_API } from '../shared/jobs/jobFilters';
import type { FilterSpec } from '../shared/input/filters';
import { filterQuery, filterSpecsOf, filterValue } from '../shared/input/filters';
import { filters as filtersCollection, MAX_ATTACHED_ERRORS } from './description';
import { hashText } from './state';
import type { WatchedEvent } from './watch';
import { WATCHABLE_EVENTS } from './watch';

/** The trigger's parameters, checked and turned into what the poll needs. */
export interface TriggerConfig {
	watched: ReadonlySet<WatchedEvent>;
	/** `filter[...]` query parameters for GET /jobs (exact match, one value per field). */
	filterQs: IDataObject;
	/** The one watched final status the server filters on, when only one final event is watched. */
	serverStatus?: WatchedEvent;
	attachErrors: number;
	attachTransferSummary: boolean;
	/** Identifies what is watched; the state resets when it changes. */
	fingerprint: string;
}

/** The specs of the Filters collection, with the job filters' API fields; a refused Dry Runs lists include first. */
const SPECS = filterSpecsOf(filtersCollection, {
	fields: JOB_FILTER_API.fields,
	order: { dryRun: ['include', 'exclude', 'only'] },
});

/** Dry Runs is read on its own, since its three choices map to two filter values. */
const DRY_RUNS = SPECS.find((spec) => spec.name === 'dryRun') as FilterSpec;
const FILTERS = SPECS.filter((spec) => spec !== DRY_RUNS);

function invalid(ctx: IPollFunctions, message: string, description?: string): NodeOperationError {
	return operationError(ctx.getNode(), message, { description });
}

/** Reads and validates the parameters before any request is made. */
export function readConfig(ctx: IPollFunctions): TriggerConfig {
	const rawEvents = ctx.getNodeParameter('events', []) as unknown;
	const events = Array.isArray(rawEvents) ? rawEvents.map(String) : [];
	if (events.length === 0) {
		throw invalid(ctx, 'Select at least one event to watch', 'Events: Job Finished, Job Failed, Job Stuck, Job Canceled.');
	}
	for (const event of events) {
		if (!(WATCHABLE_EVENTS as readonly string[]).includes(event)) {
			throw invalid(ctx, `"Events" holds an unknown event ${JSON.stringify(event)}`, `Allowed: ${WATCHABLE_EVENTS.join(', ')}.`);
		}
	}
	const watched = new Set(events as WatchedEvent[]);

	// A filter that came out of an expression empty-handed (null, a number for an ID, …) fails the poll:
	// dropping it would widen what is watched.
	const filters = ctx.getNodeParameter('filters', {}) as unknown;
	const filterQs = filterQuery(ctx, undefined, filters, FILTERS);
	const given = (filters ?? {}) as IDataObject;
	if (Object.prototype.hasOwnProperty.call(given, 'dryRun')) {
		const dryRun = filterValue(ctx, undefined, DRY_RUNS.label, given.dryRun, DRY_RUNS.kind);
		if (dryRun === 'only') filterQs['filter[dryRun]'] = 'true';
		else if (dryRun === 'exclude') filterQs['filter[dryRun]'] = 'false';
	}

	// The list filter takes one value per field, so status is filtered on the server only when a single
	// final status is watched. `stuck` is never filtered there: the trigger must see a stuck job leave
	// `stuck` to report its next entry.
	const serverStatus =
		watched.size === 1 && (FINAL_JOB_STATUSES as readonly string[]).includes(events[0])
			? (events[0] as WatchedEvent)
			: undefined;

	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const attachErrors = options.attachErrors === undefined ? 0 : Number(options.attachErrors);
	if (!Number.isInteger(attachErrors) || attachErrors < 0 || attachErrors > MAX_ATTACHED_ERRORS) {
		throw invalid(ctx, `Option "Attach Errors" must be a whole number from 0 to ${MAX_ATTACHED_ERRORS}`);
	}

	const fingerprint = hashText(
		JSON.stringify({
			events: [...watched].sort(),
			filters: Object.keys(filterQs)
				.sort()
				.map((key) => [key, filterQs[key]]),
		}),
	);
	return {
		watched,
		filterQs,
		serverStatus,
		attachErrors,
		attachTransferSummary: options.attachTransferSummary === true,
		fingerprint,
	};
}
