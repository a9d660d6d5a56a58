import type {
	Account,
	FileStorageMetadata,
	Group,
	Job,
	JobError,
	JobTransfer,
	ObjectAwsStorageMetadata,
	StorageType,
	User,
} from '../../nodes/shared/api/types';
import { nextTimestamp } from './util';

/** A storage as the sandbox keeps it; the API resource is built from it (see storage-fs.ts). */
export interface StorageRecord {
	id: string;
	type: StorageType;
	name: string;
	createdAt: string;
	updatedAt: string;
	metadata: FileStorageMetadata | ObjectAwsStorageMetadata;
	/** Folder on disk that holds the storage's files. */
	dir: string;
	available: boolean;
}

export type JobListener = (job: Job) => void;

/** The record collections of the store (what `changed()` names). */
export type RecordKind = 'accounts' | 'groups' | 'users' | 'jobs' | 'storages';

/**
 * Hears of every change to the store, so that it can be written to disk (persist.ts). The store calls it
 * synchronously; the journal decides when to write (it batches).
 */
export interface Journal {
	/** A record was added, changed or removed (the store's Map says which). */
	changed(kind: RecordKind, id: string): void;
	/** A transfer or job-error was appended to a job's list at position `seq`. */
	appended(list: 'transfers' | 'errors', jobId: string, seq: number, record: JobTransfer | JobError): void;
}

/** Everything the sandbox holds, in memory. Collections keep insertion order (Map). */
export class Store {
	readonly accounts = new Map<string, Account>();
	readonly groups = new Map<string, Group>();
	readonly users = new Map<string, User>();
	readonly jobs = new Map<string, Job>();
	readonly storages = new Map<string, StorageRecord>();
	readonly transfers = new Map<string, JobTransfer[]>();
	readonly jobErrors = new Map<string, JobError[]>();
	private readonly jobListeners = new Set<JobListener>();
	/** Jobs by status, so that `filter[status]` reads only the jobs of that status. */
	private readonly jobsByStatus = new Map<string, Set<Job>>();
	private readonly indexedStatus = new Map<string, string>();
	/** Set when the sandbox keeps its state in a data folder. */
	journal: Journal | null = null;

	/** Tells the journal that a record changed in place, was added (`set`) or removed (`delete`). */
	changed(kind: RecordKind, id: string): void {
		this.journal?.changed(kind, id);
	}

	/** Marks a job as changed: updatedAt moves forward, the journal and listeners hear of it. */
	touchJob(job: Job): void {
		job.attributes.updatedAt = nextTimestamp(job.attributes.updatedAt);
		this.indexJob(job);
		this.journal?.changed('jobs', job.id);
		for (const listener of [...this.jobListeners]) listener(job);
	}

	onJobChange(listener: JobListener): () => void {
		this.jobListeners.add(listener);
		return () => this.jobListeners.delete(listener);
	}

	addJob(job: Job): void {
		this.jobs.set(job.id, job);
		this.transfers.set(job.id, []);
		this.jobErrors.set(job.id, []);
		this.indexJob(job);
		this.journal?.changed('jobs', job.id);
	}

	/**
	 * Files a job under its current status. A status changes only together with touchJob (the engine's
	 * setStatus), which calls this; jobs read from the data folder are filed as they are loaded.
	 */
	indexJob(job: Job): void {
		const status = job.attributes.status;
		const was = this.indexedStatus.get(job.id);
		if (was === status) return;
		if (was !== undefined) this.jobsByStatus.get(was)?.delete(job);
		let set = this.jobsByStatus.get(status);
		if (!set) this.jobsByStatus.set(status, (set = new Set()));
		set.add(job);
		this.indexedStatus.set(job.id, status);
	}

	/** The jobs whose status is `status` (in no particular order). */
	jobsWithStatus(status: string): Iterable<Job> {
		return this.jobsByStatus.get(status) ?? [];
	}

	addTransfer(jobId: string, transfer: JobTransfer): void {
		const list = this.transfers.get(jobId);
		if (!list) return;
		list.push(transfer);
		this.journal?.appended('transfers', jobId, list.length - 1, transfer);
	}

	addJobError(jobId: string, error: JobError): void {
		const list = this.jobErrors.get(jobId);
		if (!list) return;
		list.push(error);
		this.journal?.appended('errors', jobId, list.length - 1, error);
	}

	defaultAccountId(): string | undefined {
		return this.accounts.keys().next().value;
	}
}
