/**
 * Each list filter is declared once, as an option of its Filters collection in the editor; the specs that
 * check it and name its API field (`filter[...]`) are read from there by filterSpecsOf. This checks, for
 * every Get Many the node offers and for the trigger, that every option has exactly one spec and every spec
 * an option, with the label, kind and API field expected. Pure: no server.
 */
import type { INodeProperties, INodePropertyOptions, IPollFunctions } from 'n8n-workflow';

import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import * as account from '../../nodes/FileTransferManager/actions/account/Account.resource';
import * as group from '../../nodes/FileTransferManager/actions/group/Group.resource';
import * as job from '../../nodes/FileTransferManager/actions/job/Job.resource';
import * as storage from '../../nodes/FileTransferManager/actions/storage/Storage.resource';
import * as user from '../../nodes/FileTransferManager/actions/user/User.resource';
import { JOB_FILTER_FIELDS, JOB_STATUSES } from '../../nodes/shared/api/types';
import type { FilterKind, FilterSpec } from '../../nodes/shared/input/filters';
import { filterSpecsOf } from '../../nodes/shared/input/filters';
import { FileTransferManagerTrigger } from '../../nodes/FileTransferManagerTrigger/FileTransferManagerTrigger.node';
import { readConfig } from '../../nodes/FileTransferManagerTrigger/config';
import { offeredOperations } from '../harness/operations';
import { NODE, thrown, uuid } from './fixtures';

/** The API field of every filter, by resource and parameter name: a new filter must be named here. */
const EXPECTED_FIELDS: Record<string, Record<string, string>> = {
	account: { name: 'name' },
	group: { accountId: 'accountId', name: 'name' },
	job: {
		accountId: 'accountId',
		dryRun: 'dryRun',
		groupId: 'groupId',
		name: 'name',
		sourceStorageId: 'source.id',
		status: 'status',
		targetStorageId: 'target.id',
		transferType: 'transferType',
		userId: 'userId',
	},
	storage: { enabled: 'enabled', name: 'name', status: 'status', type: 'type' },
	user: { accountId: 'accountId', email: 'email', groupId: 'groupId' },
};

/** The modules whose Get Many the node runs, by resource (the router's resource indexes). */
const RESOURCES: Record<string, Record<string, unknown>> = { account, group, job, storage, user };

const optionValues = (option: INodeProperties): unknown[] =>
	((option.options ?? []) as INodePropertyOptions[]).map((choice) => choice.value);

/** The kind a filter option's type stands for; for options, its values in any order. */
function expectedKind(option: INodeProperties): FilterKind {
	if (option.type === 'boolean') return 'boolean';
	if (option.type === 'string') return 'text';
	if (option.type === 'resourceLocator') return 'id';
	if (option.type === 'options') return { oneOf: optionValues(option) as string[] };
	throw new Error(`"${option.displayName}" is of type ${option.type}, which no filter kind stands for`);
}

const sameKind = (a: FilterKind, b: FilterKind): boolean =>
	typeof a === 'object' && typeof b === 'object'
		? [...a.oneOf].sort().join() === [...b.oneOf].sort().join()
		: a === b;

/**
 * What is wrong between a Filters collection's options and the specs an operation validates and sends them
 * with: an option without a spec (dropped unchecked), a spec without an option or twice, a label, kind or
 * API field other than expected. Empty when they agree.
 */
function problems(options: INodeProperties[], specs: readonly FilterSpec[], fields: Record<string, string>): string[] {
	const found: string[] = [];
	for (const option of options) {
		const matching = specs.filter((spec) => spec.name === option.name);
		if (matching.length !== 1) {
			found.push(`option "${option.name}" has ${matching.length} specs`);
			continue;
		}
		const [spec] = matching;
		if (spec.label !== option.displayName) found.push(`"${option.name}": label "${spec.label}", not "${option.displayName}"`);
		if (!sameKind(spec.kind, expectedKind(option))) found.push(`"${option.name}": kind ${JSON.stringify(spec.kind)}`);
		if (!(option.name in fields)) found.push(`"${option.name}": its API field is not stated in the test`);
		else if (spec.field !== fields[option.name]) {
			found.push(`"${option.name}": API field "${spec.field}", expected "${fields[option.name]}"`);
		}
	}
	for (const spec of specs) {
		if (!options.some((option) => option.name === spec.name)) found.push(`spec "${spec.name}" has no option`);
	}
	for (const name of Object.keys(fields)) {
		if (!options.some((option) => option.name === name)) found.push(`expected filter "${name}" is not offered`);
	}
	return found;
}

