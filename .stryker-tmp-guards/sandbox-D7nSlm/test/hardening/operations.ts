/**
 * Every operation of the action node, and the trigger, as the fault matrix and the chaos run drive them:
 * how to prepare one run, the request a fault is aimed at, and what one successful run leaves behind.
 */
// @ts-nocheck

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from '../harness/credentials';
import { runNode, triggerHandle, type NodeRunResult } from '../harness/engine';
import type { Diff, LogCapture, RawApi } from './harness';
import { ACCOUNT, ARCHIVE, DEMO_IDS, FILES, rl, runTexts, uniq } from './harness';
import { demoDryRunCopy } from '../harness/parameters';

/** How an operation may be repeated: it decides the expected outcome of each fault. */
export type OpKind =
	/** GET: repeated after any fault. */
	| 'read'
	/** PATCH of absolute values, DELETE: repeated after any fault. */
	| 'write'
	/**
	 * POST of a job, user or group: repeated only when the server did not carry it out; after an unclear
	 * answer the node looks for the record it may have made.
	 */
	| 'create'
	/** The trigger's poll: reads; a failed poll is made good by the next one. */
	| 'trigger';

export interface MatrixEnv {
	sandbox: Sandbox;
	api: RawApi;
	credentials: TestCredentialsHelper;
	/** Jobs inserted without an engine run: they only move when a test or the node moves them. */
	staticJobs: Set<string>;
	logs: LogCapture;
}

export interface OpRun {
	/** Output json of the node (for the trigger: of the poll and, after a failed poll, the next one). */
	items: IDataObject[];
	error?: NodeRunResult['error'];
	/** Everything the run left to be searched for secrets. */
	texts: string[];
}

export interface OpSpec<C = IDataObject> {
	name: string;
	kind: OpKind;
	/** The request the fault is aimed at (method and route template). */
	target: { method: string; path: string };
	/** A list that takes more than one page: faults hit the second page (mid-pagination). */
	multiPage?: boolean;
	setup(env: MatrixEnv): Promise<C>;
	run(env: MatrixEnv, ctx: C, requestOptions: IDataObject): Promise<OpRun>;
	/** Requests to the target a clean run makes, where it is known in advance. */
	cleanRequests?(env: MatrixEnv, ctx: C): number;
	/**
	 * Checks the records this run created, changed or deleted, and its output when it succeeded.
	 * Called for successful runs and for unclear failures that were carried out.
	 */
	check(env: MatrixEnv, ctx: C, run: OpRun, diff: Diff, succeeded: boolean): void;
}

const pages = (count: number) => Math.max(1, Math.ceil(count / 100));

async function runAction(env: MatrixEnv, parameters: INodeParameters, requestOptions: IDataObject): Promise<OpRun> {
	const result = await runNode({
		credentials: env.credentials,
		parameters: { ...parameters, requestOptions: requestOptions as INodeParameters },
	});
	return { items: result.items.map((item) => item.json), error: result.error, texts: runTexts(result) };
}

function action<C>(
	spec: Omit<OpSpec<C>, 'run' | 'cleanRequests'> & {
		parameters(ctx: C): INodeParameters;
		cleanRequests?: OpSpec<C>['cleanRequests'];
	},
): OpSpec<C> {
	return {
		cleanRequests: () => 1,
		...spec,
		run: (env, ctx, requestOptions) => runAction(env, spec.parameters(ctx), requestOptions),
	};
}

const ids = (items: IDataObject[]) => items.map((item) => String(item.id));
const sorted = (values: string[]) => [...values].sort();

function expectSameRecords(items: IDataObject[], expected: string[]): void {
	expect(sorted(ids(items))).toEqual(sorted(expected));
}

function expectOnly(diff: Diff, kind: keyof Diff, collection: keyof Diff['created'], id?: string): string {
	const list = diff[kind][collection];
	expect(list).toHaveLength(1);
	if (id !== undefined) expect(list[0]).toBe(id);
	return list[0];
}

const insertJob = (env: MatrixEnv, attributes: Parameters<Sandbox['control']['insertJobs']>[1]): string => {
	const [id] = env.sandbox.control.insertJobs(1, attributes);
	env.staticJobs.add(id);
	return id;
};

