import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type {
	ConflictHandling,
	FailureCondition,
	JobCreateAttributes,
	JobScope,
	RetrievalType,
	ScopeRule,
	TransferType,
} from '../../shared/api/types';
import {
	CONFLICT_HANDLINGS,
	RETRIEVAL_TYPES,
	RULE_CONDITIONS,
	RULE_TYPES,
	TRANSFER_TYPES,
} from '../../shared/api/types';
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
	shown,
} from '../../shared/input/validate';

/**
 * A storage path: empty means the storage root (null); anything else must be absolute. Trailing slashes
 * are dropped so that the path compares equal to what the service returns.
 */
function storagePath(
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

/** The choices of "Sync Conflict Handling": none (the API description's rule) or one of the API's values. */
const SYNC_CONFLICT_HANDLINGS = ['none', ...CONFLICT_HANDLINGS] as const;

/**
 * Conflict handling for a transfer type: required (skip, rename, overwrite) unless sync, where the
 * "Conflict Handling" field must be empty and "Sync Conflict Handling" decides: `none` (default, the API
 * description's rule: null for sync) or a value for deployments that require one for sync jobs too.
 */
function conflictHandlingFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	transferType: TransferType,
	value: unknown,
	syncValue: unknown = 'none',
): ConflictHandling | null {
	const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
	if (transferType === 'sync') {
		if (!empty) {
			throw invalidInput(
				ctx,
				itemIndex,
				'"Conflict Handling"',
				`must be empty for a sync job, got ${JSON.stringify(value)}`,
				'A sync job makes the target mirror the source, so by the API description it has no conflict handling. If your deployment requires one for sync jobs, set "Sync Conflict Handling" instead. When Transfer Type comes from an expression, give Conflict Handling an expression that is empty for sync.',
			);
		}
		const sync = requireOneOf(
			ctx,
			itemIndex,
			'Sync Conflict Handling',
			syncValue === undefined || syncValue === null || syncValue === '' ? 'none' : syncValue,
			SYNC_CONFLICT_HANDLINGS,
		);
		return sync === 'none' ? null : sync;
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

/**
 * Attributes of a job create that the node's own fields set, with the field to use instead. "Additional
 * Attributes (JSON)" must not hold them: the fields are checked before any request, and the lookup that
 * protects a create against ambiguous failures compares them.
 */
export const JOB_FORM_ATTRIBUTES: Readonly<Record<string, string>> = {
	transferType: 'Transfer Type',
	source: 'Source Storage / Source Path / Retrieval Type',
	target: 'Target Storage / Target Path',
	conflictHandling: 'Conflict Handling / Sync Conflict Handling',
	dryRun: 'Dry Run',
	name: 'Name',
	status: 'Start Status',
	accountId: 'Account',
	userId: 'User',
	groupId: 'Group',
	scope: 'Scope Rules',
	failureConditions: 'Fail After Errors',
	transferRateLimit: 'Transfer Rate Limit',
};

const ADDITIONAL_ATTRIBUTES = 'Additional Attributes (JSON)';

/**
 * "Additional Attributes (JSON)" of an Additional Fields collection: attributes a deployment needs beyond
 * the API description, merged into the create request's `data.attributes`. A JSON object as text, or an
 * object from an expression; not added, or empty text, gives none. Anything else (also null or nothing
 * from an expression), and any key in `reserved` (a field of the form sets it), is an input error naming
 * the field, the clashing keys and the item.
 */
export function additionalAttributesFrom(
	ctx: IExecuteFunctions,
	itemIndex: number,
	collection: unknown,
	reserved: Readonly<Record<string, string>> = JOB_FORM_ATTRIBUTES,
): IDataObject {
	const field = `"${ADDITIONAL_ATTRIBUTES}"`;
	const hint =
		'Give a JSON object of attribute names and values, e.g. {"priority": "high"}; it is merged into data.attributes of the create request.';
	const given =
		collection !== null &&
		typeof collection === 'object' &&
		Object.prototype.hasOwnProperty.call(collection, 'additionalAttributes');
	if (!given) return {};
	const raw = (collection as IDataObject).additionalAttributes;
	if (typeof raw === 'string' && raw.trim() === '') return {};
	if (raw === undefined) {
		throw invalidInput(ctx, itemIndex, field, 'must be a JSON object, got nothing', `${hint} An expression gave no value; remove the field to send no additional attributes.`);
	}
	let value: unknown = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw invalidInput(ctx, itemIndex, field, `is not valid JSON: ${(error as Error).message}`, hint);
		}
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `${typeof value} ${shown(value)}`;
		throw invalidInput(ctx, itemIndex, field, `must be a JSON object, got ${got}`, hint);
	}
	let attributes: IDataObject;
	try {
		// A plain copy: what an expression gave may hold values JSON cannot carry (undefined, functions).
		attributes = JSON.parse(JSON.stringify(value)) as IDataObject;
	} catch (error) {
		throw invalidInput(ctx, itemIndex, field, `cannot be sent as JSON: ${(error as Error).message}`, hint);
	}
	const clashes = Object.keys(attributes).filter((key) => Object.prototype.hasOwnProperty.call(reserved, key));
	if (clashes.length > 0) {
		throw invalidInput(
			ctx,
			itemIndex,
			field,
			`must not set ${clashes.map((key) => `"${key}"`).join(', ')}: the node's own fields set ${clashes.length === 1 ? 'it' : 'them'}`,
			`The node sets ${clashes.length === 1 ? 'this attribute' : 'these attributes'} itself: ${clashes.map((key) => `${key} (${reserved[key]})`).join(', ')}. Remove ${clashes.length === 1 ? 'it' : 'them'} from the JSON.`,
		);
	}
	return attributes;
}

/** Scope rules from the "Scope Rules" fixed collection; a `matches` value must compile as a regex. */
function scopeFrom(ctx: IExecuteFunctions, itemIndex: number, raw: unknown): JobScope | undefined {
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
		transferType === 'sync' ? ctx.getNodeParameter('syncConflictHandling', itemIndex, 'none') : 'none',
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
	const accountId = optionalUuid(ctx, itemIndex, 'Account', locatorValue(extra.accountId), 'additionalFields.accountId');
	if (accountId) attributes.accountId = accountId;
	const userId = optionalUuid(ctx, itemIndex, 'User', locatorValue(extra.userId), 'additionalFields.userId');
	if (userId) attributes.userId = userId;
	const groupId = optionalUuid(ctx, itemIndex, 'Group', locatorValue(extra.groupId), 'additionalFields.groupId');
	if (groupId) attributes.groupId = groupId;
	if (extra.startStatus !== undefined && extra.startStatus !== '') {
		attributes.status = requireOneOf(ctx, itemIndex, 'Start Status', extra.startStatus, ['running'] as const);
	}
	// Checked last, so that the form's own fields report their faults first.
	const additional = additionalAttributesFrom(ctx, itemIndex, extra);
	return { ...attributes, ...additional };
}
