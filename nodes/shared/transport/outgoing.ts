/**
 * The request as it goes out: its URL (the route on the Base URL, or a link the service gave, on the Base URL's
 * origin only), its query, body and headers, and the options n8n's request helper gets.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { Route } from '../api/routes';
import { joinUrl } from '../api/routes';
import type { Connection } from './connection';
import { contentTypeOf, MEDIA_TYPE, servedPageLimit } from './adaptations';
import { foreignLinkError } from './errors';
import type { ApiContext, TransportSettings } from './settings';

/** What of a request's parameters shapes what is sent (request.ts RequestParams). */
interface Shape {
	body?: IDataObject;
	qs?: IDataObject;
	url?: string;
}

/** Where the request goes: the route on the Base URL, or the service's own link, refused off its origin. */
function urlOf(ctx: ApiContext, route: Route, params: Shape, connection: Connection, itemIndex?: number): string {
	const url = joinUrl(connection.baseUrl, route.path);
	if (params.url === undefined) return url;
	let target: URL | undefined;
	try {
		target = new URL(params.url, url);
	} catch {
		target = undefined;
	}
	if (!target || target.origin !== connection.origin) {
		throw foreignLinkError(ctx, route, target?.origin ?? 'an unreadable URL', itemIndex);
	}
	return target.href;
}

/** The options of the request's first attempt (an adaptation may change them for a repeat: adaptations.ts applyRepeat). */
export function outgoing(
	ctx: ApiContext,
	route: Route,
	params: Shape,
	connection: Connection,
	settings: TransportSettings,
	/** The item the request is made for, named in a refusal of the service's link. */
	itemIndex?: number,
): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: route.method,
		url: urlOf(ctx, route, params, connection, itemIndex),
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
	if (params.body !== undefined) {
		options.body = params.body;
		options.headers = { ...options.headers, 'Content-Type': contentTypeOf(ctx) };
	}
	return options;
}
