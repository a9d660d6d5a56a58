/**
 * The sandbox's programmatic interface: what tests, benchmarks and scripts use to start it, inject
 * faults and look at what it holds. The HTTP API is the service's (see sandbox/README.md).
 */
import type {
	Account,
	Group,
	Job,
	JobAttributes,
	JobError,
	JobStatus,
	JobTransfer,
	Storage,
	User,
} from '../../nodes/shared/api/types';

export interface SandboxOptions {
	/** Port on 127.0.0.1; 0 (default) picks a free one. */
	port?: number;
	/** Client credentials accepted by POST /oauth/token. Defaults: 'sandbox-client' / 'sandbox-secret'. */
	clientId?: string;
	clientSecret?: string;
	/** Access token lifetime in seconds (default 86400). */
	tokenTtlSeconds?: number;
	/** Job time runs this many times faster than real time (default 1). */
	speed?: number;
	/**
	 * Data folder: the storages' files and `sandbox.db`, which keeps the whole state (jobs with their
	 * transfers and errors, users, groups, storages, accounts, tokens, runs in progress) across restarts.
	 * Default: a new temporary folder for the files, removed on close(), and the state in memory only.
	 */
	dataDir?: string;
	/** Seed the demo data (default true). */
	demo?: boolean;
	/** Seed for everything random in the sandbox (chaos faults, demo file contents). Default 1. */
	seed?: number;
	/**
	 * Deviation modes, e.g. ['ignore-sort', 'max-page:50'] (sandbox/src/deviations.ts, docs/api-contract.md);
	 * default none: the server keeps to the contract.
	 */
	deviations?: string[];
	/**
	 * The network and capacity model: latency with jitter, a capacity with a bounded queue (sandbox/README.md,
	 * "Network and capacity model"). Default: off (answers as fast as the server makes them, no limit).
	 */
	network?: NetworkSettings;
}

/**
 * A deployment's network and capacity, set per run. Every field may be left out; null means "no limit" for
 * capacity and queue. Applies to the API routes and `POST /oauth/token`, never to the `/__sandbox/` routes.
 */
export interface NetworkSettings {
	/** Service time of every answer, in ms (default 0). */
	latencyMs?: number;
	/** Each answer takes latencyMs ± jitterMs, uniformly drawn with the sandbox's seed (default 0; at most latencyMs). */
	jitterMs?: number;
	/** Requests in service at once, an integer ≥ 1; the rest wait in a FIFO queue (default null: no limit). */
	capacity?: number | null;
	/**
	 * Requests that may wait for a place, an integer ≥ 0; one arriving when this many wait gets 503 with
	 * Retry-After at once (default null: the queue has no bound).
	 */
	queue?: number | null;
	/** Retry-After (seconds, an integer ≥ 0) of the overload 503 (default 1). */
	overloadRetryAfterSeconds?: number;
}

/** What the model counted since it was last set. */
interface NetworkCounters {
	/** Requests that were admitted and finished their service (answered, dropped or abandoned). */
	served: number;
	/** Requests refused with the overload 503 (queue full). */
	overloaded: number;
	/** Requests in service and waiting now. */
	inFlight: number;
	queued: number;
	/** The most requests in service at once, and waiting at once. */
	peakInFlight: number;
	peakQueued: number;
}

/**
 * The model's settings in force (every field filled in; null when the model is off) and its counters, which
 * setting the model resets and turning it off keeps.
 */
export interface NetworkState extends NetworkCounters {
	settings: Required<NetworkSettings> | null;
}

/** The network and capacity model of a running sandbox; `set` throws on a bad value (then nothing changes). */
interface SandboxNetwork {
	set(settings: NetworkSettings): NetworkState;
	/** Turns the model off: answers without delay or limit again. */
	clear(): NetworkState;
	get(): NetworkState;
}

/** A fault the sandbox injects instead of (or around) the normal answer. */
export type FaultKind =
	| 'rate-limit' // 429 rate-limited, with Retry-After when retryAfterSeconds is set
	| 'internal-error' // 500, request not carried out
	| 'bad-gateway' // 502, request not carried out
	| 'unavailable' // 503 unavailable, Retry-After when retryAfterSeconds is set; not carried out
	| 'drop-before-body' // socket destroyed before the body is read: not carried out
	| 'drop-after-body' // request carried out, then the socket destroyed before any answer
	| 'slow' // answer delayed by delayMs (request carried out after the delay)
	| 'malformed-json' // 200 with a body that is not JSON; not carried out
	| 'wrong-content-type' // 200 with Content-Type text/html and an HTML body; not carried out
	| 'expire-token'; // the presented token is expired just before the request is handled (-> 401)

