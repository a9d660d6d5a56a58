/**
 * The Guards of Run From Dry Run (helpers/runGuards.ts), as pure checks: the reading of the Guards collection
 * (an empty selection, a storage ID that is not a UUID, an age below 1, a limit filled by $fromAI()), and each
 * guard's verdict on a finished dry run: every refusal, every pass, sync without conflict handling, and a
 * finishedAt that is missing, not a timestamp or in the future. The engine runs are in test/node/job/runGuards.test.ts.
 */
import type { INode, NodeOperationError } from 'n8n-workflow';

import type { Job, JobAttributes, JobStats } from '../../nodes/shared/api/types';
import {
	checkRunGuards,
	FUTURE_TOLERANCE_MS,
	guardRefusal,
	limitSetByModel,
	parseRunGuards,
	readRunGuards,
	runGuardProperties,
	type RunGuards,
} from '../../nodes/FileTransferManager/helpers/runGuards';
import { CONFLICT_HANDLINGS, TRANSFER_TYPES } from '../../nodes/shared/api/types';
import { executeContext, makeJob, NODE, TARGET_ID, thrown, uuid } from './fixtures';

const DRY_RUN = uuid(0xd1);
const NOW = Date.parse('2026-12-06T12:00:00.000Z');
const MINUTE = 60_000;
const ago = (ms: number) => new Date(NOW - ms).toISOString();

/** A finished dry run that finished `finishedAt` (a minute ago unless given). */
function dryRun(attributes: Partial<Omit<JobAttributes, 'stats'>> = {}, stats: Partial<JobStats> = { finishedAt: ago(MINUTE) }): Job {
	return makeJob(DRY_RUN, { dryRun: true, status: 'finished', ...attributes }, stats);
}

/** The refusal's text as the node's message has it (after "dry run <id> "), or undefined for a pass. */
const verdict = (job: Job, guards: RunGuards, now = NOW) => guardRefusal(job, guards, now)?.problem;

const DEFAULTS = parseRunGuards({
	allowedTransferTypes: ['copy'],
	allowedConflictHandling: ['skip', 'rename'],
	allowedTargetStorageIds: '',
	maxDryRunAgeMinutes: 60,
}) as RunGuards;

