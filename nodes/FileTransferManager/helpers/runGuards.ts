/**
 * The Guards of Run From Dry Run (docs/operations.md › Job: Run From Dry Run): limits the workflow sets on what
 * a dry run may become for real, whoever made the dry run (a person, or a model through the tool variant).
 * Allowed Transfer Types, Allowed Conflict Handling, Allowed Target Storage IDs and Max Dry Run Age; a guard
 * not added restricts nothing. The reading is checked before any request; the dry run is checked after its GET
 * and before any request that could start a job, as Max Estimated Cost (costGuard.ts) is. A guard (or Max
 * Estimated Cost) filled by `$fromAI()` is refused: a model must not set its own limits.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isUuid } from '../../shared/api/ids';
import type { ConflictHandling, Job, TransferType } from '../../shared/api/types';
import { CONFLICT_HANDLINGS, TRANSFER_TYPES } from '../../shared/api/types';
import { itemError } from '../../shared/execution/operationError';
import { holdsFromAi, isToolUse, rawParameterAt } from '../../shared/execution/toolUse';
import { invalidInput, shown } from '../../shared/input/validate';

const TRANSFER_TYPES_FIELD = 'Allowed Transfer Types';
const CONFLICT_FIELD = 'Allowed Conflict Handling';
const TARGETS_FIELD = 'Allowed Target Storage IDs';
const AGE_FIELD = 'Max Dry Run Age (Minutes)';

/** How far a dry run's finishedAt may lie ahead of this machine's clock (clock skew) and count as just now. */
export const FUTURE_TOLERANCE_MS = 2 * 60_000;

export const runGuardProperties: INodeProperties[] = [
	{
		displayName: 'Guards',
		name: 'guards',
		type: 'collection',
		placeholder: 'Add Guard',
		default: {},
		description:
			'Limits on what the dry run may become for real, whoever made it (as an AI tool, the model picks the dry run). A dry run outside them starts no job and the item fails. A guard not added restricts nothing.',
		options: [
			{
				displayName: CONFLICT_FIELD,
				name: 'allowedConflictHandling',
				type: 'multiOptions',
				options: [
					{ name: 'Overwrite', value: 'overwrite', description: 'Existing target files are replaced' },
					{ name: 'Rename', value: 'rename', description: 'Both files are kept; the incoming one is renamed' },
					{ name: 'Skip', value: 'skip', description: 'Existing target files are left as they are' },
				],
				default: ['skip', 'rename'],
				description:
					"The conflict handling the dry run may have. A sync dry run without conflict handling passes (Allowed Transfer Types governs sync); one with a stored value is checked like any other.",
			},
			{
				displayName: TARGETS_FIELD,
				name: 'allowedTargetStorageIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10, 9c1d…',
				description:
					"Storage UUIDs the dry run's target may be, separated by commas. Empty: any target.",
			},
			{
				displayName: TRANSFER_TYPES_FIELD,
				name: 'allowedTransferTypes',
				type: 'multiOptions',
				options: [
					{ name: 'Copy', value: 'copy', description: 'The source is kept intact' },
					{ name: 'Move', value: 'move', description: 'Deletes the source files after the transfer' },
					{ name: 'Sync', value: 'sync', description: 'Deletes target files that are not on the source' },
				],
				default: ['copy'],
				description: 'The transfer types the dry run may have',
			},
			{
				displayName: AGE_FIELD,
				name: 'maxDryRunAgeMinutes',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 60,
				description:
					"The most whole minutes since the dry run finished (its stats.finishedAt). An older estimate may no longer fit the files.",
			},
		],
	},
];

/** The guards of one item; a guard not added is undefined. */
export interface RunGuards {
	transferTypes?: TransferType[];
	conflictHandling?: ConflictHandling[];
	/** Lower case. */
	targetStorageIds?: string[];
	maxAgeMinutes?: number;
}

