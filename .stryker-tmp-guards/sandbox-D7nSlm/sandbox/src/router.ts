// @ts-nocheck
import { methodNotAllowed } from './errors';

export interface RequestContext {
	method: string;
	path: string;
	query: URLSearchParams;
	/** Values of the route's placeholders, e.g. { id }. */
	params: Record<string, string>;
	body: string;
	/** Absolute base URL the client used, e.g. http://127.0.0.1:8787 (for links). */
	baseUrl: string;
	authorization?: string;
}

export interface Answer {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Answer | Promise<Answer>;

interface Route {
	template: string;
	segments: string[];
	methods: Record<string, Handler>;
}

export interface Match {
	template: string;
	params: Record<string, string>;
	handler: Handler;
}

/** Route table with `{name}` placeholders; answers 405 for a known path with another method. */
export class Router {
	private readonly routes: Route[] = [];

	add(template: string, methods: Record<string, Handler>): this {
		this.routes.push({ template, segments: template.split('/').filter(Boolean), methods });
		return this;
	}

	/** The route template a path belongs to, or '' when none does. */
	find(path: string): { route: Route; params: Record<string, string> } | undefined {
		const parts = path.split('/').filter(Boolean);
		for (const route of this.routes) {
			if (route.segments.length !== parts.length) continue;
			const params: Record<string, string> = {};
			let ok = true;
			for (let i = 0; i < parts.length; i++) {
				const seg = route.segments[i];
				if (seg.startsWith('{')) {
					try {
						params[seg.slice(1, -1)] = decodeURIComponent(parts[i]);
					} catch {
						params[seg.slice(1, -1)] = parts[i];
					}
				} else if (seg !== parts[i]) {
					ok = false;
					break;
				}
			}
			if (ok) return { route, params };
		}
		return undefined;
	}

	template(path: string): string {
		return this.find(path)?.route.template ?? '';
	}

	/** The handler for a request; throws 405 when the path exists without that method, undefined when no path matches. */
	match(method: string, path: string): Match | undefined {
		const found = this.find(path);
		if (!found) return undefined;
		const handler = found.route.methods[method];
		if (!handler) throw methodNotAllowed(method, Object.keys(found.route.methods));
		return { template: found.route.template, params: found.params, handler };
	}
}
