import { JOB_STATUSES } from '../api/types';
import type { FilterApi } from '../input/filters';

/**
 * What the job filters of Job › Get Many and of the trigger take from the API beyond their options in the
 * editor (filterSpecsOf reads the rest there): the API field of the storage pickers, and the order a refused
 * Status lists the statuses in (the API's; the editor sorts them by name).
 */
export const JOB_FILTER_API = {
	fields: { sourceStorageId: 'source.id', targetStorageId: 'target.id' },
	order: { status: JOB_STATUSES },
} as const satisfies FilterApi;
