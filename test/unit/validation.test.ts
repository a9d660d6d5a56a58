/**
 * The input checks of nodes/shared/input/validate.ts, filters.ts and sort.ts, called as the operations call them, with a context that only
 * knows its node and parameters. docs/operations.md: "The error names the field and the item, e.g.
 * `"Group" must be a UUID, got "group-42" [item 3]`", and nothing is sent.
 */
import type { NodeOperationError } from 'n8n-workflow';

import { FILTERS as JOB_FILTERS } from '../../nodes/FileTransferManager/actions/job/getMany.operation';
import { filterQuery, filterValue } from '../../nodes/shared/input/filters';
import {
	invalidInput,
	locatorValue,
	MAX_NAME_LENGTH,
	optionalUuid,
	readLimit,
	requireBoolean,
	requireEmail,
	requireLocatorId,
	requireMaxLength,
	requireNonEmpty,
	requireOneOf,
	requirePositiveInteger,
	requireTimeZone,
	requireUuid,
	shown,
} from '../../nodes/shared/input/validate';
import { sortParameter } from '../../nodes/FileTransferManager/helpers/sort';
import { executeContext, NODE, thrown, uuid } from './fixtures';

const ctx = executeContext();
const ID = '3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10';

/** The error of a check that must refuse, as a NodeOperationError. */
const refusal = (call: () => unknown): NodeOperationError => thrown(call) as NodeOperationError;

describe('invalidInput', () => {
	it('names the field and the item, and carries the item index and the node', () => {
		const error = invalidInput(ctx, 3, '"Group"', 'is required', 'Pick one.');
		expect(error.message).toBe('"Group" is required [item 3]');
		expect(error.description).toBe('Pick one.');
		expect(error.context.itemIndex).toBe(3);
		expect(error.node).toBe(NODE);
	});
});

describe('requireUuid and optionalUuid', () => {
	it('accept a UUID, trimmed, in either letter case', () => {
		expect(requireUuid(ctx, 0, 'Group', ` ${ID} `)).toBe(ID);
		expect(requireUuid(ctx, 0, 'Group', ID.toUpperCase())).toBe(ID.toUpperCase());
	});

	it('refuse anything else with the example message of docs/operations.md', () => {
		const error = refusal(() => requireUuid(ctx, 3, 'Group', 'group-42'));
		expect(error.message).toBe('"Group" must be a UUID, got "group-42" [item 3]');
		expect(error.context.itemIndex).toBe(3);
		expect(error.description).toContain('3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10');
	});

	it.each([42, { id: ID }, `${ID}0`, ID.replace(/-/g, ''), '../jobs'])('refuse %j as not a UUID', (value) => {
		expect(refusal(() => requireUuid(ctx, 1, 'Job', value)).message).toBe(
			`"Job" must be a UUID, got ${JSON.stringify(value)} [item 1]`,
		);
	});

	it.each(['', '   ', null, undefined])('call %j missing', (value) => {
		expect(refusal(() => requireUuid(ctx, 2, 'Job', value)).message).toBe('"Job" is required [item 2]');
	});

	it('optionalUuid gives undefined for an empty value and still refuses a bad one', () => {
		expect(optionalUuid(ctx, 0, 'Group', '')).toBeUndefined();
		expect(optionalUuid(ctx, 0, 'Group', '  ')).toBeUndefined();
		expect(optionalUuid(ctx, 0, 'Group', null)).toBeUndefined();
		expect(optionalUuid(ctx, 0, 'Group', undefined)).toBeUndefined();
		expect(optionalUuid(ctx, 0, 'Group', ID)).toBe(ID);
		expect(refusal(() => optionalUuid(ctx, 5, 'Group', 'nope')).message).toBe('"Group" must be a UUID, got "nope" [item 5]');
		expect(refusal(() => optionalUuid(ctx, 5, 'Group', 42)).message).toBe('"Group" must be a UUID, got 42 [item 5]');
	});
});

describe('requireEmail', () => {
	it('accepts an address, trimmed', () => {
		expect(requireEmail(ctx, 0, 'Email', ' ada@example.com ')).toBe('ada@example.com');
	});

	it.each(['ada', 'ada@example', 'ada @example.com', '@example.com'])('refuses %j', (value) => {
		expect(refusal(() => requireEmail(ctx, 4, 'Email', value)).message).toBe(
			`"Email" must be an e-mail address, got ${JSON.stringify(value)} [item 4]`,
		);
	});

	it.each(['', '  ', 7, null])('calls %j missing', (value) => {
		expect(refusal(() => requireEmail(ctx, 0, 'Email', value)).message).toBe('"Email" is required [item 0]');
	});
});

