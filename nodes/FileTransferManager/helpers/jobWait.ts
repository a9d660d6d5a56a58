import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { routes } from '../../shared/api/routes';
import type { Job, JobStatus } from '../../shared/api/types';
import { FINAL_JOB_STATUSES } from '../../shared/api/types';
import { requestErrors, requestSettings, retry } from '../../shared/transport';
import type { ItemContext } from '../../shared/execution/item';
import { itemError, operationError } from '../../shared/execution/operationError';
import { requestResource } from '../../shared/answers/checkedRequests';
import { invalidInput, requireBoolean } from '../../shared/input/validate';

/** Statuses that end a wait: the final ones, and stuck (which only changes when a storage returns). */
const WAIT_END_STATUSES: readonly JobStatus[] = [...FINAL_JOB_STATUSES, 'stuck'];

const DEFAULT_POLL_INTERVAL = 5;
const DEFAULT_MAX_WAIT = 3600;

/** "Wait for Completion" and its settings, for operations that start a job. */
export const waitProperties: INodeProperties[] = [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description:
			'Whether to poll the job until it is finished, failed, canceled or stuck and output that final state, instead of returning as soon as the job is started. Best for jobs of a few minutes: the execution stays busy meanwhile. For longer jobs leave it off and loop Wait node → Job › Get → If until the status is final; a Wait of over 65 s frees the n8n worker (see examples/README.md, "4. Long waits").',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		default: DEFAULT_POLL_INTERVAL,
		description:
			'Longest time between two status checks while waiting: the node looks at once, then after 0.5 s, 1 s, 2 s, … up to this',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
	{
		displayName: 'Max Wait (Seconds)',
		name: 'maxWait',
		type: 'number',
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		default: DEFAULT_MAX_WAIT,
		description:
			'Longest time to wait for the job to end. When it is exceeded the item fails with an error naming the job and its last status; the job itself keeps running.',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
	{
		displayName: 'Fail on Failed Job',
		name: 'failOnFailedJob',
		type: 'boolean',
		default: true,
		description:
			'Whether a job that ends with status failed makes the item fail (with an error naming the job). When off, the failed job is output like any other result.',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
];

export interface WaitSettings {
	/** Seconds between polls. */
	pollInterval: number;
	/** Seconds in all. */
	maxWait: number;
	failOnFailedJob: boolean;
}

function positiveSeconds(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) {
		throw invalidInput(ctx, itemIndex, `"${field}"`, `must be a number of seconds above 0, got ${JSON.stringify(value)}`);
	}
	return number;
}

/** The wait settings of one item, validated; undefined when Wait for Completion is off. */
export function waitSettingsFromParameters(ctx: IExecuteFunctions, itemIndex: number): WaitSettings | undefined {
	const wait = ctx.getNodeParameter('waitForCompletion', itemIndex, false);
	if (!requireBoolean(ctx, itemIndex, 'Wait for Completion', wait)) return undefined;
	const failOnFailedJob = requireBoolean(
		ctx,
		itemIndex,
		'Fail on Failed Job',
		ctx.getNodeParameter('failOnFailedJob', itemIndex, true),
	);
	return {
		pollInterval: positiveSeconds(
			ctx,
			itemIndex,
			'Poll Interval (Seconds)',
			ctx.getNodeParameter('pollInterval', itemIndex, DEFAULT_POLL_INTERVAL),
		),
		maxWait: positiveSeconds(
			ctx,
			itemIndex,
			'Max Wait (Seconds)',
			ctx.getNodeParameter('maxWait', itemIndex, DEFAULT_MAX_WAIT),
		),
		failOnFailedJob,
	};
}

/** The pause before the second status check; it doubles per check up to the Poll Interval. */
const FIRST_LOOK_MS = 500;

/** Bound of the status check made at the deadline itself (and of any check when less time is left). */
const LAST_CHECK_MS = 500;

/** A failure a later status check may not meet again: no answer, 429, or a 5xx. */
function passing(error: unknown): error is NodeApiError {
	if (!(error instanceof NodeApiError)) return false;
	const status = Number(error.httpCode);
	return error.httpCode === null || error.httpCode === undefined || status === 429 || status >= 500;
}

/**
 * Polls GET /jobs/{id} until the job is finished, failed, canceled or stuck, for at most `maxWait`
 * seconds: it never sleeps past the deadline, and each status check is bounded by the time left (at
 * least LAST_CHECK_MS, at most the Request Options timeout), with the one last check at the deadline.
 * So a run ends within Max Wait plus one check's bound, even when the service is slow to answer.
 * A check that fails in passing (no answer, 429, 5xx) is repeated at the next poll while time is left,
 * up to Max Retries in a row. Throws when the wait runs out, when the execution is canceled, and (if
 * asked) when the job failed.
 */
export async function waitForJob(
	ctx: IExecuteFunctions,
	job: Job,
	settings: WaitSettings,
	item: ItemContext,
): Promise<Job> {
	const itemIndex = item.index;
	const started = Date.now();
	const deadline = started + settings.maxWait * 1000;
	const transport = { ...requestSettings.DEFAULTS, ...requestSettings.fromNode(ctx, itemIndex) };
	const route = routes.getJob(job.id);
	let current = job;
	let failures = 0;
	let checks = 0;
	let lastFailure: Error | undefined;
	// From here on this item only waits: the next item may start its job meanwhile.
	item.releaseSlot();
	const stopped = item.stop;
	for (;;) {
		if (stopped.aborted) throw new requestErrors.StoppedError();
		if (WAIT_END_STATUSES.includes(current.attributes.status)) break;
		const now = Date.now();
		if (now >= deadline) {
			const check = lastFailure ? ` The last status check failed: ${lastFailure.message}.` : '';
			throw itemError(
				ctx.getNode(),
				`Job ${job.id} did not end within ${settings.maxWait} seconds; its last status was "${current.attributes.status}"`,
				itemIndex,
				{
					description: `The job keeps running on the service.${check} Raise "Max Wait (Seconds)", or check it later with Job → Get (or the File Transfer Manager Trigger).`,
				},
			);
		}
		const signal = ctx.getExecutionCancelSignal?.();
		if (signal?.aborted) {
			throw operationError(
				ctx.getNode(),
				`The execution was canceled while waiting for job ${job.id} (last status "${current.attributes.status}")`,
				{ itemIndex },
			);
		}
		// Look at once, then back off (0.5 s, 1 s, 2 s, …) up to the Poll Interval: a short job is seen
		// ending soon after it ends, a long one costs one request per Poll Interval.
		const interval = Math.min(settings.pollInterval * 1000, checks === 0 ? 0 : FIRST_LOOK_MS * 2 ** (checks - 1));
		const pause = failures > 0 ? Math.max(interval, retry.delayMs(failures - 1, transport)) : interval;
		checks += 1;
		if (pause > 0) await retry.sleepUnless(Math.min(pause, deadline - now), signal ? AbortSignal.any([signal, stopped]) : stopped);
		if (stopped.aborted) throw new requestErrors.StoppedError();
		const left = deadline - Date.now();
		try {
			current = await requestResource<Job>(ctx, route, 'jobs', {
				item,
				// A pause another request's Retry-After set is kept only up to the deadline.
				waitUntil: deadline,
				// Retries are this loop's own, so that none of them runs past the deadline.
				settings: { ...transport, timeout: Math.min(transport.timeout, Math.max(left, LAST_CHECK_MS)), maxRetries: 0 },
			});
			failures = 0;
			lastFailure = undefined;
		} catch (error) {
			if (passing(error) && failures < transport.maxRetries) {
				failures += 1;
				lastFailure = error;
				continue;
			}
			throw error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: operationError(ctx.getNode(), error as Error, { itemIndex });
		}
	}
	if (current.attributes.status === 'failed' && settings.failOnFailedJob) {
		const stats = current.attributes.stats;
		const progress = stats ? `It transferred ${stats.transferredCount} of ${stats.filesCount} files. ` : '';
		throw itemError(ctx.getNode(), `Job ${current.id} ended with status "failed"`, itemIndex, {
			description: `${progress}Job → Get Errors lists what went wrong. Turn off "Fail on Failed Job" to output the failed job as a normal item instead.`,
		});
	}
	return current;
}
