import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeProperties,
	INodePropertyOptions,
	NodeOperationError,
} from 'n8n-workflow';

import { isUuid } from '../api/ids';
import { operationError } from '../execution/operationError';
import type { RecordKind } from '../execution/toolUse';
import { isToolUse, recordKindOf, toolIdProblem } from '../execution/toolUse';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An input error, raised before any request: names the field and the item. */
export function invalidInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
	description?: string,
): NodeOperationError {
	return operationError(ctx.getNode(), `${field} ${problem} [item ${itemIndex}]`, {
		itemIndex,
		description,
	});
}

/**
 * In tool use, the input error of an ID parameter worded for a model (execution/toolUse.ts): the parameter
 * by the name the model knows, what it must be, what it got and where to find one. Undefined outside tool
 * use, or for a field that is no record's ID.
 */
function toolIdError(
	ctx: NodeContext,
	itemIndex: number | undefined,
	parameter: string | undefined,
	value: unknown,
	kind?: RecordKind,
): NodeOperationError | undefined {
	const node = ctx.getNode();
	if (parameter === undefined || !isToolUse(node)) return undefined;
	const recordKind = kind ?? recordKindOf(parameter);
	if (recordKind === undefined) return undefined;
	return operationError(node, toolIdProblem(node, parameter, recordKind, value), itemIndex === undefined ? {} : { itemIndex });
}

/**
 * Returns the value as a UUID string, or throws an input error naming the field. `parameter` (its path,
 * e.g. `jobId`, `additionalFields.groupId`) and `kind` word the error for a model in tool use.
 */
export function requireUuid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	parameter?: string,
	kind?: RecordKind,
): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (isUuid(text)) return text;
	const forTool = toolIdError(ctx, itemIndex, parameter, value, kind);
	if (forTool) throw forTool;
	if (text === '' || text === undefined || text === null) {
		throw invalidInput(ctx, itemIndex, `"${field}"`, 'is required');
	}
	throw invalidInput(
		ctx,
		itemIndex,
		`"${field}"`,
		`must be a UUID, got ${JSON.stringify(text)}`,
		'IDs of this API look like 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10. Pick the record from the list, or map an ID field.',
	);
}

/** Like requireUuid, but an empty value gives undefined. */
export function optionalUuid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	parameter?: string,
): string | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		return undefined;
	}
	return requireUuid(ctx, itemIndex, field, value, parameter);
}

export function requireEmail(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (text === '') throw invalidInput(ctx, itemIndex, `"${field}"`, 'is required');
	if (!EMAIL.test(text)) {
		throw invalidInput(ctx, itemIndex, `"${field}"`, `must be an e-mail address, got ${JSON.stringify(value)}`);
	}
	return text;
}

export function requireNonEmpty(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw invalidInput(ctx, itemIndex, `"${field}"`, 'is required and must be text');
	}
	return value.trim();
}

/** A whole number >= 1. */
export function requirePositiveInteger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
		throw invalidInput(ctx, itemIndex, `"${field}"`, `must be a whole number of at least 1, got ${JSON.stringify(value)}`);
	}
	return number;
}

/** One of the allowed values. */
export function requireOneOf<T extends string>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	allowed: readonly T[],
): T {
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		throw invalidInput(
			ctx,
			itemIndex,
			`"${field}"`,
			`must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${JSON.stringify(value)}`,
		);
	}
	return value as T;
}

/** The plain value of a resource locator read as part of a collection (`{ __rl, mode, value }` or a string). */
export function locatorValue(value: unknown): unknown {
	if (value !== null && typeof value === 'object' && 'value' in value) {
		return (value as { value: unknown }).value;
	}
	return value;
}

/**
 * Reads a resource locator parameter (top level or inside a collection) and requires a UUID. `kind` says
 * which record it names where its name does not (a dry run's `jobId`).
 */
export function requireLocatorId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	kind?: RecordKind,
): string {
	return requireUuid(ctx, itemIndex, field, locatorValue(ctx.getNodeParameter(name, itemIndex, '')), name, kind);
}

