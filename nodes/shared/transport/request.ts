/**
 * One API request with the credential, within its bounds, repeated only when that is safe. Each rule has one
 * place: what goes out (outgoing.ts), one attempt (attempt.ts) and what its answer comes to (resultOf, here),
 * when requests may go (pace/), how a deployment that deviates is met (adaptations.ts decides and
 * applies), whether to repeat and how long to wait (failure.ts verdictOf, retry.ts), and the error the user
 * sees (errors.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Route } from '../api/routes';
import type { Attempt } from './attempt';
import { attemptOnce, cancelSignalOf } from './attempt';
import { connectionOf } from './connection';
import type { Tried } from './adaptations';
import { applyRepeat, firstAdaptation, sendsPlainJson } from './adaptations';
import type { ErrorOptions } from './errors';
import { finalError, redirectError } from './errors';
import type { FailureFacts } from './failure';
import { header, parseJson, verdictOf } from './failure';
import { outgoing } from './outgoing';
import { enter, heard, leave } from './pace';
import { retryAfterSeconds, retryDelayMs, sleepUnless } from './retry';
import { holdsSecret, knownSecrets, redact } from './secrets';
import { forgetTokenRequest } from './token';
import type { ApiContext, TransportSettings } from './settings';
import { DEFAULT_TRANSPORT, settingsFromNode } from './settings';

/**
 * The input item a request is made for, as the transport knows it: by its index and its stop signal, and
 * nothing else (which items run and which are stopped is the item loop's, actions/itemRun.ts).
 */
export interface RequestItem {
	/** The item's place in the node's input, named in errors. */
	readonly index: number;
	/**
	 * Aborted when nothing more may be sent for the item (beside the execution's cancel signal, which also
	 * ends what is in flight): a request not sent yet is dropped, and rejects with StoppedError. A request
	 * already sent is answered as usual.
	 */
	readonly stop: AbortSignal;
}

export interface RequestParams {
	body?: IDataObject;
	qs?: IDataObject;
	/** The item the request is made for; none for the trigger, list search and the credential test. */
	item?: RequestItem;
	/**
	 * Whether repeating the request after an ambiguous failure (500, 502, 504, dropped connection,
	 * timeout, an answer that is not JSON) is harmless. GET and DELETE always are; PATCH with absolute
	 * values is when the caller says so. POST never is.
	 */
	idempotent?: boolean;
	settings?: Partial<TransportSettings>;
	/**
	 * Local time (ms) after which this request no longer waits for a pause another request's Retry-After
	 * set, or for the learnt budget: it is sent then. Wait for Completion's status checks pass their Max
	 * Wait deadline, so that no Retry-After stretches a wait.
	 */
	waitUntil?: number;
	/**
	 * An absolute URL the service gave (a list's `links.next`) to request instead of the route's path and
	 * `qs`; it must be on the Base URL's origin.
	 */
	url?: string;
}

/**
 * What a finished attempt comes to: the answer's document (the secrets it quotes redacted; nothing for an empty
 * answer to a DELETE), or the facts of its failure. A 2xx answer that is not a JSON document (a proxy's
 * maintenance page, a cut-off body) is a failure: the request may have been carried out.
 */
function resultOf<T>(
	outcome: Attempt,
	method: string,
	secrets: string[],
): { done: true; value: T } | { done: false; facts: FailureFacts } {
	if (!outcome.ok) return { done: false, facts: outcome.facts };
	if (method === 'DELETE' && outcome.text.trim() === '') return { done: true, value: undefined as T };
	const parsed = parseJson(outcome.text);
	if (parsed !== null && typeof parsed === 'object') {
		const known = knownSecrets(secrets);
		if (holdsSecret(outcome.text, known)) return { done: true, value: JSON.parse(redact(outcome.text, known)) as T };
		return { done: true, value: parsed as T };
	}
	return { done: false, facts: { status: outcome.status, headers: {}, body: undefined, garbled: true } };
}

/**
 * The Retry-After a failure that was not carried out answered with: the token request's own for a token
 * failure. Nothing for a failure that may have been carried out.
 */
