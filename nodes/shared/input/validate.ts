/**
 * The checks of single input fields, made before any request: each refusal is an input error that names the
 * field and the item (docs/operations.md). The Sort panel is in sort.ts, the Filters collections in filters.ts.
 */
import type { IExecuteFunctions, NodeOperationError } from 'n8n-workflow';

import { isUuid } from '../api/ids';
import type { NodeContext } from '../execution/operationError';
import { itemError, operationError } from '../execution/operationError';
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
	return itemError(ctx.getNode(), `${field} ${problem}`, itemIndex, { description });
}

/** What an ID must look like, and where to get one: the description of a refused ID. */
export const ID_HINT =
	'IDs of this API look like 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10. Pick the record from the list, or map an ID field.';

/**
 * In tool use, the input error of an ID parameter worded for a model (execution/toolUse.ts): the parameter
 * by the name the model knows, what it must be, what it got and where to find one. Undefined outside tool
 * use, or for a field that is no record's ID.
 */
export function toolIdError(
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
		ID_HINT,
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

/** Limit of a Get Many: undefined when Return All is on, else a whole number of at least 1. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = requireBoolean(ctx, itemIndex, 'Return All', ctx.getNodeParameter('returnAll', itemIndex, false));
	if (returnAll) return undefined;
	return requirePositiveInteger(ctx, itemIndex, 'Limit', ctx.getNodeParameter('limit', itemIndex, 50));
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
