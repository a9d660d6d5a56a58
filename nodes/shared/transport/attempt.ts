/**
 * One attempt of a request, bounded as a whole by the Timeout: its answer's text, or the facts of its failure
 * (failure.ts). What the text comes to, whether to repeat, and how long to wait, is request.ts's.
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { BodyBoundError, discardBody, readBody } from './body';
import { CREDENTIAL_TYPE, noteServerDate } from './connection';
import type { FailureFacts } from './failure';
import { failureFacts, header } from './failure';
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
