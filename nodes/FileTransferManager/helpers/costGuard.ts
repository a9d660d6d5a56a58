/**
 * Max Estimated Cost of Run From Dry Run (docs/operations.md › Job: Run From Dry Run): the real job is started
 * only when the dry run's estimate is at most the maximum, in the maximum's currency. Amounts are compared as
 * decimal text, digit by digit, never as floating-point numbers: "10.10" and "10.1" are equal, "10.0001" is
 * above "10", whatever their size.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Job } from '../../shared/api/types';
import { itemError } from '../../shared/execution/operationError';
import { isToolUse } from '../../shared/execution/toolUse';
import { invalidInput, shown } from '../../shared/input/validate';

const MAX_FIELD = 'Max Estimated Cost';
const CURRENCY_FIELD = 'Max Estimated Cost Currency';

/** A non-negative decimal amount: digits, optionally a point and more digits. */
const DECIMAL = /^\d+(\.\d+)?$/;
/** An ISO 4217 code: three letters. */
const CURRENCY = /^[A-Z]{3}$/;

export const costGuardProperties: INodeProperties[] = [
	{
		displayName: MAX_FIELD,
		name: 'maxEstimatedCost',
		type: 'string',
		default: '',
		placeholder: 'e.g. 25.00',
		description:
			'The most the real job may cost, as the dry run estimated it: a decimal amount with a point, e.g. 25.00. Above it, or when the dry run has no estimate in this currency, no job is started and the item fails. Leave empty for no maximum.',
	},
	{
		displayName: CURRENCY_FIELD,
		name: 'maxEstimatedCostCurrency',
		type: 'string',
		default: '',
		placeholder: 'e.g. USD',
		displayOptions: { hide: { maxEstimatedCost: [''] } },
		description:
			'Currency of the maximum, an ISO 4217 code such as USD or EUR. Required with a maximum: an estimate in another currency is refused, never converted.',
	},
];

/** A maximum: its decimal amount as text, and its currency. */
export interface CostMaximum {
	amount: string;
	currency: string;
}

/** The amount as decimal text, or undefined: a non-negative decimal string, or a number in that form. */
function decimalText(value: unknown): string | undefined {
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : undefined;
	return text !== undefined && DECIMAL.test(text) ? text : undefined;
}

/** Compares two non-negative decimal texts exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
	const parts = (text: string): [string, string] => {
		const [whole, fraction = ''] = text.split('.');
		return [whole.replace(/^0+(?=\d)/, ''), fraction.replace(/0+$/, '')];
	};
	const [wholeA, fractionA] = parts(a);
	const [wholeB, fractionB] = parts(b);
	if (wholeA.length !== wholeB.length) return wholeA.length < wholeB.length ? -1 : 1;
	const width = Math.max(fractionA.length, fractionB.length);
	const digitsA = wholeA + fractionA.padEnd(width, '0');
	const digitsB = wholeB + fractionB.padEnd(width, '0');
	if (digitsA === digitsB) return 0;
	// Same length, digits only: the text order is the numeric order.
	return digitsA < digitsB ? -1 : 1;
}

/**
 * The item's maximum, or undefined when Max Estimated Cost is empty. Input errors (not a decimal amount, no
 * currency or not a three-letter code) name the field and the item, before any request.
 */
