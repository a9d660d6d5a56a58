/**
 * Shared tools of the hardening tests: a logger that captures everything n8n and the node log, a search
 * for secrets in everything a run leaves behind, a plain API client for set-up, and snapshots of what
 * the sandbox holds.
 */
import * as path from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

import type { Group, Job, User } from '../../nodes/shared/api/types';
import { DEMO_IDS } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from '../harness/credentials';
import type { NodeRunResult } from '../harness/engine';
export { rlList as rl } from '../harness/locator';

export { DEMO_IDS };
export const FILES = DEMO_IDS.storageIds.files;
export const ARCHIVE = DEMO_IDS.storageIds.archive;
export const ACCOUNT = DEMO_IDS.accountId;

/** A resource locator value; 'list' mode so that n8n's own By ID regex does not stop bad values first. */

let counter = 0;
/** A value unique within this process, safe in names, e-mail addresses and paths. */
export function uniq(prefix: string): string {
	counter += 1;
	return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------
// Logs

export interface CapturedLog {
	level: string;
	message: string;
	meta: string;
}

/** Every log line of n8n's LoggerProxy, n8n-core's node logger and its error reporter, in this test file. */
export class LogCapture {
	readonly lines: CapturedLog[] = [];

	private write(level: string, message: unknown, meta?: unknown): void {
		this.lines.push({ level, message: String(message), meta: meta === undefined ? '' : safeStringify(meta) });
	}

	error = (message: string, meta?: unknown) => this.write('error', message, meta);
	warn = (message: string, meta?: unknown) => this.write('warn', message, meta);
	info = (message: string, meta?: unknown) => this.write('info', message, meta);
	debug = (message: string, meta?: unknown) => this.write('debug', message, meta);
	verbose = (message: string, meta?: unknown) => this.write('verbose', message, meta);
	scoped = () => this;

	text(): string {
		return this.lines.map((line) => `${line.level} ${line.message} ${line.meta}`).join('\n');
	}

	clear(): void {
		this.lines.length = 0;
	}
}

/**
 * Installs a LogCapture wherever n8n logs: LoggerProxy (n8n-workflow), the Logger that node contexts
 * get from n8n-core's DI container (OAuth2 refresh messages), and the ErrorReporter that logs node
 * errors. n8n-core carries its own copies of @n8n/di and @n8n/backend-common, so they are loaded from
 * n8n-core's folder.
 */
export function captureLogs(): LogCapture {
	const capture = new LogCapture();
	LoggerProxy.init(capture);
	const base = path.dirname(require.resolve('n8n-core'));
	const { Container } = require(require.resolve('@n8n/di', { paths: [base] })) as {
		Container: { set(key: unknown, value: unknown): void; get(key: unknown): unknown };
	};
	const { Logger } = require(require.resolve('@n8n/backend-common', { paths: [base] })) as { Logger: unknown };
	const { ErrorReporter } = require('n8n-core') as { ErrorReporter: unknown };
	Container.set(Logger, capture);
	(Container.get(ErrorReporter) as { logger: unknown }).logger = capture;
	return capture;
}

// ---------------------------------------------------------------------------------------------------
// Secrets

/** JSON of anything, cycles and Error objects included (message, stack, own properties, cause). */
function safeStringify(value: unknown): string {
	const seen = new WeakSet<object>();
	const replacer = (_key: string, current: unknown): unknown => {
		if (current instanceof Error) {
			const plain: Record<string, unknown> = {};
			for (const key of Object.getOwnPropertyNames(current)) {
				plain[key] = (current as unknown as Record<string, unknown>)[key];
			}
			plain.message = current.message;
			plain.stack = current.stack;
			plain.cause = (current as { cause?: unknown }).cause;
			current = plain;
		}
		if (current !== null && typeof current === 'object') {
			if (seen.has(current)) return '[cycle]';
			seen.add(current);
		}
		if (typeof current === 'bigint') return current.toString();
		return current;
	};
	try {
		return JSON.stringify(value, replacer) ?? '';
	} catch (error) {
		return `[unserializable: ${(error as Error).message}]`;
	}
}

/** Everything a node run leaves for a user or an operator to see: output, error, the stored run data. */
export function runTexts(result: Pick<NodeRunResult, 'items' | 'error'> & { run?: unknown }): string[] {
	const texts = [safeStringify(result.items)];
	if (result.error) {
		texts.push(
			result.error.message,
			String(result.error.description ?? ''),
			String(result.error.stack ?? ''),
			JSON.stringify(result.error),
			safeStringify(result.error),
		);
	}
	if (result.run) texts.push(safeStringify(result.run));
	return texts;
}

/** The client secret and every access token the sandbox issued (from its request log and the credentials). */
export function secretsOf(sandbox: Sandbox, credentials: TestCredentialsHelper[] = []): string[] {
	const secrets = new Set<string>([sandbox.clientSecret]);
	for (const record of sandbox.requests.all()) {
		const token = record.authorization?.replace(/^Bearer\s+/i, '').trim();
		if (token) secrets.add(token);
	}
	for (const helper of credentials) for (const token of helper.tokenUpdates) secrets.add(token);
	return [...secrets].filter((secret) => secret.length >= 8);
}

/** The secrets found in the texts, as "<secret prefix>… in text #n" (empty when none). */
export function findSecrets(texts: string[], secrets: string[]): string[] {
	const found: string[] = [];
	texts.forEach((text, index) => {
		for (const secret of secrets) {
			if (text.includes(secret)) found.push(`${secret.slice(0, 4)}… in text #${index}: ${text.slice(0, 200)}`);
		}
	});
	return found;
}

// ---------------------------------------------------------------------------------------------------
// Plain API client for set-up (not the node under test)

export class RawApi {
	private token: string | undefined;

	constructor(private readonly sandbox: Sandbox) {}

	private async authorization(): Promise<string> {
		if (!this.token) {
			const response = await fetch(`${this.sandbox.baseUrl}/oauth/token`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({
					grant_type: 'client_credentials',
					client_id: this.sandbox.clientId,
					client_secret: this.sandbox.clientSecret,
				}).toString(),
			});
			this.token = ((await response.json()) as { access_token: string }).access_token;
		}
		return `Bearer ${this.token}`;
	}

	async request<T>(method: string, route: string, body?: unknown): Promise<T> {
		for (let attempt = 0; ; attempt++) {
			const response = await fetch(`${this.sandbox.baseUrl}${route}`, {
				method,
				headers: { Authorization: await this.authorization(), 'Content-Type': 'application/vnd.api+json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			if (response.status === 401 && attempt === 0) {
				this.token = undefined;
				continue;
			}
			const text = await response.text();
			if (response.status >= 300) throw new Error(`Set-up ${method} ${route}: HTTP ${response.status} ${text}`);
			return (text ? JSON.parse(text) : undefined) as T;
		}
	}

	async createGroup(name: string): Promise<Group> {
		const document = await this.request<{ data: Group }>('POST', '/groups', {
			data: { type: 'groups', attributes: { name, accountId: ACCOUNT, deploymentId: ACCOUNT } },
		});
		return document.data;
	}

	async createUser(email: string, extra: IDataObject = {}): Promise<User> {
		const document = await this.request<{ data: User }>('POST', '/users', {
			data: { type: 'users', attributes: { email, accountId: ACCOUNT, deploymentId: ACCOUNT, ...extra } },
		});
		return document.data;
	}
}

// ---------------------------------------------------------------------------------------------------
// What the sandbox holds

const FINAL = new Set(['finished', 'failed', 'canceled']);

export interface Snapshot {
	jobs: Map<string, string>;
	users: Map<string, string>;
	groups: Map<string, string>;
}

type Collection = keyof Snapshot;
const COLLECTIONS: Collection[] = ['jobs', 'users', 'groups'];

function withoutVolatile(attributes: object): string {
	const { updatedAt: _updatedAt, stats: _stats, ...rest } = attributes as Record<string, unknown>;
	return JSON.stringify(rest);
}

/** Users and groups as their attributes (updatedAt aside); jobs by name and status. */
export function snapshot(sandbox: Sandbox): Snapshot {
	return {
		jobs: new Map(sandbox.state.jobs().map((job: Job) => [job.id, withoutVolatile(job.attributes)])),
		users: new Map(sandbox.state.users().map((user) => [user.id, withoutVolatile(user.attributes)])),
		groups: new Map(sandbox.state.groups().map((group) => [group.id, withoutVolatile(group.attributes)])),
	};
}

export interface Diff {
	created: Record<Collection, string[]>;
	deleted: Record<Collection, string[]>;
	changed: Record<Collection, string[]>;
}

export function diffOf(before: Snapshot, after: Snapshot): Diff {
	const diff: Diff = {
		created: { jobs: [], users: [], groups: [] },
		deleted: { jobs: [], users: [], groups: [] },
		changed: { jobs: [], users: [], groups: [] },
	};
	for (const collection of COLLECTIONS) {
		for (const [id, value] of after[collection]) {
			const old = before[collection].get(id);
			if (old === undefined) diff.created[collection].push(id);
			else if (old !== value) diff.changed[collection].push(id);
		}
		for (const id of before[collection].keys()) {
			if (!after[collection].has(id)) diff.deleted[collection].push(id);
		}
	}
	return diff;
}

/** The diff as counts, e.g. "created jobs 1": what "one successful run" is compared by. */
export function shapeOf(diff: Diff): string[] {
	const shape: string[] = [];
	for (const kind of ['created', 'deleted', 'changed'] as const) {
		for (const collection of COLLECTIONS) {
			const count = diff[kind][collection].length;
			if (count > 0) shape.push(`${kind} ${collection} ${count}`);
		}
	}
	return shape;
}

/**
 * Waits until every job the engine runs is final, so that snapshots do not see jobs moving by
 * themselves. Jobs inserted without a run (statuses set by the test) are left out.
 */
export async function settle(sandbox: Sandbox, staticJobs: Set<string>, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const moving = sandbox.state
			.jobs()
			.filter((job) => !staticJobs.has(job.id) && !FINAL.has(job.attributes.status) && job.attributes.status !== 'stuck');
		if (moving.length === 0) return;
		if (Date.now() > deadline) throw new Error(`Jobs still moving: ${moving.map((job) => job.id).join(', ')}`);
		await sleepMs(5);
	}
}