/** An input problem: the field as the error names it, what is wrong, how to fix it. */
export interface GuardInputProblem {
	field: string;
	problem: string;
	hint: string;
}

const guardField = (name: string) => `"Guards → ${name}"`;

const listed = (values: readonly string[]) => values.join(', ');

function selection<T extends string>(
	raw: unknown,
	allowed: readonly T[],
	name: string,
	what: string,
): T[] | GuardInputProblem {
	const values = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
	const hint = `Pick at least one ${what}, or remove the guard for no restriction.`;
	if (values === undefined) {
		return { field: guardField(name), problem: `must be a list of ${listed(allowed)}, got ${shown(raw)}`, hint };
	}
	const picked = values.map((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value)).filter((value) => value !== '');
	if (picked.length === 0) return { field: guardField(name), problem: `must hold at least one ${what}`, hint };
	const wrong = picked.find((value) => !(allowed as readonly unknown[]).includes(value));
	if (wrong !== undefined) {
		return { field: guardField(name), problem: `must hold only ${listed(allowed)}, got ${shown(wrong)}`, hint };
	}
	return [...new Set(picked as T[])];
}

function storageIds(raw: unknown): string[] | GuardInputProblem | undefined {
	const text = Array.isArray(raw) ? raw.join(',') : typeof raw === 'string' ? raw : undefined;
	const hint =
		"Storage UUIDs separated by commas, e.g. 3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10 (Storage › Get Many lists them). Leave it empty, or remove the guard, for any target.";
	if (text === undefined) {
		return { field: guardField(TARGETS_FIELD), problem: `must be storage UUIDs separated by commas, got ${shown(raw)}`, hint };
	}
	const ids = text.split(',').map((id) => id.trim()).filter((id) => id !== '');
	if (ids.length === 0) return undefined;
	const wrong = ids.find((id) => !isUuid(id));
	if (wrong !== undefined) {
		return { field: guardField(TARGETS_FIELD), problem: `must be storage UUIDs separated by commas, got ${shown(wrong)}`, hint };
	}
	return [...new Set(ids.map((id) => id.toLowerCase()))];
}

function maxAge(raw: unknown): number | GuardInputProblem {
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : raw;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		return {
			field: guardField(AGE_FIELD),
			problem: `must be a whole number of minutes, at least 1, got ${shown(raw)}`,
			hint: 'Give the most minutes since the dry run finished, e.g. 60, or remove the guard for no maximum age.',
		};
	}
	return value;
}

const isProblem = (value: unknown): value is GuardInputProblem =>
	value !== null && typeof value === 'object' && !Array.isArray(value) && 'problem' in value;

/** The guards in a Guards collection's value, or the first input problem. Pure. */
export function parseRunGuards(raw: unknown): RunGuards | GuardInputProblem {
	if (raw === undefined || raw === null) return {};
	if (typeof raw !== 'object' || Array.isArray(raw)) {
		return { field: '"Guards"', problem: `must be a collection of guards, got ${shown(raw)}`, hint: 'Add guards with Add Guard.' };
	}
	const value = raw as Record<string, unknown>;
	const guards: RunGuards = {};
	if (value.allowedTransferTypes !== undefined) {
		const types = selection(value.allowedTransferTypes, TRANSFER_TYPES, TRANSFER_TYPES_FIELD, 'transfer type');
		if (isProblem(types)) return types;
		guards.transferTypes = types;
	}
	if (value.allowedConflictHandling !== undefined) {
		const handling = selection(value.allowedConflictHandling, CONFLICT_HANDLINGS, CONFLICT_FIELD, 'conflict handling');
		if (isProblem(handling)) return handling;
		guards.conflictHandling = handling;
	}
	if (value.allowedTargetStorageIds !== undefined) {
		const ids = storageIds(value.allowedTargetStorageIds);
		if (isProblem(ids)) return ids;
		if (ids) guards.targetStorageIds = ids;
	}
	if (value.maxDryRunAgeMinutes !== undefined) {
		const age = maxAge(value.maxDryRunAgeMinutes);
		if (isProblem(age)) return age;
		guards.maxAgeMinutes = age;
	}
	return guards;
}

