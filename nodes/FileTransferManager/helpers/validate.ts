import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An input error, raised before any request: names the field and the item. */
export function invalidInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field} ${problem} [item ${itemIndex}]`, {
		itemIndex,
		description,
	});
}

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value);
}

/** Returns the value as a UUID string, or throws an input error naming the field. */
export function requireUuid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (text === '' || text === undefined || text === null) {
		throw invalidInput(ctx, itemIndex, `"${field}"`, 'is required');
	}
	if (!isUuid(text)) {
		throw invalidInput(
			ctx,
			itemIndex,
			`"${field}"`,
			`must be a UUID, got ${JSON.stringify(text)}`,
			'IDs of this API look like 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10. Pick the record from the list, or map an ID field.',
		);
	}
	return text;
}

/** Like requireUuid, but an empty value gives undefined. */
export function optionalUuid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		return undefined;
	}
	return requireUuid(ctx, itemIndex, field, value);
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
