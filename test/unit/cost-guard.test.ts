/**
 * Max Estimated Cost alone (helpers/costGuard.ts): reading the maximum from the node's parameters, and the
 * check of a finished dry run's estimate against it, with each refusal's message and how to go on, in a
 * workflow and in tool use. test/node/job/costGuard.test.ts shows it through the engine against the sandbox.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { Job } from '../../nodes/shared/api/types';
import type { CostMaximum } from '../../nodes/FileTransferManager/helpers/costGuard';
import { checkCostMaximum, costGuardProperties, readCostMaximum } from '../../nodes/FileTransferManager/helpers/costGuard';
import { executeContext, makeJob, NODE, thrown, uuid } from './fixtures';

const DRY_RUN = uuid(0xd1);
const USD_50: CostMaximum = { amount: '50', currency: 'USD' };

/** A finished dry run whose stats say this estimated cost (any value, as a service may send it). */
const dryRunWith = (estimatedCost: unknown): Job => {
	const job = makeJob(DRY_RUN, { dryRun: true, status: 'finished' });
	(job.attributes.stats as unknown as Record<string, unknown>).estimatedCost = estimatedCost;
	return job;
};

/** The same context run as an AI agent's tool (n8n's type name ends with "Tool"). */
const toolContext = (): IExecuteFunctions => {
	const ctx = executeContext();
	ctx.getNode = () => ({ ...NODE, type: `${NODE.type}Tool` });
	return ctx;
};

type Refusal = Error & { description?: string; context?: { itemIndex?: number } };
const refusal = (ctx: IExecuteFunctions, dryRun: Job, maximum = USD_50, itemIndex = 3): Refusal =>
	thrown(() => checkCostMaximum(ctx, dryRun, maximum, itemIndex)) as Refusal;

describe('readCostMaximum', () => {
	it.each([[''], ['   '], [null], [undefined]])('%j means no maximum (the currency is not read)', (raw) => {
		expect(readCostMaximum(executeContext({ maxEstimatedCost: raw, maxEstimatedCostCurrency: 'not read' }), 0)).toBeUndefined();
	});

	it('no parameter at all means no maximum', () => {
		expect(readCostMaximum(executeContext(), 0)).toBeUndefined();
	});

	it.each([
		['25.00', 'USD', { amount: '25.00', currency: 'USD' }],
		['  7 ', ' eur ', { amount: '7', currency: 'EUR' }],
		[25, 'usd', { amount: '25', currency: 'USD' }],
		[0.5, 'CHF', { amount: '0.5', currency: 'CHF' }],
	])('%j %j reads as %j', (amount, currency, expected) => {
		expect(readCostMaximum(executeContext({ maxEstimatedCost: amount, maxEstimatedCostCurrency: currency }), 0)).toEqual(expected);
	});

	it.each([
		['25,00', '"25,00"'],
		['$25', '"$25"'],
		['-1', '"-1"'],
		['1.', '"1."'],
		['.5', '".5"'],
		['1e3', '"1e3"'],
		['x25', '"x25"'],
		['25x', '"25x"'],
		[-1, '-1'],
		[Number.POSITIVE_INFINITY, 'Infinity'],
		[Number.NaN, 'NaN'],
		[true, 'true'],
	])('%j is refused, naming the field and the item', (amount, got) => {
		const error = thrown(() => readCostMaximum(executeContext({ maxEstimatedCost: amount, maxEstimatedCostCurrency: 'USD' }), 4)) as Refusal;
		expect(error.message).toBe(`"Max Estimated Cost" must be a decimal amount such as 25.00, got ${got} [item 4]`);
		expect(error.description).toBe(
			'Digits with a point for the decimals, no currency sign or thousands separator; the currency goes into Max Estimated Cost Currency. Leave the field empty for no maximum.',
		);
	});

	it.each([[''], [undefined], [null]])('a maximum without a currency (%j) is refused: the currency is required', (currency) => {
		// Set to the value itself (an expression can give undefined or null), and absent (n8n's fallback '').
		const error = thrown(() => readCostMaximum(executeContext({ maxEstimatedCost: '25', maxEstimatedCostCurrency: currency }), 2)) as Refusal;
		expect(thrown(() => readCostMaximum(executeContext({ maxEstimatedCost: '25' }), 2)).message).toBe(error.message);
		expect(error.message).toBe('"Max Estimated Cost Currency" is required when "Max Estimated Cost" is set [item 2]');
		expect(error.description).toBe(
			"The maximum is compared only with an estimate in the same currency. Give the currency your service estimates in (a dry run's output shows it beside the amount).",
		);
	});

	it.each([
		['dollar', '"dollar"'],
		['US', '"US"'],
		['USDX', '"USDX"'],
		['XUSD', '"XUSD"'],
		['US1', '"US1"'],
		['   ', '"   "'],
		[840, '840'],
	])('a currency that is not a three-letter code (%j) is refused', (currency, got) => {
		const error = thrown(() => readCostMaximum(executeContext({ maxEstimatedCost: '25', maxEstimatedCostCurrency: currency }), 1)) as Refusal;
		expect(error.message).toBe(`"Max Estimated Cost Currency" must be a three-letter currency code such as USD or EUR, got ${got} [item 1]`);
	});
});