describe('parseRunGuards', () => {
	it('a guard not added restricts nothing; the defaults read as given', () => {
		expect(parseRunGuards({})).toEqual({});
		expect(parseRunGuards(undefined)).toEqual({});
		expect(DEFAULTS).toEqual({ transferTypes: ['copy'], conflictHandling: ['skip', 'rename'], maxAgeMinutes: 60 });
	});

	it('storage IDs are split on commas, white space ignored, in either letter case; empty means any target', () => {
		const a = uuid(1);
		const b = uuid(2).toUpperCase();
		expect(parseRunGuards({ allowedTargetStorageIds: ` ${a} ,\n${b},, ` })).toEqual({ targetStorageIds: [a, b.toLowerCase()] });
		expect(parseRunGuards({ allowedTargetStorageIds: ' , ' })).toStrictEqual({});
	});

	it('storage IDs from an expression may be a list; each is read on its own', () => {
		const a = uuid(1);
		const b = uuid(2);
		expect(parseRunGuards({ allowedTargetStorageIds: [a, ` ${b.toUpperCase()} `] })).toEqual({ targetStorageIds: [a, b] });
	});

	it('an age from an expression may be a numeric text', () => {
		expect(parseRunGuards({ maxDryRunAgeMinutes: '15' })).toEqual({ maxAgeMinutes: 15 });
	});

	it('reads every guard at once, each as given, inside the test (not only at load)', () => {
		const target = uuid(3);
		expect(
			parseRunGuards({ allowedTransferTypes: ['copy', 'move'], allowedConflictHandling: ['skip'], allowedTargetStorageIds: target, maxDryRunAgeMinutes: 1 }),
		).toEqual({ transferTypes: ['copy', 'move'], conflictHandling: ['skip'], targetStorageIds: [target], maxAgeMinutes: 1 });
	});

	it('a selection from an expression may be a comma-separated text, in any letter case, a value once', () => {
		expect(parseRunGuards({ allowedTransferTypes: ' Copy , MOVE ,, copy' })).toEqual({ transferTypes: ['copy', 'move'] });
		expect(parseRunGuards({ allowedConflictHandling: ['rename', 'rename'] })).toEqual({ conflictHandling: ['rename'] });
		expect(parseRunGuards({ allowedTransferTypes: ['copy', ''] })).toEqual({ transferTypes: ['copy'] });
	});

	it('a Guards value that is no collection, or a guard of the wrong kind, is refused with the field named', () => {
		expect(parseRunGuards(null)).toEqual({});
		expect(parseRunGuards('copy')).toMatchObject({ field: '"Guards"', problem: 'must be a collection of guards, got "copy"', hint: 'Add guards with Add Guard.' });
		expect(parseRunGuards({ maxDryRunAgeMinutes: 0 })).toMatchObject({ hint: 'Give the most minutes since the dry run finished, e.g. 60, or remove the guard for no maximum age.' });
		expect(parseRunGuards({ allowedTargetStorageIds: 'x' })).toMatchObject({ hint: expect.stringMatching(/^Storage UUIDs separated by commas, e\.g\. /) as unknown });
		expect(parseRunGuards(['copy'])).toMatchObject({ field: '"Guards"', problem: 'must be a collection of guards, got ["copy"]' });
		expect(parseRunGuards({ allowedTransferTypes: ['copy', 1] })).toMatchObject({ field: '"Guards → Allowed Transfer Types"', problem: 'must hold only copy, move, sync, got 1' });
		expect(parseRunGuards({ allowedTargetStorageIds: 5 })).toMatchObject({
			field: '"Guards → Allowed Target Storage IDs"',
			problem: 'must be storage UUIDs separated by commas, got 5',
		});
	});

	it.each([
		[{ allowedTransferTypes: [] }, '"Guards → Allowed Transfer Types"', 'must hold at least one transfer type'],
		[{ allowedConflictHandling: [] }, '"Guards → Allowed Conflict Handling"', 'must hold at least one conflict handling'],
		[{ allowedTransferTypes: ['copy', 'mirror'] }, '"Guards → Allowed Transfer Types"', 'must hold only copy, move, sync, got "mirror"'],
		[{ allowedConflictHandling: 7 }, '"Guards → Allowed Conflict Handling"', 'must be a list of skip, rename, overwrite, got 7'],
		[{ allowedTargetStorageIds: `${uuid(1)}, storage-2` }, '"Guards → Allowed Target Storage IDs"', 'must be storage UUIDs separated by commas, got "storage-2"'],
		[{ maxDryRunAgeMinutes: 0 }, '"Guards → Max Dry Run Age (Minutes)"', 'must be a whole number of minutes, at least 1, got 0'],
		[{ maxDryRunAgeMinutes: -5 }, '"Guards → Max Dry Run Age (Minutes)"', 'must be a whole number of minutes, at least 1, got -5'],
		[{ maxDryRunAgeMinutes: 0.5 }, '"Guards → Max Dry Run Age (Minutes)"', 'must be a whole number of minutes, at least 1, got 0.5'],
		[{ maxDryRunAgeMinutes: 'soon' }, '"Guards → Max Dry Run Age (Minutes)"', 'must be a whole number of minutes, at least 1, got "soon"'],
	])('bad input %j names the field', (raw, field, problem) => {
		expect(parseRunGuards(raw)).toMatchObject({ field, problem });
	});
});

describe('runGuardProperties', () => {
	const [collection] = runGuardProperties;
	const options = (collection.options ?? []) as Array<{ name: string; type: string; default: unknown; options?: Array<{ value: unknown }> }>;
	const option = (name: string) => options.find((o) => o.name === name)!;

	it('is one collection, "guards" (what readRunGuards reads), empty by default: no guard, no restriction', () => {
		expect(runGuardProperties).toHaveLength(1);
		expect([collection.name, collection.type, collection.default]).toEqual(['guards', 'collection', {}]);
		expect(readRunGuards(executeContext({ [collection.name]: collection.default }), 0)).toEqual({});
	});

	it('each guard, added with its default, is the input parseRunGuards reads, and the defaults are the documented ones', () => {
		expect(options.map((o) => [o.name, o.type])).toEqual([
			['allowedConflictHandling', 'multiOptions'],
			['allowedTargetStorageIds', 'string'],
			['allowedTransferTypes', 'multiOptions'],
			['maxDryRunAgeMinutes', 'number'],
		]);
		expect(parseRunGuards(Object.fromEntries(options.map((o) => [o.name, o.default])))).toEqual(DEFAULTS);
	});

	it("offers exactly the API's values to pick from", () => {
		expect(option('allowedTransferTypes').options?.map((o) => o.value).sort()).toEqual([...TRANSFER_TYPES].sort());
		expect(option('allowedConflictHandling').options?.map((o) => o.value).sort()).toEqual([...CONFLICT_HANDLINGS].sort());
	});
});

