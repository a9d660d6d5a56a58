/**
 * What this execution learnt about a deployment that deviates from the contract (a stated page maximum, a 415
 * for the JSON:API media type), kept per node context, and how an adaptation (adaptations.ts decides which)
 * changes the request that is sent again.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import type { Route } from '../api/routes';
import type { Adaptation } from './adaptations';
import { perRun } from '../execution/perRun';
import type { ApiContext } from './settings';

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
