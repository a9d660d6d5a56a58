/** The checks of API › Check Compatibility, in the order they are output (ids as in docs/api-contract.md). */
// @ts-nocheck

import { mediaType, root, token } from './checks/connection';
import { cursorPaging, listRoutes, pageSize, pageTotal } from './checks/lists';
import { sortCreatedAt, sortUpdatedAt } from './checks/order';
import { filterChecks, filterUnknown } from './checks/filters';
import { accountId, errorsRoute, jobStatuses, notFound, syncConflict, transfersRoute, unknownAttributes } from './checks/records';
import type { CheckSpec } from './outcome';

export type { CheckResult, CheckSpec, Outcome } from './outcome';
export { Probe, rootAnswer } from './probe';
export { cannotTell, errorText } from './outcome';

/** The checks, in the order they are output; ids as in docs/api-contract.md. */
export const CHECKS: readonly CheckSpec[] = [
	token,
	root,
	mediaType,
	listRoutes,
	pageSize,
	pageTotal,
	cursorPaging,
	sortUpdatedAt,
	sortCreatedAt,
	...filterChecks,
	filterUnknown,
	jobStatuses,
	unknownAttributes,
	accountId,
	transfersRoute,
	errorsRoute,
	syncConflict,
	notFound,
];
