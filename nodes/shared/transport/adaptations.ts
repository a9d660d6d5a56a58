/**
 * The server adaptations of `apiRequest`: what it does when a deployment deviates from the contract or
 * misbehaves in a way it can meet safely. Each is a named rule with a pure decision: given what a failed
 * attempt told (`FailureFacts`) and the state of the request, it answers `NOT_MINE`, or one adaptation:
 * change the request and send it again (not counted as an attempt), return a result, or throw a named
 * error. `apiRequest` asks the rules in the order of `ADAPTATIONS` and applies the first that answers,
 * before its retry policy (which stays in request.ts and retry.ts, as the error mapping stays in errors.ts).
 *
 * A rule never repeats a request the server may have carried out, unless it is idempotent or the server
 * said it was not carried out; each repeats at most once (redirects: at most `MAX_REDIRECTS`).
 *
 * Its second part (at the end): what this execution learnt of such a deployment, and how a rule's change is
 * applied to the request that is sent again.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { Route } from '../api/routes';
import { perRun } from '../execution/perRun';

import { apiErrorOf } from './errors';
import type { FailureFacts } from './failure';
import { header } from './failure';
import type { ApiContext } from './settings';

/** Same-origin redirects followed for one request, at most. */
export const MAX_REDIRECTS = 5;

/** A rule's answer when the failure is not one it meets. */
export const NOT_MINE = 'not mine';

/** What a rule knows of the request whose attempt failed. */
export interface RequestState {
	/** The route's method (GET, POST, PATCH, DELETE). */
	readonly method: string;
	/** The URL the failed attempt was sent to (after any redirect followed). */
	readonly url: string;
	/** The origin of the credential's Base URL. */
	readonly origin: string;
	/** The query sent besides the URL's own; none after a redirect (the query is in the Location then). */
	readonly qs?: IDataObject;
	/** The request carries a body. */
	readonly hasBody: boolean;
	/** This execution already sends bodies as application/json (learnt from a 415). */
	readonly plainJson: boolean;
	/** This request was already repeated with a stated page maximum. */
	readonly pageRetried: boolean;
	/** This request was already repeated as application/json. */
	readonly mediaRetried: boolean;
	/** Redirects followed for this request so far. */
	readonly redirects: number;
	/** An earlier attempt of this request failed ambiguously: it may have been carried out. */
	readonly ambiguousEarlier: boolean;
	/** The retry policy repeats this attempt (a fault it may repeat, within Max Retries, not stopped). */
	readonly policyRepeats: boolean;
	/** The secrets to keep out of any text read from the answer. */
	readonly secrets: string[];
}

/** How a repeat differs from the request that failed. */
type RequestChange =
	/** Send it to this URL (on the Base URL's origin; the query is part of it). */
	| { follow: string }
	/** Ask for pages of at most this many records, and remember it for the route in this execution. */
	| { pageLimit: number }
	/** Send the body as application/json, and keep to it for the execution. */
	| { plainJson: true };

export type Adaptation =
	| { kind: 'repeat'; change: RequestChange }
	| { kind: 'return'; result: undefined }
	| { kind: 'throw'; error: 'redirect'; why: string };

export interface Rule {
	readonly name: string;
	decide(facts: FailureFacts, state: RequestState): Adaptation | typeof NOT_MINE;
}

/** Where a redirect may be followed to, or why not. */
function redirectTarget(facts: FailureFacts, state: RequestState): { url: string } | { refused: string } {
	const location = header(facts.headers, 'location');
	if (!location) return { refused: 'without a Location' };
	let target: URL;
	try {
		target = new URL(location, state.url);
	} catch {
		return { refused: 'to an unreadable Location' };
	}
	if (target.origin !== state.origin) {
		const downgrade = new URL(state.origin).protocol === 'https:' && target.protocol === 'http:';
		return { refused: downgrade ? `from https to http (${target.origin})` : `to another origin (${target.origin})` };
	}
	const status = facts.status ?? 0;
	// 301, 302 and 303 turn a request with a body into a GET: that is another request, not a redirect of this one.
	if (state.method !== 'GET' && status !== 307 && status !== 308) {
		return { refused: `that would turn ${state.method} into GET` };
	}
	return { url: target.href };
}

