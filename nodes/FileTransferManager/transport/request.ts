/**
 * One API request with the credential, within its bounds, repeated only when that is safe. How it meets a
 * deployment that deviates (a redirect, a stated page maximum, a 415, a DELETE already done) is decided by
 * the named rules of adaptations.ts; the retry policy and the error mapping stay here and in errors.ts.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import type { Route } from '../api/routes';
import { joinUrl } from '../api/routes';
import type { RequestState } from './adaptations';
import { firstAdaptation } from './adaptations';
import { BodyLimitError, discardBody, readBody } from './body';
import { connectionOf, noteServerDate } from './connection';
import { CREDENTIAL_TYPE } from './constants';
import type { ErrorOptions } from './errors';
import { ambiguousError, blockedError, foreignLinkError, garbledError, redirectError, tokenError, toNodeApiError } from './errors';
import type { FailureFacts } from './failure';
import { failureFacts, header, loadSignalOf, parseJson, refusalOf, TLS_CODES, verdictOf } from './failure';
import { acquire, markSent, noteAccepted, noteLoad, notePause, release, sentAheadOf, useService } from './limiter';
import { pause, retryAfterSeconds, retryDelayMs } from './retry';
import { holdsSecret, knownSecrets, redact } from './secrets';
import { forgetTokenRequest } from './token';
import { perRun } from '../execution/perRun';
import type { ApiContext, TransportSettings } from './settings';
import { DEFAULT_TRANSPORT, settingsFromNode } from './settings';

const MEDIA_TYPE = 'application/vnd.api+json';
/** Answers after which n8n fetches one new token and repeats the request once. */
const TOKEN_REFUSED_STATUSES = [401, 403];

