import type { IDataObject, IPollFunctions, NodeOperationError } from 'n8n-workflow';

import type { TransferType } from '../FileTransferManager/api/types';
import { FINAL_JOB_STATUSES, TRANSFER_TYPES } from '../FileTransferManager/api/types';
import { operationError } from '../FileTransferManager/helpers/errors';
import { isUuid } from '../FileTransferManager/helpers/validate';
import { MAX_ATTACHED_ERRORS } from './description';
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

const LOCATOR_FILTERS: Array<{ name: string; field: string; label: string }> = [
	{ name: 'accountId', field: 'accountId', label: 'Account' },
	{ name: 'groupId', field: 'groupId', label: 'Group' },
	{ name: 'userId', field: 'userId', label: 'User' },
	{ name: 'sourceStorageId', field: 'source.id', label: 'Source Storage' },
	{ name: 'targetStorageId', field: 'target.id', label: 'Target Storage' },
];

function locatorValue(value: unknown): unknown {
	if (value && typeof value === 'object' && '__rl' in value) return (value as { value?: unknown }).value;
	return value;
}

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

	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	const filterQs: IDataObject = {};
	for (const { name, field, label } of LOCATOR_FILTERS) {
		const raw = locatorValue(filters[name]);
		const value = typeof raw === 'string' ? raw.trim() : raw;
		if (value === undefined || value === null || value === '') continue;
		if (!isUuid(value)) {
			throw invalid(
				ctx,
				`Filter "${label}" must be a UUID, got ${JSON.stringify(value)}`,
				'IDs of this API look like 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10. Pick the record from the list, or map an ID field.',
			);
		}
		filterQs[`filter[${field}]`] = value;
	}
	const dryRun = filters.dryRun ?? 'include';
	if (dryRun === 'only') filterQs['filter[dryRun]'] = 'true';
	else if (dryRun === 'exclude') filterQs['filter[dryRun]'] = 'false';
	else if (dryRun !== 'include') {
		throw invalid(ctx, `Filter "Dry Runs" must be include, exclude or only, got ${JSON.stringify(dryRun)}`);
	}
	if (filters.transferType !== undefined && filters.transferType !== '') {
		if (!(TRANSFER_TYPES as readonly unknown[]).includes(filters.transferType)) {
			throw invalid(
				ctx,
				`Filter "Transfer Type" must be one of ${TRANSFER_TYPES.join(', ')}, got ${JSON.stringify(filters.transferType)}`,
			);
		}
		filterQs['filter[transferType]'] = filters.transferType as TransferType;
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
