import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { TRANSFER_TYPES } from '../shared/api/types';
import {
	filtersCollection,
	accountLocator,
	groupLocator,
	requestOptions,
	storageLocator,
	userLocator,
} from '../shared/descriptions/common.descriptions';

const optionalFilter = { required: false, default: { mode: 'list', value: '' } };

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export const MAX_ATTACHED_ERRORS = 100;

const events: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: ['failed', 'finished', 'stuck'],
	description: 'Job statuses to watch. Each time a job enters one of them, the trigger emits one item.',
	options: [
		{
			name: 'Job Canceled',
			value: 'canceled',
			description: 'A job was canceled, by a user or by the system',
		},
		{
			name: 'Job Failed',
			value: 'failed',
			description: 'A job ended with an error (for example its error-count failure condition was reached)',
		},
		{
			name: 'Job Finished',
			value: 'finished',
			description: 'A job completed its transfer, or a dry run completed its estimate',
		},
		{
			name: 'Job Stuck',
			value: 'stuck',
			description:
				'A job stopped because a storage became unavailable. A job that gets stuck again later fires again.',
		},
	],
};

const eventNames: Record<string, string> = Object.fromEntries(
	(events.options as INodePropertyOptions[]).map((option) => [String(option.value), option.name.replace(/^Job /, '')]),
);

/** The canvas subtitle, "Jobs: Failed, Finished, Stuck", from the Events' display names (see the action node's). */
export const subtitle = `={{ "Jobs: " + ($parameter["events"] || []).map((event) => (${JSON.stringify(eventNames)}[event] || event)).join(", ") }}`;

/** The Filters collection; config.ts reads its specs from it (filterSpecsOf). */
export const filters = filtersCollection('Watch only jobs that match all of these. Changing them starts the watch afresh.', [
	{
		...accountLocator(optionalFilter),
		description: 'Only jobs of this account',
	},
	{
		displayName: 'Dry Runs',
		name: 'dryRun',
		type: 'options',
		default: 'include',
		description: 'Whether to watch dry-run jobs (cost estimates that move no data)',
		options: [
			{ name: 'Exclude', value: 'exclude', description: 'Only jobs that move data' },
			{ name: 'Include', value: 'include', description: 'Dry runs and jobs that move data' },
			{ name: 'Only', value: 'only', description: 'Only dry runs' },
		],
	},
	{
		...groupLocator(optionalFilter),
		description: 'Only jobs of this group',
	},
	{
		...storageLocator('sourceStorageId', 'Source Storage', optionalFilter),
		description: 'Only jobs that read from this storage',
	},
	{
		...storageLocator('targetStorageId', 'Target Storage', optionalFilter),
		description: 'Only jobs that write to this storage',
	},
	{
		displayName: 'Transfer Type',
		name: 'transferType',
		type: 'options',
		default: 'copy',
		description: 'Only jobs of this transfer type',
		options: TRANSFER_TYPES.map((value) => ({ name: capitalize(value), value })),
	},
	{
		...userLocator(optionalFilter),
		description: 'Only jobs started by this user',
	},
]);

export const properties: INodeProperties[] = [
	events,
	{
		displayName:
			'The trigger checks the jobs on its schedule and sees each job as it is at that moment. A status that a job enters and leaves again between two checks (for example stuck for a moment, then running) is not seen.',
		name: 'pollingNotice',
		type: 'notice',
		default: '',
	},
	filters,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Attach Errors',
				name: 'attachErrors',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: MAX_ATTACHED_ERRORS },
				default: 5,
				description:
					'How many of the job\'s first error and warning records to add to "failed" and "stuck" items, as "errors" (with "errorsTotal", null with "errorsNote" when the service gives no count). Costs one request per such item; 0 adds none.',
			},
			{
				displayName: 'Attach Transfer Summary',
				name: 'attachTransferSummary',
				type: 'boolean',
				default: false,
				description:
					'Whether to add "transferSummary": files and bytes transferred and remaining, duration and average rate, and a one-line text for alerts. Computed from the job\'s stats, no extra request.',
			},
		],
	},
	requestOptions,
];
