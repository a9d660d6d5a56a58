import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type {
	ConflictHandling,
	FailureCondition,
	JobCreateAttributes,
	JobScope,
	RetrievalType,
	ScopeRule,
	TransferType,
} from '../api/types';
import {
	CONFLICT_HANDLINGS,
	RETRIEVAL_TYPES,
	RULE_CONDITIONS,
	RULE_TYPES,
	TRANSFER_TYPES,
} from '../api/types';
import {
	invalidInput,
	locatorValue,
	optionalUuid,
	requireBoolean,
	requireOneOf,
	requireLocatorId,
	requirePositiveInteger,
	MAX_NAME_LENGTH,
	requireMaxLength,
} from './validate';

/**
 * A storage path: empty means the storage root (null); anything else must be absolute. Trailing slashes
 * are dropped so that the path compares equal to what the service returns.
 */
export function storagePath(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string | null {
	if (value === undefined || value === null) return null;
	if (typeof value !== 'string') {
		throw invalidInput(ctx, itemIndex, `"${field}"`, `must be text, got ${JSON.stringify(value)}`);
	}
	const text = value.trim();
	if (text === '') return null;
	if (!text.startsWith('/')) {
		throw invalidInput(
			ctx,
			itemIndex,
			`"${field}"`,
			`must be an absolute path starting with "/", got ${JSON.stringify(value)}`,
			'Paths are absolute inside the storage, e.g. /incoming/2024. Leave the field empty for the root of the storage.',
		);
	}
	const trimmed = text.replace(/\/+$/, '');
	return trimmed === '' ? '/' : trimmed;
}

/** Compares two storage paths the way the service treats them (null, "" and "/" are the root). */
export function samePath(a: string | null | undefined, b: string | null | undefined): boolean {
	const normal = (p: string | null | undefined) => (p ? p.replace(/\/+$/, '') : '') || '/';
	return normal(a) === normal(b);
}

/** Conflict handling for a transfer type: required (skip, rename, overwrite) unless sync, where it must be empty. */
export function conflictHandlingFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	transferType: TransferType,
	value: unknown,
): ConflictHandling | null {
	const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
	if (transferType === 'sync') {
		if (!empty) {
			throw invalidInput(
				ctx,
				itemIndex,
				'"Conflict Handling"',
				`must be empty for a sync job, got ${JSON.stringify(value)}`,
				'A sync job makes the target mirror the source, so it has no conflict handling. When Transfer Type comes from an expression, give Conflict Handling an expression that is empty for sync.',
			);
		}
		return null;
	}
	if (empty) {
		throw invalidInput(
			ctx,
			itemIndex,
			'"Conflict Handling"',
			`is required for a ${transferType} job`,
			'Choose skip (keep the existing target file), rename (keep both) or overwrite.',
		);
	}
	return requireOneOf(ctx, itemIndex, 'Conflict Handling', value, CONFLICT_HANDLINGS);
}

/** Scope rules from the "Scope Rules" fixed collection; a `matches` value must compile as a regex. */
export function scopeFrom(ctx: IExecuteFunctions, itemIndex: number, raw: unknown): JobScope | undefined {
	const rules = ((raw as IDataObject | undefined)?.rules ?? []) as IDataObject[];
	if (!Array.isArray(rules) || rules.length === 0) return undefined;
	const parsed: ScopeRule[] = rules.map((rule, index) => {
		const label = `Scope Rules ${index + 1}`;
		const type = requireOneOf(ctx, itemIndex, `${label}: Rule Type`, rule.type ?? 'name', RULE_TYPES);
		const condition = requireOneOf(ctx, itemIndex, `${label}: Condition`, rule.condition, RULE_CONDITIONS);
		const value = rule.value;
		if (typeof value !== 'string' || value === '') {
			throw invalidInput(ctx, itemIndex, `"${label}: Value"`, 'is required and must be text');
		}
		if (condition === 'matches') {
			try {
				new RegExp(value);
			} catch (error) {
				throw invalidInput(
					ctx,
					itemIndex,
					`"${label}: Value"`,
					`is not a valid regular expression: ${(error as Error).message}`,
					'A "matches" rule takes a regular expression that is tested against the file name, e.g. ^report-\\d+\\.csv$',
				);
			}
		}
		return { type, condition, value };
	});
	return { type: 'rules', method: 'include-if-all', rules: parsed };
}