describe('requireNonEmpty', () => {
	it('gives the text trimmed', () => {
		expect(requireNonEmpty(ctx, 0, 'Name', '  Nightly  ')).toBe('Nightly');
	});

	it.each(['', '   ', 5, null, undefined])('refuses %j', (value) => {
		expect(refusal(() => requireNonEmpty(ctx, 1, 'Name', value)).message).toBe('"Name" is required and must be text [item 1]');
	});
});

describe('requirePositiveInteger', () => {
	it('accepts whole numbers from 1, also as text', () => {
		expect(requirePositiveInteger(ctx, 0, 'Limit', 1)).toBe(1);
		expect(requirePositiveInteger(ctx, 0, 'Limit', '25')).toBe(25);
	});

	it.each([0, -1, 1.5, '1.5', 'ten', '', ' ', true, null])('refuses %j', (value) => {
		expect(refusal(() => requirePositiveInteger(ctx, 2, 'Limit', value)).message).toBe(
			`"Limit" must be a whole number of at least 1, got ${JSON.stringify(value)} [item 2]`,
		);
	});
});

describe('requireOneOf', () => {
	const allowed = ['copy', 'move', 'sync'] as const;

	it('accepts a listed value', () => {
		expect(requireOneOf(ctx, 0, 'Transfer Type', 'move', allowed)).toBe('move');
	});

	it.each(['Move', 'delete', '', 1])('refuses %j, listing what is allowed', (value) => {
		expect(refusal(() => requireOneOf(ctx, 6, 'Transfer Type', value, allowed)).message).toBe(
			`"Transfer Type" must be one of "copy", "move", "sync", got ${JSON.stringify(value)} [item 6]`,
		);
	});
});

describe('requireBoolean', () => {
	it('accepts true and false, also as text from an expression', () => {
		expect(requireBoolean(ctx, 0, 'Dry Run', true)).toBe(true);
		expect(requireBoolean(ctx, 0, 'Dry Run', false)).toBe(false);
		expect(requireBoolean(ctx, 0, 'Dry Run', 'true')).toBe(true);
		expect(requireBoolean(ctx, 0, 'Dry Run', 'false')).toBe(false);
	});

	it.each(['yes', 'TRUE', 1, 0, null])('refuses %j', (value) => {
		expect(refusal(() => requireBoolean(ctx, 1, 'Dry Run', value)).message).toBe(
			`"Dry Run" must be true or false, got ${JSON.stringify(value)} [item 1]`,
		);
	});
});

describe('locatorValue and requireLocatorId', () => {
	it('take the value of a resource locator, or the value itself', () => {
		expect(locatorValue({ __rl: true, mode: 'id', value: ID })).toBe(ID);
		expect(locatorValue(ID)).toBe(ID);
		expect(locatorValue(null)).toBeNull();
	});

	it('read the locator parameter of the item and require a UUID', () => {
		const withJob = executeContext({ jobId: { __rl: true, mode: 'list', value: ID } });
		expect(requireLocatorId(withJob, 0, 'jobId', 'Job')).toBe(ID);
		const withBad = executeContext({ jobId: { __rl: true, mode: 'id', value: 'job-1' } });
		expect(refusal(() => requireLocatorId(withBad, 7, 'jobId', 'Job')).message).toBe(
			'"Job" must be a UUID, got "job-1" [item 7]',
		);
		expect(refusal(() => requireLocatorId(executeContext(), 0, 'jobId', 'Job')).message).toBe('"Job" is required [item 0]');
	});
});

