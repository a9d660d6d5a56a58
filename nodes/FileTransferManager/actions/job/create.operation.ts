import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { JobCreateAttributes, Storage } from '../../../shared/api/types';
import {
	accountLocator,
	groupLocator,
	storageLocator,
	userLocator,
} from '../../../shared/descriptions/common.descriptions';
import { jobAttributesFromParameters } from '../../helpers/jobBody';
import { createJob, markCreated } from '../../helpers/jobCreate';
import { ifNameExistsProperty, readIfNameExists } from '../../helpers/jobNameExists';
import { jobItemJson, readJobShape, simplifyJobProperty, jobToolOutputProperties } from '../../helpers/jobOutput';
import { waitForJob, waitProperties, waitSettingsFromParameters } from '../../helpers/jobWait';
import { describeValue, malformedAnswer } from '../../../shared/answers/shape';
import { requestResource } from '../../../shared/answers/checkedRequests';
import { invalidInput } from '../../../shared/input/validate';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [
	{
		displayName: 'Transfer Type',
		name: 'transferType',
		type: 'options',
		required: true,
		default: 'copy',
		options: [
			{
				name: 'Copy',
				value: 'copy',
				description: 'The target gets copies; the source is kept intact',
			},
			{
				name: 'Move',
				value: 'move',
				description: 'Files are transferred to the target, then removed from the source',
			},
			{
				name: 'Sync',
				value: 'sync',
				description:
					'The target is made to mirror the source: target files that are not on the source (or do not match the scope rules) are deleted',
			},
		],
		description: 'What the job does with the files',
	},
	storageLocator('sourceStorageId', 'Source Storage', {
		description: 'Storage to read the files from',
	}),
	{
		displayName: 'Source Path',
		name: 'sourcePath',
		type: 'string',
		default: '',
		placeholder: 'e.g. /incoming/2024',
		description:
			'Folder or file inside the source storage, absolute (starts with /). Leave empty for the root of the storage.',
	},
	storageLocator('targetStorageId', 'Target Storage', {
		description: 'Storage to write the files to',
	}),
	{
		displayName: 'Target Path',
		name: 'targetPath',
		type: 'string',
		default: '',
		placeholder: 'e.g. /archive/2024',
		description:
			'Folder inside the target storage, absolute (starts with /); missing folders are created. Leave empty for the root of the storage.',
	},
	{
		displayName: 'Conflict Handling',
		name: 'conflictHandling',
		type: 'options',
		required: true,
		default: 'skip',
		displayOptions: { hide: { transferType: ['sync'] } },
		options: [
			{
				name: 'Overwrite',
				value: 'overwrite',
				description: 'The existing target file is replaced by the incoming one',
			},
			{
				name: 'Rename',
				value: 'rename',
				description: 'Both files are kept; the incoming one gets a copy marker, e.g. report_copy-1.csv',
			},
			{
				name: 'Skip',
				value: 'skip',
				description: 'The existing target file is kept and the incoming file is not transferred',
			},
		],
		description:
			'What happens when the target folder already holds a file of the same name. Not used by sync jobs (must be empty for them).',
	},
	{
		displayName: 'Sync Conflict Handling',
		name: 'syncConflictHandling',
		type: 'options',
		default: 'none',
		displayOptions: { show: { transferType: ['sync'] } },
		options: [
			{
				name: 'None (as the API Description Says)',
				value: 'none',
				description: 'Sent as null: the API description allows no conflict handling for sync jobs',
			},
			{
				name: 'Overwrite',
				value: 'overwrite',
				description: 'For deployments that require one for sync: the existing target file is replaced',
			},
			{
				name: 'Rename',
				value: 'rename',
				description: 'For deployments that require one for sync: both files are kept',
			},
			{
				name: 'Skip',
				value: 'skip',
				description: 'For deployments that require one for sync: the existing target file is kept',
			},
		],
		description:
			'Conflict handling sent with a sync job. The API description says a sync job has none (null); some deployments require one for sync too and refuse the job without it. Check Compatibility (API resource) tells which applies to yours.',
	},
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description:
			'Whether to only scan the source and estimate file count, size, duration and cost, without moving any data. Run the estimate for real later with Job → Run From Dry Run.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			accountLocator({
				required: false,
				description: 'Account the job belongs to; by default the account of the API client',
			}),
			{
				displayName: 'Additional Attributes (JSON)',
				name: 'additionalAttributes',
				type: 'json',
				default: '{}',
				description:
					'Attributes your deployment needs beyond the API description, as a JSON object merged into data.attributes of the create request, e.g. {"priority": "high"}. Attributes the fields of this form set (name, source, target, conflictHandling, …) are refused here.',
			},
			{
				displayName: 'Fail After Errors',
				name: 'failAfterErrors',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 10,
				description:
					'Failure condition: the job fails once this many file errors have occurred (error count)',
			},
			groupLocator({ required: false, description: 'Group the job is recorded for' }),
			ifNameExistsProperty,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'Name of the job, shown in the web interface and in job lists',
			},
			{
				displayName: 'Retrieval Type',
				name: 'retrievalType',
				type: 'options',
				default: 'standard',
				options: [
					{ name: 'Bulk', value: 'bulk', description: 'Slowest and cheapest retrieval' },
					{ name: 'Expedited', value: 'expedited', description: 'Fastest and most expensive retrieval' },
					{ name: 'Standard', value: 'standard', description: 'Default retrieval speed and price' },
				],
				description:
					'How objects are retrieved from an object-aws (S3) source storage. Only valid when the source storage is of type object-aws.',
			},
			{
				displayName: 'Scope Rules',
				name: 'scopeRules',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Rule',
				default: {},
				description:
					'Only files that match ALL rules are transferred (for sync: target files that do not match are deleted)',
				options: [
					{
						displayName: 'Rule',
						name: 'rules',
						values: [
							{
								displayName: 'Rule Type',
								name: 'type',
								type: 'options',
								default: 'name',
								options: [{ name: 'File Name', value: 'name' }],
								description: 'What the rule looks at',
							},
							{
								displayName: 'Condition',
								name: 'condition',
								type: 'options',
								default: 'ends-with',
								options: [
									{
										name: 'Ends With',
										value: 'ends-with',
										description: 'The file name ends with the value, e.g. .csv',
									},
									{
										name: 'Matches',
										value: 'matches',
										description: 'The file name matches the value as a regular expression',
									},
								],
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								default: '',
								placeholder: 'e.g. .csv',
								description: 'Text the file name ends with, or a regular expression for Matches',
							},
						],
					},
				],
			},
			{
				displayName: 'Start Status',
				name: 'startStatus',
				type: 'options',
				default: 'running',
				options: [{ name: 'Running', value: 'running' }],
				description:
					'Initial status sent with the create request; the only value the API accepts is running. Leave this field out to let the service choose.',
			},
			{
				displayName: 'Transfer Rate Limit (Bytes per Second)',
				name: 'transferRateLimit',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 10485760,
				description: 'Upper bound on the transfer speed of the job, in bytes per second',
			},
			userLocator({ required: false, description: 'User on whose behalf the job is started' }),
		],
	},
	...waitProperties,
	simplifyJobProperty,
	...jobToolOutputProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const draft = jobAttributesFromParameters(this, itemIndex);
	const ifNameExists = readIfNameExists(
		this,
		itemIndex,
		this.getNodeParameter('additionalFields', itemIndex, {}),
		draft.name,
		'Additional Fields › Name',
	);
	const wait = waitSettingsFromParameters(this, itemIndex);
	const shape = readJobShape(this, itemIndex);

	const { created } = await createJob(this, ifNameExists, draft.name, item, async () => {
		// The API wants the source storage's type in the job; it is only known from the storage itself.
		const route = routes.getStorage(draft.source.id);
		const storage = await requestResource<Storage>(this, route, 'storages', { item });
		const sourceType = storage.attributes.type;
		if (typeof sourceType !== 'string') {
			throw malformedAnswer(this, `a storage without a type: "data.attributes.type" is ${describeValue(sourceType)}`, route, itemIndex);
		}
		if (draft.source.retrievalType !== undefined && sourceType !== 'object-aws') {
			throw invalidInput(
				this,
				itemIndex,
				'"Retrieval Type"',
				`applies only to object-aws sources, but the source storage "${storage.attributes.name}" is of type ${sourceType}`,
				'Remove Retrieval Type from Additional Fields, or choose an object-aws (S3) source storage.',
			);
		}
		const attributes: JobCreateAttributes = { ...draft, source: { type: sourceType, ...draft.source } };
		return { attributes };
	});

	const job = wait ? await waitForJob(this, created.job, wait, item) : created.job;
	const json = jobItemJson(job, shape);
	markCreated(json, created);
	return [{ json }];
}