/** true or false, also from an expression that gives the text "true" or "false". */
export function requireBoolean(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): boolean {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	throw invalidInput(ctx, itemIndex, `"${field}"`, `must be true or false, got ${JSON.stringify(value)}`);
}

const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/**
 * An IANA time-zone name (e.g. Europe/Berlin), checked with Intl where the runtime has it. A name that
 * differs from the canonical one only in letter case comes back in canonical case.
 */
export function requireTimeZone(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	const hint = 'Use an IANA time-zone name such as Europe/Berlin, America/New_York or UTC.';
	if (text === '') throw invalidInput(ctx, itemIndex, `"${field}"`, 'is empty', hint);
	if (!TIME_ZONE_NAME.test(text)) {
		throw invalidInput(ctx, itemIndex, `"${field}"`, `is not a time-zone name: ${JSON.stringify(value)}`, hint);
	}
	if (typeof Intl === 'undefined' || typeof Intl.DateTimeFormat !== 'function') return text;
	let resolved: string | undefined;
	try {
		resolved = new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
	} catch {
		throw invalidInput(ctx, itemIndex, `"${field}"`, `is not a known time zone: ${JSON.stringify(text)}`, hint);
	}
	return resolved && resolved.toLowerCase() === text.toLowerCase() ? resolved : text;
}

const SORT_DIRECTIONS = ['ascending', 'descending'] as const;

/** The Sort fixedCollection of a Get Many (read with sortParameter); `fields` are API field names. */
export function sortCollection(fields: INodePropertyOptions[], defaultField: string): INodeProperties {
	return {
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		placeholder: 'Add Sort Rule',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'Order of the results; each further rule breaks ties of the ones before it',
		options: [
			{
				displayName: 'Rules',
				name: 'rules',
				values: [
					{
						displayName: 'Field',
						name: 'field',
						type: 'options',
						options: fields,
						default: defaultField,
						description: 'Field to sort by',
					},
					{
						displayName: 'Direction',
						name: 'direction',
						type: 'options',
						options: [
							{ name: 'Ascending', value: 'ascending' },
							{ name: 'Descending', value: 'descending' },
						],
						default: 'ascending',
						description: 'Whether to sort from lowest to highest or the reverse',
					},
				],
			},
		],
	};
}

/**
 * The API's `sort` parameter from a Sort fixedCollection (`{ rules: [{ field, direction }] }`), every
 * field and direction checked; undefined when no rule is set.
 */
export function sortParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	fields: readonly string[],
): string | undefined {
	const raw = value !== null && typeof value === 'object' ? (value as { rules?: unknown }).rules : undefined;
	const rules = Array.isArray(raw) ? raw : raw ? [raw] : [];
	if (rules.length === 0) return undefined;
	return rules
		.map((rule: { field?: unknown; direction?: unknown }) => {
			const field = requireOneOf(ctx, itemIndex, 'Sort › Field', rule?.field, fields);
			const direction = requireOneOf(
				ctx,
				itemIndex,
				'Sort › Direction',
				rule?.direction ?? 'ascending',
				SORT_DIRECTIONS,
			);
			return direction === 'descending' ? `-${field}` : field;
		})
		.join(',');
}

/** Limit of a Get Many: undefined when Return All is on, else a whole number of at least 1. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = requireBoolean(ctx, itemIndex, 'Return All', ctx.getNodeParameter('returnAll', itemIndex, false));
	if (returnAll) return undefined;
	return requirePositiveInteger(ctx, itemIndex, 'Limit', ctx.getNodeParameter('limit', itemIndex, 50));
}

/** What a filter takes: free text, a record's ID (a picker), true/false, or one of listed values. */
export type FilterKind = 'text' | 'id' | 'boolean' | { oneOf: readonly string[] };

/** One filter of a Filters collection: its parameter name, the API field and the label errors show. */
export interface FilterSpec {
	name: string;
	field: string;
	label: string;
	kind: FilterKind;
}

