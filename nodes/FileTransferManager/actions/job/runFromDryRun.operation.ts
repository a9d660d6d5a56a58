import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routes } from '../../../shared/api/routes';
import type { Job, JobCreateAttributes } from '../../../shared/api/types';
import { jobLocator } from '../../../shared/descriptions/common.descriptions';
import { itemError } from '../../../shared/execution/operationError';
import { MAX_NAME_LENGTH, requireLocatorId, requireMaxLength } from '../../../shared/input/validate';
import { additionalAttributesFrom, JOB_FORM_ATTRIBUTES } from '../../helpers/jobBody';
import { createJob, markCreated } from '../../helpers/jobCreate';
import { ifNameExistsProperty, readIfNameExists } from '../../helpers/jobNameExists';
import { checkCostMaximum, costGuardProperties, readCostMaximum } from '../../helpers/costGuard';
import { checkRunGuards, readRunGuards, runGuardProperties } from '../../helpers/runGuards';
import { isToolShape, jobItemJson, readJobShape, simplifyJobProperty, jobToolOutputProperties, toolMoney } from '../../helpers/jobOutput';
import { waitForJob, waitProperties, waitSettingsFromParameters } from '../../helpers/jobWait';
import { describeValue, malformedAnswer } from '../../../shared/answers/shape';
import { requestResource } from '../../../shared/answers/checkedRequests';
import type { ItemContext } from '../../../shared/execution/item';

const properties: INodeProperties[] = [
	jobLocator({
		displayName: 'Dry-Run Job',
		description:
			'A finished dry-run job. A real job is created with its settings (transfer type, source, target, scope rules, conflict handling, failure conditions, rate limit, account, user and group).',
	}),
	...costGuardProperties,
	...runGuardProperties,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Nightly archive',
		description: 'Name of the new job. Leave empty for the dry run\'s name followed by " (run)".',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Additional Attributes (JSON)',
				name: 'additionalAttributes',
				type: 'json',
				default: '{}',
				description:
					'Attributes your deployment needs beyond the API description, as a JSON object merged into data.attributes of the create request, e.g. {"priority": "high"}. They are not copied from the dry run (the service need not return them). Attributes copied from the dry run or set by Name are refused here.',
			},
			{
				...ifNameExistsProperty,
				description:
					'Makes re-runs safe: with a Name unique to the dry run (an expression with its ID), a retried execution finds the job the first run started instead of starting a second one. Needs the Name field set.',
			},
		],
	},
	...waitProperties,
	simplifyJobProperty,
	...jobToolOutputProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['runFromDryRun'] } },
	properties,
);

/** What Run From Dry Run sets itself: copied from the dry run, or the Name field. */
const RUN_FORM_ATTRIBUTES: Readonly<Record<string, string>> = Object.fromEntries(
	Object.keys(JOB_FORM_ATTRIBUTES).map((key) => [key, key === 'name' ? 'Name' : 'copied from the dry run']),
);

