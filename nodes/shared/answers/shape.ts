import { NodeOperationError } from 'n8n-workflow';

import type { NodeContext } from '../execution/operationError';
import { itemError } from '../execution/operationError';
import { isUuid } from '../api/ids';
import type { Route } from '../api/routes';
import type { ResourceType } from '../api/types';

/**
 * Shape checks of what the service sends, before the nodes read it: a document that does not have the
 * JSON:API shape of docs/api-contract.md is an error naming what was wrong and which request got it, never a
 * TypeError further down, and never an id that is not a UUID put into the next request's path. The requests
 * that send and check in one step are in checkedRequests.ts.
 */

const NOUNS: Record<ResourceType, [singular: string, plural: string]> = {
	accounts: ['account', 'accounts'],
	groups: ['group', 'groups'],
	users: ['user', 'users'],
	jobs: ['job', 'jobs'],
	'job-transfers': ['job transfer', 'job transfers'],
	'job-errors': ['job error', 'job errors'],
	storages: ['storage', 'storages'],
};

/** Attributes that the nodes read and that must be text, per type. */
const REQUIRED_TEXT: Partial<Record<ResourceType, readonly string[]>> = {
	jobs: ['status'],
};

/** A value in a few words, for messages: `null`, `missing`, `an array`, `a number (5)`. */
export function describeValue(value: unknown): string {
	if (value === undefined) return 'missing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	const text = JSON.stringify(value) ?? String(value);
	const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
	return `${typeof value === 'number' ? 'a number' : `a ${typeof value}`} (${shown})`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The error for a malformed answer: what was wrong, which request, which item. */
export function malformedAnswer(
	ctx: NodeContext,
	what: string,
	route: Route,
	itemIndex?: number,
): NodeOperationError {
	return itemError(ctx.getNode(), `The service sent ${what} (${route.method} ${route.path})`, itemIndex, {
		description:
			'The answer does not have the shape the API defines (JSON:API, see docs/api-contract.md), so nothing was read from it. Check the Base URL of the credential; if it is right, the service is at fault.',
	});
}

export interface ResourceCheck {
	route: Route;
	itemIndex?: number;
	/** Where the record sits in the document, for messages: `data` (default) or `data[3]`. */
	pointer?: string;
	/** For records of lists the transport pages: their position in the whole list, from 1. */
	listPosition?: number;
}

/**
 * Checks one resource object: a plain object with a string `type`, a UUID `id` (job-transfers have
 * none) and plain-object `attributes`. Returns it typed; throws a NodeOperationError otherwise.
 */
function checkResource<T>(ctx: NodeContext, value: unknown, type: ResourceType, check: ResourceCheck): T {
	// The common case first, without building anything: every record of every page passes here.
	if (
		isPlainObject(value) &&
		(type === 'job-transfers' || isUuid(value.id)) &&
		typeof value.type === 'string' &&
		isPlainObject(value.attributes) &&
		(REQUIRED_TEXT[type] ?? []).every((field) => typeof (value.attributes as Record<string, unknown>)[field] === 'string')
	) {
		return value as T;
	}
	const [noun] = NOUNS[type];
	const pointer = check.pointer ?? 'data';
	// `"data[3].id"`, or `"id" of list record 4` for records of pages the transport reads.
	const at = (path: string) =>
		check.listPosition === undefined
			? `"${[pointer, path].filter(Boolean).join('.')}"`
			: `${path ? `"${path}" of ` : ''}list record ${check.listPosition}`;
	const fail = (what: string) => malformedAnswer(ctx, what, check.route, check.itemIndex);
	if (!isPlainObject(value)) {
		throw fail(`no ${noun}: ${at('')} is ${describeValue(value)}, not a resource object`);
	}
	if (type !== 'job-transfers' && !isUuid(value.id)) {
		throw fail(`a ${noun} without a valid id: ${at('id')} is ${describeValue(value.id)}, not a UUID`);
	}
	if (typeof value.type !== 'string') {
		throw fail(`a ${noun} without a type: ${at('type')} is ${describeValue(value.type)}`);
	}
	if (!isPlainObject(value.attributes)) {
		throw fail(`a ${noun} without attributes: ${at('attributes')} is ${describeValue(value.attributes)}`);
	}
	for (const field of REQUIRED_TEXT[type] ?? []) {
		const attribute = value.attributes[field];
		if (typeof attribute !== 'string') {
			throw fail(`a ${noun} without a ${field}: ${at(`attributes.${field}`)} is ${describeValue(attribute)}`);
		}
	}
	return value as T;
}

/** Checks a single-resource document (`{"data": {...}}`) and returns its resource. */
export function checkDocument<T>(ctx: NodeContext, document: unknown, type: ResourceType, check: ResourceCheck): T {
	if (!isPlainObject(document)) {
		throw malformedAnswer(
			ctx,
			`no ${NOUNS[type][0]}: the answer is ${describeValue(document)}, not a JSON:API document`,
			check.route,
			check.itemIndex,
		);
	}
	return checkResource<T>(ctx, document.data, type, { ...check, pointer: 'data' });
}

export interface CheckedPage<T> {
	data: T[];
	/** `meta.page.after`: the next page's cursor, null on the last page, undefined when the service gives none. */
	after: string | null | undefined;
	/** `links.next`: the next page's absolute URL, null on the last page, undefined when the service gives none. */
	nextUrl: string | null | undefined;
	/** `meta.page.total`, when it is a number. */
	total?: number;
}

/**
 * Checks a list document: `data` an array of resources; `meta.page`, when given, an object whose
 * `after` is a cursor string or null (missing counts as null); `links.next`, when given, a URL string or
 * null; and every record as in checkResource. Which of them leads to the next page is the transport's
 * `nextPageOf`.
 */
export function checkList<T>(
	ctx: NodeContext,
	document: unknown,
	type: ResourceType,
	check: Omit<ResourceCheck, 'pointer'>,
): CheckedPage<T> {
	const plural = NOUNS[type][1];
	const fail = (what: string) => malformedAnswer(ctx, `a malformed list of ${plural}: ${what}`, check.route, check.itemIndex);
	if (!isPlainObject(document)) throw fail(`the answer is ${describeValue(document)}, not a JSON:API document`);
	if (!Array.isArray(document.data)) throw fail(`"data" is ${describeValue(document.data)}, not an array`);
	const meta = document.meta;
	if (meta !== undefined && !isPlainObject(meta)) throw fail(`"meta" is ${describeValue(meta)}, not an object`);
	const page = isPlainObject(meta) ? meta.page : undefined;
	if (page !== undefined && !isPlainObject(page)) throw fail(`"meta.page" is ${describeValue(page)}, not an object`);
	const after = isPlainObject(page) ? page.after : undefined;
	if (after !== null && after !== undefined && (typeof after !== 'string' || after === '')) {
		throw fail(`"meta.page.after" is ${describeValue(after)}, not a cursor string or null`);
	}
	const links = document.links;
	const next = isPlainObject(links) ? links.next : undefined;
	if (next !== null && next !== undefined && (typeof next !== 'string' || next === '')) {
		throw fail(`"links.next" is ${describeValue(next)}, not a URL or null`);
	}
	const data = document.data.map((record, index) =>
		checkResource<T>(ctx, record, type, { ...check, pointer: `data[${index}]` }),
	);
	const total = isPlainObject(page) && typeof page.total === 'number' ? page.total : undefined;
	// Absent and null differ: null says "last page", absent says nothing (see the transport's nextPageOf).
	return { data, after, nextUrl: next, ...(total === undefined ? {} : { total }) };
}

/**
 * A record check for lists paged by the transport (which checks `data` and `meta.page` itself): counts
 * the records so that a message names which one was malformed.
 */
export function recordChecker<T>(
	ctx: NodeContext,
	type: ResourceType,
	check: Omit<ResourceCheck, 'pointer'>,
): (record: unknown) => T {
	let position = 0;
	return (record) => {
		position += 1;
		return checkResource<T>(ctx, record, type, { ...check, listPosition: position });
	};
}
