import type { INodeProperties } from 'n8n-workflow';

import { requestSettings } from '../transport';

const { AUTO_MAXIMUM_DEFAULT, PARALLEL_DEFAULT, PARALLEL_MAX } = requestSettings;

const UUID_REGEX = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** A resource locator for one record: searchable list or ID (the API exposes no per-record URLs). */
function locator(
	name: string,
	displayName: string,
	searchListMethod: string,
	placeholder: string,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${placeholder}...`,
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10',
				validation: [
					{
						type: 'regex',
						properties: { regex: UUID_REGEX, errorMessage: 'Not a valid ID: IDs are UUIDs' },
					},
				],
			},
		],
		...overrides,
	};
}

export const jobLocator = (overrides: Partial<INodeProperties> = {}) =>
	locator('jobId', 'Job', 'searchJobs', 'job', overrides);
export const storageLocator = (name: string, displayName: string, overrides: Partial<INodeProperties> = {}) =>
	locator(name, displayName, 'searchStorages', 'storage', overrides);
export const userLocator = (overrides: Partial<INodeProperties> = {}) =>
	locator('userId', 'User', 'searchUsers', 'user', overrides);
export const groupLocator = (overrides: Partial<INodeProperties> = {}) =>
	locator('groupId', 'Group', 'searchGroups', 'group', overrides);
export const accountLocator = (overrides: Partial<INodeProperties> = {}) =>
	locator('accountId', 'Account', 'searchAccounts', 'account', overrides);

/** Return All / Limit, as in n8n's own Get Many operations. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Transport settings every operation accepts; read by the transport itself. */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Response Size (MB)',
			name: 'maxResponseSize',
			type: 'number',
			typeOptions: { minValue: 0.001, maxValue: 1024, numberPrecision: 3 },
			default: 16,
			description:
				'Largest answer accepted, counted after decompression. A larger one is refused with an error instead of filling memory.',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 3,
			description:
				'How often to repeat a request that the service rejected for load (429, 503), or that failed in a way that is safe to repeat. Creating a job is never repeated blindly.',
		},
		{
			displayName: 'Max Wait Between Retries (Seconds)',
			name: 'maxRetryWait',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 3600 },
			default: 60,
			description: 'Upper bound on any single wait, even when the service asks for a longer one',
		},
		{
			displayName: 'Parallel Requests',
			name: 'parallelMode',
			type: 'options',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description:
						'Start with 8 at once and go faster while the service answers; slow down at once when it refuses (429, 503) or times out, and stay below where it ran out of room',
				},
				{
					name: 'Fixed Number',
					value: 'fixed',
					description: 'Always the same number at once, set in Parallel Requests (Fixed Number)',
				},
			],
			default: 'auto',
			description:
				'How many input items are worked on at once, and how many requests the node has in flight at most. Output order, paired items and errors are the same as one at a time.',
		},
		{
			displayName: 'Parallel Requests (Auto Maximum)',
			name: 'maxParallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: PARALLEL_MAX },
			default: AUTO_MAXIMUM_DEFAULT,
			displayOptions: { hide: { parallelMode: ['fixed'] } },
			description: 'The most requests at once that Auto goes up to',
		},
		{
			displayName: 'Parallel Requests (Fixed Number)',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: PARALLEL_MAX },
			default: PARALLEL_DEFAULT,
			displayOptions: { hide: { parallelMode: ['auto'] } },
			description:
				'How many requests at once when Parallel Requests is Fixed Number; 1 sends one item after another. A node saved before Auto existed keeps its number.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: 30,
			description:
				'How long one attempt of a request may take as a whole (connecting, the headers and the whole body) before it counts as failed',
		},
	],
};

/**
 * A list's Filters collection: `options` are its filters, each matched exactly; `description` says which
 * records come back. The filters' checks and query are derived from it (nodes/shared/input/filters.ts filterSpecsOf).
 */
export function filtersCollection(description: string, options: INodeProperties[]): INodeProperties {
	return { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, description, options };
}