describe('readRunGuards', () => {
	/** The context of a node whose raw parameters are `raw` and whose resolved Guards are `guards`. */
	function context(raw: Record<string, unknown>, guards: unknown = raw.guards) {
		const ctx = executeContext({ guards });
		const node: INode = { ...NODE, parameters: { operation: 'runFromDryRun', ...raw } as INode['parameters'] };
		ctx.getNode = () => node;
		return ctx;
	}
	const refusal = (call: () => unknown) => thrown(call) as NodeOperationError;

	it('input errors name the field and the item', () => {
		const error = refusal(() => readRunGuards(context({ guards: { allowedTransferTypes: [] } }), 3));
		expect(error.message).toBe('"Guards → Allowed Transfer Types" must hold at least one transfer type [item 3]');
		expect(error.description).toBe('Pick at least one transfer type, or remove the guard for no restriction.');
		expect(error.context.itemIndex).toBe(3);
	});

	it.each([
		['guards.allowedTransferTypes', { guards: { allowedTransferTypes: "={{ $fromAI('types') }}" } }, '"Guards → Allowed Transfer Types"'],
		['guards.allowedConflictHandling', { guards: { allowedConflictHandling: ["={{ $fromAi('h') }}"] } }, '"Guards → Allowed Conflict Handling"'],
		['guards.allowedTargetStorageIds', { guards: { allowedTargetStorageIds: '={{ $fromai ("targets", "", "string") }}' } }, '"Guards → Allowed Target Storage IDs"'],
		['guards.maxDryRunAgeMinutes', { guards: { maxDryRunAgeMinutes: "={{ $fromAI('age', 'minutes', 'number') }}" } }, '"Guards → Max Dry Run Age (Minutes)"'],
		['guards', { guards: "={{ $fromAI('guards', '', 'json') }}" }, '"Guards"'],
		['maxEstimatedCost', { maxEstimatedCost: "={{ $fromAI('max') }}" }, '"Max Estimated Cost"'],
		['maxEstimatedCostCurrency', { maxEstimatedCost: '10', maxEstimatedCostCurrency: "={{ $fromAI('currency') }}" }, '"Max Estimated Cost Currency"'],
	])('a limit filled by $fromAI() (%s) is refused', (_path, raw, field) => {
		expect(limitSetByModel({ operation: 'runFromDryRun', ...raw })).toBe(field);
		// The resolved value is a valid one: the raw parameter alone is refused.
		const error = refusal(() => readRunGuards(context(raw, { allowedTransferTypes: ['copy'] }), 0));
		expect(error.message).toBe(`${field} is filled by $fromAI(): a limit on what a dry run may start must not be set by the model [item 0]`);
		expect(error.description).toBe(
			"Guards and Max Estimated Cost are the workflow's limits on what a tool call may start. Give them fixed values, or expressions that do not call $fromAI().",
		);
	});

	it('other expressions, and $fromAI() in other parameters, are not refused', () => {
		const raw = { jobId: { __rl: true, mode: 'id', value: "={{ $fromAI('jobId') }}" }, guards: { maxDryRunAgeMinutes: '={{ 30 }}' } };
		expect(limitSetByModel(raw)).toBeUndefined();
		expect(readRunGuards(context(raw, { maxDryRunAgeMinutes: 30 }), 0)).toEqual({ maxAgeMinutes: 30 });
	});
});