/** The limits a model must not set: the node parameters (dotted paths) and the fields the error names. */
const LIMITS: ReadonlyArray<[string, string]> = [
	['maxEstimatedCost', '"Max Estimated Cost"'],
	['maxEstimatedCostCurrency', '"Max Estimated Cost Currency"'],
	['guards', '"Guards"'],
	['guards.allowedTransferTypes', guardField(TRANSFER_TYPES_FIELD)],
	['guards.allowedConflictHandling', guardField(CONFLICT_FIELD)],
	['guards.allowedTargetStorageIds', guardField(TARGETS_FIELD)],
	['guards.maxDryRunAgeMinutes', guardField(AGE_FIELD)],
];

/** The field of the first limit whose raw node parameter calls `$fromAI()`, or undefined. Pure. */
export function limitSetByModel(parameters: unknown): string | undefined {
	// The most precise name first: a guard inside the collection before the collection as a whole.
	const found = [...LIMITS].reverse().find(([path]) => holdsFromAi(rawParameterAt(parameters, path)));
	return found?.[1];
}

/**
 * The item's guards. Input errors name the field and the item, before any request: a limit (a guard, Max
 * Estimated Cost) filled by `$fromAI()`, an empty selection, a target that is not a UUID, an age below 1.
 */
export function readRunGuards(ctx: IExecuteFunctions, itemIndex: number): RunGuards {
	const byModel = limitSetByModel(ctx.getNode().parameters);
	if (byModel) {
		throw invalidInput(
			ctx,
			itemIndex,
			byModel,
			'is filled by $fromAI(): a limit on what a dry run may start must not be set by the model',
			'Guards and Max Estimated Cost are the workflow\'s limits on what a tool call may start. Give them fixed values, or expressions that do not call $fromAI().',
		);
	}
	const parsed = parseRunGuards(ctx.getNodeParameter('guards', itemIndex, {}) as unknown);
	if (isProblem(parsed)) throw invalidInput(ctx, itemIndex, parsed.field, parsed.problem, parsed.hint);
	return parsed;
}

const CONFLICT_WORDS: Readonly<Record<ConflictHandling, string>> = {
	overwrite: 'overwrites files on the target',
	rename: 'renames files that exist on the target',
	skip: 'skips files that exist on the target',
};

/** Why a dry run is refused: what it has (after "dry run <id> "), the guard, and how to fit it. */
export interface GuardRefusal {
	problem: string;
	guard: string;
	/** For a person: the new dry run that fits. */
	fit: string;
	/** For a model: the dry run it may start instead. */
	toolFit: string;
}

/** An ISO 8601 timestamp with a date, a time and a zone. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The first guard the dry run breaks, or undefined when it passes them all. Pure: `now` is this machine's
 * clock in milliseconds. Checked in the order of the fields: transfer type, conflict handling, target, age.
 */