export interface FaultRule {
	kind: FaultKind;
	/** Method to match (default: any). */
	method?: string;
	/**
	 * Path to match, as in the contract's route table with {id} placeholders, e.g. '/jobs/{id}',
	 * or an exact path; default: any route except /oauth/token.
	 */
	path?: string;
	/** How many matching requests get the fault (default 1); Infinity for all. */
	times?: number;
	/** Skip this many matching requests before the fault starts (default 0). */
	after?: number;
	/** For rate-limit and unavailable. */
	retryAfterSeconds?: number;
	/**
	 * For rate-limit: a rate limit of this many requests per second. Matching requests within it pass;
	 * those beyond it in the same one-second window (from the window's first request) get the fault.
	 * `times` and `after` do not apply.
	 */
	perSecond?: number;
	/** For slow. */
	delayMs?: number;
}

export interface ChaosOptions {
	/** Probability (0..1) that a request gets a fault. */
	rate: number;
	/** Kinds to draw from (default: all except expire-token and slow). */
	kinds?: FaultKind[];
	/** Seed of the random draw. */
	seed: number;
	retryAfterSeconds?: number;
	delayMs?: number;
}

export interface RequestRecord {
	method: string;
	/** Path without the query string, e.g. '/jobs'. */
	path: string;
	/** Route template, e.g. '/jobs/{id}'; '' when no route matched. */
	route: string;
	query: Record<string, string>;
	status: number;
	/** Fault injected on this request, if any. */
	fault?: FaultKind;
	/** True when the network model refused it (503, queue full); such a request has no `fault`. */
	overloaded?: true;
	/** The service time the network model drew for it (latencyMs ± jitterMs), once it had its place. */
	latencyMs?: number;
	/** Authorization header value, as sent. */
	authorization?: string;
	at: number;
	/** When it was answered (or dropped), local ms; what the benchmark's trace of requests in service reads. */
	doneAt?: number;
}

/** What the sandbox holds, as the API would return it. */
export interface SandboxState {
	accounts(): Account[];
	groups(): Group[];
	users(): User[];
	jobs(): Job[];
	storages(): Storage[];
	job(id: string): Job | undefined;
	jobTransfers(jobId: string): JobTransfer[];
	jobErrors(jobId: string): JobError[];
	/** Absolute folder on disk that holds a storage's files. */
	storageDir(storageId: string): string;
}

export interface SandboxControl {
	/** Inserts jobs directly (no engine run), e.g. 10,000 for paging tests. Returns their ids. */
	insertJobs(count: number, attributes?: Partial<JobAttributes>): string[];
	/**
	 * Moves a job to a status as the system would (updatedAt set to now, stats.finishedAt on finished),
	 * without the transition rules; for trigger tests.
	 */
	setJobStatus(jobId: string, status: JobStatus): void;
	/** Adds a job-error record to a job. */
	addJobError(jobId: string, error: { sourcePath: string; message: string; event?: 'error' | 'warning' }): void;
	/** Makes a storage unavailable (its running jobs go stuck) or available again. */
	setStorageAvailable(storageId: string, available: boolean): void;
	/** Expires every access token issued so far. */
	expireTokens(): void;
	/** Writes a file into a storage (path absolute inside the storage). */
	writeFile(storageId: string, path: string, content: string | Buffer): void;
	/** Waits until a job reaches a final status (finished, failed, canceled) or stuck. */
	waitForJob(jobId: string, timeoutMs?: number): Promise<Job>;
}

export interface SandboxFaults {
	add(rule: FaultRule): void;
	chaos(options: ChaosOptions): void;
	clear(): void;
}

/** Deviation modes (names as for `--deviate`); `set` replaces, `add` adds; both throw on an unknown mode. */
interface SandboxDeviations {
	set(list: string[] | string): string[];
	add(list: string[] | string): string[];
	list(): string[];
	clear(): void;
}

export interface SandboxRequestLog {
	all(): RequestRecord[];
	/** Requests matching every given field. */
	count(match?: Partial<Pick<RequestRecord, 'method' | 'path' | 'route' | 'status'>>): number;
	clear(): void;
}

export interface Sandbox {
	/** e.g. http://127.0.0.1:34567 */
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	state: SandboxState;
	/** The deviation modes in force; changeable at run time. */
	deviations: SandboxDeviations;
	control: SandboxControl;
	faults: SandboxFaults;
	requests: SandboxRequestLog;
	/** The network and capacity model; changeable at run time. */
	network: SandboxNetwork;
	/** What the data folder held at start. */
	data: SandboxDataInfo;
	close(): Promise<void>;
}

interface SandboxDataInfo {
	dataDir: string;
	/** The database file; null when the state lives in memory (no dataDir given). */
	database: string | null;
	/** True when this start created the state (seeded it), false when it was read from the database. */
	created: boolean;
	/** Records read from the database (all 0 when created); resumedRuns: job runs that carry on. */
	kept: KeptCounts & { resumedRuns: number };
}

/** Records of each kind a data folder held when the sandbox started. */
export interface KeptCounts {
	accounts: number;
	groups: number;
	users: number;
	storages: number;
	jobs: number;
	transfers: number;
	errors: number;
	tokens: number;
}

/** Ids of the demo data, fixed so that docs and examples can name them. */
export interface DemoIds {
	accountId: string;
	groupIds: string[];
	userIds: string[];
	storageIds: { files: string; archive: string; bucket: string };
}
