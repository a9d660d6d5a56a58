/** The Sort panel of a Get Many, and the API's `sort` parameter read from it. */
import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { requireOneOf } from '../../shared/input/validate';

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