/** What filterSpecsOf cannot read from the options of a Filters collection. */
export interface FilterApi {
	/** The API field of each filter whose parameter name is not the field's name (sourceStorageId → source.id). */
	fields?: Readonly<Record<string, string>>;
	/** The order a refusal lists an options filter's values in, where it is not the editor's: the same values. */
	order?: Readonly<Record<string, readonly string[]>>;
}

/** The kind of value a filter option takes, from its type; a type the filters cannot check throws. */
function filterKindOf(option: INodeProperties, order: readonly string[] | undefined): FilterKind {
	const problem = (text: string) => new Error(`Filter "${option.displayName}" ${text}`);
	if (order !== undefined && option.type !== 'options') throw problem('has an order of values but no options');
	if (option.type === 'boolean') return 'boolean';
	if (option.type === 'string') return 'text';
	if (option.type === 'resourceLocator') return 'id';
	if (option.type !== 'options') throw problem(`is of type "${option.type}", which filterValue cannot check`);
	const values = (option.options ?? []).map((choice) => ('value' in choice ? choice.value : undefined));
	if (values.length === 0 || !values.every((value) => typeof value === 'string')) {
		throw problem('must list its values as text');
	}
	if (order === undefined) return { oneOf: values as string[] };
	if (order.length !== values.length || !values.every((value) => order.includes(value as string))) {
		throw problem(`lists its values in an order that does not hold exactly them: ${order.join(', ')}`);
	}
	return { oneOf: order };
}

/**
 * The specs of a Filters collection, read from its options, so that each filter is declared once, for
 * the editor: name, label (its display name), kind (boolean → true or false, options → one of its values,
 * string → text, resourceLocator → a record's ID) and API field (its name unless `api.fields` says
 * otherwise). An option of any other type throws when the module loads, rather than be sent unchecked.
 */
export function filterSpecsOf(collection: INodeProperties, api: FilterApi = {}): FilterSpec[] {
	return (collection.options ?? []).map((option) => {
		if (!('type' in option)) throw new Error(`"${collection.displayName}" holds "${option.name}", which is no parameter`);
		return {
			name: option.name,
			field: api.fields?.[option.name] ?? option.name,
			label: option.displayName,
			kind: filterKindOf(option, api.order?.[option.name]),
		};
	});
}

/** Any context that knows its node: an action's execute, a trigger's poll. */
interface NodeContext {
	getNode(): INode;
}

const SHOWN_MAX = 80;

/** A value as an error message quotes it: JSON, with undefined, NaN and Infinity by name, cut when long. */
export function shown(value: unknown): string {
	let text: string;
	if (value === undefined) text = 'undefined';
	else if (typeof value === 'number' && !Number.isFinite(value)) text = String(value);
	else {
		try {
			text = JSON.stringify(value) ?? String(value);
		} catch {
			text = String(value);
		}
	}
	return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text;
}

const KIND_NAMES: Record<'text' | 'id' | 'boolean', string> = {
	text: 'text or a number',
	id: 'a UUID',
	boolean: 'true or false',
};

const ID_HINT =
	'IDs of this API look like 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10. Pick the record from the list, or map an ID field.';
const EMPTY_HINT =
	'An expression gave no value. To leave the filter out, remove it from Filters or make the expression give an empty text.';

/**
 * One filter value as the API expects it, or undefined when the filter is left out; anything else is
 * refused before any request, so a filter is never silently dropped (which would widen the list).
 *
 * - text: a string is trimmed and sent; an empty one (also only spaces) leaves the filter out, as the editor
 *   does for a filter added but not filled in. A finite number is sent as its decimal text (`123`, `1.5`).
 * - id (a picker or a mapped ID): a trimmed UUID; empty leaves the filter out.
 * - boolean: true, false, "true" or "false".
 * - oneOf: exactly one of the listed values.
 *
 * Everything else is refused: booleans and numbers where they do not fit, arrays, objects, null and
 * undefined (an expression that found nothing), with `"Filters → <label>" must be …, got <value>`,
 * followed by ` [item N]` when there is an item (a trigger's poll has none).
 */