describe('guardRefusal', () => {
	it('each refusal says what fits, for the node and for a tool', () => {
		expect(guardRefusal(dryRun({ transferType: 'move' }), { transferTypes: ['copy'] }, NOW)).toMatchObject({
			fit: 'a new dry run of a transfer type it allows (copy)',
			toolFit: 'start a dry run of a transfer type it allows (copy)',
		});
		expect(guardRefusal(dryRun({ conflictHandling: 'overwrite' }), { conflictHandling: ['skip'] }, NOW)).toMatchObject({
			fit: 'a new dry run with a conflict handling it allows (skip)',
		});
		expect(guardRefusal(dryRun(), { targetStorageIds: [uuid(9)] }, NOW)).toMatchObject({
			fit: 'a new dry run to one of the allowed target storages',
			toolFit: 'start a dry run to one of the allowed target storages',
		});
		expect(guardRefusal(dryRun({}, { finishedAt: ago(90 * MINUTE) }), { maxAgeMinutes: 60 }, NOW)).toMatchObject({
			fit: 'a new dry run of the same transfer, run within 60 minutes of its end',
			toolFit: 'start a new dry run of the same transfer and run that one within 60 minutes of its end',
		});
	});

	it('values the API does not promise are named as they are, never thrown on', () => {
		expect(verdict(dryRun({ transferType: { kind: 'move' } as never }), { transferTypes: ['copy'] })).toBe('is a {"kind":"move"}, and this workflow allows only copy');
		expect(verdict(dryRun({ conflictHandling: undefined }), { conflictHandling: ['skip'] })).toBe('has no conflict handling, and this workflow allows only skip');
		expect(verdict(dryRun({ transferType: 'sync', conflictHandling: undefined }), { conflictHandling: ['skip'] })).toBeUndefined();
		expect(verdict(dryRun({ target: null as never }), { targetStorageIds: [uuid(9)] })).toMatch(/^targets storage undefined, /);
		expect(verdict(dryRun({ target: { id: 5 } as never }), { targetStorageIds: [uuid(9)] })).toMatch(/^targets storage 5, /);
		expect(verdict(dryRun({ target: { id: [uuid(9)] } as never }), { targetStorageIds: [uuid(9)] })).toMatch(new RegExp(`^targets storage \\["${uuid(9)}"\\], `));
		// A list is not the value it holds: a conflict handling ["overwrite"] is named as it is.
		expect(verdict(dryRun({ conflictHandling: ['overwrite'] as never }), { conflictHandling: ['skip'] })).toBe(
			'has the conflict handling ["overwrite"], and this workflow allows only skip',
		);
	});

	it('a finishedAt with white space around it is read; no age guard reads no finishedAt', () => {
		expect(verdict(dryRun({}, { finishedAt: ` ${ago(MINUTE)} ` }), { maxAgeMinutes: 60 })).toBeUndefined();
		expect(verdict(dryRun({}, {}), {})).toBeUndefined();
	});
	it('the defaults pass a fresh copy that skips or renames', () => {
		expect(verdict(dryRun(), DEFAULTS)).toBeUndefined();
		expect(verdict(dryRun({ conflictHandling: 'rename' }), DEFAULTS)).toBeUndefined();
	});

	it('no guard: a move, a sync, an overwrite, any target and any age pass', () => {
		for (const attributes of [{ transferType: 'move' as const }, { transferType: 'sync' as const, conflictHandling: null }, { conflictHandling: 'overwrite' as const }]) {
			expect(verdict(dryRun(attributes, { finishedAt: ago(1000 * 24 * 60 * MINUTE) }), {})).toBeUndefined();
		}
	});

	it.each([
		['move', ['copy'], 'is a move, and this workflow allows only copy'],
		['sync', ['copy', 'move'], 'is a sync, and this workflow allows only copy, move'],
		['copy', ['move'], 'is a copy, and this workflow allows only move'],
	] as const)('Allowed Transfer Types refuses a %s when it allows %j', (transferType, allowed, problem) => {
		expect(verdict(dryRun({ transferType, conflictHandling: 'skip' }), { transferTypes: [...allowed] })).toBe(problem);
	});

	it('Allowed Transfer Types passes what it allows', () => {
		expect(verdict(dryRun({ transferType: 'move' }), { transferTypes: ['copy', 'move'] })).toBeUndefined();
		expect(verdict(dryRun({ transferType: 'sync', conflictHandling: null }), { transferTypes: ['sync'] })).toBeUndefined();
	});

	it.each([
		['overwrite', ['skip', 'rename'], 'overwrites files on the target, and this workflow allows only skip, rename'],
		['rename', ['skip'], 'renames files that exist on the target, and this workflow allows only skip'],
		['skip', ['overwrite'], 'skips files that exist on the target, and this workflow allows only overwrite'],
	] as const)('Allowed Conflict Handling refuses %s when it allows %j', (conflictHandling, allowed, problem) => {
		expect(verdict(dryRun({ conflictHandling }), { conflictHandling: [...allowed] })).toBe(problem);
	});

	it('Allowed Conflict Handling passes what it allows', () => {
		expect(verdict(dryRun({ conflictHandling: 'overwrite' }), { conflictHandling: ['overwrite'] })).toBeUndefined();
	});

	it('a sync without conflict handling passes Allowed Conflict Handling; a sync with a stored value is checked', () => {
		const guards: RunGuards = { transferTypes: ['sync'], conflictHandling: ['skip'] };
		expect(verdict(dryRun({ transferType: 'sync', conflictHandling: null }), guards)).toBeUndefined();
		expect(verdict(dryRun({ transferType: 'sync', conflictHandling: 'overwrite' }), guards)).toBe(
			'overwrites files on the target, and this workflow allows only skip',
		);
		expect(verdict(dryRun({ transferType: 'sync', conflictHandling: 'skip' }), guards)).toBeUndefined();
		// Still governed by Allowed Transfer Types.
		expect(verdict(dryRun({ transferType: 'sync', conflictHandling: null }), DEFAULTS)).toBe('is a sync, and this workflow allows only copy');
	});

	it('a copy or move without conflict handling, or with a value the API does not have, is refused', () => {
		expect(verdict(dryRun({ conflictHandling: null }), { conflictHandling: ['skip'] })).toBe('has no conflict handling, and this workflow allows only skip');
		expect(verdict(dryRun({ conflictHandling: 'merge' as never }), { conflictHandling: ['skip'] })).toBe(
			'has the conflict handling "merge", and this workflow allows only skip',
		);
	});

	it('Allowed Target Storage IDs passes a listed target in either letter case and refuses another', () => {
		expect(verdict(dryRun(), { targetStorageIds: [uuid(9), TARGET_ID.toLowerCase()] })).toBeUndefined();
		expect(verdict(dryRun({ target: { id: TARGET_ID.toUpperCase(), path: null } }), { targetStorageIds: [TARGET_ID] })).toBeUndefined();
		expect(verdict(dryRun(), { targetStorageIds: [uuid(9)] })).toBe(`targets storage ${TARGET_ID}, which is not among the Allowed Target Storage IDs`);
	});

	it('Max Dry Run Age counts whole minutes since stats.finishedAt', () => {
		const guards = { maxAgeMinutes: 60 };
		expect(verdict(dryRun({}, { finishedAt: ago(95 * MINUTE + 20_000) }), guards)).toBe(
			'finished 95 minutes ago, more than the Max Dry Run Age of 60 minutes',
		);
		expect(verdict(dryRun({}, { finishedAt: ago(61 * MINUTE) }), guards)).toBe('finished 61 minutes ago, more than the Max Dry Run Age of 60 minutes');
		expect(verdict(dryRun({}, { finishedAt: ago(61 * MINUTE - 1) }), guards)).toBeUndefined();
		expect(verdict(dryRun({}, { finishedAt: ago(0) }), guards)).toBeUndefined();
	});

	it.each([
		[null, 'has no finishedAt, so its age cannot be checked against the Max Dry Run Age of 60 minutes'],
		[undefined, 'has no finishedAt, so its age cannot be checked against the Max Dry Run Age of 60 minutes'],
		['yesterday', 'has a finishedAt that is not a timestamp ("yesterday"), so its age cannot be checked against the Max Dry Run Age of 60 minutes'],
		['2026-12-06', 'has a finishedAt that is not a timestamp ("2026-12-06"), so its age cannot be checked against the Max Dry Run Age of 60 minutes'],
		[1765000000000, 'has a finishedAt that is not a timestamp (1765000000000), so its age cannot be checked against the Max Dry Run Age of 60 minutes'],
		['2026-13-45T99:00:00Z', 'has a finishedAt that is not a timestamp ("2026-13-45T99:00:00Z"), so its age cannot be checked against the Max Dry Run Age of 60 minutes'],
	])('Max Dry Run Age refuses a finishedAt of %j', (finishedAt, problem) => {
		expect(verdict(dryRun({}, { finishedAt: finishedAt as string }), { maxAgeMinutes: 60 })).toBe(problem);
	});

	it('a finishedAt in the future is refused beyond a small tolerance (clock skew), and counts as just now within it', () => {
		const ahead = (ms: number) => new Date(NOW + ms).toISOString();
		expect(verdict(dryRun({}, { finishedAt: ahead(FUTURE_TOLERANCE_MS) }), { maxAgeMinutes: 60 })).toBeUndefined();
		expect(verdict(dryRun({}, { finishedAt: ahead(FUTURE_TOLERANCE_MS + 1) }), { maxAgeMinutes: 60 })).toBe(
			`finished in the future (${ahead(FUTURE_TOLERANCE_MS + 1)}, 3 minutes ahead of this machine's clock), so its age cannot be checked against the Max Dry Run Age of 60 minutes`,
		);
		// A zone offset is read as such: 13:30+02:00 is 11:30Z, 30 minutes ago.
		expect(verdict(dryRun({}, { finishedAt: '2026-12-06T13:30:00+02:00' }), { maxAgeMinutes: 29 })).toBe(
			'finished 30 minutes ago, more than the Max Dry Run Age of 29 minutes',
		);
	});

	it('the guards are checked in order: transfer type, conflict handling, target, age', () => {
		const all: RunGuards = { transferTypes: ['copy'], conflictHandling: ['skip'], targetStorageIds: [uuid(9)], maxAgeMinutes: 1 };
		const job = (over: Partial<Omit<JobAttributes, 'stats'>>) => dryRun({ transferType: 'copy', conflictHandling: 'skip', target: { id: uuid(9), path: null }, ...over }, { finishedAt: ago(10 * MINUTE) });
		expect(guardRefusal(job({ transferType: 'move', conflictHandling: 'overwrite', target: { id: TARGET_ID, path: null } }), all, NOW)?.guard).toBe('Allowed Transfer Types');
		expect(guardRefusal(job({ conflictHandling: 'overwrite', target: { id: TARGET_ID, path: null } }), all, NOW)?.guard).toBe('Allowed Conflict Handling');
		expect(guardRefusal(job({ target: { id: TARGET_ID, path: null } }), all, NOW)?.guard).toBe('Allowed Target Storage IDs');
		expect(guardRefusal(job({}), all, NOW)?.guard).toBe('Max Dry Run Age (Minutes)');
	});
});

