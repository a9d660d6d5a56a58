/**
 * The transport: every request of the nodes goes through here, and this index is the only way in from
 * outside transport/ (test/layout/layers.test.ts). One concern per module:
 * - request.ts: one request, read top to bottom: its steps are the modules below;
 * - outgoing.ts: what goes out (URL, a link on the Base URL's origin only, query, body, headers);
 * - attempt.ts: one attempt within the Timeout (request.ts reads what its answer comes to);
 * - pace/: when a request may go (places, the pause a Retry-After sets, Fixed, Auto and what Auto remembers);
 *   its index says how it differs from adaptations.ts;
 * - adaptations.ts: the named rules for deployments that deviate (redirects, a stated page maximum, 415,
 *   a DELETE already done), what this execution learnt of such a deployment, and how a rule changes the repeat;
 * - settings.ts: the Request Options and their defaults;
 * - retry.ts: how long to wait before a repeat, and a wait that a stop ends;
 * - body.ts: reading an answer within its size and time limits;
 * - failure.ts: what a failed attempt tells (and whether repeating it is safe), and why it failed as n8n
 *   reads it on the error (`failure`);
 * - errors.ts: the errors the user sees;
 * - egress.ts: n8n's SSRF protection refusing a request, and what to set;
 * - secrets.ts: keeping the token and secret out of them;
 * - token.ts: the token request the credential makes;
 * - origin.ts: the credential's check that a request goes to its Base URL's origin;
 * - pagination.ts: lists;
 * - connection.ts: the credential (its type's name, its Base URL) and the service's clock.
 *
 * What callers need, in few names: a request and a list, the pages of a list, what the deployment showed,
 * the Request Options, the retry waits, the errors a caller tells apart, and the credential's hooks.
 */
import { assertCredentialOrigin } from './origin';
import { serverClockOf } from './connection';
import { sendsPlainJson, servedPageLimit } from './adaptations';
import { AmbiguousRequestError, EgressBlockedError } from './errors';
import { nextPageOf, pageRequest } from './pagination';
import { setParallel, StoppedError } from './pace';
import { retryDelayMs, sleepUnless } from './retry';
import {
	AUTO_MAXIMUM_DEFAULT,
	DEFAULT_PARALLEL,
	DEFAULT_TRANSPORT,
	MAX_PARALLEL,
	parallelFromNode,
	settingsFromNode,
} from './settings';
import { requestToken } from './token';

export type { ApiContext } from './settings';
export type { RequestItem, RequestParams } from './request';
export { apiRequest } from './request';
export type { NextPage } from './pagination';
export { apiRequestAllItems } from './pagination';

/** A list's pages, for callers that page themselves (the trigger, list searches). */
export const pages = { nextPageOf, pageRequest };

/** What the deployment showed this execution: a stated page maximum, a 415 fallback, its clock. */
export const deployment = { servedPageLimit, sendsPlainJson, serverClockOf };

/** The node's Request Options: their defaults and bounds, reading them, and setting Parallel Requests. */
export const requestSettings = {
	DEFAULTS: DEFAULT_TRANSPORT,
	fromNode: settingsFromNode,
	PARALLEL_DEFAULT: DEFAULT_PARALLEL,
	PARALLEL_MAX: MAX_PARALLEL,
	AUTO_MAXIMUM_DEFAULT,
	parallelFromNode,
	setParallel,
};

/** The waits between repeats, for callers that repeat on their own (Wait for Completion, a create's check). */
export const retry = { delayMs: retryDelayMs, sleepUnless };

/** The errors of the transport that callers tell apart. */
export const requestErrors = { AmbiguousRequestError, EgressBlockedError, StoppedError };

/** What the credential calls: its token request, and its check of a request's origin. */
export const credential = { requestToken, assertCredentialOrigin };