export const OPERATIONS: OpSpec<IDataObject>[] = [
	// Account
	action({
		name: 'account.get',
		kind: 'read',
		target: { method: 'GET', path: '/accounts/{id}' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'account', operation: 'get', accountId: rl(ACCOUNT) }),
		check: (_env, _ctx, run) => expect(ids(run.items)).toEqual([ACCOUNT]),
	}),
	action({
		name: 'account.getMany',
		kind: 'read',
		target: { method: 'GET', path: '/accounts' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'account', operation: 'getMany', returnAll: true }),
		check: (env, _ctx, run) => expectSameRecords(run.items, env.sandbox.state.accounts().map((a) => a.id)),
	}),
	// API
	action({
		name: 'api.getVersion',
		kind: 'read',
		target: { method: 'GET', path: '/' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'api', operation: 'getVersion' }),
		check: (_env, _ctx, run) =>
			expect(run.items).toEqual([{ apiVersion: expect.any(String), jsonapiVersion: '1.1', root: expect.objectContaining({ meta: expect.objectContaining({ apiVersion: expect.any(String) }) }) }]),
	}),
	// Storage
	action({
		name: 'storage.get',
		kind: 'read',
		target: { method: 'GET', path: '/storages/{id}' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'storage', operation: 'get', storageId: rl(FILES) }),
		check: (_env, _ctx, run) => expect(ids(run.items)).toEqual([FILES]),
	}),
	action({
		name: 'storage.getMany',
		kind: 'read',
		target: { method: 'GET', path: '/storages' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'storage', operation: 'getMany', returnAll: true }),
		check: (env, _ctx, run) => expectSameRecords(run.items, env.sandbox.state.storages().map((s) => s.id)),
	}),
	// Group
	action({
		name: 'group.create',
		kind: 'create',
		target: { method: 'POST', path: '/groups' },
		setup: async () => ({ name: uniq('group') }),
		parameters: (ctx) => ({ resource: 'group', operation: 'create', name: ctx.name, accountId: rl(ACCOUNT) }),
		check: (env, ctx, run, diff, succeeded) => {
			const id = expectOnly(diff, 'created', 'groups');
			expect(env.sandbox.state.groups().find((g) => g.id === id)?.attributes.name).toBe(ctx.name);
			if (succeeded) expect(ids(run.items)).toEqual([id]);
		},
	}),
	action({
		name: 'group.get',
		kind: 'read',
		target: { method: 'GET', path: '/groups/{id}' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'group', operation: 'get', groupId: rl(DEMO_IDS.groupIds[1]) }),
		check: (_env, _ctx, run) => expect(ids(run.items)).toEqual([DEMO_IDS.groupIds[1]]),
	}),
	action({
		name: 'group.getMany',
		kind: 'read',
		target: { method: 'GET', path: '/groups' },
		multiPage: true,
		setup: async () => ({}),
		parameters: () => ({ resource: 'group', operation: 'getMany', returnAll: true }),
		cleanRequests: (env) => pages(env.sandbox.state.groups().length),
		check: (env, _ctx, run) => expectSameRecords(run.items, env.sandbox.state.groups().map((g) => g.id)),
	}),
	action({
		name: 'group.update',
		kind: 'write',
		target: { method: 'PATCH', path: '/groups/{id}' },
		setup: async (env) => ({ id: (await env.api.createGroup(uniq('old'))).id, name: uniq('renamed') }),
		parameters: (ctx) => ({
			resource: 'group',
			operation: 'update',
			groupId: rl(String(ctx.id)),
			updateFields: { name: ctx.name },
		}),
		check: (env, ctx, run, diff, succeeded) => {
			expectOnly(diff, 'changed', 'groups', String(ctx.id));
			expect(env.sandbox.state.groups().find((g) => g.id === ctx.id)?.attributes.name).toBe(ctx.name);
			if (succeeded) expect(run.items).toEqual([expect.objectContaining({ id: ctx.id, name: ctx.name })]);
		},
	}),
	action({
		name: 'group.deleteGroup',
		kind: 'write',
		target: { method: 'DELETE', path: '/groups/{id}' },
		setup: async (env) => ({ id: (await env.api.createGroup(uniq('doomed'))).id }),
		parameters: (ctx) => ({ resource: 'group', operation: 'deleteGroup', groupId: rl(String(ctx.id)) }),
		check: (_env, ctx, run, diff, succeeded) => {
			expectOnly(diff, 'deleted', 'groups', String(ctx.id));
			if (succeeded) expect(run.items).toEqual([{ id: ctx.id, deleted: true }]);
		},
	}),
	// User
	action({
		name: 'user.create',
		kind: 'create',
		target: { method: 'POST', path: '/users' },
		setup: async () => ({ email: `${uniq('user')}@example.com` }),
		parameters: (ctx) => ({
			resource: 'user',
			operation: 'create',
			accountId: rl(ACCOUNT),
			email: ctx.email,
			additionalFields: { firstName: 'Ada' },
		}),
		check: (env, ctx, run, diff, succeeded) => {
			const id = expectOnly(diff, 'created', 'users');
			expect(env.sandbox.state.users().find((u) => u.id === id)?.attributes.email).toBe(ctx.email);
			if (succeeded) expect(ids(run.items)).toEqual([id]);
		},
	}),
	action({
		name: 'user.get',
		kind: 'read',
		target: { method: 'GET', path: '/users/{id}' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'user', operation: 'get', userId: rl(DEMO_IDS.userIds[2]) }),
		check: (_env, _ctx, run) => expect(ids(run.items)).toEqual([DEMO_IDS.userIds[2]]),
	}),
	action({
		name: 'user.getMany',
		kind: 'read',
		target: { method: 'GET', path: '/users' },
		multiPage: true,
		setup: async () => ({}),
		parameters: () => ({ resource: 'user', operation: 'getMany', returnAll: true }),
		cleanRequests: (env) => pages(env.sandbox.state.users().length),
		check: (env, _ctx, run) => expectSameRecords(run.items, env.sandbox.state.users().map((u) => u.id)),
	}),
	action({
		name: 'user.update',
		kind: 'write',
		target: { method: 'PATCH', path: '/users/{id}' },
		setup: async (env) => ({
			id: (await env.api.createUser(`${uniq('upd')}@example.com`, { firstName: 'Old' })).id,
			firstName: uniq('New'),
		}),
		parameters: (ctx) => ({
			resource: 'user',
			operation: 'update',
			userId: rl(String(ctx.id)),
			updateFields: { firstName: ctx.firstName },
		}),
		check: (env, ctx, run, diff, succeeded) => {
			expectOnly(diff, 'changed', 'users', String(ctx.id));
			expect(env.sandbox.state.users().find((u) => u.id === ctx.id)?.attributes.firstName).toBe(ctx.firstName);
			if (succeeded) expect(run.items).toEqual([expect.objectContaining({ id: ctx.id, firstName: ctx.firstName })]);
		},
	}),
	action({
		name: 'user.deleteUser',
		kind: 'write',
		target: { method: 'DELETE', path: '/users/{id}' },
		setup: async (env) => ({ id: (await env.api.createUser(`${uniq('del')}@example.com`)).id }),
		parameters: (ctx) => ({ resource: 'user', operation: 'deleteUser', userId: rl(String(ctx.id)) }),
		check: (_env, ctx, run, diff, succeeded) => {
			expectOnly(diff, 'deleted', 'users', String(ctx.id));
			if (succeeded) expect(run.items).toEqual([{ id: ctx.id, deleted: true }]);
		},
	}),
	// Job
	action({
		name: 'job.create',
		kind: 'create',
		target: { method: 'POST', path: '/jobs' },
		setup: async () => ({ name: uniq('job') }),
		parameters: (ctx) => ({
			...demoDryRunCopy(`/${ctx.name}`),
			additionalFields: { name: ctx.name },
		}),
		check: (env, ctx, run, diff, succeeded) => {
			const id = expectOnly(diff, 'created', 'jobs');
			expect(env.sandbox.state.job(id)?.attributes).toEqual(expect.objectContaining({ name: ctx.name, dryRun: true }));
			if (succeeded) expect(ids(run.items)).toEqual([id]);
		},
	}),
	action({
		name: 'job.get',
		kind: 'read',
		target: { method: 'GET', path: '/jobs/{id}' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'job', operation: 'get', jobId: rl(DEMO_IDS.jobIds.copied) }),
		check: (_env, _ctx, run) => expect(ids(run.items)).toEqual([DEMO_IDS.jobIds.copied]),
	}),
	action({
		name: 'job.getMany',
		kind: 'read',
		target: { method: 'GET', path: '/jobs' },
		multiPage: true,
		setup: async () => ({}),
		parameters: () => ({ resource: 'job', operation: 'getMany', returnAll: true, simplify: true }),
		cleanRequests: (env) => pages(env.sandbox.state.jobs().length),
		check: (env, _ctx, run) => expectSameRecords(run.items, env.sandbox.state.jobs().map((j) => j.id)),
	}),
	action({
		name: 'job.getTransfers',
		kind: 'read',
		target: { method: 'GET', path: '/jobs/{id}/transfers' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'job', operation: 'getTransfers', jobId: rl(DEMO_IDS.jobIds.copied), returnAll: true }),
		// Transfers carry no id: compared by the path written on the target.
		check: (env, _ctx, run) =>
			expect(sorted(run.items.map((item) => String(item.path)))).toEqual(
				sorted(env.sandbox.state.jobTransfers(DEMO_IDS.jobIds.copied).map((t) => t.attributes.path)),
			),
	}),
	action({
		name: 'job.getErrors',
		kind: 'read',
		target: { method: 'GET', path: '/jobs/{id}/errors' },
		setup: async () => ({}),
		parameters: () => ({ resource: 'job', operation: 'getErrors', jobId: rl(DEMO_IDS.jobIds.failedSync), returnAll: true }),
		check: (env, _ctx, run) =>
			expectSameRecords(run.items, env.sandbox.state.jobErrors(DEMO_IDS.jobIds.failedSync).map((e) => e.id)),
	}),
	...(
		[
			['pause', 'running', 'paused'],
			['resume', 'paused', 'running'],
			['cancel', 'running', 'canceled'],
		] as const
	).map(([operation, from, to]) =>
		action({
			name: `job.${operation}`,
			kind: 'write',
			target: { method: 'PATCH', path: '/jobs/{id}' },
			setup: async (env) => ({ id: insertJob(env, { status: from, name: uniq(operation) }) }),
			parameters: (ctx) => ({ resource: 'job', operation, jobId: rl(String(ctx.id)) }),
			check: (env, ctx, run, diff, succeeded) => {
				expectOnly(diff, 'changed', 'jobs', String(ctx.id));
				expect(env.sandbox.state.job(String(ctx.id))?.attributes.status).toBe(to);
				if (succeeded) expect(run.items).toEqual([expect.objectContaining({ id: ctx.id, status: to })]);
			},
		}),
	),
	action({
		name: 'job.runFromDryRun',
		kind: 'create',
		target: { method: 'POST', path: '/jobs' },
		setup: async (env) => {
			const path = `/${uniq('real')}`;
			const id = insertJob(env, {
				name: uniq('estimate'),
				status: 'finished',
				dryRun: true,
				transferType: 'copy',
				conflictHandling: 'skip',
				source: { type: 'file', id: FILES, path: '/reports/2024' },
				target: { type: 'file', id: ARCHIVE, path },
			});
			return { id, name: uniq('run') };
		},
		parameters: (ctx) => ({ resource: 'job', operation: 'runFromDryRun', jobId: rl(String(ctx.id)), name: ctx.name }),
		check: (env, ctx, run, diff, succeeded) => {
			const id = expectOnly(diff, 'created', 'jobs');
			expect(env.sandbox.state.job(id)?.attributes).toEqual(expect.objectContaining({ name: ctx.name, dryRun: false }));
			if (succeeded) expect(ids(run.items)).toEqual([id]);
		},
	}),
];