/** A number >= 1 from an optional field; undefined when left empty. */
function optionalPositiveInteger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return requirePositiveInteger(ctx, itemIndex, field, value);
}

/** Job Create attributes from the node's parameters; `source.type` is filled in from the storage later. */
export type DraftJobAttributes = Omit<JobCreateAttributes, 'source'> & {
	source: Omit<JobCreateAttributes['source'], 'type'>;
};

/** Reads and validates every Job Create parameter of one item, without any request. */
export function jobAttributesFromParameters(ctx: IExecuteFunctions, itemIndex: number): DraftJobAttributes {
	const transferType = requireOneOf(
		ctx,
		itemIndex,
		'Transfer Type',
		ctx.getNodeParameter('transferType', itemIndex),
		TRANSFER_TYPES,
	);
	const sourceId = requireLocatorId(ctx, itemIndex, 'sourceStorageId', 'Source Storage');
	const targetId = requireLocatorId(ctx, itemIndex, 'targetStorageId', 'Target Storage');
	const sourcePath = storagePath(ctx, itemIndex, 'Source Path', ctx.getNodeParameter('sourcePath', itemIndex, ''));
	const targetPath = storagePath(ctx, itemIndex, 'Target Path', ctx.getNodeParameter('targetPath', itemIndex, ''));
	const conflictHandling = conflictHandlingFor(
		ctx,
		itemIndex,
		transferType,
		ctx.getNodeParameter('conflictHandling', itemIndex, ''),
	);
	const dryRun = requireBoolean(ctx, itemIndex, 'Dry Run', ctx.getNodeParameter('dryRun', itemIndex, false));
	const extra = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;

	const attributes: DraftJobAttributes = {
		transferType,
		source: { id: sourceId, path: sourcePath },
		target: { id: targetId, path: targetPath },
		conflictHandling,
		dryRun,
	};

	if (typeof extra.name === 'string' && extra.name.trim() !== '') {
		attributes.name = requireMaxLength(ctx, itemIndex, 'Name', extra.name.trim(), MAX_NAME_LENGTH);
	}
	if (extra.retrievalType !== undefined && extra.retrievalType !== '') {
		attributes.source.retrievalType = requireOneOf(
			ctx,
			itemIndex,
			'Retrieval Type',
			extra.retrievalType,
			RETRIEVAL_TYPES,
		) as RetrievalType;
	}
	const scope = scopeFrom(ctx, itemIndex, extra.scopeRules);
	if (scope) attributes.scope = scope;
	const errorCount = optionalPositiveInteger(ctx, itemIndex, 'Fail After Errors', extra.failAfterErrors);
	if (errorCount !== undefined) {
		attributes.failureConditions = [{ type: 'error-count', value: errorCount } as FailureCondition];
	}
	const rate = optionalPositiveInteger(ctx, itemIndex, 'Transfer Rate Limit', extra.transferRateLimit);
	if (rate !== undefined) attributes.transferRateLimit = rate;
	const accountId = optionalUuid(ctx, itemIndex, 'Account', locatorValue(extra.accountId));
	if (accountId) attributes.accountId = accountId;
	const userId = optionalUuid(ctx, itemIndex, 'User', locatorValue(extra.userId));
	if (userId) attributes.userId = userId;
	const groupId = optionalUuid(ctx, itemIndex, 'Group', locatorValue(extra.groupId));
	if (groupId) attributes.groupId = groupId;
	if (extra.startStatus !== undefined && extra.startStatus !== '') {
		attributes.status = requireOneOf(ctx, itemIndex, 'Start Status', extra.startStatus, ['running'] as const);
	}
	return attributes;
}