const { properties } = new FileTransferManager().description;

/** The Filters collection of a resource's Get Many, as the node's description offers it. */
function filtersOf(resource: string): INodeProperties[] {
	const collections = properties.filter(
		(p) =>
			p.name === 'filters' &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes('getMany'),
	);
	expect(collections).toHaveLength(1);
	expect(collections[0].type).toBe('collection');
	return collections[0].options as INodeProperties[];
}

function specsOf(resource: string): readonly FilterSpec[] {
	const module = RESOURCES[resource]?.getMany as { FILTERS?: readonly FilterSpec[] } | undefined;
	if (!module?.FILTERS) throw new Error(`the Get Many of "${resource}" exports no FILTERS`);
	return module.FILTERS;
}

const getManys = offeredOperations()
	.filter((operation) => operation.operation === 'getMany')
	.map((operation) => operation.resource);

describe('the Filters of every Get Many', () => {
	it('are read for every resource the node lists (and no other)', () => {
		expect([...getManys].sort()).toEqual(Object.keys(EXPECTED_FIELDS).sort());
	});

	it.each(getManys)('%s: every option has exactly one spec and every spec an option, with its API field', (resource) => {
		const options = filtersOf(resource);
		const specs = specsOf(resource);
		expect(problems(options, specs, EXPECTED_FIELDS[resource])).toEqual([]);
		// In the options' order: the first bad filter is the one an error names, and the query keeps that order.
		expect(specs.map((spec) => spec.name)).toEqual(options.map((option) => option.name));
	});

	it('catches a filter that lost its spec, or a spec with the wrong API field', () => {
		const options = filtersOf('job');
		const specs = specsOf('job');
		const withoutStatus = specs.filter((spec) => spec.name !== 'status');
		expect(problems(options, withoutStatus, EXPECTED_FIELDS.job)).toContain('option "status" has 0 specs');
		const wrongField = specs.map((spec) => (spec.name === 'sourceStorageId' ? { ...spec, field: 'sourceStorageId' } : spec));
		expect(problems(options, wrongField, EXPECTED_FIELDS.job)).toContain(
			'"sourceStorageId": API field "sourceStorageId", expected "source.id"',
		);
	});

	it('job filters only on fields the API filters on', () => {
		for (const spec of specsOf('job')) expect(JOB_FILTER_FIELDS).toContain(spec.field);
	});

	it('a refused job Status lists the statuses in the API\'s order, storage Type and Transfer Type in the editor\'s', () => {
		const kind = (resource: string, name: string) => specsOf(resource).find((spec) => spec.name === name)?.kind;
		expect(kind('job', 'status')).toEqual({ oneOf: JOB_STATUSES });
		expect(kind('job', 'transferType')).toEqual({ oneOf: ['copy', 'move', 'sync'] });
		expect(kind('storage', 'type')).toEqual({ oneOf: ['file', 'object-aws'] });
	});
});

// ---------------------------------------------------------------------------------------------------
// The trigger: its Filters are a part of the job filters, and Dry Runs of its own.

const triggerFilters = new FileTransferManagerTrigger().description.properties.find((p) => p.name === 'filters')
	?.options as INodeProperties[];

/** A valid value of each kind of option, as the editor stores it. */
function validValue(option: INodeProperties): unknown {
	if (option.type === 'resourceLocator') return { __rl: true, mode: 'id', value: uuid(0x42) };
	if (option.type === 'boolean') return true;
	if (option.type === 'string') return 'x';
	return optionValues(option).find((value) => value !== 'include');
}

