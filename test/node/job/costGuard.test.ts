/**
 * Job › Run From Dry Run › Max Estimated Cost (docs/operations.md › Job: Run From Dry Run): above the maximum,
 * without an estimate, or with an estimate in another currency, no real job is started (no POST /jobs reaches
 * the sandbox) and the item fails with the estimate, the maximum and how to go on; On Error › Continue (using
 * error output) sends the refused item to the error output, paired with its input. Empty means no maximum.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { JobStats, Money } from '../../../nodes/shared/api/types';
import { rl, uniq, useJobSandbox } from './helpers';
import { runNode } from '../../harness/engine';

const t = useJobSandbox();

/** A finished dry run in the sandbox with this estimate (null: none). */
function dryRunWith(estimatedCost: Money | null, name = uniq('guarded dry run')): string {
	const stats = { estimatedCost } as Partial<JobStats> as JobStats;
	const [id] = t.sandbox.control.insertJobs(1, { name, dryRun: true, status: 'finished', stats });
	expect(t.sandbox.state.job(id)!.attributes.stats.estimatedCost).toEqual(estimatedCost);
	return id;
}

/** POST /jobs requests the sandbox received. */
const creates = () => t.sandbox.requests.count({ method: 'POST', path: '/jobs' });

const runFrom = (jobId: string, over: INodeParameters = {}): INodeParameters => ({
	operation: 'runFromDryRun',
	jobId: rl(jobId),
	...over,
});

