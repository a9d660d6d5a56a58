/**
 * The Filters collections of the Get Many operations and the trigger: each filter's spec read from its option
 * in the editor, its value checked, and the `filter[...]` query built from them.
 */
import type { IDataObject, INodeProperties, NodeOperationError } from 'n8n-workflow';

import { isUuid } from '../api/ids';
import type { NodeContext } from '../execution/operationError';
import { itemError } from '../execution/operationError';
import { ID_HINT, locatorValue, shown, toolIdError } from './validate';

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

const KIND_NAMES: Record<'text' | 'id' | 'boolean', string> = {
	text: 'text or a number',
	id: 'a UUID',
	boolean: 'true or false',
};

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
 * followed by the item's number when there is an item (a trigger's poll has none; execution/operationError.ts).
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
		itemError(
			ctx.getNode(),
			`"Filters → ${label}" must be ${expected}, got ${shown(value)}`,
			itemIndex,
			{
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
		throw itemError(ctx.getNode(), `"Filters" must be a collection of filters, got ${shown(filters)}`, itemIndex);
	}
	const given = filters as IDataObject;
	for (const spec of specs) {
		if (!Object.prototype.hasOwnProperty.call(given, spec.name)) continue;
		const value = filterValue(ctx, itemIndex, spec.label, given[spec.name], spec.kind, `filters.${spec.name}`);
		if (value !== undefined) qs[`filter[${spec.field}]`] = value;
	}
	return qs;
}
