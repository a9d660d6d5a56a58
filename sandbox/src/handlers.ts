import {
	JOB_FILTER_FIELDS,
	JOB_STATS_FIELDS,
	JOB_STATUSES,
	type Account,
	type Group,
	type Job,
	type JobStatus,
	type Storage,
	type User,
} from '../../nodes/shared/api/types';
import { type Engine, isFinal } from './engine';
import { apiError, notFound, Problems } from './errors';
import { type CollectionSpec, CursorCodec, type Page, parseListQuery, resourceSpec, selectOffsetPage, selectPage } from './query';
import type { Answer, RequestContext, Router } from './router';
import { storageResource } from './storage-fs';
import type { Store } from './store';
import { isEmail, isTimeZone, readDocument, resolveAccount, validateJobCreate } from './validation';
import { nextTimestamp, uuid } from './util';

export const API_VERSION = '1.0.0-sandbox';

const TIMESTAMPS = ['createdAt', 'updatedAt'];
const ACCOUNT_FIELDS = ['id', 'name', ...TIMESTAMPS];
const GROUP_FIELDS = ['id', 'name', 'accountId', 'deploymentId', ...TIMESTAMPS];
const USER_FIELDS = ['id', 'accountId', 'deploymentId', 'groupId', 'email', 'firstName', 'lastName', 'timezone', ...TIMESTAMPS];
const JOB_FILTERS = [...JOB_FILTER_FIELDS, 'transferRateLimit', 'source.retrievalType', 'target.type', ...TIMESTAMPS];
const JOB_SORTS = [...JOB_FILTERS, ...JOB_STATS_FIELDS.map((f) => `stats.${f}`)];
const STORAGE_FILTERS = ['id', 'type', 'name', 'status', 'enabled', ...TIMESTAMPS];
const STORAGE_SORTS = [...STORAGE_FILTERS, 'stats.capacity.bytesUsed', 'stats.capacity.fileCount'];

const listBody = <T>(page: Page<T>) => ({ data: page.data, meta: { page: { after: page.after, total: page.total } } });

/** The API's resource routes (the API contract, "Routes"), working on the store and the engine. */
export class ApiHandlers {
	private readonly cursors: CursorCodec;
	private readonly specs: {
		accounts: CollectionSpec<Account>;
		groups: CollectionSpec<Group>;
		users: CollectionSpec<User>;
		jobs: CollectionSpec<Job>;
		storages: CollectionSpec<Storage>;
	};

	constructor(
		private readonly store: Store,
		private readonly engine: Engine,
		cursorKey?: Buffer,
	) {
		this.cursors = new CursorCodec(cursorKey);
		const enabled = (s: Storage) => this.store.storages.get(s.id)?.available ?? true;
		this.specs = {
			accounts: resourceSpec<Account>('accounts', ACCOUNT_FIELDS, ACCOUNT_FIELDS),
			groups: resourceSpec<Group>('groups', GROUP_FIELDS, GROUP_FIELDS),
			users: resourceSpec<User>('users', USER_FIELDS, USER_FIELDS),
			jobs: resourceSpec<Job>('jobs', JOB_FILTERS, JOB_SORTS),
			storages: resourceSpec<Storage>('storages', STORAGE_FILTERS, STORAGE_SORTS, { enabled }),
		};
	}

