/** The Probe: the read-only requests of one run, each made once and shared by the checks, and the documents they return. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Route } from '../../../../shared/api/routes';
import { routes } from '../../../../shared/api/routes';
import type { ResourceType } from '../../../../shared/api/types';
import type { ItemContext } from '../../../../shared/execution/item';
import { checkList } from '../../../../shared/answers/shape';
import { apiRequest } from '../../../../shared/transport';

/** An id no record has: the API's ids are random (version 4) UUIDs, this one is all zeros. */
export const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

export type Doc = Record<string, unknown>;
export type Rec = { id?: string; type?: string; attributes: Doc };

/** A request's outcome, kept so that several checks can look at one request. */
type Answer = { ok: true; doc: unknown } | { ok: false; error: unknown };

export function isObject(value: unknown): value is Doc {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A value at a dotted path of a record's attributes (`source.id`). */
export function attributeAt(record: Rec, path: string): unknown {
	let value: unknown = record.attributes;
	for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined;
	return value;
}

export const COLLECTIONS: Array<{ type: ResourceType; route: () => Route }> = [
	{ type: 'accounts', route: routes.listAccounts },
	{ type: 'groups', route: routes.listGroups },
	{ type: 'users', route: routes.listUsers },
	{ type: 'jobs', route: routes.listJobs },
	{ type: 'storages', route: routes.listStorages },
];

/** The requests of one run, each made once however many checks look at it. */
export class Probe {
	private readonly answers = new Map<string, Promise<Answer>>();

	constructor(
		readonly ctx: IExecuteFunctions,
		readonly item: ItemContext,
	) {}

	/** One request, made once per key; never throws. */
	request(
		key: string,
		route: Route,
		qs?: IDataObject,
		body?: IDataObject,
		idempotent?: boolean,
		url?: string,
	): Promise<Answer> {
		let answer = this.answers.get(key);
		if (!answer) {
			answer = apiRequest<unknown>(this.ctx, route, { qs, body, idempotent, url, item: this.item }).then(
				(doc): Answer => ({ ok: true, doc }),
				(error: unknown): Answer => ({ ok: false, error }),
			);
			this.answers.set(key, answer);
		}
		return answer;
	}

	/** A list request whose answer has the JSON:API list shape (shape checks of nodes/shared/answers/shape.ts). */
	async list(key: string, type: ResourceType, route: Route, qs?: IDataObject, url?: string): Promise<ListAnswer> {
		const answer = await this.request(key, route, qs, undefined, undefined, url);
		if (!answer.ok) return { ok: false, error: answer.error };
		try {
			const page = checkList<Rec>(this.ctx, answer.doc, type, { route, itemIndex: this.item.index });
			return { ok: true, doc: answer.doc as Doc, records: page.data };
		} catch (error) {
			return { ok: false, error };
		}
	}

	/** The first page of a collection as the service orders it by default (no page size, sort or filter). */
	sample(type: ResourceType): Promise<ListAnswer> {
		const collection = COLLECTIONS.find((c) => c.type === type)!;
		return this.list(`sample:${type}`, type, collection.route());
	}

	/** A page of one record (list-routes, page-total, cursor-paging, account-id share it). */
	firstOfOne(type: ResourceType): Promise<ListAnswer> {
		const collection = COLLECTIONS.find((c) => c.type === type)!;
		return this.list(`one:${type}`, type, collection.route(), { 'page[limit]': 1 });
	}
}

type ListAnswer = { ok: true; doc: Doc; records: Rec[] } | { ok: false; error: unknown };

/** GET /, the answer the token and root checks read (and the operation looks at first). */
export const rootAnswer = (probe: Probe) => probe.request('root', routes.apiVersion());
