import type { IHttpRequestMethods } from 'n8n-workflow';

import { isUuid } from './ids';

/**
 * Every route of the API, in one place (docs/api-contract.md "Routes"). Paths are relative to the credential's
 * Base URL, which may carry a path prefix. A maintainer who learns the real service's paths changes
 * this file only.
 */
export interface Route {
	method: IHttpRequestMethods;
	path: string;
}


/** Thrown when a route would be built with an id that is not a UUID (the API's ids all are). */
export class UnsafeRouteIdError extends Error {}

/**
 * An id as a path segment. Every id of the API is a UUID, so anything else (`..`, `a/b`, an empty
 * string) is refused here rather than sent: `/jobs/..` would otherwise reach `GET /`. User input is
 * checked before this with an input error, and ids from the service by the shape checks
 * (nodes/shared/answers/shape.ts); this is the last guard.
 */
const id = (value: string): string => {
	if (!isUuid(value)) {
		throw new UnsafeRouteIdError(`Refused to put ${JSON.stringify(value)} into a request path: it is not a UUID`);
	}
	return value;
};

export const routes = {
	token: (): Route => ({ method: 'POST', path: '/oauth/token' }),
	apiVersion: (): Route => ({ method: 'GET', path: '/' }),

	listAccounts: (): Route => ({ method: 'GET', path: '/accounts' }),
	getAccount: (accountId: string): Route => ({ method: 'GET', path: `/accounts/${id(accountId)}` }),

	listGroups: (): Route => ({ method: 'GET', path: '/groups' }),
	createGroup: (): Route => ({ method: 'POST', path: '/groups' }),
	getGroup: (groupId: string): Route => ({ method: 'GET', path: `/groups/${id(groupId)}` }),
	updateGroup: (groupId: string): Route => ({ method: 'PATCH', path: `/groups/${id(groupId)}` }),
	deleteGroup: (groupId: string): Route => ({ method: 'DELETE', path: `/groups/${id(groupId)}` }),

	listUsers: (): Route => ({ method: 'GET', path: '/users' }),
	createUser: (): Route => ({ method: 'POST', path: '/users' }),
	getUser: (userId: string): Route => ({ method: 'GET', path: `/users/${id(userId)}` }),
	updateUser: (userId: string): Route => ({ method: 'PATCH', path: `/users/${id(userId)}` }),
	deleteUser: (userId: string): Route => ({ method: 'DELETE', path: `/users/${id(userId)}` }),

	listJobs: (): Route => ({ method: 'GET', path: '/jobs' }),
	createJob: (): Route => ({ method: 'POST', path: '/jobs' }),
	getJob: (jobId: string): Route => ({ method: 'GET', path: `/jobs/${id(jobId)}` }),
	updateJob: (jobId: string): Route => ({ method: 'PATCH', path: `/jobs/${id(jobId)}` }),
	listJobTransfers: (jobId: string): Route => ({ method: 'GET', path: `/jobs/${id(jobId)}/transfers` }),
	listJobErrors: (jobId: string): Route => ({ method: 'GET', path: `/jobs/${id(jobId)}/errors` }),

	listStorages: (): Route => ({ method: 'GET', path: '/storages' }),
	getStorage: (storageId: string): Route => ({ method: 'GET', path: `/storages/${id(storageId)}` }),
} as const;

/** Joins the credential's Base URL (path prefix allowed, trailing slashes ignored) and a route path. */
export function joinUrl(baseUrl: string, path: string): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}${path}`;
}