/** The create attributes of a real job with the settings of a dry-run job. */
export function attributesFromDryRun(dryRun: Job, name: string | undefined): JobCreateAttributes {
	const a = dryRun.attributes;
	const source: JobCreateAttributes['source'] = { type: a.source.type, id: a.source.id, path: a.source.path ?? null };
	if (a.source.retrievalType) source.retrievalType = a.source.retrievalType;
	const attributes: JobCreateAttributes = {
		transferType: a.transferType,
		source,
		target: { id: a.target.id, path: a.target.path ?? null },
		// As the dry run has it: null for sync by the API description, or the value a deployment that
		// requires conflict handling for sync jobs stored (Create › Sync Conflict Handling).
		conflictHandling: a.conflictHandling ?? null,
		dryRun: false,
	};
	if (a.scope) attributes.scope = a.scope;
	if (Array.isArray(a.failureConditions) && a.failureConditions.length > 0) {
		attributes.failureConditions = a.failureConditions;
	}
	if (a.transferRateLimit !== null && a.transferRateLimit !== undefined) {
		attributes.transferRateLimit = a.transferRateLimit;
	}
	if (a.accountId) attributes.accountId = a.accountId;
	if (a.userId) attributes.userId = a.userId;
	if (a.groupId) attributes.groupId = a.groupId;
	const newName = name ?? (a.name ? `${a.name} (run)` : undefined);
	if (newName) attributes.name = newName;
	return attributes;
}

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const itemIndex = item.index;
	const dryRunId = requireLocatorId(this, itemIndex, 'jobId', 'Dry-Run Job', 'dryRun');
	const nameParameter = this.getNodeParameter('name', itemIndex, '');
	const name =
		typeof nameParameter === 'string' && nameParameter.trim() !== ''
			? requireMaxLength(this, itemIndex, 'Name', nameParameter.trim(), MAX_NAME_LENGTH)
			: undefined;
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as unknown;
	const additional = additionalAttributesFrom(this, itemIndex, extra, RUN_FORM_ATTRIBUTES);
	// Only the Name field counts: the dry run's name (the default) is known only after a request, and
	// dry runs need not have names of their own.
	const ifNameExists = readIfNameExists(this, itemIndex, extra, name, 'Name');
	const wait = waitSettingsFromParameters(this, itemIndex);
	const shape = readJobShape(this, itemIndex);
	// The guards first: their reading refuses a limit (a guard or Max Estimated Cost) that $fromAI() fills.
	const guards = readRunGuards(this, itemIndex);
	const maximum = readCostMaximum(this, itemIndex);

	const { created, prepared } = await createJob(this, ifNameExists, name, item, async () => {
		const dryRun = await finishedDryRun(this, dryRunId, item);
		// Before any request that could start the real job (the name lookup of If a Job With This Name Exists too).
		checkRunGuards(this, dryRun, guards, itemIndex);
		if (maximum) checkCostMaximum(this, dryRun, maximum, itemIndex);
		const attributes: JobCreateAttributes = { ...attributesFromDryRun(dryRun, name), ...additional };
		return { dryRun, attributes };
	});
	const { dryRun } = prepared;

	const job = wait ? await waitForJob(this, created.job, wait, item) : created.job;
	const dryRunCost = dryRun.attributes.stats?.estimatedCost ?? null;
	const json = jobItemJson(
		job,
		shape,
		isToolShape(shape)
			? { dryRunJobId: dryRun.id, dryRunEstimatedCost: toolMoney(dryRunCost) }
			: { dryRunJobId: dryRun.id, estimatedCost: dryRunCost as IDataObject | null },
	);
	markCreated(json, created);
	return [{ json }];
}

/** The dry-run job, checked to be a finished dry run with a source and a target. */
async function finishedDryRun(ctx: IExecuteFunctions, dryRunId: string, item: ItemContext): Promise<Job> {
	const itemIndex = item.index;
	const route = routes.getJob(dryRunId);
	const dryRun = await requestResource<Job>(ctx, route, 'jobs', { item });
	// Its source and target are copied into the new job.
	for (const end of ['source', 'target'] as const) {
		const value: unknown = dryRun.attributes[end];
		if (value === null || typeof value !== 'object' || Array.isArray(value)) {
			throw malformedAnswer(ctx, `a job without a ${end}: "data.attributes.${end}" is ${describeValue(value)}`, route, itemIndex);
		}
	}
	if (dryRun.attributes.dryRun !== true) {
		throw itemError(ctx.getNode(), `Job ${dryRunId} is not a dry run`, itemIndex, {
			description:
				'Run From Dry Run repeats a dry-run job for real. To start a job with new settings use Job → Create; to continue a paused job use Job → Resume.',
		});
	}
	if (dryRun.attributes.status !== 'finished') {
		throw itemError(
			ctx.getNode(),
			`Dry-run job ${dryRunId} has status "${dryRun.attributes.status}", not "finished"`,
			itemIndex,
			{
				description:
					'Only a finished dry run has a complete estimate. Wait until it is finished (Job → Create with "Wait for Completion" does that), or create a new dry run if it failed or was canceled.',
			},
		);
	}
	return dryRun;
}