export function guardRefusal(dryRun: Job, guards: RunGuards, now: number): GuardRefusal | undefined {
	const a = dryRun.attributes;
	const transferType: unknown = a.transferType;
	if (guards.transferTypes && !(guards.transferTypes as readonly unknown[]).includes(transferType)) {
		const allowed = listed(guards.transferTypes);
		return {
			problem: `is a ${typeof transferType === 'string' ? transferType : shown(transferType)}, and this workflow allows only ${allowed}`,
			guard: TRANSFER_TYPES_FIELD,
			fit: `a new dry run of a transfer type it allows (${allowed})`,
			toolFit: `start a dry run of a transfer type it allows (${allowed})`,
		};
	}
	const conflict: unknown = a.conflictHandling;
	const syncWithout = transferType === 'sync' && (conflict === null || conflict === undefined);
	if (guards.conflictHandling && !syncWithout && !(guards.conflictHandling as readonly unknown[]).includes(conflict)) {
		const allowed = listed(guards.conflictHandling);
		const has =
			typeof conflict === 'string' && conflict in CONFLICT_WORDS
				? CONFLICT_WORDS[conflict as ConflictHandling]
				: conflict === null || conflict === undefined
					? 'has no conflict handling'
					: `has the conflict handling ${shown(conflict)}`;
		return {
			problem: `${has}, and this workflow allows only ${allowed}`,
			guard: CONFLICT_FIELD,
			fit: `a new dry run with a conflict handling it allows (${allowed})`,
			toolFit: `start a dry run with a conflict handling it allows (${allowed})`,
		};
	}
	const target: unknown = a.target?.id;
	if (guards.targetStorageIds && !(typeof target === 'string' && guards.targetStorageIds.includes(target.toLowerCase()))) {
		return {
			problem: `targets storage ${typeof target === 'string' ? target : shown(target)}, which is not among the ${TARGETS_FIELD}`,
			guard: TARGETS_FIELD,
			fit: 'a new dry run to one of the allowed target storages',
			toolFit: 'start a dry run to one of the allowed target storages',
		};
	}
	if (guards.maxAgeMinutes !== undefined) return ageRefusal(a.stats?.finishedAt as unknown, guards.maxAgeMinutes, now);
	return undefined;
}

function ageRefusal(finishedAt: unknown, max: number, now: number): GuardRefusal | undefined {
	const limit = `the Max Dry Run Age of ${max} minutes`;
	const fresh = {
		guard: AGE_FIELD,
		fit: `a new dry run of the same transfer, run within ${max} minutes of its end`,
		toolFit: `start a new dry run of the same transfer and run that one within ${max} minutes of its end`,
	};
	if (finishedAt === null || finishedAt === undefined) {
		return { problem: `has no finishedAt, so its age cannot be checked against ${limit}`, ...fresh };
	}
	const time = typeof finishedAt === 'string' && TIMESTAMP.test(finishedAt.trim()) ? Date.parse(finishedAt.trim()) : NaN;
	if (Number.isNaN(time)) {
		return { problem: `has a finishedAt that is not a timestamp (${shown(finishedAt)}), so its age cannot be checked against ${limit}`, ...fresh };
	}
	const ageMs = now - time;
	if (ageMs < -FUTURE_TOLERANCE_MS) {
		return {
			problem: `finished in the future (${String(finishedAt)}, ${Math.ceil(-ageMs / 60_000)} minutes ahead of this machine's clock), so its age cannot be checked against ${limit}`,
			...fresh,
		};
	}
	// Whole minutes, as the message says them.
	const minutes = Math.floor(Math.max(0, ageMs) / 60_000);
	if (minutes > max) return { problem: `finished ${minutes} minutes ago, more than ${limit}`, ...fresh };
	return undefined;
}

/**
 * Refuses the item when the finished dry run breaks a guard. Call it before any request that could start the
 * real job. The refusal says what the dry run has, what is allowed and how to go on; in tool use it tells a
 * model that the guards are the workflow's, not the call's.
 */
export function checkRunGuards(ctx: IExecuteFunctions, dryRun: Job, guards: RunGuards, itemIndex: number, now = Date.now()): void {
	const refusal = guardRefusal(dryRun, guards, now);
	if (!refusal) return;
	const hint = isToolUse(ctx.getNode())
		? `The ${refusal.guard} guard is set in the workflow; a tool call cannot change it. Tell the user why this dry run was refused. To go on, they change the guard in the workflow, or you ${refusal.toolFit}.`
		: `To go on, change ${refusal.guard} in the node's Guards (or remove it), or make ${refusal.fit} and run that one.`;
	throw itemError(ctx.getNode(), `Not started: dry run ${dryRun.id} ${refusal.problem}`, itemIndex, {
		description: `No job was started. ${hint}`,
	});
}