describe('requireTimeZone', () => {
	it('accepts an IANA name, in its canonical letter case', () => {
		expect(requireTimeZone(ctx, 0, 'Time Zone', 'Europe/Berlin')).toBe('Europe/Berlin');
		expect(requireTimeZone(ctx, 0, 'Time Zone', ' europe/berlin ')).toBe('Europe/Berlin');
		expect(requireTimeZone(ctx, 0, 'Time Zone', 'UTC')).toBe('UTC');
	});

	it('refuses an unknown zone, something that is not a name, and an empty value', () => {
		expect(refusal(() => requireTimeZone(ctx, 1, 'Time Zone', 'Mars/Olympus_Mons')).message).toBe(
			'"Time Zone" is not a known time zone: "Mars/Olympus_Mons" [item 1]',
		);
		expect(refusal(() => requireTimeZone(ctx, 1, 'Time Zone', 'Europe Berlin')).message).toBe(
			'"Time Zone" is not a time-zone name: "Europe Berlin" [item 1]',
		);
		const empty = refusal(() => requireTimeZone(ctx, 1, 'Time Zone', ''));
		expect(empty.message).toBe('"Time Zone" is empty [item 1]');
		expect(empty.description).toContain('Europe/Berlin');
		expect(refusal(() => requireTimeZone(ctx, 1, 'Time Zone', 42)).message).toBe('"Time Zone" is empty [item 1]');
	});

	it('keeps a name that Intl resolves to another zone (an alias) as it was given', () => {
		expect(requireTimeZone(ctx, 0, 'Time Zone', 'US/Pacific')).toBe('US/Pacific');
		expect(requireTimeZone(ctx, 0, 'Time Zone', 'utc')).toBe('UTC');
	});

	it('takes a name as it is where the runtime has no Intl, or no Intl.DateTimeFormat', () => {
		const intl = Object.getOwnPropertyDescriptor(globalThis, 'Intl');
		const results: unknown[] = [];
		try {
			for (const stand of [undefined, {}]) {
				Object.defineProperty(globalThis, 'Intl', { value: stand, configurable: true, writable: true });
				results.push(thrownOrValue(() => requireTimeZone(ctx, 0, 'Time Zone', 'Mars/Olympus_Mons')));
			}
		} finally {
			if (intl) Object.defineProperty(globalThis, 'Intl', intl);
		}
		expect(results).toEqual(['Mars/Olympus_Mons', 'Mars/Olympus_Mons']);
	});
});

/** The value a call returns, or the message of what it throws. */
function thrownOrValue(call: () => unknown): unknown {
	try {
		return call();
	} catch (error) {
		return `threw: ${(error as Error).message}`;
	}
}

describe('requireMaxLength', () => {
	it('counts characters, not UTF-16 units', () => {
		expect(requireMaxLength(ctx, 0, 'Name', 'a😀', 2)).toBe('a😀');
	});

	it('refuses a longer text, with the numbers written out', () => {
		const name = 'x'.repeat(MAX_NAME_LENGTH + 1);
		expect(refusal(() => requireMaxLength(ctx, 3, 'Name', name, MAX_NAME_LENGTH)).message).toBe(
			'"Name" must be at most 1,000 characters long, got 1,001 [item 3]',
		);
	});
});

describe('sortParameter', () => {
	const fields = ['name', 'updatedAt'];

	it('joins the rules, descending ones with a minus, ascending by default', () => {
		const value = { rules: [{ field: 'name', direction: 'ascending' }, { field: 'updatedAt', direction: 'descending' }] };
		expect(sortParameter(ctx, 0, value, fields)).toBe('name,-updatedAt');
		expect(sortParameter(ctx, 0, { rules: { field: 'updatedAt' } }, fields)).toBe('updatedAt');
	});

	it('gives undefined when no rule is set', () => {
		expect(sortParameter(ctx, 0, {}, fields)).toBeUndefined();
		expect(sortParameter(ctx, 0, { rules: [] }, fields)).toBeUndefined();
		expect(sortParameter(ctx, 0, undefined, fields)).toBeUndefined();
	});

	it('refuses a field or a direction that is not offered', () => {
		expect(refusal(() => sortParameter(ctx, 2, { rules: [{ field: 'password' }] }, fields)).message).toBe(
			'"Sort › Field" must be one of "name", "updatedAt", got "password" [item 2]',
		);
		expect(refusal(() => sortParameter(ctx, 2, { rules: [{ field: 'name', direction: 'up' }] }, fields)).message).toBe(
			'"Sort › Direction" must be one of "ascending", "descending", got "up" [item 2]',
		);
	});
});

describe('readLimit', () => {
	it('gives undefined with Return All, else the Limit (50 when not set)', () => {
		expect(readLimit(executeContext({ returnAll: true, limit: 5 }), 0)).toBeUndefined();
		expect(readLimit(executeContext({ returnAll: false, limit: 5 }), 0)).toBe(5);
		expect(readLimit(executeContext({}), 0)).toBe(50);
	});

	it('refuses a bad Limit or Return All, naming it', () => {
		expect(refusal(() => readLimit(executeContext({ returnAll: false, limit: 0 }), 8)).message).toBe(
			'"Limit" must be a whole number of at least 1, got 0 [item 8]',
		);
		expect(refusal(() => readLimit(executeContext({ returnAll: 'yes' }), 8)).message).toBe(
			'"Return All" must be true or false, got "yes" [item 8]',
		);
	});
});

