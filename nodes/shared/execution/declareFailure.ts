/**
 * Why a node failed, in the words n8n 2.40 and later read on an error (`failure`, n8n-workflow's `Failure`):
 * n8n's poll back-off waits out a timed cause and treats an actionable one as permanent. Which failure of a
 * request gets which cause is the transport's (transport/failure.ts failureCauseOf); helpers declare the contract's
 * breaches they find themselves with CONFIGURATION_INVALID.
 *
 * The cause is set as a plain property, which n8n reads without `instanceof`; older n8n versions ignore it,
 * and it is not part of the error's message, description or JSON.
 */
export type TimedCause = 'rate-limited' | 'temporarily-unavailable';
type ActionableCause = 'credential-invalid' | 'configuration-invalid';

/** The subset of n8n-workflow's `Failure` the nodes declare. */
export type FailureCause =
	| { cause: TimedCause; retryAfterMs?: number; resetsAtEpochMs?: number }
	| { cause: ActionableCause };

/** The deployment differs from the contract in a way that does not pass by itself. */
export const CONFIGURATION_INVALID: FailureCause = { cause: 'configuration-invalid' };

/** Puts `cause` on `error` as n8n reads it (a plain `failure` property); nothing when it is undefined. */
export function declareFailure<E extends Error>(error: E, cause: FailureCause | undefined): E {
	if (cause) (error as E & { failure?: FailureCause }).failure = { ...cause };
	return error;
}
