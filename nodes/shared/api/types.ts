/**
 * The File Transfer Management Service API, as types. Derived once from the API description and
 * docs/api-contract.md; the nodes, the sandbox and the tests all import from here.
 */

export const JOB_STATUSES = [
	'scanning',
	'running',
	'paused',
	'stuck',
	'canceled',
	'finished',
	'failed',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Statuses a job never leaves. */
export const FINAL_JOB_STATUSES = ['finished', 'failed', 'canceled'] as const satisfies readonly JobStatus[];

export const TRANSFER_TYPES = ['copy', 'move', 'sync'] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

export const CONFLICT_HANDLINGS = ['skip', 'rename', 'overwrite'] as const;
export type ConflictHandling = (typeof CONFLICT_HANDLINGS)[number];

export const STORAGE_TYPES = ['file', 'object-aws'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export const RETRIEVAL_TYPES = ['standard', 'bulk', 'expedited'] as const;
export type RetrievalType = (typeof RETRIEVAL_TYPES)[number];

export const RULE_TYPES = ['name'] as const;
type RuleType = (typeof RULE_TYPES)[number];

export const RULE_CONDITIONS = ['ends-with', 'matches'] as const;
type RuleCondition = (typeof RULE_CONDITIONS)[number];

type FailureConditionType = 'error-count';

type JobErrorEvent = 'error' | 'warning';

/** `job-transfers.status`: 0 transferred, 1 skipped, -1 failed. */
export const TRANSFER_STATUS = { transferred: 0, skipped: 1, failed: -1 } as const;
export type TransferStatus = (typeof TRANSFER_STATUS)[keyof typeof TRANSFER_STATUS];

export const RESOURCE_TYPES = [
	'accounts',
	'groups',
	'users',
	'jobs',
	'job-transfers',
	'job-errors',
	'storages',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** ISO 8601 UTC timestamp with milliseconds. */
type Timestamp = string;

export interface Timestamps {
	createdAt: Timestamp;
	updatedAt: Timestamp;
}

interface AccountAttributes extends Timestamps {
	name: string;
}

export interface GroupAttributes extends Timestamps {
	accountId: string;
	/** @deprecated in favour of accountId; the contract returns both. */
	deploymentId: string;
	name: string;
}

interface UserAttributes extends Timestamps {
	accountId: string;
	/** @deprecated in favour of accountId; the contract returns both. */
	deploymentId: string;
	groupId: string | null;
	email: string;
	firstName: string;
	lastName: string;
	timezone: string | null;
}

interface JobSource {
	type: StorageType;
	id: string;
	path: string | null;
	retrievalType?: RetrievalType;
}

interface JobTarget {
	id: string;
	path: string | null;
	type?: StorageType;
}

export interface ScopeRule {
	type: RuleType;
	condition: RuleCondition;
	value: string;
}

export interface JobScope {
	type: 'rules';
	method: 'include-if-all';
	rules: ScopeRule[];
}

export interface FailureCondition {
	type: FailureConditionType;
	value: number;
}

export interface Money {
	/** Decimal number as a string, e.g. "12.50". */
	amount: string;
	/** ISO 4217 currency code. */
	currency: string;
}

export interface JobStats {
	startedAt: Timestamp | null;
	finishedAt: Timestamp | null;
	/** Seconds (docs/api-contract.md). */
	estimatedDuration: number | null;
	estimatedCost: Money | null;
	estimatedFinishedAt: Timestamp | null;
	scannedFilesCount: number;
	filesCount: number;
	filesSize: number;
	transferredCount: number;
	transferredSize: number;
}

export const JOB_STATS_FIELDS = [
	'startedAt',
	'finishedAt',
	'estimatedDuration',
	'estimatedCost',
	'estimatedFinishedAt',
	'scannedFilesCount',
	'filesCount',
	'filesSize',
	'transferredCount',
	'transferredSize',
] as const satisfies ReadonlyArray<keyof JobStats>;

export interface JobAttributes extends Timestamps {
	name: string;
	status: JobStatus;
	accountId: string;
	/** @deprecated in favour of accountId. */
	deploymentId: string;
	groupId: string | null;
	userId: string | null;
	dryRun: boolean;
	transferType: TransferType;
	source: JobSource;
	target: JobTarget;
	scope: JobScope;
	conflictHandling: ConflictHandling | null;
	failureConditions: FailureCondition[];
	/** Bytes per second (docs/api-contract.md). */
	transferRateLimit: number | null;
	stats: JobStats;
}

interface JobTransferAttributes {
	path: string;
	status: TransferStatus;
	size: number;
	hash: { md5: string; s3Etag: string };
}

interface JobErrorAttributes {
	sourcePath: string;
	message: string;
	timestamp: Timestamp;
	event: JobErrorEvent;
}

export interface FileStorageMetadata {
	address: string;
	path: string;
	options: string;
}

export interface ObjectAwsStorageMetadata {
	bucket: string;
	prefix: string;
	storageClass: string;
}

interface StorageCapacity {
	bytesUsed: number;
	fileCount: number;
	/** Present for `file` storages, absent for `object-aws`. */
	bytesTotal?: number;
}

interface StorageAttributes extends Timestamps {
	type: StorageType;
	name: string;
	status: string;
	metadata: FileStorageMetadata | ObjectAwsStorageMetadata;
	stats: { capacity: StorageCapacity };
}

/** Attributes by JSON:API resource type. */
interface AttributesByType {
	accounts: AccountAttributes;
	groups: GroupAttributes;
	users: UserAttributes;
	jobs: JobAttributes;
	'job-transfers': JobTransferAttributes;
	'job-errors': JobErrorAttributes;
	storages: StorageAttributes;
}

interface Resource<T extends ResourceType> {
	id: string;
	type: T;
	attributes: AttributesByType[T];
}

/** job-transfers records carry no id. */
export interface JobTransfer {
	type: 'job-transfers';
	attributes: JobTransferAttributes;
}

export type Account = Resource<'accounts'>;
export type Group = Resource<'groups'>;
export type User = Resource<'users'>;
export type Job = Resource<'jobs'>;
export type JobError = Resource<'job-errors'>;
export type Storage = Resource<'storages'>;

export type AnyResource = Account | Group | User | Job | JobError | JobTransfer | Storage;

export interface Document<T> {
	data: T;
}

interface PageMeta {
	/** Opaque cursor for `page[after]`; null on the last page. */
	after: string | null;
	/** Count of all matching records. */
	total: number;
}

export interface ListDocument<T> {
	data: T[];
	meta: { page: PageMeta };
	/** Only on job-transfers and job-errors lists. */
	links?: { next: string | null };
}

export interface VersionDocument {
	jsonapi: { version: string };
	meta: { apiVersion: string };
}

export interface TokenResponse {
	access_token: string;
	token_type: 'Bearer';
	expires_in: number;
}

export interface OAuthErrorBody {
	error: 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';
	error_description: string;
}

export const ERROR_CODES = [
	'invalid-request',
	'validation-failed',
	'invalid-filter',
	'invalid-sort',
	'invalid-page',
	'read-only-attribute',
	'unauthorized',
	'entity-not-found',
	'method-not-allowed',
	'invalid-status-transition',
	'conflict',
	'rate-limited',
	'internal-error',
	'unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorObject {
	status: string;
	code: ErrorCode;
	title: string;
	detail: string;
	source?: { pointer: string };
}

/** Page size limits of collection queries (docs/api-contract.md). */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

/** Request bodies. */
export interface JobCreateAttributes {
	name?: string;
	status?: 'running';
	accountId?: string;
	userId?: string;
	groupId?: string;
	transferType: TransferType;
	source: { type: StorageType; id: string; path?: string | null; retrievalType?: RetrievalType };
	target: { id: string; path?: string | null };
	scope?: JobScope;
	conflictHandling?: ConflictHandling | null;
	dryRun?: boolean;
	failureConditions?: FailureCondition[];
	transferRateLimit?: number | null;
}

export interface GroupCreateAttributes {
	accountId?: string;
	deploymentId?: string;
	name: string;
}

export interface UserCreateAttributes {
	accountId?: string;
	deploymentId?: string;
	groupId?: string | null;
	email: string;
	firstName?: string;
	lastName?: string;
	timezone?: string | null;
}

export interface UserUpdateAttributes {
	firstName?: string;
	lastName?: string;
	timezone?: string | null;
}

export interface CreateBody<T extends ResourceType, A> {
	data: { type: T; attributes: A };
}

export interface UpdateBody<T extends ResourceType, A> {
	data: { id: string; type: T; attributes: A };
}

/** Statuses a client may set with PATCH /jobs/{id}. */
export type SettableJobStatus = Extract<JobStatus, 'paused' | 'running' | 'canceled'>;

/** Filterable fields per collection (docs/api-contract.md: exact match on attributes, `id` included). */
export const JOB_FILTER_FIELDS = [
	'id',
	'name',
	'status',
	'accountId',
	'deploymentId',
	'groupId',
	'userId',
	'dryRun',
	'transferType',
	'conflictHandling',
	'source.id',
	'source.type',
	'source.path',
	'target.id',
	'target.path',
] as const;