function retryAfterOf(facts: FailureFacts): string | undefined {
	if (verdictOf(facts) !== 'not-carried-out') return undefined;
	return facts.token ? facts.token.retryAfter : header(facts.headers, 'retry-after');
}

/** How long a Retry-After pauses every request of the node (pace/), within Max Wait Between Retries; none without one. */
function pauseMs(retryAfter: string | undefined, attempt: number, settings: TransportSettings): number | undefined {
	const after = retryAfterSeconds(retryAfter);
	return after === undefined ? undefined : retryDelayMs(attempt, settings, after);
}

/**
 * Sends one API request with the credential, repeating it only when that is safe: 429 and 503 always
 * (the server did not carry them out), other faults only for idempotent requests. 401 is handled by
 * n8n's pre-authentication path (one new token, one repeat).
 */
export async function apiRequest<T = IDataObject>(ctx: ApiContext, route: Route, params: RequestParams = {}): Promise<T> {
	const settings: TransportSettings = {
		...DEFAULT_TRANSPORT,
		...(params.settings ?? settingsFromNode(ctx, params.item?.index)),
	};
	const connection = await connectionOf(ctx, params.item?.index);
	const idempotent = params.idempotent ?? (route.method === 'GET' || route.method === 'DELETE');
	const options = outgoing(ctx, route, params, connection, settings, params.item?.index);
	const tried: Tried = { pageRetried: false, mediaRetried: false, redirects: 0, ambiguousEarlier: false };
	const cancel = cancelSignalOf(ctx);
	for (let attempt = 0; ; attempt++) {
		// Every attempt waits for a place and for a pause another request's Retry-After set (pace/).
		const place = await enter(ctx, connection.service, { cancel, stop: params.item?.stop, waitUntil: params.waitUntil });
		let outcome: Attempt | undefined;
		try {
			outcome = await attemptOnce(ctx, options, settings, {
				answered: () => heard(place, { ok: true }),
				failedWith: (status, headers) => heard(place, { ok: false, status, pauseMs: pauseMs(header(headers, 'retry-after'), attempt, settings) }),
			});
		} finally {
			leave(place, outcome, outcome?.ok === false ? pauseMs(retryAfterOf(outcome.facts), attempt, settings) : undefined);
		}
		const result = resultOf<T>(outcome, route.method, connection.secrets);
		if (result.done) return result.value;
		const facts = result.facts;
		// A token request this attempt waited for may still hang: a repeat asks anew.
		if (facts.timedOut) forgetTokenRequest(connection.client);
		const secrets = knownSecrets(connection.secrets);
		const errorOptions: ErrorOptions = { itemIndex: params.item?.index, attempts: attempt + 1, ambiguousEarlier: tried.ambiguousEarlier, route, secrets };
		const verdict = verdictOf(facts);
		const canRepeat = verdict === 'not-carried-out' || (verdict === 'ambiguous' && idempotent);
		const policyRepeats = canRepeat && attempt < settings.maxRetries && !cancel?.aborted;
		// A deployment that deviates in a way a rule meets (adaptations.ts): the first rule that answers decides.
		const adapted = firstAdaptation(facts, {
			...tried,
			method: route.method,
			url: String(options.url),
			origin: connection.origin,
			qs: options.qs,
			hasBody: params.body !== undefined,
			plainJson: sendsPlainJson(ctx),
			policyRepeats,
			secrets,
		})?.adaptation;
		if (adapted?.kind === 'throw') throw redirectError(ctx, facts, adapted.why, errorOptions);
		if (adapted?.kind === 'return') return adapted.result as T;
		if (adapted?.kind === 'repeat') {
			applyRepeat(ctx, route, options, tried, adapted.change);
			// An adapted repeat is not an attempt of the retry budget.
			attempt--;
			continue;
		}
		if (!policyRepeats) throw finalError(ctx, facts, verdict, idempotent, String(options.url), settings, errorOptions);
		await sleepUnless(retryDelayMs(attempt, settings, retryAfterSeconds(retryAfterOf(facts))), cancel);
		if (verdict === 'ambiguous') tried.ambiguousEarlier = true;
	}
}
