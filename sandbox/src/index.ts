import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Job, JobAttributes, JobStatus } from '../../nodes/shared/api/types';
import { registerAdmin } from './admin';
import type { KeptCounts, Sandbox, SandboxControl, SandboxOptions, SandboxState } from './api';
import { Auth } from './auth';
import { DEMO_IDS, defaultJobAttributes, seed } from './demo';
import { Engine, isFinal } from './engine';
import { type Kept, Persistence } from './persist';
import { FaultInjector, RequestLog } from './faults';
import { ApiHandlers } from './handlers';
import { Router } from './router';
import { Deviations, registerDeviationAdmin } from './deviations';
import { NetworkModel } from './network';
import { HttpFront } from './server';
import { diskPath, storageResource, writeFileDeep } from './storage-fs';
import { Store } from './store';
import { clone, iso, uuid } from './util';

export { DEMO_IDS };
export { SandboxDataError, DB_FILE } from './persist';
export type * from './api';

const DEFAULT_CLIENT_ID = 'sandbox-client';
const DEFAULT_CLIENT_SECRET = 'sandbox-secret';

/** Starts the sandbox server on 127.0.0.1 and resolves once it listens. */
/** The counts of a start that created its state (or keeps it in memory). */
const NOTHING_KEPT: KeptCounts = { accounts: 0, groups: 0, users: 0, storages: 0, jobs: 0, transfers: 0, errors: 0, tokens: 0 };

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	// First: bad network settings fail the start before anything is made.
	const network = new NetworkModel(options.seed ?? 1, options.network);
	const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
	const clientSecret = options.clientSecret ?? DEFAULT_CLIENT_SECRET;
	const speed = options.speed && options.speed > 0 ? options.speed : 1;
	const ownDir = options.dataDir === undefined;
	const dataDir = options.dataDir ? path.resolve(options.dataDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'ftm-sandbox-'));
	fs.mkdirSync(dataDir, { recursive: true });

	const store = new Store();
	// A given data folder keeps the whole state in its database; without one the sandbox lives in memory.
	const persistence = ownDir ? undefined : Persistence.open(dataDir);
	let kept: Kept | undefined;
	if (persistence && !persistence.fresh) {
		kept = persistence.load(store);
		for (const storage of store.storages.values()) fs.mkdirSync(storage.dir, { recursive: true });
	} else {
		seed(store, dataDir, options.demo ?? true, options.seed ?? 1);
		persistence?.attach(store, true);
	}
	const engine = new Engine(store, speed);
	const auth = new Auth(clientId, clientSecret, options.tokenTtlSeconds ?? 86400);
	let resumedRuns = 0;
	if (persistence) {
		persistence.setRunSource(engine);
		auth.load(persistence.tokensKept());
		auth.onChange = (hash, expiresAt) => persistence.token(hash, expiresAt);
		if (kept) resumedRuns = engine.restore(kept.runs, kept.halted);
	}
	const faults = new FaultInjector();
	const requests = new RequestLog();
	const apiRouter = new Router();
	new ApiHandlers(store, engine, persistence?.cursorKey).register(apiRouter);

	const requireJob = (id: string): Job => {
		const job = store.jobs.get(id);
		if (!job) throw new Error(`No job with id ${id}.`);
		return job;
	};
	const requireStorage = (id: string) => {
		const storage = store.storages.get(id);
		if (!storage) throw new Error(`No storage with id ${id}.`);
		return storage;
	};
	const waiters = new Set<() => void>();

	const state: SandboxState = {
		accounts: () => clone([...store.accounts.values()]),
		groups: () => clone([...store.groups.values()]),
		users: () => clone([...store.users.values()]),
		jobs: () => clone([...store.jobs.values()]),
		storages: () => [...store.storages.values()].map(storageResource),
		job: (id) => {
			const job = store.jobs.get(id);
			return job && clone(job);
		},
		jobTransfers: (id) => clone(store.transfers.get(id) ?? []),
		jobErrors: (id) => clone(store.jobErrors.get(id) ?? []),
		storageDir: (id) => requireStorage(id).dir,
	};

	const control: SandboxControl = {
		insertJobs(count: number, attributes: Partial<JobAttributes> = {}): string[] {
			const accountId = store.defaultAccountId() ?? DEMO_IDS.accountId;
			const base = defaultJobAttributes(accountId, {
				source: requireStorage(DEMO_IDS.storageIds.files),
				target: requireStorage(DEMO_IDS.storageIds.archive),
			});
			const ids: string[] = [];
			const start = Date.now() - count;
			for (let i = 0; i < count; i++) {
				const at = iso(start + i);
				const status = attributes.status ?? 'finished';
				const attrs: JobAttributes = {
					...base,
					name: `Inserted job ${i + 1}`,
					status,
					createdAt: at,
					updatedAt: at,
					...clone(attributes),
					stats: {
						...base.stats,
						startedAt: at,
						finishedAt: isFinal(status) ? at : null,
						...(attributes.stats ? clone(attributes.stats) : {}),
					},
				};
				const job: Job = { id: uuid(), type: 'jobs', attributes: attrs };
				store.addJob(job);
				ids.push(job.id);
			}
			return ids;
		},
		setJobStatus(jobId: string, status: JobStatus): void {
			engine.force(requireJob(jobId), status);
		},
		addJobError(jobId, error): void {
			const job = requireJob(jobId);
			engine.addError(job, error.sourcePath, error.message, error.event ?? 'error');
			store.touchJob(job);
		},
		setStorageAvailable(storageId: string, available: boolean): void {
			const storage = requireStorage(storageId);
			if (storage.available === available) return;
			storage.available = available;
			store.changed('storages', storage.id);
			engine.storageAvailabilityChanged(storage);
		},
		expireTokens(): void {
			auth.expire();
		},
		writeFile(storageId: string, filePath: string, content: string | Buffer): void {
			writeFileDeep(diskPath(requireStorage(storageId), filePath), content);
		},
		waitForJob(jobId: string, timeoutMs = 30000): Promise<Job> {
			const done = (job: Job) => isFinal(job.attributes.status) || job.attributes.status === 'stuck';
			return new Promise((resolve, reject) => {
				const job = store.jobs.get(jobId);
				if (!job) return reject(new Error(`No job with id ${jobId}.`));
				if (done(job)) return resolve(clone(job));
				const finish = (error?: Error) => {
					clearTimeout(timer);
					unsubscribe();
					waiters.delete(cancel);
					if (error) reject(error);
					else resolve(clone(store.jobs.get(jobId)!));
				};
				const cancel = () => finish(new Error('The sandbox was closed.'));
				const timer = setTimeout(
					() => finish(new Error(`Job ${jobId} did not end within ${timeoutMs} ms (status ${store.jobs.get(jobId)?.attributes.status}).`)),
					timeoutMs,
				);
				const unsubscribe = store.onJobChange((changed) => {
					if (changed.id === jobId && done(changed)) finish();
				});
				waiters.add(cancel);
			});
		},
	};

	const deviations = new Deviations(store, engine, speed, options.deviations ?? []);
	const adminRouter = new Router();
	registerDeviationAdmin(adminRouter, deviations);
	const front = new HttpFront({ api: apiRouter, admin: adminRouter, auth, faults, log: requests, deviations, network });
	const server = http.createServer({ keepAlive: true }, front.listener);
	// Idle keep-alive sockets stay open for a minute: a server that closes them after Node's default 5 s
	// races clients that reuse a socket just then ("socket hang up"); close() destroys them anyway.
	server.keepAliveTimeout = 60_000;
	server.headersTimeout = 65_000;
	try {
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(options.port ?? 0, '127.0.0.1', () => {
				server.off('error', reject);
				resolve();
			});
		});
	} catch (error) {
		engine.close();
		persistence?.close();
		if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
		throw error;
	}
	const { port } = server.address() as AddressInfo;
	const baseUrl = `http://127.0.0.1:${port}`;

	let closing: Promise<void> | undefined;
	const sandbox: Sandbox = {
		baseUrl,
		clientId,
		clientSecret,
		state,
		deviations,
		control,
		faults,
		requests,
		network,
		data: {
			dataDir,
			database: persistence?.file ?? null,
			created: !kept,
			kept: { ...(kept?.counts ?? NOTHING_KEPT), resumedRuns },
		},
		close() {
			closing ??= (async () => {
				engine.close();
				front.close();
				for (const cancel of [...waiters]) cancel();
				await new Promise<void>((resolve) => {
					server.close(() => resolve());
					server.closeAllConnections();
				});
				persistence?.close(); // writes what is left: the runs as they stopped, to carry on next start
				if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
			})();
			return closing;
		},
	};
	registerAdmin(adminRouter, sandbox, () => ({
		baseUrl,
		clientId,
		tokenUrl: `${baseUrl}/oauth/token`,
		speed,
		dataDir,
		demoIds: DEMO_IDS,
		storageDirs: Object.fromEntries([...store.storages.values()].map((s) => [s.id, s.dir])),
	}));
	return sandbox;
}