/** Events the trigger should deliver in one cell: jobs that reached a watched status since activation. */
const TRIGGER_EVENTS = 120;

export const TRIGGER: OpSpec<IDataObject> = {
	name: 'trigger.poll',
	kind: 'trigger',
	target: { method: 'GET', path: '/jobs' },
	multiPage: true,
	async setup(env) {
		const handle = triggerHandle(env.credentials, {
			events: ['failed', 'finished', 'stuck'],
			filters: {},
			options: {},
			requestOptions: {},
		});
		expect(await handle.poll()).toBeNull();
		const jobIds = env.sandbox.control.insertJobs(TRIGGER_EVENTS, { status: 'running' });
		for (const id of jobIds) {
			env.staticJobs.add(id);
			env.sandbox.control.setJobStatus(id, 'finished');
		}
		return { handle: handle as unknown as IDataObject, jobIds };
	},
	async run(env, ctx, requestOptions) {
		const handle = ctx.handle as unknown as ReturnType<typeof triggerHandle>;
		handle.setParameters({ events: ['failed', 'finished', 'stuck'], filters: {}, options: {}, requestOptions: requestOptions as INodeParameters });
		const items: INodeExecutionData[] = [];
		let error: OpRun['error'];
		try {
			items.push(...((await handle.poll()) ?? []));
		} catch (caught) {
			error = caught as OpRun['error'];
			// A failed poll saves nothing; the next one (the service is fine again) delivers its events.
			env.sandbox.faults.clear();
			items.push(...((await handle.poll()) ?? []));
		}
		const json = items.map((item) => item.json);
		return { items: json, error, texts: runTexts({ items, error }) };
	},
	check(_env, ctx, run) {
		const delivered = run.items.map((item) => `${String(item.id)}:${String(item.event)}`);
		expect(delivered).toHaveLength(TRIGGER_EVENTS);
		expect(sorted(delivered)).toEqual(sorted((ctx.jobIds as string[]).map((id) => `${id}:finished`)));
	},
};