/**
 * A deployment behind a proxy or gateway that answers 3xx (a trailing slash, a moved prefix) instead of
 * answering the request. A redirect means the server did not carry the request out at this URL, so sending
 * it to the Location is not a repeat of anything done. It is followed only on the Base URL's origin (same
 * scheme, host and port), so that the access token is never sent anywhere else, and only where it stays the
 * same request: any 3xx for GET, 307 and 308 (which keep method and body) otherwise. Every other redirect
 * (another origin, https to http, no or an unreadable Location, 301/302/303 on a request with a body, more
 * than `MAX_REDIRECTS` for one request) is refused with the `redirect` error. Token endpoint redirects are
 * not this rule's: the token request refuses them itself.
 */
export const sameOriginRedirect: Rule = {
	name: 'same-origin redirect',
	decide(facts, state) {
		if (facts.token || facts.status === undefined || facts.status < 300 || facts.status >= 400) return NOT_MINE;
		const target = redirectTarget(facts, state);
		if ('url' in target && state.redirects < MAX_REDIRECTS) {
			return { kind: 'repeat', change: { follow: target.url } };
		}
		return { kind: 'throw', error: 'redirect', why: 'refused' in target ? target.refused : `more than ${MAX_REDIRECTS} times` };
	},
};

/** The maximum page size a refusal states ("page[limit] must be at most 50", "maximum page size is 50"). */
export function statedPageMaximum(facts: FailureFacts, secrets: string[]): number | undefined {
	const error = apiErrorOf(facts.body, secrets);
	const text = [error?.title, error?.detail].filter(Boolean).join(' ');
	if (!/page/i.test(text) && error?.code !== 'invalid-page') return undefined;
	const match = /(?:at most|maximum(?: page size)?(?: is| of)?|max(?:imum)?(?: page size)?(?: is|:|=)?|up to|no more than)\s*(\d{1,6})/i.exec(text);
	const max = match ? Number(match[1]) : NaN;
	return Number.isInteger(max) && max >= 1 ? max : undefined;
}

/**
 * A deployment whose maximum page size is smaller than the one asked for, and that says so: a 400 whose
 * error names the page and states a maximum ("page[limit] must be at most 50"). A 400 is a refusal: the
 * server did not carry the request out, so asking again is safe. The request is repeated once with the
 * stated maximum, and the maximum is remembered for the route for the rest of the execution. It declines a
 * request without `page[limit]`, a maximum that is not smaller than the one asked (repeating would change
 * nothing), and a request already repeated for it: a second refusal is the service's error.
 */
export const statedPageMaximumRule: Rule = {
	name: 'stated page maximum',
	decide(facts, state) {
		if (facts.status !== 400 || state.pageRetried || !state.qs || state.qs['page[limit]'] === undefined) return NOT_MINE;
		const max = statedPageMaximum(facts, state.secrets);
		const asked = Number(state.qs['page[limit]']);
		if (max === undefined || !(max < asked)) return NOT_MINE;
		return { kind: 'repeat', change: { pageLimit: max } };
	},
};

/**
 * A deployment that takes request bodies only as `application/json`, and refuses the JSON:API media type
 * with 415. A 415 is a refusal of the body before anything is done with it: the request was not carried
 * out, so sending the same body again as `application/json` is safe. It is done once per request, and the
 * execution keeps to `application/json` from then on (API › Check Compatibility reports it). It declines a
 * request without a body, one already repeated for it, and an execution that already sends plain JSON: a
 * 415 then is the service's error.
 */
export const plainJsonAfter415: Rule = {
	name: 'plain JSON after 415',
	decide(facts, state) {
		if (facts.status !== 415 || state.mediaRetried || !state.hasBody || state.plainJson) return NOT_MINE;
		return { kind: 'repeat', change: { plainJson: true } };
	},
};

