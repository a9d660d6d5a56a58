import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { itemError } from '../execution/operationError';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** What the user can tune under a node's Request Options; the defaults are safe for unattended runs. */
export interface TransportSettings {
	/** Milliseconds one attempt may take as a whole: connect, headers and body. */
	timeout: number;
	/** Repeats after the first attempt, for faults that allow a repeat. */
	maxRetries: number;
	/** Longest wait between attempts, in seconds, whatever Retry-After says. */
	maxRetryWait: number;
	/** Largest answer accepted, in bytes, counted after decompression. */
	maxResponseBytes: number;
}

const MB = 1024 * 1024;

export const DEFAULT_TRANSPORT: TransportSettings = {
	timeout: 30_000,
	maxRetries: 3,
	maxRetryWait: 60,
	maxResponseBytes: 16 * MB,
};

/** Bounds of the Request Options; a value outside them is an input error, not silently replaced. */
export const SETTING_RANGES = {
	timeout: { field: 'Timeout (Seconds)', min: 0.001, max: 3600, integer: false, scale: 1000 },
	maxRetries: { field: 'Max Retries', min: 0, max: 10, integer: true, scale: 1 },
	maxRetryWait: { field: 'Max Wait Between Retries (Seconds)', min: 0, max: 3600, integer: false, scale: 1 },
	maxResponseSize: { field: 'Max Response Size (MB)', min: 0.001, max: 1024, integer: false, scale: MB },
} as const;

/** Request Options field name → setting it fills. */
const TARGET: Record<keyof typeof SETTING_RANGES, keyof TransportSettings> = {
	timeout: 'timeout',
	maxRetries: 'maxRetries',
	maxRetryWait: 'maxRetryWait',
	maxResponseSize: 'maxResponseBytes',
};

function invalidSetting(ctx: ApiContext, field: string, problem: string, itemIndex?: number) {
	return itemError(ctx.getNode(), `"Request Options → ${field}" ${problem}`, itemIndex, {
		description: 'Nothing was sent. Leave the option out to use its default.',
	});
}

/** The node's "Request Options" collection, where it has one; out-of-range values are input errors. */
export function settingsFromNode(ctx: ApiContext, itemIndex?: number): Partial<TransportSettings> {
	let raw: IDataObject;
	try {
		raw =
			'getInputData' in ctx
				? ((ctx as IExecuteFunctions).getNodeParameter('requestOptions', itemIndex ?? 0, {}) as IDataObject)
				: ((ctx as IPollFunctions).getNodeParameter('requestOptions', {}) as IDataObject);
	} catch {
		return {};
	}
	if (!raw || typeof raw !== 'object') return {};
	const settings: Partial<TransportSettings> = {};
	for (const key of Object.keys(SETTING_RANGES) as Array<keyof typeof SETTING_RANGES>) {
		const value = raw[key];
		if (value === undefined || value === null || value === '') continue;
		const range = SETTING_RANGES[key];
		const number = typeof value === 'string' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isFinite(number)) {
			throw invalidSetting(ctx, range.field, `must be a number, got ${JSON.stringify(value)}`, itemIndex);
		}
		if (number < range.min || number > range.max || (range.integer && !Number.isInteger(number))) {
			const kind = range.integer ? 'a whole number' : 'a number';
			const lower = range.min > 0 && range.min < 1 ? 'above 0' : `from ${range.min}`;
			throw invalidSetting(
				ctx,
				range.field,
				`must be ${kind} ${lower} to ${range.max}, got ${JSON.stringify(value)}`,
				itemIndex,
			);
		}
		settings[TARGET[key]] = number * range.scale;
	}
	return settings;
}

/**
 * Upper bound of "Request Options → Parallel Requests" (fixed, and Auto's maximum): as many items at once as
 * n8n's HTTP Request node sends for a 1,000-item input (it starts every item's request at once).
 */
export const MAX_PARALLEL = 1000;

/**
 * Requests in flight at once with a fixed Parallel Requests left empty, and where a node has no such option
 * (the trigger, list searches); Auto starts there too.
 */
export const DEFAULT_PARALLEL = 8;

/** Auto's maximum (requests in flight at most) where Parallel Requests (Auto Maximum) is left empty. */
export const AUTO_MAXIMUM_DEFAULT = 1000;

/** How many requests an action node has in flight at once: learnt up to `max` (Auto), or a fixed number. */
export type ParallelSetting = { mode: 'auto'; max: number } | { mode: 'fixed'; requests: number };

function wholeInRange(ctx: IExecuteFunctions, field: string, value: unknown): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > MAX_PARALLEL) {
		throw invalidSetting(ctx, field, `must be a whole number from 1 to ${MAX_PARALLEL}, got ${JSON.stringify(value)}`);
	}
	return number;
}

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * "Request Options → Parallel Requests" of an action node (read once, at item 0: one node run has one
 * pacer, pace/). Auto unless the mode says Fixed Number, or a number is given without a mode (a node saved with
 * a number and no mode keeps its number); Auto's maximum is AUTO_MAXIMUM_DEFAULT when the node sets none.
 */
export function parallelFromNode(ctx: IExecuteFunctions): ParallelSetting {
	let raw: IDataObject;
	try {
		raw = ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	} catch {
		return { mode: 'auto', max: AUTO_MAXIMUM_DEFAULT };
	}
	const options = raw && typeof raw === 'object' ? raw : {};
	const mode = options.parallelMode;
	if (given(mode) && mode !== 'auto' && mode !== 'fixed') {
		throw invalidSetting(ctx, 'Parallel Requests', `must be "auto" or "fixed", got ${JSON.stringify(mode)}`);
	}
	const fixed = mode === 'fixed' || (!given(mode) && given(options.parallelRequests));
	if (fixed) {
		const value = given(options.parallelRequests) ? options.parallelRequests : DEFAULT_PARALLEL;
		return { mode: 'fixed', requests: wholeInRange(ctx, 'Parallel Requests (Fixed Number)', value) };
	}
	const max = given(options.maxParallelRequests)
		? wholeInRange(ctx, 'Parallel Requests (Auto Maximum)', options.maxParallelRequests)
		: AUTO_MAXIMUM_DEFAULT;
	return { mode: 'auto', max };
}