	register(router: Router): void {
		const readOnly = {
			POST: () => this.refuse('POST', ['GET']),
			PATCH: () => this.refuse('PATCH', ['GET']),
			PUT: () => this.refuse('PUT', ['GET']),
			DELETE: () => this.refuse('DELETE', ['GET']),
		};
		router
			.add('/', { GET: () => ({ status: 200, body: { jsonapi: { version: '1.1' }, meta: { apiVersion: API_VERSION } } }) })
			.add('/accounts', { GET: (c) => this.list(c, this.store.accounts.values(), this.specs.accounts), ...readOnly })
			.add('/accounts/{id}', { GET: (c) => this.show(this.store.accounts.get(c.params.id)), ...readOnly })
			.add('/groups', { GET: (c) => this.list(c, this.store.groups.values(), this.specs.groups), POST: (c) => this.createGroup(c) })
			.add('/groups/{id}', {
				GET: (c) => this.show(this.store.groups.get(c.params.id)),
				PATCH: (c) => this.updateGroup(c),
				DELETE: (c) => this.deleteGroup(c),
			})
			.add('/users', { GET: (c) => this.list(c, this.store.users.values(), this.specs.users), POST: (c) => this.createUser(c) })
			.add('/users/{id}', {
				GET: (c) => this.show(this.store.users.get(c.params.id)),
				PATCH: (c) => this.updateUser(c),
				DELETE: (c) => this.deleteUser(c),
			})
			.add('/jobs', { GET: (c) => this.list(c, this.jobsToScan(c), this.specs.jobs), POST: (c) => this.createJob(c) })
			.add('/jobs/{id}', {
				GET: (c) => this.show(this.store.jobs.get(c.params.id)),
				PATCH: (c) => this.updateJob(c),
				DELETE: () => this.refuse('DELETE', ['GET', 'PATCH'], 'Jobs cannot be deleted.'),
			})
			.add('/jobs/{id}/transfers', { GET: (c) => this.subList(c, 'transfers') })
			.add('/jobs/{id}/errors', { GET: (c) => this.subList(c, 'errors') })
			.add('/storages', { GET: (c) => this.list(c, this.storageResources(), this.specs.storages), ...readOnly })
			.add('/storages/{id}', {
				GET: (c) => {
					const storage = this.store.storages.get(c.params.id);
					return this.show(storage && storageResource(storage));
				},
				...readOnly,
			});
	}

	private refuse(method: string, allowed: string[], detail?: string): Answer {
		throw apiError(405, 'method-not-allowed', detail ?? `${method} is not allowed: this resource is read-only.`, undefined, {
			Allow: allowed.join(', '),
		});
	}

	/** With filter[status], only the jobs of that status (selectPage still checks every filter). */
	private jobsToScan(ctx: RequestContext): Iterable<Job> {
		const status = ctx.query.get('filter[status]');
		return status === null ? this.store.jobs.values() : this.store.jobsWithStatus(status);
	}

	private storageResources(): Storage[] {
		return [...this.store.storages.values()].map(storageResource);
	}

	private list<T>(ctx: RequestContext, items: Iterable<T>, spec: CollectionSpec<T>): Answer {
		const query = parseListQuery(ctx.query, spec, this.cursors);
		return { status: 200, body: listBody(selectPage(items, query, spec, this.cursors)) };
	}

	private show(resource: object | undefined): Answer {
		if (!resource) throw notFound();
		return { status: 200, body: { data: resource } };
	}

	private subList(ctx: RequestContext, which: 'transfers' | 'errors'): Answer {
		const jobId = ctx.params.id;
		if (!this.store.jobs.has(jobId)) throw notFound();
		const items: object[] = (which === 'transfers' ? this.store.transfers.get(jobId) : this.store.jobErrors.get(jobId)) ?? [];
		const page = selectOffsetPage(items, ctx.query, `${which}:${jobId}`, this.cursors);
		let next: string | null = null;
		if (page.after) {
			const limit = ctx.query.get('page[limit]');
			const query = `${limit ? `page[limit]=${encodeURIComponent(limit)}&` : ''}page[after]=${encodeURIComponent(page.after)}`;
			next = `${ctx.baseUrl}${ctx.path}?${query}`;
		}
		return { status: 200, body: { ...listBody(page), links: { next } } };
	}

	private created(resource: { id: string; type: string }, ctx: RequestContext): Answer {
		return {
			status: 201,
			body: { data: resource },
			headers: { Location: `${ctx.baseUrl}/${resource.type}/${resource.id}` },
		};
	}

