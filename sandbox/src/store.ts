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
} from '../../nodes/FileTransferManager/api/types';
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

	/** Marks a job as changed: updatedAt moves forward and listeners hear of it. */
	touchJob(job: Job): void {
		job.attributes.updatedAt = nextTimestamp(job.attributes.updatedAt);
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
	}

	defaultAccountId(): string | undefined {
		return this.accounts.keys().next().value;
	}
}