/**
 * A DELETE whose first answer was unclear (500, 502, 504, a dropped connection, a timeout, an answer that
 * was not JSON), repeated because DELETE is idempotent, and answered 404: the earlier attempt deleted the
 * record, so the request is done and returns as a DELETE does. It repeats nothing, and it waits for the
 * retry policy: a 404 the policy still repeats (one whose body timed out is ambiguous) is not yet its. A 404
 * on a DELETE that no ambiguous attempt preceded is not this rule's either: the record was not there, and
 * that is the service's error. Nor is a 404 from the token endpoint: the DELETE was not sent, and the
 * earlier attempt may not have deleted anything.
 */
export const deleteAlreadyDone: Rule = {
	name: 'DELETE already done',
	decide(facts, state) {
		if (facts.token || !state.ambiguousEarlier || state.method !== 'DELETE' || facts.status !== 404 || state.policyRepeats) {
			return NOT_MINE;
		}
		return { kind: 'return', result: undefined };
	},
};

/** The rules in the order `apiRequest` asks them; the first that answers is applied. */
export const ADAPTATIONS: readonly Rule[] = [sameOriginRedirect, statedPageMaximumRule, plainJsonAfter415, deleteAlreadyDone];

/** The first rule's adaptation to a failed attempt, with the rule's name; none when no rule meets it. */
export function firstAdaptation(facts: FailureFacts, state: RequestState): { rule: string; adaptation: Adaptation } | undefined {
	for (const rule of ADAPTATIONS) {
		const adaptation = rule.decide(facts, state);
		if (adaptation !== NOT_MINE) return { rule: rule.name, adaptation };
	}
	return undefined;
}

// ---- What this execution learnt of a deviating deployment ----
// What this execution learnt about a deployment that deviates from the contract (a stated page maximum, a 415
// for the JSON:API media type), kept per node context, and how an adaptation (adaptations.ts decides which)
// changes the request that is sent again.

export const MEDIA_TYPE = 'application/vnd.api+json';

/** What this execution learnt about the deployment, per node context (one execution, one poll). */
interface Deviations {
	/** The largest page size a list route accepts, when it refused a larger one. */
	pageLimits: Map<string, number>;
	/** The service refused the JSON:API media type for request bodies (415): send application/json. */
	plainJson: boolean;
}

const deviationsOf = perRun<ApiContext, Deviations>(() => ({ pageLimits: new Map(), plainJson: false }));

/** The page size this execution asks of `route`: `requested`, or less after the service stated a maximum. */
export function servedPageLimit(ctx: ApiContext, route: Route, requested: number): number {
	const max = deviationsOf(ctx).pageLimits.get(route.path);
	return max === undefined ? requested : Math.min(requested, max);
}

/**
 * Whether this execution sends request bodies as application/json, because the service refused the JSON:API
 * media type (415) and the transport fell back (API › Check Compatibility reports it).
 */
export function sendsPlainJson(ctx: ApiContext): boolean {
	return deviationsOf(ctx).plainJson;
}

/** The Content-Type of a request body in this execution. */
export function contentTypeOf(ctx: ApiContext): string {
	return deviationsOf(ctx).plainJson ? 'application/json' : MEDIA_TYPE;
}

/** What an adapted request has been through so far (the rules of adaptations.ts read it). */
export interface Tried {
	pageRetried: boolean;
	mediaRetried: boolean;
	redirects: number;
	ambiguousEarlier: boolean;
}

/** Changes `options` for the repeat an adaptation asks for, and notes it in `tried` and the execution's deviations. */
export function applyRepeat(
	ctx: ApiContext,
	route: Route,
	options: IHttpRequestOptions,
	tried: Tried,
	change: Extract<Adaptation, { kind: 'repeat' }>['change'],
): void {
	if ('follow' in change) {
		tried.redirects++;
		options.url = change.follow;
		// The query is part of the Location now.
		delete options.qs;
	} else if ('pageLimit' in change) {
		tried.pageRetried = true;
		deviationsOf(ctx).pageLimits.set(route.path, change.pageLimit);
		options.qs = { ...options.qs, 'page[limit]': change.pageLimit };
	} else {
		tried.mediaRetried = true;
		deviationsOf(ctx).plainJson = true;
		options.headers = { ...options.headers, 'Content-Type': contentTypeOf(ctx) };
	}
}