describe('costGuardProperties', () => {
	const [max, currency] = costGuardProperties;

	it('are the two text parameters readCostMaximum reads, empty (no maximum) by default', () => {
		expect(costGuardProperties.map(({ name, type, default: fallback }) => [name, type, fallback])).toEqual([
			['maxEstimatedCost', 'string', ''],
			['maxEstimatedCostCurrency', 'string', ''],
		]);
		expect(readCostMaximum(executeContext({ [max.name]: max.default, [currency.name]: currency.default }), 0)).toBeUndefined();
	});

	it('show the currency only once a maximum is set', () => {
		expect(max.displayOptions).toBeUndefined();
		expect(currency.displayOptions).toEqual({ hide: { [max.name]: [max.default] } });
	});

	it("give as examples values that readCostMaximum accepts", () => {
		const example = (placeholder: string | undefined) => (placeholder ?? '').replace(/^e\.g\. /, '');
		expect(readCostMaximum(executeContext({ [max.name]: example(max.placeholder), [currency.name]: example(currency.placeholder) }), 0)).toEqual({
			amount: '25.00',
			currency: 'USD',
		});
	});
});

describe('checkCostMaximum', () => {
	it.each([
		[{ amount: '50', currency: 'USD' }],
		[{ amount: '50.000', currency: 'USD' }],
		[{ amount: '49.99', currency: 'usd' }],
		[{ amount: ' 0 ', currency: ' USD ' }],
		[{ amount: 12.5, currency: 'USD' }],
	])('an estimate at or under the maximum (%j) passes', (estimate) => {
		expect(checkCostMaximum(executeContext(), dryRunWith(estimate), USD_50, 0)).toBeUndefined();
	});

	it.each([['50.01'], ['50.0000001'], ['51'], ['100']])('above the maximum (%s > 50): refused with both amounts and how to go on', (amount) => {
		const error = refusal(executeContext(), dryRunWith({ amount, currency: 'USD' }));
		expect(error.message).toBe(`Not started: dry run ${DRY_RUN} estimates ${amount} USD, above the maximum of 50 USD [item 3]`);
		expect(error.description).toBe(
			'No job was started. To go on, raise Max Estimated Cost (or clear it for no maximum), or narrow the source (a sub-folder, or scope rules) in a new dry run and run that one.',
		);
		expect(error.context?.itemIndex).toBe(3);
	});

	it('above the maximum in tool use: the maximum is the workflow\'s, not the call\'s', () => {
		const error = refusal(toolContext(), dryRunWith({ amount: '60', currency: 'USD' }));
		// The message a model gets: no item number in tool use (itemError, execution/operationError.ts).
		expect(error.message).toBe(`Not started: dry run ${DRY_RUN} estimates 60 USD, above the maximum of 50 USD`);
		expect(error.description).toBe(
			'No job was started. The maximum of 50 USD is set in the workflow; a tool call cannot change it. Tell the user the estimate. To go on, they raise the maximum in the workflow, or you start a dry run of a narrower source (a sub-folder) and run that one if its estimate is within 50 USD.',
		);
	});

	it.each([[null], [undefined], ['50 USD'], [50]])('no estimate (%j): refused, nothing to check against', (estimate) => {
		const error = refusal(executeContext(), dryRunWith(estimate));
		expect(error.message).toBe(`Not started: dry run ${DRY_RUN} has no estimated cost to check against the maximum of 50 USD [item 3]`);
		expect(error.description).toBe(
			'No job was started. Without an estimate the cost cannot be checked. Create a new dry run, or clear Max Estimated Cost to run without a maximum.',
		);
		expect(refusal(toolContext(), dryRunWith(estimate)).description).toBe(
			'No job was started. The workflow sets the maximum of 50 USD and a run without an estimate cannot be checked against it. Tell the user; a new dry run may give an estimate.',
		);
	});

	it('a dry run whose stats are missing has no estimate', () => {
		const job = dryRunWith(null);
		(job.attributes as unknown as Record<string, unknown>).stats = undefined;
		expect(refusal(executeContext(), job).message).toContain('has no estimated cost');
	});

	it.each([
		[{ amount: '-1.00', currency: 'USD' }, '{"amount":"-1.00","currency":"USD"}'],
		[{ amount: '1,00', currency: 'USD' }, '{"amount":"1,00","currency":"USD"}'],
		[{ amount: '1.00', currency: 'dollars' }, '{"amount":"1.00","currency":"dollars"}'],
		[{ amount: '1.00', currency: 840 }, '{"amount":"1.00","currency":840}'],
		[{ amount: '1.00' }, '{"amount":"1.00"}'],
		[{ currency: 'USD' }, '{"currency":"USD"}'],
	])('an estimate that is not an amount with a currency (%j) is refused', (estimate, got) => {
		const error = refusal(executeContext(), dryRunWith(estimate));
		expect(error.message).toBe(
			`Not started: the estimated cost of dry run ${DRY_RUN} is not an amount with a currency (got ${got}), so it cannot be checked against the maximum of 50 USD [item 3]`,
		);
		expect(error.description).toBe("No job was started. The service's estimate cannot be read. Clear Max Estimated Cost to run without a maximum.");
		expect(refusal(toolContext(), dryRunWith(estimate)).description).toBe(
			"No job was started. The workflow sets the maximum of 50 USD. Tell the user that the service's estimate cannot be read.",
		);
	});

	it('an estimate in another currency is refused, never converted, however small', () => {
		const error = refusal(executeContext(), dryRunWith({ amount: '1.00', currency: 'eur' }));
		expect(error.message).toBe(`Not started: dry run ${DRY_RUN} estimates 1.00 EUR, in another currency than the maximum of 50 USD [item 3]`);
		expect(error.description).toBe(
			'No job was started. Amounts in different currencies are neither compared nor converted. Set Max Estimated Cost Currency to EUR, with a maximum in EUR.',
		);
		expect(refusal(toolContext(), dryRunWith({ amount: '1.00', currency: 'EUR' })).description).toBe(
			'No job was started. Amounts in different currencies are neither compared nor converted. Tell the user the estimate; the workflow sets the maximum of 50 USD.',
		);
	});
});