	// groups

	private createGroup(ctx: RequestContext): Answer {
		const { attributes: a } = readDocument(ctx.body, 'groups');
		const p = new Problems();
		const accountId = resolveAccount(a, this.store, p, true);
		if (typeof a.name !== 'string' || a.name.trim() === '') p.add('name', 'name is required and must be a non-empty string.');
		p.throwIfAny();
		const now = nextTimestamp(null);
		const group: Group = {
			id: uuid(),
			type: 'groups',
			attributes: { accountId: accountId!, deploymentId: accountId!, name: a.name as string, createdAt: now, updatedAt: now },
		};
		this.store.groups.set(group.id, group);
		this.store.changed('groups', group.id);
		return this.created(group, ctx);
	}

	private updateGroup(ctx: RequestContext): Answer {
		const group = this.store.groups.get(ctx.params.id);
		if (!group) throw notFound();
		const { attributes: a } = readDocument(ctx.body, 'groups', group.id);
		const p = new Problems();
		for (const key of Object.keys(a)) if (key !== 'name') p.readOnly(key);
		if ('name' in a && (typeof a.name !== 'string' || a.name.trim() === '')) p.add('name', 'name must be a non-empty string.');
		p.throwIfAny();
		if (typeof a.name === 'string' && a.name !== group.attributes.name) {
			group.attributes.name = a.name;
			group.attributes.updatedAt = nextTimestamp(group.attributes.updatedAt);
			this.store.changed('groups', group.id);
		}
		return { status: 200, body: { data: group } };
	}

	private deleteGroup(ctx: RequestContext): Answer {
		if (!this.store.groups.delete(ctx.params.id)) throw notFound();
		this.store.changed('groups', ctx.params.id);
		for (const user of this.store.users.values()) {
			if (user.attributes.groupId === ctx.params.id) {
				user.attributes.groupId = null;
				user.attributes.updatedAt = nextTimestamp(user.attributes.updatedAt);
				this.store.changed('users', user.id);
			}
		}
		return { status: 204 };
	}

	// users

	private checkUserFields(a: Record<string, unknown>, accountId: string | undefined, p: Problems): void {
		if ('email' in a && !isEmail(a.email)) p.add('email', 'email must be an e-mail address.');
		for (const field of ['firstName', 'lastName']) {
			if (field in a && typeof a[field] !== 'string') p.add(field, `${field} must be a string.`);
		}
		if ('timezone' in a && a.timezone !== null && (typeof a.timezone !== 'string' || !isTimeZone(a.timezone))) {
			p.add('timezone', 'timezone must be null or a time-zone name such as "Europe/Berlin".');
		}
		if ('groupId' in a && a.groupId !== null) {
			const group = typeof a.groupId === 'string' ? this.store.groups.get(a.groupId) : undefined;
			if (!group) p.add('groupId', `No group with id "${String(a.groupId)}".`);
			else if (accountId && group.attributes.accountId !== accountId) p.add('groupId', 'The group belongs to another account.');
		}
	}

	private emailTaken(email: string, accountId: string): boolean {
		const wanted = email.toLowerCase();
		for (const user of this.store.users.values()) {
			if (user.attributes.accountId === accountId && user.attributes.email.toLowerCase() === wanted) return true;
		}
		return false;
	}

	private conflict(email: string) {
		return apiError(409, 'conflict', `A user with the e-mail address "${email}" already exists in this account.`, '/data/attributes/email');
	}