export function filterValue(
	ctx: NodeContext,
	itemIndex: number | undefined,
	label: string,
	raw: unknown,
	kind: FilterKind,
	parameter?: string,
): string | undefined {
	const value = kind === 'id' ? locatorValue(raw) : raw;
	const refuse = (expected: string, description?: string): NodeOperationError =>
		(kind === 'id' ? toolIdError(ctx, itemIndex, parameter, value) : undefined) ??
		operationError(
			ctx.getNode(),
			`"Filters → ${label}" must be ${expected}, got ${shown(value)}${itemIndex === undefined ? '' : ` [item ${itemIndex}]`}`,
			{
				itemIndex,
				description: description ?? (value === null || value === undefined ? EMPTY_HINT : undefined),
			},
		);
	if (typeof kind === 'object') {
		if (typeof value === 'string' && kind.oneOf.includes(value)) return value;
		throw refuse(`one of ${kind.oneOf.map((option) => `"${option}"`).join(', ')}`);
	}
	if (kind === 'boolean') {
		if (typeof value === 'boolean') return String(value);
		if (value === 'true' || value === 'false') return value;
		throw refuse(KIND_NAMES.boolean);
	}
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return undefined;
		if (kind === 'id' && !isUuid(text)) throw refuse(KIND_NAMES.id, ID_HINT);
		return text;
	}
	// Exponent notation (1e+21) is not how anyone writes a name or a code; such numbers are refused too.
	if (kind === 'text' && typeof value === 'number' && Number.isFinite(value) && !/e/i.test(String(value))) {
		return String(value);
	}
	throw refuse(KIND_NAMES[kind], kind === 'id' && value !== null && value !== undefined ? ID_HINT : undefined);
}

/**
 * The `filter[...]` query of a Filters collection: every filter the collection holds, read with
 * filterValue. A filter that is not in the collection is left out; one that is, is sent or refused.
 */
export function filterQuery(
	ctx: NodeContext,
	itemIndex: number | undefined,
	filters: unknown,
	specs: readonly FilterSpec[],
): IDataObject {
	const qs: IDataObject = {};
	if (filters === undefined || filters === null) return qs;
	if (typeof filters !== 'object' || Array.isArray(filters)) {
		throw operationError(
			ctx.getNode(),
			`"Filters" must be a collection of filters, got ${shown(filters)}${itemIndex === undefined ? '' : ` [item ${itemIndex}]`}`,
			{ itemIndex },
		);
	}
	const given = filters as IDataObject;
	for (const spec of specs) {
		if (!Object.prototype.hasOwnProperty.call(given, spec.name)) continue;
		const value = filterValue(ctx, itemIndex, spec.label, given[spec.name], spec.kind, `filters.${spec.name}`);
		if (value !== undefined) qs[`filter[${spec.field}]`] = value;
	}
	return qs;
}

/**
 * Longest name (groups, jobs) the nodes send. The API description states no maximum; names are also
 * sent as `filter[name]` in the lookup before a create, and a query string of tens of thousands of
 * characters is refused by servers and proxies (the connection is reset). 1,000 characters stay below
 * common URL limits even fully percent-encoded.
 */
export const MAX_NAME_LENGTH = 1000;

/** Longest e-mail address (RFC 5321: 254 characters); also sent as `filter[email]` before a create. */
export const MAX_EMAIL_LENGTH = 254;

/** The text unchanged, or an input error when it is longer than `max` characters (code points). */
export function requireMaxLength(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: string,
	max: number,
): string {
	const length = [...value].length;
	if (length > max) {
		throw invalidInput(
			ctx,
			itemIndex,
			`"${field}"`,
			`must be at most ${max.toLocaleString('en-US')} characters long, got ${length.toLocaleString('en-US')}`,
		);
	}
	return value;
}
