/**
 * Small fixtures for the pure unit tests of test/unit: records built from the API's own types and the
 * least of a node context the modules under test touch. Nothing here talks to a server.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import type { Job, JobAttributes, JobStats } from '../../nodes/shared/api/types';
import { emptyStats } from '../../sandbox/src/util';

export const NODE: INode = {
	id: 'unit-node',
	name: 'File Transfer Manager',
	type: 'n8n-nodes-file-transfer-manager.fileTransferManager',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A UUID whose last group is `n`, so that ids sort as their numbers do. */
export const uuid = (n: number): string => `3f2b8c1e-6a1d-4c1f-9b7e-${n.toString(16).padStart(12, '0')}`;

export const ACCOUNT_ID = uuid(0xa0);
export const SOURCE_ID = uuid(0x50);
export const TARGET_ID = uuid(0x7a);


/** A job with every attribute the API sends; `attributes` and `stats` override the defaults. */
export function makeJob(
	id: string,
	attributes: Partial<Omit<JobAttributes, 'stats'>> = {},
	stats: Partial<JobStats> = {},
): Job {
	return {
		id,
		type: 'jobs',
		attributes: {
			name: 'Nightly export',
			status: 'running',
			accountId: ACCOUNT_ID,
			deploymentId: ACCOUNT_ID,
			groupId: null,
			userId: null,
			dryRun: false,
			transferType: 'copy',
			source: { type: 'file', id: SOURCE_ID, path: '/exports' },
			target: { id: TARGET_ID, path: null },
			scope: { type: 'rules', method: 'include-if-all', rules: [] },
			conflictHandling: 'skip',
			failureConditions: [],
			transferRateLimit: null,
			createdAt: '2026-11-21T08:00:00.000Z',
			updatedAt: '2026-11-21T09:00:00.000Z',
			...attributes,
			stats: emptyStats(stats),
		},
	};
}

/**
 * The least of an action node's context the validators use: the node, and parameters by name (the
 * fallback when a name is not given).
 */
export function executeContext(parameters: Record<string, unknown> = {}): IExecuteFunctions {
	const ctx = {
		getNode: () => NODE,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			Object.prototype.hasOwnProperty.call(parameters, name) ? parameters[name] : fallback,
	};
	return ctx as unknown as IExecuteFunctions;
}

/** The error a call throws (fails the test when it throws none). */
export function thrown(call: () => unknown): Error {
	try {
		call();
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected the call to throw, it returned');
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejected(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected the promise to reject, it resolved');
}