describe('checkRunGuards', () => {
	const TOOL: INode = { ...NODE, type: 'n8n-nodes-file-transfer-manager.fileTransferManagerTool' };

	it('a refusal starts "Not started: dry run <id>", ends with the item, and says how to go on', () => {
		const error = thrown(() => checkRunGuards(executeContext(), dryRun({ transferType: 'move' }), DEFAULTS, 2, NOW)) as NodeOperationError;
		expect(error.message).toBe(`Not started: dry run ${DRY_RUN} is a move, and this workflow allows only copy [item 2]`);
		expect(error.description).toBe(
			"No job was started. To go on, change Allowed Transfer Types in the node's Guards (or remove it), or make a new dry run of a transfer type it allows (copy) and run that one.",
		);
		expect(error.context.itemIndex).toBe(2);
	});

	it('as an AI tool it says the guard is the workflow\'s and a tool call cannot change it', () => {
		const ctx = executeContext();
		ctx.getNode = () => TOOL;
		const error = thrown(() => checkRunGuards(ctx, dryRun({ conflictHandling: 'overwrite' }), DEFAULTS, 0, NOW)) as NodeOperationError;
		// The message a model gets: no item number in tool use (itemError, execution/operationError.ts).
		expect(error.message).toBe(`Not started: dry run ${DRY_RUN} overwrites files on the target, and this workflow allows only skip, rename`);
		expect(error.description).toBe(
			'No job was started. The Allowed Conflict Handling guard is set in the workflow; a tool call cannot change it. Tell the user why this dry run was refused. To go on, they change the guard in the workflow, or you start a dry run with a conflict handling it allows (skip, rename).',
		);
	});

	it('a dry run that passes throws nothing', () => {
		expect(() => checkRunGuards(executeContext(), dryRun(), DEFAULTS, 0, NOW)).not.toThrow();
	});
});
