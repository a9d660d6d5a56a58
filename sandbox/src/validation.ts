import {
	CONFLICT_HANDLINGS,
	RETRIEVAL_TYPES,
	STORAGE_TYPES,
	TRANSFER_TYPES,
	type ConflictHandling,
	type FailureCondition,
	type JobAttributes,
	type JobScope,
	type RetrievalType,
	type TransferType,
} from '../../nodes/shared/api/types';
import { apiError, Problems } from './errors';
import { defaultJobAttributes } from './demo';
import type { Store } from './store';
import { isObject } from './util';

/** The `data` member of a request document, checked for JSON:API shape (400 invalid-request otherwise). */
export function readDocument(
	raw: string,
	type: string,
	id?: string,
): { attributes: Record<string, unknown> } {
	let doc: unknown;
	try {
		doc = JSON.parse(raw);
	} catch {
		throw apiError(400, 'invalid-request', 'The request body is not valid JSON.');
	}
	if (!isObject(doc) || !isObject(doc.data)) {
		throw apiError(400, 'invalid-request', 'The request body must be a JSON:API document with a "data" object.', '/data');
	}
	const data = doc.data;
	if (data.type !== type) {
		throw apiError(400, 'invalid-request', `data.type must be "${type}".`, '/data/type');
	}
	if (id !== undefined && data.id !== undefined && data.id !== id) {
		throw apiError(400, 'invalid-request', 'data.id must match the id in the URL.', '/data/id');
	}
	if (data.attributes !== undefined && !isObject(data.attributes)) {
		throw apiError(400, 'invalid-request', 'data.attributes must be an object.', '/data/attributes');
	}
	return { attributes: (data.attributes as Record<string, unknown> | undefined) ?? {} };
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const isEmail = (value: unknown): value is string => typeof value === 'string' && EMAIL.test(value);

export function isTimeZone(value: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

/**
 * Resolves accountId / deprecated deploymentId on create: either, or both when equal; the account must
 * exist. Adds problems and returns the account id when valid.
 */
export function resolveAccount(
	attrs: Record<string, unknown>,
	store: Store,
	problems: Problems,
	required: boolean,
): string | undefined {
	const { accountId, deploymentId } = attrs;
	for (const [field, value] of [['accountId', accountId], ['deploymentId', deploymentId]] as const) {
		if (value !== undefined && typeof value !== 'string') {
			problems.add(field, `${field} must be a string.`);
			return undefined;
		}
	}
	if (accountId !== undefined && deploymentId !== undefined && accountId !== deploymentId) {
		problems.add('deploymentId', 'accountId and deploymentId must be equal when both are given.');
		return undefined;
	}
	const id = (accountId ?? deploymentId) as string | undefined;
	if (id === undefined) {
		if (required) problems.add('accountId', 'accountId (or the deprecated deploymentId) is required.');
		return required ? undefined : store.defaultAccountId();
	}
	if (!store.accounts.has(id)) {
		problems.add(accountId !== undefined ? 'accountId' : 'deploymentId', `No account with id "${id}".`);
		return undefined;
	}
	return id;
}

const isPath = (value: unknown): value is string | null | undefined =>
	value === undefined || value === null || (typeof value === 'string' && value.startsWith('/'));

const positiveInteger = (value: unknown): value is number =>
	typeof value === 'number' && Number.isInteger(value) && value >= 1;

/** Checks a job-create body (the API contract, "Jobs") and returns the new job's attributes. */
export function validateJobCreate(attrs: Record<string, unknown>, store: Store): JobAttributes {
	const p = new Problems();
	const { transferType, source, target, conflictHandling, status, name, userId, groupId, scope, dryRun } = attrs;
	const { failureConditions, transferRateLimit } = attrs;
	for (const field of ['password', 'stats', 'createdAt', 'updatedAt']) {
		if (attrs[field] !== undefined) p.readOnly(field);
	}

	if (transferType === undefined || transferType === null) p.add('transferType', 'transferType is required.');
	else if (!TRANSFER_TYPES.includes(transferType as TransferType)) {
		p.add('transferType', `transferType must be one of ${TRANSFER_TYPES.join(', ')}.`);
	}

	let sourceStorage;
	if (!isObject(source)) p.add('source', 'source is required: an object with type, id and path.');
	else {
		if (typeof source.id !== 'string' || source.id === '') p.add('source/id', 'source.id is required.');
		else if (!(sourceStorage = store.storages.get(source.id))) p.add('source/id', `No storage with id "${source.id}".`);
		if (source.type === undefined || source.type === null) p.add('source/type', 'source.type is required.');
		else if (!STORAGE_TYPES.includes(source.type as never)) {
			p.add('source/type', `source.type must be one of ${STORAGE_TYPES.join(', ')}.`);
		} else if (sourceStorage && source.type !== sourceStorage.type) {
			p.add('source/type', `source.type must be "${sourceStorage.type}", the type of the source storage.`);
		}
		if (!isPath(source.path)) p.add('source/path', 'source.path must be null or an absolute path starting with "/".');
		if (source.retrievalType !== undefined && source.retrievalType !== null) {
			if (!RETRIEVAL_TYPES.includes(source.retrievalType as RetrievalType)) {
				p.add('source/retrievalType', `source.retrievalType must be one of ${RETRIEVAL_TYPES.join(', ')}.`);
			} else if (sourceStorage && sourceStorage.type !== 'object-aws') {
				p.add('source/retrievalType', 'source.retrievalType is only allowed for an object-aws source.');
			}
		}
	}

	let targetStorage;
	if (!isObject(target)) p.add('target', 'target is required: an object with id and path.');
	else {
		if (typeof target.id !== 'string' || target.id === '') p.add('target/id', 'target.id is required.');
		else if (!(targetStorage = store.storages.get(target.id))) p.add('target/id', `No storage with id "${target.id}".`);
		if (!isPath(target.path)) p.add('target/path', 'target.path must be null or an absolute path starting with "/".');
		if (target.type !== undefined && target.type !== null && targetStorage && target.type !== targetStorage.type) {
			p.add('target/type', `target.type must be "${targetStorage.type}", the type of the target storage.`);
		}
	}

	if (transferType === 'sync') {
		if (conflictHandling !== undefined && conflictHandling !== null) {
			p.add('conflictHandling', 'conflictHandling must be null when transferType is "sync".');
		}
	} else if (transferType !== undefined && !CONFLICT_HANDLINGS.includes(conflictHandling as ConflictHandling)) {
		p.add('conflictHandling', `conflictHandling must be one of ${CONFLICT_HANDLINGS.join(', ')} unless transferType is "sync".`);
	}

	if (status !== undefined && status !== 'running') p.add('status', 'status may only be "running" on create.');
	if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) p.add('name', 'name must be a non-empty string.');
	const accountId = resolveAccount(attrs, store, p, false);
	if (userId !== undefined && userId !== null && (typeof userId !== 'string' || !store.users.has(userId))) {
		p.add('userId', `No user with id "${String(userId)}".`);
	}
	if (groupId !== undefined && groupId !== null && (typeof groupId !== 'string' || !store.groups.has(groupId))) {
		p.add('groupId', `No group with id "${String(groupId)}".`);
	}
	if (dryRun !== undefined && typeof dryRun !== 'boolean') p.add('dryRun', 'dryRun must be true or false.');
	validateScope(scope, p);
	if (failureConditions !== undefined && failureConditions !== null) {
		if (!Array.isArray(failureConditions)) p.add('failureConditions', 'failureConditions must be an array.');
		else {
			failureConditions.forEach((c: unknown, i) => {
				if (!isObject(c)) return p.add(`failureConditions/${i}`, 'A failure condition must be an object.');
				if (c.type !== 'error-count') p.add(`failureConditions/${i}/type`, 'type must be "error-count".');
				if (!positiveInteger(c.value)) p.add(`failureConditions/${i}/value`, 'value must be an integer of at least 1.');
			});
		}
	}
	if (transferRateLimit !== undefined && transferRateLimit !== null && !positiveInteger(transferRateLimit)) {
		p.add('transferRateLimit', 'transferRateLimit must be null or an integer of at least 1 (bytes per second).');
	}
	p.throwIfAny();

	const src = source as Record<string, unknown>;
	const tgt = target as Record<string, unknown>;
	const base = defaultJobAttributes(accountId!, { source: sourceStorage!, target: targetStorage! });
	const user = typeof userId === 'string' ? store.users.get(userId) : undefined;
	return {
		...base,
		name: typeof name === 'string' ? name : defaultName(transferType as TransferType, sourceStorage!.name, targetStorage!.name),
		groupId: (groupId as string | null | undefined) ?? user?.attributes.groupId ?? null,
		userId: (userId as string | null | undefined) ?? null,
		dryRun: dryRun === true,
		transferType: transferType as TransferType,
		source: {
			type: sourceStorage!.type,
			id: sourceStorage!.id,
			path: (src.path as string | null | undefined) ?? null,
			...(src.retrievalType ? { retrievalType: src.retrievalType as RetrievalType } : {}),
		},
		target: { id: targetStorage!.id, path: (tgt.path as string | null | undefined) ?? null, type: targetStorage!.type },
		scope: scope ? (structuredClone(scope) as JobScope) : base.scope,
		conflictHandling: transferType === 'sync' ? null : (conflictHandling as ConflictHandling),
		failureConditions: ((failureConditions as FailureCondition[] | null | undefined) ?? []).map((c) => ({ type: c.type, value: c.value })),
		transferRateLimit: (transferRateLimit as number | null | undefined) ?? null,
	};
}

function defaultName(type: TransferType, from: string, to: string): string {
	return `${type[0].toUpperCase()}${type.slice(1)} ${from} to ${to}`;
}

function validateScope(scope: unknown, p: Problems): void {
	if (scope === undefined || scope === null) return;
	if (!isObject(scope)) return p.add('scope', 'scope must be an object with type, method and rules.');
	if (scope.type !== 'rules') p.add('scope/type', 'scope.type must be "rules".');
	if (scope.method !== 'include-if-all') p.add('scope/method', 'scope.method must be "include-if-all".');
	if (!Array.isArray(scope.rules)) return p.add('scope/rules', 'scope.rules must be an array (it may be empty).');
	scope.rules.forEach((rule: unknown, i) => {
		const at = `scope/rules/${i}`;
		if (!isObject(rule)) return p.add(at, 'A rule must be an object with type, condition and value.');
		if (rule.type !== 'name') p.add(`${at}/type`, 'rule type must be "name".');
		if (rule.condition !== 'ends-with' && rule.condition !== 'matches') {
			p.add(`${at}/condition`, 'rule condition must be "ends-with" or "matches".');
		}
		if (typeof rule.value !== 'string') return p.add(`${at}/value`, 'rule value must be a string.');
		if (rule.condition === 'matches') {
			try {
				new RegExp(rule.value);
			} catch {
				p.add(`${at}/value`, `rule value "${rule.value}" is not a valid regular expression.`);
			}
		}
	});
}