describe('filterValue', () => {
	it('sends text trimmed, a finite number as its decimal text, and leaves an empty text out', () => {
		expect(filterValue(ctx, 0, 'Name', '  Nightly ', 'text')).toBe('Nightly');
		expect(filterValue(ctx, 0, 'Name', 123, 'text')).toBe('123');
		expect(filterValue(ctx, 0, 'Name', 1.5, 'text')).toBe('1.5');
		expect(filterValue(ctx, 0, 'Name', '   ', 'text')).toBeUndefined();
	});

	it('refuses a number in exponent notation and values of other types for text', () => {
		expect(refusal(() => filterValue(ctx, 1, 'Name', 1e21, 'text')).message).toBe(
			'"Filters → Name" must be text or a number, got 1e+21 [item 1]',
		);
		expect(refusal(() => filterValue(ctx, 1, 'Name', Number.POSITIVE_INFINITY, 'text')).message).toBe(
			'"Filters → Name" must be text or a number, got Infinity [item 1]',
		);
		expect(refusal(() => filterValue(ctx, 1, 'Name', ['a'], 'text')).message).toBe(
			'"Filters → Name" must be text or a number, got ["a"] [item 1]',
		);
	});

	it('takes an ID from a locator and refuses one that is not a UUID, with the ID hint', () => {
		expect(filterValue(ctx, 0, 'Account', { __rl: true, mode: 'id', value: ` ${ID} ` }, 'id')).toBe(ID);
		const error = refusal(() => filterValue(ctx, 0, 'Account', 'acct-1', 'id'));
		expect(error.message).toBe('"Filters → Account" must be a UUID, got "acct-1" [item 0]');
		expect(error.description).toContain('Pick the record from the list');
	});

	it('refuses null from an expression with the hint on leaving the filter out, and names no item in a poll', () => {
		const error = refusal(() => filterValue(ctx, undefined, 'Account', null, 'id'));
		expect(error.message).toBe('"Filters → Account" must be a UUID, got null');
		expect(error.description).toContain('An expression gave no value');
		expect(refusal(() => filterValue(ctx, undefined, 'Account', undefined, 'id')).message).toBe(
			'"Filters → Account" must be a UUID, got undefined',
		);
	});

	it('reads booleans and listed values exactly', () => {
		expect(filterValue(ctx, 0, 'Dry Run', true, 'boolean')).toBe('true');
		expect(filterValue(ctx, 0, 'Dry Run', 'false', 'boolean')).toBe('false');
		expect(refusal(() => filterValue(ctx, 0, 'Dry Run', 'no', 'boolean')).message).toBe(
			'"Filters → Dry Run" must be true or false, got "no" [item 0]',
		);
		expect(filterValue(ctx, 0, 'Status', 'failed', { oneOf: ['failed', 'finished'] })).toBe('failed');
		expect(refusal(() => filterValue(ctx, 0, 'Status', 'Failed', { oneOf: ['failed', 'finished'] })).message).toBe(
			'"Filters → Status" must be one of "failed", "finished", got "Failed" [item 0]',
		);
	});
});

describe('filterQuery', () => {
	it('sends every filter the collection holds under its API field, and leaves the others out', () => {
		const qs = filterQuery(ctx, 0, { sourceStorageId: uuid(0x50), status: 'failed', dryRun: false, name: '' }, JOB_FILTERS);
		expect(qs).toEqual({ 'filter[source.id]': uuid(0x50), 'filter[status]': 'failed', 'filter[dryRun]': 'false' });
	});

	it('sends nothing without filters', () => {
		expect(filterQuery(ctx, 0, undefined, JOB_FILTERS)).toEqual({});
		expect(filterQuery(ctx, 0, null, JOB_FILTERS)).toEqual({});
		expect(filterQuery(ctx, 0, { unknown: 'x' }, JOB_FILTERS)).toEqual({});
	});

	it('refuses a bad filter instead of dropping it, and a collection that is not one', () => {
		expect(refusal(() => filterQuery(ctx, 3, { groupId: 42 }, JOB_FILTERS)).message).toBe(
			'"Filters → Group" must be a UUID, got 42 [item 3]',
		);
		expect(refusal(() => filterQuery(ctx, 3, ['x'], JOB_FILTERS)).message).toBe(
			'"Filters" must be a collection of filters, got ["x"] [item 3]',
		);
	});
});

describe('shown', () => {
	it('quotes values as JSON, names what JSON cannot say, and cuts long ones at 80 characters', () => {
		expect(shown('a')).toBe('"a"');
		expect(shown(undefined)).toBe('undefined');
		expect(shown(Number.NaN)).toBe('NaN');
		expect(shown(-Infinity)).toBe('-Infinity');
		expect(shown('y'.repeat(100))).toBe(`"${'y'.repeat(79)}…`);
		// 80 characters with the quotes: not cut.
		expect(shown('y'.repeat(78))).toBe(`"${'y'.repeat(78)}"`);
		// What JSON cannot write at all (a loop): as String gives it.
		const loop: Record<string, unknown> = {};
		loop.self = loop;
		expect(shown(loop)).toBe('[object Object]');
	});
});