describe('Max Estimated Cost', () => {
	it('at or under the maximum the real job starts; the amounts are compared exactly as decimals', async () => {
		for (const [estimate, max] of [
			['12.50', '12.5'],
			['12.4999', '12.5'],
			['0.0104', '0.02'],
			['9.99', '10'],
			['010.00', '10'],
		]) {
			const dryRunId = dryRunWith({ amount: estimate, currency: 'USD' });
			const before = creates();
			const run = await t.run(runFrom(dryRunId, { maxEstimatedCost: max, maxEstimatedCostCurrency: 'usd' }));
			expect([estimate, max, run.error?.message]).toEqual([estimate, max, undefined]);
			expect(run.items[0].json).toMatchObject({ dryRunJobId: dryRunId, dryRun: false });
			expect(creates()).toBe(before + 1);
		}
	});

	it.each([
		['12.51', '12.5'],
		['12.5000001', '12.5'],
		['100.00', '99.99'],
		['10', '9.999999999999999999'],
	])('above the maximum (%s > %s): no job started, the message gives both and how to go on', async (estimate, max) => {
		const dryRunId = dryRunWith({ amount: estimate, currency: 'USD' });
		const jobsBefore = t.sandbox.state.jobs().length;
		const before = creates();
		const run = await t.run(runFrom(dryRunId, { maxEstimatedCost: max, maxEstimatedCostCurrency: 'USD' }));
		expect(run.error?.message).toBe(`Not started: dry run ${dryRunId} estimates ${estimate} USD, above the maximum of ${max} USD [item 0]`);
		expect(run.error?.description).toBe(
			'No job was started. To go on, raise Max Estimated Cost (or clear it for no maximum), or narrow the source (a sub-folder, or scope rules) in a new dry run and run that one.',
		);
		expect(creates()).toBe(before);
		expect(t.sandbox.state.jobs().length).toBe(jobsBefore);
	});

	it('a dry run without an estimate is refused', async () => {
		const dryRunId = dryRunWith(null);
		const before = creates();
		const run = await t.run(runFrom(dryRunId, { maxEstimatedCost: '50', maxEstimatedCostCurrency: 'USD' }));
		expect(run.error?.message).toBe(`Not started: dry run ${dryRunId} has no estimated cost to check against the maximum of 50 USD [item 0]`);
		expect(run.error?.description).toContain('Create a new dry run, or clear Max Estimated Cost');
		expect(creates()).toBe(before);
	});

	it('an estimate in another currency is refused, never converted', async () => {
		const dryRunId = dryRunWith({ amount: '1.00', currency: 'EUR' });
		const before = creates();
		const run = await t.run(runFrom(dryRunId, { maxEstimatedCost: '50', maxEstimatedCostCurrency: 'USD' }));
		expect(run.error?.message).toBe(`Not started: dry run ${dryRunId} estimates 1.00 EUR, in another currency than the maximum of 50 USD [item 0]`);
		expect(run.error?.description).toContain('Set Max Estimated Cost Currency to EUR');
		expect(creates()).toBe(before);
	});

	it.each([
		[{ amount: '-1.00', currency: 'USD' }],
		[{ amount: '1,00', currency: 'USD' }],
		[{ amount: '1.00', currency: 'dollars' }],
		[{ amount: '1.00' }],
	])('an estimate that is not a decimal amount with a currency (%j) is refused', async (estimate) => {
		const dryRunId = dryRunWith(estimate as Money);
		const before = creates();
		const run = await t.run(runFrom(dryRunId, { maxEstimatedCost: '50', maxEstimatedCostCurrency: 'USD' }));
		expect(run.error?.message).toMatch(new RegExp(`^Not started: the estimated cost of dry run ${dryRunId} is not an amount with a currency \\(got .+\\), so it cannot be checked against the maximum of 50 USD \\[item 0\\]$`));
		expect(creates()).toBe(before);
	});

	it('empty means no maximum: an estimate of any size runs', async () => {
		const dryRunId = dryRunWith({ amount: '1000000.00', currency: 'USD' });
		const run = await t.run(runFrom(dryRunId, { maxEstimatedCost: '', maxEstimatedCostCurrency: 'USD' }));
		expect(run.error).toBeUndefined();
		const none = dryRunWith(null);
		expect((await t.run(runFrom(none))).error).toBeUndefined();
	});

	it('a number from an expression is taken as the decimal it reads as', async () => {
		const dryRunId = dryRunWith({ amount: '25.01', currency: 'USD' });
		const run = await t.run(runFrom(dryRunId, { maxEstimatedCost: '={{ 25 }}', maxEstimatedCostCurrency: 'USD' }));
		expect(run.error?.message).toContain('above the maximum of 25 USD');
	});

	it.each([
		[{ maxEstimatedCost: '25,00', maxEstimatedCostCurrency: 'USD' }, '"Max Estimated Cost" must be a decimal amount such as 25.00, got "25,00" [item 0]'],
		[{ maxEstimatedCost: '$25', maxEstimatedCostCurrency: 'USD' }, '"Max Estimated Cost" must be a decimal amount such as 25.00, got "$25" [item 0]'],
		[{ maxEstimatedCost: '-1', maxEstimatedCostCurrency: 'USD' }, '"Max Estimated Cost" must be a decimal amount such as 25.00, got "-1" [item 0]'],
		[{ maxEstimatedCost: '25' }, '"Max Estimated Cost Currency" is required when "Max Estimated Cost" is set [item 0]'],
		[{ maxEstimatedCost: '25', maxEstimatedCostCurrency: 'dollar' }, '"Max Estimated Cost Currency" must be a three-letter currency code such as USD or EUR, got "dollar" [item 0]'],
	])('bad input %j is refused before any request', async (over, message) => {
		const dryRunId = dryRunWith({ amount: '1.00', currency: 'USD' });
		t.sandbox.requests.clear();
		const run = await t.run(runFrom(dryRunId, over));
		expect(run.error?.message).toBe(message);
		expect(t.sandbox.requests.all().filter((request) => request.path !== '/oauth/token')).toEqual([]);
	});

	it('with Use the Existing Job the check comes before the name lookup: nothing is listed or created', async () => {
		const dryRunId = dryRunWith({ amount: '5.00', currency: 'USD' });
		t.sandbox.requests.clear();
		const run = await t.run(
			runFrom(dryRunId, {
				name: uniq('guarded run'),
				additionalFields: { ifNameExists: 'useExisting' },
				maxEstimatedCost: '1',
				maxEstimatedCostCurrency: 'USD',
			}),
		);
		expect(run.error?.message).toContain('above the maximum of 1 USD');
		expect(t.sandbox.requests.all().filter((request) => request.path !== '/oauth/token').map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /jobs/${dryRunId}`,
		]);
	});

	it('On Error › Continue (using error output): the refused item goes to the error output, paired with its input; the others run', async () => {
		const cheap = dryRunWith({ amount: '1.00', currency: 'USD' });
		const dear = dryRunWith({ amount: '99.00', currency: 'USD' });
		const before = creates();
		const run = await runNode({
			credentials: t.credentials,
			parameters: {
				resource: 'job',
				operation: 'runFromDryRun',
				jobId: rl('={{ $json.dryRunId }}'),
				maxEstimatedCost: '10.00',
				maxEstimatedCostCurrency: 'USD',
			},
			items: [{ json: { dryRunId: dear } }, { json: { dryRunId: cheap } }],
			node: { onError: 'continueErrorOutput' },
		});
		expect(run.runError).toBeUndefined();
		const [ok, failed] = run.outputs;
		expect(ok).toHaveLength(1);
		expect(ok[0].json).toMatchObject({ dryRunJobId: cheap });
		expect(ok[0].pairedItem).toEqual({ item: 1 });
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: 0 });
		expect(failed[0].json).toMatchObject({
			error: `Not started: dry run ${dear} estimates 99.00 USD, above the maximum of 10.00 USD [item 0]`,
			message: expect.stringContaining('raise Max Estimated Cost'),
		});
		expect(creates()).toBe(before + 1);
	});

	it('Continue (regular output): the refusal is the item, with how to go on as its description', async () => {
		const dear = dryRunWith({ amount: '99.00', currency: 'USD' });
		const before = creates();
		const run = await t.run(runFrom(dear, { maxEstimatedCost: '10', maxEstimatedCostCurrency: 'USD' }), { continueOnFail: true });
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toEqual({
			error: `Not started: dry run ${dear} estimates 99.00 USD, above the maximum of 10 USD [item 0]`,
			description: expect.stringContaining('No job was started. To go on, raise Max Estimated Cost'),
		});
		expect(creates()).toBe(before);
	});
});
