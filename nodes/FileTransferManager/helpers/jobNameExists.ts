/**
 * "If a Job With This Name Exists": the job name as an idempotency marker the user can see. With "Use
 * the Existing Job" a re-run of the same item (n8n's Retry, a queue worker's stalled-job re-run) finds
 * the job the first run made instead of creating a second one; with "Fail" it stops with the job's ID.
 * The option and its reading are here; createJob (jobCreate.ts) applies it.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput, requireOneOf } from '../../shared/input/validate';

const IF_NAME_EXISTS = ['createAnother', 'useExisting', 'fail'] as const;
export type IfNameExists = (typeof IF_NAME_EXISTS)[number];

export const IF_NAME_EXISTS_FIELD = 'If a Job With This Name Exists';

/** The option, for the Additional Fields of the operations that create a job. */
export const ifNameExistsProperty: INodeProperties = {
	displayName: IF_NAME_EXISTS_FIELD,
	name: 'ifNameExists',
	type: 'options',
	default: 'createAnother',
	options: [
		{
			name: 'Create Another',
			value: 'createAnother',
			description: 'Always create a new job; names need not be unique',
		},
		{
			name: 'Fail',
			value: 'fail',
			description: 'Fail the item, naming the existing job, and create nothing',
		},
		{
			name: 'Use the Existing Job',
			value: 'useExisting',
			description:
				'Output the newest job of this name (marked reusedExistingJob) instead of creating one, and wait for it if asked. A job of this name with other settings fails the item.',
		},
	],
	description:
		'Makes re-runs safe: with a Name unique to the input item (an expression on it, e.g. with the report ID it carries), a retried execution finds the job the first run created instead of starting a second one. Needs a Name.',
};

/**
 * The option of one item, read from an Additional Fields collection; anything but Create Another needs
 * a name (`name` undefined: none given), else an input error naming `nameField` and the item.
 */
export function readIfNameExists(
	ctx: IExecuteFunctions,
	itemIndex: number,
	collection: unknown,
	name: string | undefined,
	nameField: string,
): IfNameExists {
	const raw = collection !== null && typeof collection === 'object' ? (collection as IDataObject).ifNameExists : undefined;
	if (raw === undefined || raw === null || raw === '') return 'createAnother';
	const mode = requireOneOf(ctx, itemIndex, IF_NAME_EXISTS_FIELD, raw, IF_NAME_EXISTS);
	if (mode !== 'createAnother' && name === undefined) {
		throw invalidInput(
			ctx,
			itemIndex,
			`"${nameField}"`,
			`is required when "${IF_NAME_EXISTS_FIELD}" is "${mode === 'fail' ? 'Fail' : 'Use the Existing Job'}"`,
			`The job name is what a re-run looks for. Give a name unique to the input item, e.g. Nightly {{ $json.reportId }}, or set "${IF_NAME_EXISTS_FIELD}" to "Create Another".`,
		);
	}
	return mode;
}
