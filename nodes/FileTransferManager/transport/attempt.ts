/**
 * One attempt of a request, bounded as a whole by the Timeout, and what its answer comes to: a result, or the
 * facts of its failure (failure.ts). Whether to repeat it, and how long to wait, is request.ts's.
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { BodyBoundError, discardBody, readBody } from './body';
import { noteServerDate } from './connection';
import { CREDENTIAL_TYPE } from './constants';
import type { FailureFacts } from './failure';
import { failureFacts, header, parseJson } from './failure';
import { holdsSecret, knownSecrets, redact } from './secrets';
import type { ApiContext, TransportSettings } from './settings';

/** Answers after which n8n fetches one new token and repeats the request once. */
const TOKEN_REFUSED_STATUSES = [401, 403];

export type Attempt = { ok: true; status: number; text: string } | { ok: false; facts: FailureFacts };

/** What an attempt reports as soon as it knows, before its body is read (for the pacing, pace/). */
export interface AttemptHooks {
	/** The service answered with a success. */
	answered: () => void;
	/** The service answered with an error status (or none came). */
	failedWith: (status: number | undefined, headers: Record<string, unknown>) => void;
}

export function cancelSignalOf(ctx: ApiContext): AbortSignal | undefined {
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
export async function attemptOnce(
	ctx: ApiContext,
	options: IHttpRequestOptions,
	settings: TransportSettings,
	hooks: AttemptHooks,
): Promise<Attempt> {
	const deadline = AbortSignal.timeout(settings.timeout);
	const cancel = cancelSignalOf(ctx);
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	const call = ctx.helpers.httpRequestWithAuthentication.call(
		ctx,
		CREDENTIAL_TYPE,
		{ ...options, headers: { ...options.headers } },
		// A token the service no longer takes is renewed once after a 401 (the contract) or a 403 (what some
		// deployments answer instead): the same single renewal, so a lasting refusal is still one repeat.
		{ preAuthenticationRetryStatusCode: TOKEN_REFUSED_STATUSES },
	) as Promise<{ body?: unknown; headers?: Record<string, unknown>; statusCode?: number }>;
	try {
		const response = await raceAbort(call, signal);
		// Heard as soon as the headers are in, however long its body takes (pace/index.ts heard).
		hooks.answered();
		noteServerDate(ctx, header(response.headers ?? {}, 'date'));
		const text = await readBody(response.body, settings.maxResponseBytes, signal);
		return { ok: true, status: Number(response.statusCode), text };
	} catch (error) {
		call.then((late) => discardBody(late?.body)).catch(() => undefined);
		if (error instanceof BodyBoundError) {
			const facts: FailureFacts = { headers: {}, body: undefined, status: 200 };
			if (error.kind === 'too-large') facts.bound = 'too-large';
			else if (error.kind === 'timeout') facts.timedOut = true;
			else if (signal.aborted) facts.canceled = true;
			else facts.code = 'ECONNRESET';
			if (!facts.bound) delete facts.status;
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
 * What a finished attempt comes to: the answer's document (the secrets it quotes redacted; nothing for an empty
 * answer to a DELETE), or the facts of its failure. A 2xx answer that is not a JSON document (a proxy's
 * maintenance page, a cut-off body) is a failure: the request may have been carried out.
 */
export function resultOf<T>(
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
