import { createHmac, randomBytes } from 'node:crypto';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../nodes/shared/api/types';
import { apiError } from './errors';
import { isObject } from './util';

/** Reads one field of a record as a comparable primitive (string, number, boolean or null). */
export type Getter<T> = (item: T) => unknown;

/** What a collection lets clients filter and sort on. */
export interface CollectionSpec<T> {
	/** Binds cursors to their collection, e.g. 'jobs'. */
	name: string;
	filters: Record<string, Getter<T>>;
	sorts: Record<string, Getter<T>>;
	id: (item: T) => string;
}

interface SortTerm<T> {
	field: string;
	get: Getter<T>;
	desc: boolean;
}

export interface ListQuery<T> {
	filters: { field: string; get: Getter<T>; value: string }[];
	sort: SortTerm<T>[];
	sortText: string;
	limit: number;
	after: { values: unknown[]; id: string } | null;
}

export interface Page<T> {
	data: T[];
	total: number;
	after: string | null;
}

/** Normalises a field value for comparison: money objects compare by amount. */
function comparable(value: unknown): unknown {
	if (value === undefined) return null;
	if (isObject(value) && typeof value.amount === 'string') return Number(value.amount);
	return value;
}

/** Getter for `id` or an attribute path with dots, e.g. `stats.startedAt`, on a JSON:API resource. */
function resourceGetter(path: string): Getter<{ id: string; attributes: object }> {
	if (path === 'id') return (r) => r.id;
	const parts = path.split('.');
	if (parts.length === 1) {
		const [a] = parts;
		return (r) => comparable((r.attributes as Record<string, unknown>)[a]);
	}
	if (parts.length === 2) {
		const [a, b] = parts;
		return (r) => {
			const inner = (r.attributes as Record<string, unknown>)[a];
			return isObject(inner) ? comparable(inner[b]) : null;
		};
	}
	return (r) => {
		let value: unknown = r.attributes;
		for (const part of parts) {
			if (!isObject(value)) return null;
			value = value[part];
		}
		return comparable(value);
	};
}

/** Builds a spec for JSON:API resources from lists of field paths. */
export function resourceSpec<T extends { id: string; attributes: object }>(
	name: string,
	filterFields: readonly string[],
	sortFields: readonly string[],
	overrides: Record<string, Getter<T>> = {},
): CollectionSpec<T> {
	const getter = (field: string): Getter<T> => overrides[field] ?? (resourceGetter(field) as Getter<T>);
	return {
		name,
		filters: Object.fromEntries(filterFields.map((f) => [f, getter(f)])),
		sorts: Object.fromEntries(sortFields.map((f) => [f, getter(f)])),
		id: (item) => item.id,
	};
}

/** Issues and checks opaque cursors; a cursor the server did not sign is rejected. */
export class CursorCodec {
	/** The signing key: random per server, or kept in the data folder so that cursors outlive a restart. */
	constructor(private readonly key: Buffer = randomBytes(32)) {}

	encode(payload: unknown): string {
		const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
		return `${body}.${this.sign(body)}`;
	}

	/** Returns the payload, or undefined when the cursor was not issued by this server. */
	decode(cursor: string): unknown {
		const dot = cursor.lastIndexOf('.');
		if (dot < 1) return undefined;
		const body = cursor.slice(0, dot);
		if (this.sign(body) !== cursor.slice(dot + 1)) return undefined;
		try {
			return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
		} catch {
			return undefined;
		}
	}

	private sign(body: string): string {
		return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
	}
}

const invalidPage = (detail: string) => apiError(400, 'invalid-page', detail);

/** Reads page[limit] (default 20, 1..100) and page[after]; other page[...] keys are refused. */
function parsePage(params: URLSearchParams): { limit: number; after: string | null } {
	let limit = PAGE_LIMIT_DEFAULT;
	let after: string | null = null;
	for (const [key, value] of params) {
		if (!key.startsWith('page')) continue;
		if (key === 'page[limit]') {
			if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > PAGE_LIMIT_MAX) {
				throw invalidPage(`page[limit] must be an integer from 1 to ${PAGE_LIMIT_MAX}.`);
			}
			limit = Number(value);
		} else if (key === 'page[after]') {
			after = value;
		} else {
			throw invalidPage(`Unknown page parameter "${key}"; use page[limit] and page[after].`);
		}
	}
	return { limit, after };
}

function checkNoFilterOrSort(params: URLSearchParams): void {
	for (const key of params.keys()) {
		if (key === 'filter' || key.startsWith('filter[')) {
			throw apiError(400, 'invalid-filter', 'This list accepts no filter, only page.');
		}
		if (key === 'sort') throw apiError(400, 'invalid-sort', 'This list accepts no sort, only page.');
	}
}

