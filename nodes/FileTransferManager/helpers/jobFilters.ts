import { JOB_STATUSES, TRANSFER_TYPES } from '../api/types';
import type { FilterSpec } from './validate';

/**
 * The filters on jobs, as Job › Get Many offers them: parameter name, API filter field, label and what
 * each takes. The trigger offers a part of them under the same names.
 */
export const JOB_FILTERS: readonly FilterSpec[] = [
	{ name: 'accountId', field: 'accountId', label: 'Account', kind: 'id' },
	{ name: 'dryRun', field: 'dryRun', label: 'Dry Run', kind: 'boolean' },
	{ name: 'groupId', field: 'groupId', label: 'Group', kind: 'id' },
	{ name: 'name', field: 'name', label: 'Name', kind: 'text' },
	{ name: 'sourceStorageId', field: 'source.id', label: 'Source Storage', kind: 'id' },
	{ name: 'status', field: 'status', label: 'Status', kind: { oneOf: JOB_STATUSES } },
	{ name: 'targetStorageId', field: 'target.id', label: 'Target Storage', kind: 'id' },
	{ name: 'transferType', field: 'transferType', label: 'Transfer Type', kind: { oneOf: TRANSFER_TYPES } },
	{ name: 'userId', field: 'userId', label: 'User', kind: 'id' },
];

/** The job filters of these names, in JOB_FILTERS' order. */
export function jobFilters(names: readonly string[]): FilterSpec[] {
	return JOB_FILTERS.filter((filter) => names.includes(filter.name));
}
