/**
 * The sandbox's state on disk: one SQLite database (`node:sqlite`, built into Node 22.13+ and 24) in the data
 * folder, `<data-dir>/sandbox.db`.
 *
 * The store in memory stays what the API reads from (collections are filtered and sorted there, see
 * query.ts); the database is its durable copy. It is read once at start. Every change is written through:
 * the store tells the journal which record changed, the journal collects the ids and writes the records as
 * they are then, in one transaction, a few milliseconds later (and at close). A job that changes a hundred
 * times in a batch of engine work is written once; the database runs in WAL mode with synchronous=NORMAL, so
 * a commit is one append to the log, no fsync. A killed process loses at most the last few milliseconds.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Job, JobError, JobTransfer } from '../../nodes/shared/api/types';
import type { KeptCounts } from './api';
import type { RunState, Stage } from './engine';
import type { Journal, RecordKind, StorageRecord, Store } from './store';

export const DB_FILE = 'sandbox.db';
const APP = 'n8n-nodes-file-transfer-manager sandbox';
const SCHEMA_VERSION = 1;
/** Changes are collected for this long, then written in one transaction. */
const FLUSH_MS = 5;
/** Tokens that expired longer ago than this are dropped at start. */
const TOKEN_KEEP_MS = 24 * 3600 * 1000;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE accounts (id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE groups (id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE users (id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE storages (id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE jobs (id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE job_transfers (job_id TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (job_id, seq)) WITHOUT ROWID;
CREATE TABLE job_errors (job_id TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (job_id, seq)) WITHOUT ROWID;
CREATE TABLE job_runs (
	job_id TEXT PRIMARY KEY,
	stage TEXT NOT NULL,
	halted TEXT,
	source_is_file INTEGER NOT NULL,
	scan_index INTEGER NOT NULL,
	transfer_index INTEGER NOT NULL,
	error_count INTEGER NOT NULL,
	listing TEXT
);
CREATE TABLE halted_jobs (job_id TEXT PRIMARY KEY, stage TEXT NOT NULL);
CREATE TABLE tokens (hash TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
`;
const TABLES = ['meta', 'accounts', 'groups', 'users', 'storages', 'jobs', 'job_transfers', 'job_errors', 'job_runs', 'halted_jobs', 'tokens'];
const KINDS: RecordKind[] = ['accounts', 'groups', 'users', 'storages', 'jobs'];

/** The data folder cannot be used: a file that is no sandbox database, a newer schema, another process. */
export class SandboxDataError extends Error {}

/** What the engine knows of a job's run, asked when the job is written. */
export interface RunSource {
	runOf(jobId: string): RunState | undefined;
	haltedStageOf(jobId: string): Stage | undefined;
}

/** What a start found in the data folder. */
export interface Kept {
	counts: KeptCounts;
	runs: Array<[string, RunState]>;
	halted: Array<[string, Stage]>;
}

function loadSqlite(): typeof import('node:sqlite') {
	try {
		// Loaded only for a data folder, so that the in-memory sandbox runs on any Node.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return require('node:sqlite') as typeof import('node:sqlite');
	} catch (error) {
		throw new SandboxDataError(
			`The sandbox keeps its data folder in SQLite (node:sqlite), which this Node ${process.version} does not have: ` +
				`run it with Node 22.13 or later (npm scripts use the project's Node 24). (${(error as Error).message})`,
		);
	}
}

/** The SQLite database of a data folder, and the journal that writes the store's changes into it. */
export class Persistence implements Journal {
	readonly file: string;
	/** True when the database was created now (the caller seeds it). */
	readonly fresh: boolean;
	readonly cursorKey: Buffer;
	private readonly db: DatabaseSync;
	private readonly dirty = new Map<RecordKind, Set<string>>(KINDS.map((k) => [k, new Set<string>()]));
	private readonly appends: Array<['transfers' | 'errors', string, number, JobTransfer | JobError]> = [];
	private readonly tokens = new Map<string, number>();
	/** The listing each run had when it was last written (it is written only when it changes). */
	private readonly writtenListings = new Map<string, unknown>();
	/** Jobs that have a row in job_runs / halted_jobs (so that other jobs cost no DELETE when written). */
	private readonly runRows = new Set<string>();
	private readonly haltedRows = new Set<string>();
	private timer: NodeJS.Timeout | null = null;
	private closed = false;
	private store: Store | null = null;
	private runs: RunSource | null = null;
	private readonly statements: Record<string, StatementSync>;

	private constructor(
		private readonly dataDir: string,
		db: DatabaseSync,
		fresh: boolean,
		cursorKey: Buffer,
	) {
		this.file = path.join(dataDir, DB_FILE);
		this.db = db;
		this.fresh = fresh;
		this.cursorKey = cursorKey;
		const upsert = (table: string) =>
			db.prepare(`INSERT INTO ${table} (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data`);
		this.statements = {
			...Object.fromEntries(KINDS.map((k) => [`put:${k}`, upsert(k)])),
			...Object.fromEntries(KINDS.map((k) => [`delete:${k}`, db.prepare(`DELETE FROM ${k} WHERE id = ?`)])),
			'append:transfers': db.prepare('INSERT OR REPLACE INTO job_transfers (job_id, seq, data) VALUES (?, ?, ?)'),
			'append:errors': db.prepare('INSERT OR REPLACE INTO job_errors (job_id, seq, data) VALUES (?, ?, ?)'),
			putRun: db.prepare(
				`INSERT INTO job_runs (job_id, stage, halted, source_is_file, scan_index, transfer_index, error_count)
				 VALUES (?, ?, ?, ?, ?, ?, ?)
				 ON CONFLICT (job_id) DO UPDATE SET stage = excluded.stage, halted = excluded.halted,
				   source_is_file = excluded.source_is_file, scan_index = excluded.scan_index,
				   transfer_index = excluded.transfer_index, error_count = excluded.error_count`,
			),
			putListing: db.prepare('UPDATE job_runs SET listing = ? WHERE job_id = ?'),
			deleteRun: db.prepare('DELETE FROM job_runs WHERE job_id = ?'),
			putHalted: db.prepare('INSERT OR REPLACE INTO halted_jobs (job_id, stage) VALUES (?, ?)'),
			deleteHalted: db.prepare('DELETE FROM halted_jobs WHERE job_id = ?'),
			putToken: db.prepare('INSERT OR REPLACE INTO tokens (hash, expires_at) VALUES (?, ?)'),
		};
	}

	/**
	 * Opens (or creates) `<dataDir>/sandbox.db`. Throws a SandboxDataError that says what is wrong and what to
	 * do when the file is not a sandbox database, was written by a newer sandbox, or is in use.
	 */
	static open(dataDir: string): Persistence {
		const { DatabaseSync } = loadSqlite();
		const file = path.join(dataDir, DB_FILE);
		const existed = fs.existsSync(file) && fs.statSync(file).size > 0;
		const advice = `Move ${file} away (or delete it) to start with fresh demo data, or use another --data-dir.`;
		let db: DatabaseSync | undefined;
		try {
			db = new DatabaseSync(file);
			// One sandbox per data folder: the first write takes the lock and keeps it until close.
			db.exec('PRAGMA locking_mode = EXCLUSIVE');
			db.exec('PRAGMA busy_timeout = 0');
			db.exec('PRAGMA journal_mode = WAL');
			db.exec('PRAGMA synchronous = NORMAL');
			const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name);
			let fresh = false;
			if (tables.length === 0) {
				db.exec('BEGIN');
				db.exec(SCHEMA);
				const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
				meta.run('app', APP);
				meta.run('schema', String(SCHEMA_VERSION));
				meta.run('cursorKey', randomBytes(32).toString('base64'));
				meta.run('createdAt', new Date().toISOString());
				db.exec('COMMIT');
				fresh = true;
			} else {
				const missing = TABLES.filter((t) => !tables.includes(t));
				const meta = tables.includes('meta')
					? new Map((db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]))
					: new Map<string, string>();
				if (meta.get('app') !== APP) {
					throw new SandboxDataError(
						`${file} is an SQLite database, but not the sandbox's (it holds the tables ${tables.join(', ')}). ${advice}`,
					);
				}
				const schema = Number(meta.get('schema'));
				if (schema > SCHEMA_VERSION) {
					throw new SandboxDataError(`${file} was written by a newer sandbox (schema ${schema}; this one reads ${SCHEMA_VERSION}). ${advice}`);
				}
				if (schema !== SCHEMA_VERSION || missing.length) {
					throw new SandboxDataError(`${file} is a sandbox database of an unknown schema (${schema}; missing tables: ${missing.join(', ') || 'none'}). ${advice}`);
				}
				// Takes the exclusive lock now, so that a second sandbox on this folder fails here.
				db.prepare('DELETE FROM tokens WHERE expires_at < ?').run(Date.now() - TOKEN_KEEP_MS);
			}
			const key = (db.prepare("SELECT value FROM meta WHERE key = 'cursorKey'").get() as { value: string } | undefined)?.value;
			return new Persistence(dataDir, db, fresh, key ? Buffer.from(key, 'base64') : randomBytes(32));
		} catch (error) {
			try {
				db?.close();
			} catch {
				// not open
			}
			if (error instanceof SandboxDataError) throw error;
			const message = (error as Error).message;
			if (/locked|busy/i.test(message)) {
				throw new SandboxDataError(`${file} is in use by another sandbox (${message}). Stop it, or use another --data-dir.`);
			}
			if (existed && /not a database|malformed|corrupt/i.test(message)) {
				throw new SandboxDataError(`${file} is not a sandbox database or is damaged (${message}). ${advice}`);
			}
			throw new SandboxDataError(`Cannot open the sandbox database ${file}: ${message}`);
		}
	}

	/** Reads every record into the (empty) store, then journals the store's changes from here on. */
	load(store: Store): Kept {
		const rows = (table: string, order = 'rowid') =>
			this.db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).iterate() as Iterable<Record<string, string | number | null>>;
		for (const row of rows('accounts')) store.accounts.set(String(row.id), JSON.parse(String(row.data)));
		for (const row of rows('groups')) store.groups.set(String(row.id), JSON.parse(String(row.data)));
		for (const row of rows('users')) store.users.set(String(row.id), JSON.parse(String(row.data)));
		for (const row of rows('storages')) {
			const storage = JSON.parse(String(row.data)) as StorageRecord;
			storage.dir = path.resolve(this.dataDir, storage.dir);
			store.storages.set(storage.id, storage);
		}
		for (const row of rows('jobs')) {
			const id = String(row.id);
			const job = JSON.parse(String(row.data)) as Job;
			store.jobs.set(id, job);
			store.transfers.set(id, []);
			store.jobErrors.set(id, []);
			store.indexJob(job);
		}
		let transfers = 0;
		for (const row of rows('job_transfers', 'job_id, seq')) {
			store.transfers.get(String(row.job_id))?.push(JSON.parse(String(row.data)));
			transfers++;
		}
		let errors = 0;
		for (const row of rows('job_errors', 'job_id, seq')) {
			store.jobErrors.get(String(row.job_id))?.push(JSON.parse(String(row.data)));
			errors++;
		}
		const runs: Array<[string, RunState]> = [];
		for (const row of rows('job_runs')) {
			const listing = row.listing === null ? null : JSON.parse(String(row.listing));
			const jobId = String(row.job_id);
			this.runRows.add(jobId);
			this.writtenListings.set(jobId, listing);
			runs.push([
				jobId,
				{
					stage: row.stage as Stage,
					halted: (row.halted as RunState['halted']) ?? null,
					listing,
					sourceIsFile: row.source_is_file === 1,
					scanIndex: Number(row.scan_index),
					transferIndex: Number(row.transfer_index),
					errorCount: Number(row.error_count),
				},
			]);
		}
		const halted: Array<[string, Stage]> = [];
		for (const row of rows('halted_jobs')) {
			halted.push([String(row.job_id), row.stage as Stage]);
			this.haltedRows.add(String(row.job_id));
		}
		const tokens = [...rows('tokens')].length;
		this.attach(store);
		return {
			counts: {
				accounts: store.accounts.size,
				groups: store.groups.size,
				users: store.users.size,
				storages: store.storages.size,
				jobs: store.jobs.size,
				transfers,
				errors,
				tokens,
			},
			runs,
			halted,
		};
	}

	/** Tokens kept from before (hash → expiry). */
	tokensKept(): Array<[string, number]> {
		return (this.db.prepare('SELECT hash, expires_at FROM tokens').all() as Array<{ hash: string; expires_at: number }>).map((r) => [
			r.hash,
			Number(r.expires_at),
		]);
	}

	/** Journals the store's changes from here on; after seeding a fresh database, writes all of it. */
	attach(store: Store, writeAll = false): void {
		this.store = store;
		store.journal = this;
		if (!writeAll) return;
		for (const kind of KINDS) for (const id of store[kind].keys()) this.changed(kind, id);
		for (const [list, map] of [['transfers', store.transfers], ['errors', store.jobErrors]] as const) {
			for (const [jobId, records] of map) records.forEach((record, seq) => this.appended(list, jobId, seq, record));
		}
		this.flush();
	}

	/** The engine, asked for a job's run whenever the job is written. */
	setRunSource(runs: RunSource): void {
		this.runs = runs;
	}

	changed(kind: RecordKind, id: string): void {
		if (this.closed) return;
		this.dirty.get(kind)!.add(id);
		this.schedule();
	}

	appended(list: 'transfers' | 'errors', jobId: string, seq: number, record: JobTransfer | JobError): void {
		if (this.closed) return;
		this.appends.push([list, jobId, seq, record]);
		this.schedule();
	}

	token(hash: string, expiresAt: number): void {
		if (this.closed) return;
		this.tokens.set(hash, expiresAt);
		this.schedule();
	}

	private schedule(): void {
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = null;
			this.flush();
		}, FLUSH_MS);
		this.timer.unref();
	}

	/** Writes every change collected so far in one transaction. */
	flush(): void {
		if (this.closed || !this.store) return;
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = null;
		}
		const store = this.store;
		const s = this.statements;
		this.db.exec('BEGIN');
		try {
			for (const kind of KINDS) {
				const ids = this.dirty.get(kind)!;
				for (const id of ids) {
					const record = store[kind].get(id);
					if (!record) {
						s[`delete:${kind}`].run(id);
						continue;
					}
					if (kind === 'storages') {
						const storage = record as StorageRecord;
						s['put:storages'].run(id, JSON.stringify({ ...storage, dir: path.relative(this.dataDir, storage.dir) || '.' }));
					} else {
						s[`put:${kind}`].run(id, JSON.stringify(record));
					}
					if (kind === 'jobs') this.writeRun(id);
				}
				ids.clear();
			}
			for (const [list, jobId, seq, record] of this.appends) s[`append:${list}`].run(jobId, seq, JSON.stringify(record));
			this.appends.length = 0;
			for (const [hash, expiresAt] of this.tokens) s.putToken.run(hash, expiresAt);
			this.tokens.clear();
			this.db.exec('COMMIT');
		} catch (error) {
			this.db.exec('ROLLBACK');
			throw error;
		}
	}

	/** Writes (or removes) the run of a job as the engine has it now; the listing only when it changed. */
	private writeRun(jobId: string): void {
		const s = this.statements;
		const run = this.runs?.runOf(jobId);
		if (run) {
			s.putRun.run(jobId, run.stage, run.halted, run.sourceIsFile ? 1 : 0, run.scanIndex, run.transferIndex, run.errorCount);
			if (!this.runRows.has(jobId) || this.writtenListings.get(jobId) !== run.listing) {
				s.putListing.run(run.listing === null ? null : JSON.stringify(run.listing), jobId);
				this.writtenListings.set(jobId, run.listing);
			}
			this.runRows.add(jobId);
		} else if (this.runRows.delete(jobId)) {
			s.deleteRun.run(jobId);
			this.writtenListings.delete(jobId);
		}
		const stage = this.runs?.haltedStageOf(jobId);
		if (stage) {
			s.putHalted.run(jobId, stage);
			this.haltedRows.add(jobId);
		} else if (this.haltedRows.delete(jobId)) {
			s.deleteHalted.run(jobId);
		}
	}

	/** Writes what is left and closes the database (and its lock). */
	close(): void {
		if (this.closed) return;
		this.flush();
		this.closed = true;
		if (this.store?.journal === this) this.store.journal = null;
		this.db.close();
	}
}