export function readCostMaximum(ctx: IExecuteFunctions, itemIndex: number): CostMaximum | undefined {
	const raw = ctx.getNodeParameter('maxEstimatedCost', itemIndex, '') as unknown;
	if (raw === '' || raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return undefined;
	const amount = decimalText(raw);
	if (amount === undefined) {
		throw invalidInput(
			ctx,
			itemIndex,
			`"${MAX_FIELD}"`,
			`must be a decimal amount such as 25.00, got ${shown(raw)}`,
			'Digits with a point for the decimals, no currency sign or thousands separator; the currency goes into Max Estimated Cost Currency. Leave the field empty for no maximum.',
		);
	}
	const currencyRaw = ctx.getNodeParameter('maxEstimatedCostCurrency', itemIndex, '') as unknown;
	const currency = typeof currencyRaw === 'string' ? currencyRaw.trim().toUpperCase() : '';
	if (!CURRENCY.test(currency)) {
		throw invalidInput(
			ctx,
			itemIndex,
			`"${CURRENCY_FIELD}"`,
			currency === '' && (currencyRaw === '' || currencyRaw === undefined || currencyRaw === null)
				? `is required when "${MAX_FIELD}" is set`
				: `must be a three-letter currency code such as USD or EUR, got ${shown(currencyRaw)}`,
			'The maximum is compared only with an estimate in the same currency. Give the currency your service estimates in (a dry run\'s output shows it beside the amount).',
		);
	}
	return { amount, currency };
}

const money = (amount: string, currency: string) => `${amount} ${currency}`;

/**
 * Refuses the item unless the finished dry run's estimate is at most the maximum, in its currency. Call it
 * before any request that could start the real job. The refusal says the estimate, the maximum and how to go
 * on; in tool use it tells a model that the maximum is the workflow's, not the call's.
 */
export function checkCostMaximum(ctx: IExecuteFunctions, dryRun: Job, maximum: CostMaximum, itemIndex: number): void {
	const estimate: unknown = dryRun.attributes.stats?.estimatedCost;
	const limit = money(maximum.amount, maximum.currency);
	const tool = isToolUse(ctx.getNode());
	const goOn = tool
		? `The maximum of ${limit} is set in the workflow; a tool call cannot change it. Tell the user the estimate. To go on, they raise the maximum in the workflow, or you start a dry run of a narrower source (a sub-folder) and run that one if its estimate is within ${limit}.`
		: `To go on, raise ${MAX_FIELD} (or clear it for no maximum), or narrow the source (a sub-folder, or scope rules) in a new dry run and run that one.`;
	const refuse = (problem: string, hint: string = goOn): never => {
		throw itemError(ctx.getNode(), `Not started: ${problem}`, itemIndex, {
			description: `No job was started. ${hint}`,
		});
	};
	const record = estimate !== null && typeof estimate === 'object' ? (estimate as Record<string, unknown>) : undefined;
	if (!record) {
		return refuse(
			`dry run ${dryRun.id} has no estimated cost to check against the maximum of ${limit}`,
			tool
				? `The workflow sets the maximum of ${limit} and a run without an estimate cannot be checked against it. Tell the user; a new dry run may give an estimate.`
				: `Without an estimate the cost cannot be checked. Create a new dry run, or clear ${MAX_FIELD} to run without a maximum.`,
		);
	}
	const amount = decimalText(record.amount);
	const currency = typeof record.currency === 'string' ? record.currency.trim().toUpperCase() : '';
	if (amount === undefined || !CURRENCY.test(currency)) {
		return refuse(
			`the estimated cost of dry run ${dryRun.id} is not an amount with a currency (got ${shown(estimate)}), so it cannot be checked against the maximum of ${limit}`,
			tool
				? `The workflow sets the maximum of ${limit}. Tell the user that the service's estimate cannot be read.`
				: `The service's estimate cannot be read. Clear ${MAX_FIELD} to run without a maximum.`,
		);
	}
	const estimated = money(amount, currency);
	if (currency !== maximum.currency) {
		return refuse(
			`dry run ${dryRun.id} estimates ${estimated}, in another currency than the maximum of ${limit}`,
			tool
				? `Amounts in different currencies are neither compared nor converted. Tell the user the estimate; the workflow sets the maximum of ${limit}.`
				: `Amounts in different currencies are neither compared nor converted. Set ${CURRENCY_FIELD} to ${currency}, with a maximum in ${currency}.`,
		);
	}
	if (compareDecimal(amount, maximum.amount) > 0) {
		return refuse(`dry run ${dryRun.id} estimates ${estimated}, above the maximum of ${limit}`);
	}
}