/** Parses filter, sort and page of a collection request (the API contract, "Collections"). */
export function parseListQuery<T>(
	params: URLSearchParams,
	spec: CollectionSpec<T>,
	cursors: CursorCodec,
): ListQuery<T> {
	const filters: ListQuery<T>['filters'] = [];
	let sort: SortTerm<T>[] = [];
	let sortText = '';
	for (const [key, value] of params) {
		if (key === 'filter' || key.startsWith('filter[')) {
			const match = /^filter\[([^\]]+)\]$/.exec(key);
			const get = match ? spec.filters[match[1]] : undefined;
			if (!match || !get) {
				throw apiError(400, 'invalid-filter', `Unknown filter field "${match ? match[1] : key}".`);
			}
			filters.push({ field: match[1], get, value });
		} else if (key === 'sort') {
			sort = value.split(',').map((term) => {
				const desc = term.startsWith('-');
				const field = desc ? term.slice(1) : term;
				const get = spec.sorts[field];
				if (!get) throw apiError(400, 'invalid-sort', `Unknown sort field "${field}".`);
				return { field, get, desc };
			});
			sortText = sort.map((t) => (t.desc ? '-' : '') + t.field).join(',');
		}
	}
	const { limit, after: cursor } = parsePage(params);
	let after: ListQuery<T>['after'] = null;
	if (cursor !== null) {
		const payload = cursors.decode(cursor);
		if (
			!isObject(payload) ||
			payload.c !== spec.name ||
			payload.s !== sortText ||
			!Array.isArray(payload.v) ||
			payload.v.length !== sort.length ||
			typeof payload.i !== 'string'
		) {
			throw invalidPage('page[after] is not a cursor this server issued for this collection and sort.');
		}
		after = { values: payload.v, id: payload.i };
	}
	return { filters, sort, sortText, limit, after };
}

function compareValues(a: unknown, b: unknown, desc: boolean): number {
	const aNull = a === null || a === undefined;
	const bNull = b === null || b === undefined;
	// Nulls sort last in either direction (the API contract).
	if (aNull || bNull) return aNull === bNull ? 0 : aNull ? 1 : -1;
	const result = (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
	return desc ? -result : result;
}

const filterText = (value: unknown): string =>
	value === null || value === undefined ? 'null' : typeof value === 'string' ? value : String(value);

/**
 * Filters, sorts and pages a collection in one pass: only the best `limit` records after the cursor
 * are kept and sorted, so a page from 100,000 records costs one linear scan.
 */
export function selectPage<T>(
	items: Iterable<T>,
	query: ListQuery<T>,
	spec: CollectionSpec<T>,
	cursors: CursorCodec,
): Page<T> {
	const { filters, sort, limit, after } = query;
	const idOf = spec.id;
	const compare = (a: T, b: T): number => {
		for (const term of sort) {
			const r = compareValues(term.get(a), term.get(b), term.desc);
			if (r !== 0) return r;
		}
		const ia = idOf(a);
		const ib = idOf(b);
		return ia < ib ? -1 : ia > ib ? 1 : 0;
	};
	const isAfterCursor = (item: T): boolean => {
		if (!after) return true;
		for (let i = 0; i < sort.length; i++) {
			const r = compareValues(sort[i].get(item), after.values[i], sort[i].desc);
			if (r !== 0) return r > 0;
		}
		return idOf(item) > after.id;
	};
	const cap = Math.max(limit * 4, 512);
	let buffer: T[] = [];
	let worst: T | undefined;
	let total = 0;
	let remaining = 0;
	outer: for (const item of items) {
		for (const f of filters) {
			if (filterText(f.get(item)) !== f.value) continue outer;
		}
		total++;
		if (!isAfterCursor(item)) continue;
		remaining++;
		if (worst !== undefined && compare(item, worst) >= 0) continue;
		buffer.push(item);
		if (buffer.length >= cap) {
			buffer.sort(compare);
			buffer = buffer.slice(0, limit);
			worst = buffer[limit - 1];
		}
	}
	buffer.sort(compare);
	const data = buffer.slice(0, limit);
	let cursor: string | null = null;
	if (remaining > limit && data.length > 0) {
		const last = data[data.length - 1];
		cursor = cursors.encode({
			c: spec.name,
			s: query.sortText,
			v: sort.map((t) => t.get(last) ?? null),
			i: idOf(last),
		});
	}
	return { data, total, after: cursor };
}

/** Pages a plain list (job-transfers, job-errors) by position; only page[...] is accepted. */
export function selectOffsetPage<T>(
	items: T[],
	params: URLSearchParams,
	name: string,
	cursors: CursorCodec,
): Page<T> {
	checkNoFilterOrSort(params);
	const { limit, after } = parsePage(params);
	let offset = 0;
	if (after !== null) {
		const payload = cursors.decode(after);
		if (!isObject(payload) || payload.c !== name || typeof payload.o !== 'number') {
			throw invalidPage('page[after] is not a cursor this server issued for this list.');
		}
		offset = payload.o;
	}
	const data = items.slice(offset, offset + limit);
	const next = offset + limit < items.length ? cursors.encode({ c: name, o: offset + limit }) : null;
	return { data, total: items.length, after: next };
}