function pollContext(parameters: Record<string, unknown>): IPollFunctions {
	const ctx = {
		getNode: () => NODE,
		getNodeParameter: (name: string, fallback?: unknown) =>
			Object.prototype.hasOwnProperty.call(parameters, name) ? parameters[name] : fallback,
	};
	return ctx as unknown as IPollFunctions;
}

describe('the Filters of the trigger', () => {
	it('sends every option under its API field, Dry Runs among them', () => {
		const filters = Object.fromEntries(triggerFilters.map((option) => [option.name, validValue(option)]));
		const { filterQs } = readConfig(pollContext({ events: ['failed'], filters }));
		const sent = Object.keys(filterQs).map((key) => key.replace(/^filter\[(.*)\]$/, '$1'));
		expect(sent.sort()).toEqual(triggerFilters.map((option) => EXPECTED_FIELDS.job[option.name]).sort());
		expect(filterQs['filter[dryRun]']).toBe('false');
	});

	it('offers each job filter it shares with Job › Get Many under the same label and type', () => {
		const jobOptions = filtersOf('job');
		const shared = triggerFilters.filter((option) => option.name !== 'dryRun');
		for (const option of shared) {
			const same = jobOptions.find((jobOption) => jobOption.name === option.name);
			expect([option.name, same?.displayName, same?.type]).toEqual([option.name, option.displayName, option.type]);
		}
	});

	it('refuses a bad Dry Runs listing include first, as before', () => {
		const error = thrown(() => readConfig(pollContext({ events: ['failed'], filters: { dryRun: true } })));
		expect(error.message).toBe('"Filters → Dry Runs" must be one of "include", "exclude", "only", got true');
	});
});

// ---------------------------------------------------------------------------------------------------
// filterSpecsOf itself.

const option = (name: string, type: INodeProperties['type'], extra: Partial<INodeProperties> = {}): INodeProperties => ({
	displayName: name.toUpperCase(),
	name,
	type,
	default: '',
	...extra,
});

const collection = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	default: {},
	options,
});

describe('filterSpecsOf', () => {
	const choices = { options: [{ name: 'B', value: 'b' }, { name: 'A', value: 'a' }] };

	it('reads name, label, kind and API field from each option', () => {
		const specs = filterSpecsOf(
			collection([option('on', 'boolean'), option('text', 'string'), option('pick', 'resourceLocator'), option('one', 'options', choices)]),
			{ fields: { pick: 'picked.id', absent: 'x' } },
		);
		expect(specs).toEqual([
			{ name: 'on', field: 'on', label: 'ON', kind: 'boolean' },
			{ name: 'text', field: 'text', label: 'TEXT', kind: 'text' },
			{ name: 'pick', field: 'picked.id', label: 'PICK', kind: 'id' },
			{ name: 'one', field: 'one', label: 'ONE', kind: { oneOf: ['b', 'a'] } },
		]);
	});

	it('lists the values of an options filter in the given order, which must hold exactly them', () => {
		const one = collection([option('one', 'options', choices)]);
		expect(filterSpecsOf(one, { order: { one: ['a', 'b'] } })[0].kind).toEqual({ oneOf: ['a', 'b'] });
		expect(() => filterSpecsOf(one, { order: { one: ['a'] } })).toThrow('Filter "ONE" lists its values in an order');
		expect(() => filterSpecsOf(one, { order: { one: ['a', 'c'] } })).toThrow('Filter "ONE" lists its values in an order');
		expect(() => filterSpecsOf(collection([option('text', 'string')]), { order: { text: ['a'] } })).toThrow(
			'Filter "TEXT" has an order of values but no options',
		);
	});

	it('throws for a filter it cannot check, instead of letting it through unchecked', () => {
		expect(() => filterSpecsOf(collection([option('count', 'number', { default: 0 })]))).toThrow(
			'Filter "COUNT" is of type "number", which filterValue cannot check',
		);
		expect(() => filterSpecsOf(collection([option('one', 'options', { options: [] })]))).toThrow(
			'Filter "ONE" must list its values as text',
		);
		expect(() => filterSpecsOf(collection([option('one', 'options', { options: [{ name: 'One', value: 1 }] })]))).toThrow(
			'Filter "ONE" must list its values as text',
		);
	});
});
