/**
 * The settings matrix's rows: one read operation per resource of the action node, each with a good,
 * an invalid and an unknown input, and a Get Many whose filters match nothing.
 */
// @ts-nocheck

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS } from '../../sandbox/src';
import type { FaultRule, Sandbox } from '../../sandbox/src/api';

/** A UUID no record of the sandbox has. */
const UNKNOWN = '0d0d0d0d-0000-4000-8000-000000000000';

/** A resource locator, By ID, whose value is an expression. */
export const rlExpr = (expression: string) => ({ __rl: true, mode: 'id', value: `={{ ${expression} }}` });

export interface ResourceCase {
	resource: string;
	/** The operation each input item runs; reads the id (or, for API, a setting) from `$json`. */
	operation: string;
	/** Parameters reading the item's input from `$json.id` (`$json.timeout` for API). */
	parameters: INodeParameters;
	/** Route template the operation requests, as the sandbox's request log names it. */
	route: string;
	/**
	 * The three kinds of input item: one that succeeds, one the node refuses before any request, one the
	 * service fails (404 Entity Not Found; for API, where nothing can be unknown, a 500 from `fault`).
	 */
	good: IDataObject;
	invalid: IDataObject;
	failing: IDataObject;
	/** Fault rules that make the "failing" item fail (API only), to add before the run. */
	faults?: (sandbox: Sandbox) => FaultRule[];
	/** What the error of the invalid item and of the failing item say. */
	invalidMessage: string | RegExp;
	failingMessage: string | RegExp;
	/** What the descriptions of those two errors say (a part of them). */
	invalidDescription: RegExp;
	failingDescription: RegExp;
	/** Checks that an output item is the good item's result. */
	isResult: (json: IDataObject) => boolean;
	/** A Get Many whose filters match no record (none for API). */
	emptyGetMany?: INodeParameters;
	getManyRoute?: string;
}

const getById = (resource: string, param: string, label: string, route: string, good: string, resultIs = 'id') => ({
	resource,
	operation: 'get',
	parameters: { [param]: rlExpr('$json.id') },
	route,
	good: { id: good },
	invalid: { id: 'not-a-uuid' },
	failing: { id: UNKNOWN },
	invalidMessage: `"${label}" must be a UUID, got "not-a-uuid" [item 1]`,
	failingMessage: 'Entity Not Found',
	invalidDescription: /^IDs of this API look like/,
	failingDescription: /^The requested entity was not found\./,
	isResult: (json: IDataObject) => json[resultIs] === good,
});

export const RESOURCES: ResourceCase[] = [
	{
		...getById('account', 'accountId', 'Account', '/accounts/{id}', DEMO_IDS.accountId),
		emptyGetMany: { operation: 'getMany', returnAll: true, filters: { name: 'no such account' } },
		getManyRoute: '/accounts',
	},
	{
		...getById('group', 'groupId', 'Group', '/groups/{id}', DEMO_IDS.groupIds[0]),
		emptyGetMany: { operation: 'getMany', returnAll: true, filters: { name: 'no such group' } },
		getManyRoute: '/groups',
	},
	{
		...getById('user', 'userId', 'User', '/users/{id}', DEMO_IDS.userIds[0]),
		emptyGetMany: { operation: 'getMany', returnAll: true, filters: { email: 'nobody@example.invalid' } },
		getManyRoute: '/users',
	},
	{
		...getById('job', 'jobId', 'Job', '/jobs/{id}', DEMO_IDS.jobIds.copied),
		emptyGetMany: { operation: 'getMany', returnAll: true, filters: { name: 'no such job' } },
		getManyRoute: '/jobs',
	},
	{
		...getById('storage', 'storageId', 'Storage', '/storages/{id}', DEMO_IDS.storageIds.files),
		emptyGetMany: { operation: 'getMany', returnAll: true, filters: { name: 'no such storage' } },
		getManyRoute: '/storages',
	},
	{
		resource: 'api',
		operation: 'getVersion',
		// Retries off: the injected 500 fails the item at once.
		parameters: { requestOptions: { timeout: '={{ $json.timeout }}', maxRetries: 0 } },
		route: '/',
		good: { timeout: 30 },
		invalid: { timeout: 'soon' },
		failing: { timeout: 20 },
		// The failing item sends the second request to "/" of a run (the invalid item sends none).
		faults: () => [{ kind: 'internal-error', path: '/', after: 1, times: 1 }],
		invalidMessage: /Timeout \(Seconds\)" must be a number, got "soon" \[item 1\]$/,
		failingMessage: 'Internal Server Error',
		invalidDescription: /Nothing was sent/,
		failingDescription: /internal error/,
		isResult: (json: IDataObject) => typeof json.apiVersion === 'string',
	},
];
