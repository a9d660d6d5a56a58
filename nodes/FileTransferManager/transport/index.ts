/**
 * The transport: every request of the nodes goes through here, and this index is the only way in from
 * outside transport/ (test/layout/layers.test.ts). One concern per module:
 * - request.ts: one request, its bounds and repeats;
 * - adaptations.ts: the named rules for deployments that deviate (redirects, a stated page maximum, 415,
 *   a DELETE already done);
 * - settings.ts: the Request Options and their defaults;
 * - retry.ts: when and how long to wait before a repeat, and the pause that a stop ends;
 * - limiter.ts: how many requests are in flight at once, the pause a Retry-After sets for all, and the
 *   dropping of a request whose stop signal aborted before it was sent (what stops an item is decided in
 *   actions/itemRun.ts, above the transport);
 * - adaptive.ts: that number under Parallel Requests "Auto", learnt from the answers;
 * - learnt.ts: what Auto learnt about a service, kept for the next executions of this process;
 * - body.ts: reading an answer within its size and time limits;
 * - failure.ts: what a failed attempt tells (and whether repeating it is safe);
 * - errors.ts: the errors the user sees;
 * - failureCause.ts: why a request failed, as n8n reads it on the error (`failure`);
 * - egress.ts: n8n's SSRF protection refusing a request, and what to set;
 * - secrets.ts: keeping the token and secret out of them;
 * - token.ts: the token request the credential makes;
 * - origin.ts: the credential's check that a request goes to its Base URL's origin;
 * - pagination.ts: lists;
 * - connection.ts: the credential's Base URL and the service's clock;
 * - constants.ts: the credential type's name.
 */
export type { ApiContext } from './settings';
export { AUTO_DEFAULT_CAP } from './adaptive';
export { DEFAULT_PARALLEL, DEFAULT_TRANSPORT, MAX_PARALLEL, parallelFromNode, settingsFromNode } from './settings';
export { StoppedError, setParallel } from './limiter';
export { pause, retryAfterSeconds, retryDelayMs } from './retry';
export { AmbiguousRequestError, EgressBlockedError } from './errors';
export { CONFIGURATION_INVALID, declareFailure } from './failureCause';
export { requestToken } from './token';
export { assertCredentialOrigin } from './origin';
export type { RequestItem, RequestParams } from './request';
export { apiRequest, sendsPlainJson, servedPageLimit } from './request';
export type { NextPage } from './pagination';
export { apiRequestAllItems, nextPageOf, pageRequest } from './pagination';
export { serverClockOf } from './connection';