export interface RequestParams {
	body?: IDataObject;
	qs?: IDataObject;
	/** Item the request is made for; named in errors. */
	itemIndex?: number;
	/**
	 * Aborted when the caller wants nothing more sent (beside the execution's cancel signal, which also
	 * ends what is in flight): a request not sent yet is dropped, and rejects with StoppedError. A request
	 * already sent is answered as usual.
	 */
	stop?: AbortSignal;
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

/** What this execution learnt about the deployment, per node context (one execution, one poll). */
interface Learnt {
	/** The largest page size a list route accepts, when it refused a larger one. */
	pageLimits: Map<string, number>;
	/** The service refused the JSON:API media type for request bodies (415): send application/json. */
	plainJson: boolean;
}

const learntOf = perRun<ApiContext, Learnt>(() => ({ pageLimits: new Map(), plainJson: false }));

/** The page size this execution asks of `route`: `requested`, or less after the service stated a maximum. */
export function servedPageLimit(ctx: ApiContext, route: Route, requested: number): number {
	const max = learntOf(ctx).pageLimits.get(route.path);
	return max === undefined ? requested : Math.min(requested, max);
}

/**
 * Whether this execution sends request bodies as application/json, because the service refused the JSON:API
 * media type (415) and the transport fell back (API › Check Compatibility reports it).
 */
export function sendsPlainJson(ctx: ApiContext): boolean {
	return learntOf(ctx).plainJson;
}

type Attempt = { ok: true; status: number; text: string } | { ok: false; facts: FailureFacts };

/** What an attempt reports as soon as it knows, before its body is read (for the limiter). */
interface AttemptHooks {
	/** The service answered with a success. */
	answered: () => void;
	/** The service answered with an error status (or none came). */
	failedWith: (status: number | undefined, headers: Record<string, unknown>) => void;
}

function cancelSignalOf(ctx: ApiContext): AbortSignal | undefined {
	const get = (ctx as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>).getExecutionCancelSignal;
	return typeof get === 'function' ? get.call(ctx) : undefined;
}

/**
 * `call`, or its rejection once `signal` aborts (the request keeps no hold on the caller after that).
 * The listener is removed as soon as the race is decided: a timeout signal with a listener stays alive
 * until it fires, and it would keep the answer alive with it for the whole Timeout.
 */
export async function raceAbort<T>(call: Promise<T>, signal: AbortSignal): Promise<T> {
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(signal.reason);
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([call, aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}

/**
 * One attempt, bounded as a whole by `settings.timeout`: the token request it may need, the headers and
 * the body. A late answer to an abandoned attempt is discarded.
 */
async function attemptOnce(
	ctx: ApiContext,
	options: IHttpRequestOptions,
	settings: TransportSettings,
	hooks: AttemptHooks,
): Promise<Attempt> {
	const deadline = AbortSignal.timeout(settings.timeout);
	const cancel = cancelSignalOf(ctx);
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	// n8n-core gives each request the context's cancel signal (httpRequestWithAuthentication), and every request
	// in flight adds a listener to it, which Node checks against all the others: with hundreds in flight that
	// walk cost more CPU than our transport (bench/README.md). Through a view of the context whose cancel signal is
	// this attempt's own (cancel or deadline), each signal has one listener; the execution's cancel still aborts.
	const view = cancel ? (Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as ApiContext) : ctx;
	const call = ctx.helpers.httpRequestWithAuthentication.call(
		view,
		CREDENTIAL_TYPE,
		{ ...options, headers: { ...options.headers } },
		// A token the service no longer takes is renewed once after a 401 (the contract) or a 403 (what some
		// deployments answer instead): the same single renewal, so a lasting refusal is still one repeat.
		{ preAuthenticationRetryStatusCode: TOKEN_REFUSED_STATUSES },
	) as Promise<{ body?: unknown; headers?: Record<string, unknown>; statusCode?: number }>;
	try {
		const response = await raceAbort(call, signal);
		// Counted as soon as the headers are in: a 429 that arrives after this answer must find it counted
		// (limiter.ts notePause), however long its body takes.
		hooks.answered();
		noteServerDate(ctx, header(response.headers ?? {}, 'date'));
		const text = await readBody(response.body, settings.maxResponseBytes, signal);
		return { ok: true, status: Number(response.statusCode), text };
	} catch (error) {
		call.then((late) => discardBody(late?.body)).catch(() => undefined);
		if (error instanceof BodyLimitError) {
			const facts: FailureFacts = { headers: {}, body: undefined, status: 200 };
			if (error.kind === 'too-large') facts.limit = 'too-large';
			else if (error.kind === 'timeout') facts.timedOut = true;
			else if (signal.aborted) facts.canceled = true;
			else facts.code = 'ECONNRESET';
			if (!facts.limit) delete facts.status;
			return { ok: false, facts };
		}
		const facts = await failureFacts(error, settings.maxResponseBytes, signal, hooks.failedWith);
		if (facts.status !== undefined && facts.status >= 300 && facts.status < 400) {
			noteServerDate(ctx, header(facts.headers, 'date'));
		}
		return { ok: false, facts };
	}
}

/**
 * Sends one API request with the credential, repeating it only when that is safe: 429 and 503 always
 * (the server did not carry them out), other faults only for idempotent requests. 401 is handled by
 * n8n's pre-authentication path (one new token, one repeat).
 */
export async function apiRequest<T = IDataObject>(ctx: ApiContext, route: Route, params: RequestParams = {}): Promise<T> {
	const settings: TransportSettings = {
		...DEFAULT_TRANSPORT,
		...(params.settings ?? settingsFromNode(ctx, params.itemIndex)),
	};
	const connection = await connectionOf(ctx, params.itemIndex);
	useService(ctx, connection.service);
	const idempotent = params.idempotent ?? (route.method === 'GET' || route.method === 'DELETE');
	const known = learntOf(ctx);
	let url = joinUrl(connection.baseUrl, route.path);
	if (params.url !== undefined) {
		let target: URL | undefined;
		try {
			target = new URL(params.url, url);
		} catch {
			target = undefined;
		}
		if (!target || target.origin !== connection.origin) {
			throw foreignLinkError(ctx, route, target?.origin ?? 'an unreadable URL', params.itemIndex);
		}
		url = target.href;
	}
	const options: IHttpRequestOptions = {
		method: route.method,
		url,
		headers: { Accept: `${MEDIA_TYPE}, application/json` },
		json: true,
		timeout: settings.timeout,
		disableFollowRedirect: true,
		returnFullResponse: true,
		encoding: 'stream',
	};
	if (connection.skipTls) options.skipSslCertificateValidation = true;
	if (params.url === undefined && params.qs && Object.keys(params.qs).length > 0) {
		options.qs = { ...params.qs };
		const asked = Number(options.qs['page[limit]']);
		if (Number.isInteger(asked)) options.qs['page[limit]'] = servedPageLimit(ctx, route, asked);
	}
	const contentType = () => (known.plainJson ? 'application/json' : MEDIA_TYPE);
	if (params.body !== undefined) {
		options.body = params.body;
		options.headers = { ...options.headers, 'Content-Type': contentType() };
	}
	let pageRetried = false;
	let mediaRetried = false;

	let ambiguousEarlier = false;
	let redirects = 0;
	const cancel = cancelSignalOf(ctx);
	for (let attempt = 0; ; attempt++) {
		// Every attempt waits for a slot and for a pause another request's Retry-After set.
		const limiter = await acquire(ctx, cancel, params.stop, params.waitUntil);
		const sentAt = Date.now();
		const inFlight = limiter.active;
		const sent = markSent(limiter);
		let outcome: Attempt;
		let accepted = false;
		let refusalNoted = false;
		const hooks: AttemptHooks = {
			answered: () => {
				accepted = true;
				noteAccepted(limiter);
			},
			// A 429 or 503 with Retry-After pauses the node's requests at once, not only after its body is read:
			// on a busy machine that read can come after many more requests went out into the same refusal.
			failedWith: (status, headers) => {
				if (status !== 429 && status !== 503) return;
				refusalNoted = true;
				const after = retryAfterSeconds(header(headers, 'retry-after'));
				noteLoad(limiter, { answer: refusalOf(status), sentAt, answeredAt: Date.now(), inFlight, ahead: sentAheadOf(limiter, sent) });
				if (after !== undefined) notePause(limiter, retryDelayMs(attempt, settings, after), status);
			},
		};
		try {
			outcome = await attemptOnce(ctx, { ...options, url }, settings, hooks);
		} finally {
			release(limiter, sent);
		}
		if (!refusalNoted) {
			noteLoad(limiter, { answer: outcome.ok ? 'clean' : loadSignalOf(outcome.facts), sentAt, answeredAt: Date.now(), inFlight });
		}
		const refusedStatus = !outcome.ok && (outcome.facts.status === 429 || outcome.facts.status === 503);
		if (!accepted && !refusedStatus && (outcome.ok || outcome.facts.status !== undefined)) noteAccepted(limiter);
		let facts: FailureFacts;
		if (outcome.ok) {
			if (route.method === 'DELETE' && outcome.text.trim() === '') return undefined as T;
			const parsed = parseJson(outcome.text);
			if (parsed !== null && typeof parsed === 'object') {
				const secrets = knownSecrets(connection.secrets);
				if (holdsSecret(outcome.text, secrets)) {
					return JSON.parse(redact(outcome.text, secrets)) as T;
				}
				return parsed as T;
			}
			// A 2xx answer that is not JSON (a proxy's maintenance page, a cut-off body): the request
			// may have been carried out.
			facts = { status: outcome.status, headers: {}, body: undefined, garbled: true };
		} else {
			facts = outcome.facts;
			// A token request this attempt waited for may still hang: a repeat asks anew.
			if (facts.timedOut) forgetTokenRequest(connection.client);
		}

		const errorOptions: ErrorOptions = {
			itemIndex: params.itemIndex,
			attempts: attempt + 1,
			ambiguousEarlier,
			route,
			secrets: knownSecrets(connection.secrets),
		};
		const verdict = verdictOf(facts);
		const canRepeat = verdict === 'not-carried-out' || (verdict === 'ambiguous' && idempotent);
		const policyRepeats = canRepeat && attempt < settings.maxRetries && !cancel?.aborted;
		// A deployment that deviates in a way a rule meets (adaptations.ts): the first rule that answers decides.
		const state: RequestState = {
			method: route.method,
			url,
			origin: connection.origin,
			qs: options.qs,
			hasBody: params.body !== undefined,
			plainJson: known.plainJson,
			pageRetried,
			mediaRetried,
			redirects,
			ambiguousEarlier,
			policyRepeats,
			secrets: errorOptions.secrets,
		};
		const adapted = firstAdaptation(facts, state)?.adaptation;
		if (adapted?.kind === 'throw') throw redirectError(ctx, facts, adapted.why, errorOptions);
		if (adapted?.kind === 'return') return adapted.result as T;
		if (adapted?.kind === 'repeat') {
			const change = adapted.change;
			if ('follow' in change) {
				redirects++;
				url = change.follow;
				// The query is part of the Location now.
				delete options.qs;
			} else if ('pageLimit' in change) {
				pageRetried = true;
				known.pageLimits.set(route.path, change.pageLimit);
				options.qs = { ...options.qs, 'page[limit]': change.pageLimit };
			} else {
				mediaRetried = true;
				known.plainJson = true;
				options.headers = { ...options.headers, 'Content-Type': contentType() };
			}
			// An adapted repeat is not an attempt of the retry budget.
			attempt--;
			continue;
		}
		const retryAfterHeader = facts.token ? facts.token.retryAfter : header(facts.headers, 'retry-after');
		const after = verdict === 'not-carried-out' ? retryAfterSeconds(retryAfterHeader) : undefined;
		// The service asked for a pause: every request of this node keeps it, not only this one (set already when
		// the answer's headers came in, except for the token request's).
		if (after !== undefined && !refusalNoted) notePause(limiter, retryDelayMs(attempt, settings, after), facts.status);
		if (policyRepeats) {
			await pause(retryDelayMs(attempt, settings, after), cancel);
			if (verdict === 'ambiguous') ambiguousEarlier = true;
			continue;
		}
		if (facts.blocked) throw blockedError(ctx, facts, url, errorOptions);
		if (facts.token && facts.token.kind !== 'tls') throw tokenError(ctx, facts, errorOptions);
		if (facts.code && TLS_CODES.test(facts.code)) throw toNodeApiError(ctx, facts, settings, errorOptions);
		if (verdict === 'ambiguous' && !idempotent) throw ambiguousError(ctx, facts, settings, errorOptions);
		if (facts.garbled) throw garbledError(ctx, facts, errorOptions);
		throw toNodeApiError(ctx, facts, settings, errorOptions);
	}
}
