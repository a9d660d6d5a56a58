/**
 * What a list must honour, re-checked on every record the service sends: each `filter[...]` it was asked
 * for, and the `sort` order. A deployment that ignores either (it differs from the API contract) would
 * otherwise give a silently wrong result: records the user filtered out, or "newest first" that is not.
 */
import type { IDataObject } from 'n8n-workflow';

import type { NodeContext } from '../execution/operationError';
import { itemError } from '../execution/operationError';

interface ListedRecord {
	id?: unknown;
	attributes?: unknown;
}

/** Filters whose attribute the API does not return (storages' `enabled`): they cannot be re-checked. */
const UNSEEN_FILTERS = new Set(['enabled']);

function valueAt(record: ListedRecord, path: string): unknown {
	if (path === 'id') return record.id;
	let current: unknown = record.attributes;
	for (const part of path.split('.')) {
		if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
		current = (current as IDataObject)[part];
	}
	return current;
}

const DEVIATION_HINT =
	'Your deployment differs from the API contract (docs/api-contract.md): run API › Check Compatibility to see what it honours.';

/**
 * A check for each listed record: every `filter[<field>]` of `qs` matches the record's attribute exactly
 * (`id` is the record's id; dotted fields go into nested attributes; a missing `dryRun` is false).
 */
export function filterChecker(ctx: NodeContext, qs: IDataObject, itemIndex?: number): (record: ListedRecord) => void {
	const wanted = Object.entries(qs)
		.map(([key, value]) => ({ key, field: /^filter\[(.+)\]$/.exec(key)?.[1], value: String(value) }))
		.filter((filter): filter is { key: string; field: string; value: string } => filter.field !== undefined && !UNSEEN_FILTERS.has(filter.field));
	return (record) => {
		for (const { key, field, value } of wanted) {
			let actual = valueAt(record, field);
			if (field === 'dryRun' && actual === undefined) actual = false;
			if (actual !== undefined && actual !== null && typeof actual !== 'object' && String(actual) === value) continue;
			throw itemError(
				ctx.getNode(),
				`The service ignored the filter ${key}=${value}: it listed ${String(record.id)} with ${field} ${JSON.stringify(actual ?? null)}`,
				itemIndex,
				{
					description: `Every listed record is checked against the filters asked for, so that no record you filtered out passes for a match. Nothing was returned. ${DEVIATION_HINT} If it cannot filter on this field, leave the filter out and filter in the workflow (e.g. with a Filter node).`,
				},
			);
		}
	};
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function compareValues(a: unknown, b: unknown): number {
	const aNull = a === null || a === undefined;
	const bNull = b === null || b === undefined;
	// Nulls sort last in either direction (the API contract), so they compare outside the direction.
	if (aNull || bNull) return 0;
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	// Timestamps compare as times, whatever their precision or zone notation.
	if (typeof a === 'string' && typeof b === 'string' && ISO_TIME.test(a) && ISO_TIME.test(b)) {
		return Date.parse(a) - Date.parse(b);
	}
	const x = String(a);
	const y = String(b);
	return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A check for each listed record, in the order listed: the records follow `sort` (`a,-b,stats.startedAt`).
 * Ties on every key may come in any order; nulls come last in either direction.
 */
export function orderChecker(ctx: NodeContext, sort: string, itemIndex?: number): (record: ListedRecord) => void {
	const terms = sort
		.split(',')
		.map((term) => term.trim())
		.filter((term) => term !== '')
		.map((term) => (term.startsWith('-') ? { field: term.slice(1), desc: true } : { field: term, desc: false }));
	let previous: ListedRecord | undefined;
	return (record) => {
		if (previous && terms.length > 0) {
			for (const term of terms) {
				const a = valueAt(previous, term.field);
				const b = valueAt(record, term.field);
				const aNull = a === null || a === undefined;
				const bNull = b === null || b === undefined;
				let order: number;
				if (aNull || bNull) order = aNull === bNull ? 0 : aNull ? 1 : -1;
				else order = term.desc ? -compareValues(a, b) : compareValues(a, b);
				if (order < 0) break;
				if (order > 0) {
					throw itemError(
						ctx.getNode(),
						`The service ignored sort=${sort}: ${String(record.id)} (${term.field} ${JSON.stringify(b ?? null)}) came after ${String(previous.id)} (${term.field} ${JSON.stringify(a ?? null)})`,
						itemIndex,
						{
							description: `Every list asked for in an order is checked to come in that order. Nothing was returned, so that no unordered list passes for an ordered one. ${DEVIATION_HINT} Leave Sort out and sort in the workflow (e.g. with a Sort node).`,
						},
					);
				}
			}
		}
		previous = record;
	};
}