	private createUser(ctx: RequestContext): Answer {
		const { attributes: a } = readDocument(ctx.body, 'users');
		const p = new Problems();
		const accountId = resolveAccount(a, this.store, p, true);
		if ('password' in a) p.readOnly('password', 'Passwords cannot be set through the API.');
		if (a.email === undefined || a.email === null) p.add('email', 'email is required.');
		this.checkUserFields(a, accountId, p);
		p.throwIfAny();
		const email = a.email as string;
		if (this.emailTaken(email, accountId!)) throw this.conflict(email);
		const now = nextTimestamp(null);
		const user: User = {
			id: uuid(),
			type: 'users',
			attributes: {
				accountId: accountId!,
				deploymentId: accountId!,
				groupId: (a.groupId as string | null | undefined) ?? null,
				email,
				firstName: (a.firstName as string | undefined) ?? '',
				lastName: (a.lastName as string | undefined) ?? '',
				timezone: (a.timezone as string | null | undefined) ?? null,
				createdAt: now,
				updatedAt: now,
			},
		};
		this.store.users.set(user.id, user);
		this.store.changed('users', user.id);
		return this.created(user, ctx);
	}

	private updateUser(ctx: RequestContext): Answer {
		const user = this.store.users.get(ctx.params.id);
		if (!user) throw notFound();
		const { attributes: a } = readDocument(ctx.body, 'users', user.id);
		const p = new Problems();
		// The description lists only these three as updatable on users.
		const updatable = ['firstName', 'lastName', 'timezone'];
		for (const key of Object.keys(a)) {
			if (!updatable.includes(key)) {
				p.readOnly(key, key === 'password' ? 'Passwords cannot be set through the API.' : undefined);
			}
		}
		this.checkUserFields(Object.fromEntries(Object.entries(a).filter(([k]) => updatable.includes(k))), user.attributes.accountId, p);
		p.throwIfAny();
		let changed = false;
		const attrs = user.attributes as unknown as Record<string, unknown>;
		for (const key of updatable) {
			if (key in a && attrs[key] !== a[key]) {
				attrs[key] = a[key];
				changed = true;
			}
		}
		if (changed) {
			user.attributes.updatedAt = nextTimestamp(user.attributes.updatedAt);
			this.store.changed('users', user.id);
		}
		return { status: 200, body: { data: user } };
	}

	private deleteUser(ctx: RequestContext): Answer {
		if (!this.store.users.delete(ctx.params.id)) throw notFound();
		this.store.changed('users', ctx.params.id);
		return { status: 204 };
	}

	// jobs

	private createJob(ctx: RequestContext): Answer {
		const { attributes: a } = readDocument(ctx.body, 'jobs');
		const attributes = validateJobCreate(a, this.store);
		const now = nextTimestamp(null);
		attributes.createdAt = now;
		attributes.updatedAt = now;
		const job: Job = { id: uuid(), type: 'jobs', attributes };
		this.store.addJob(job);
		this.engine.start(job);
		return this.created(job, ctx);
	}

	private updateJob(ctx: RequestContext): Answer {
		const job = this.store.jobs.get(ctx.params.id);
		if (!job) throw notFound();
		const { attributes: a } = readDocument(ctx.body, 'jobs', job.id);
		const p = new Problems();
		for (const key of Object.keys(a)) if (key !== 'status') p.readOnly(key, `Only the job status can be changed; "${key}" is read-only.`);
		if (!('status' in a)) p.add('status', 'attributes.status is required.');
		else if (!JOB_STATUSES.includes(a.status as JobStatus)) p.add('status', `status must be one of ${JOB_STATUSES.join(', ')}.`);
		p.throwIfAny();
		const wanted = a.status as JobStatus;
		const current = job.attributes.status;
		if (wanted === current) return { status: 200, body: { data: job } };
		if (wanted === 'paused' && (current === 'scanning' || current === 'running' || current === 'stuck')) this.engine.pause(job);
		else if (wanted === 'running' && current === 'paused') this.engine.resume(job);
		else if (wanted === 'canceled' && !isFinal(current)) this.engine.cancel(job);
		else {
			throw apiError(409, 'invalid-status-transition', `A job cannot go from "${current}" to "${wanted}".`, '/data/attributes/status');
		}
		return { status: 200, body: { data: job } };
	}
}
