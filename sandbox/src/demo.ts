import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Job, JobAttributes } from '../../nodes/shared/api/types';
import type { DemoIds } from './api';
import type { StorageRecord, Store } from './store';
import { writeFileDeep } from './storage-fs';
import { emptyStats, md5Hex, s3Etag, seededRandom } from './util';

/** Fixed ids of the demo data, so that docs and examples can name them. */
export const DEMO_IDS: DemoIds & { jobIds: { copied: string; failedSync: string; dryRun: string } } = {
	accountId: 'f3a1c2d4-5b6e-4f70-8a91-0b2c3d4e5f60',
	groupIds: ['1b7e2c9a-3d4f-4a5b-8c6d-7e8f9a0b1c2d', '2c8f3dab-4e5a-4b6c-9d7e-8f9a0b1c2d3e'],
	userIds: [
		'3d9a4ebc-5f6b-4c7d-8e8f-9a0b1c2d3e4f',
		'4eab5fcd-6a7c-4d8e-9f9a-0b1c2d3e4f5a',
		'5fbc6ade-7b8d-4e9f-8a0b-1c2d3e4f5a6b',
	],
	storageIds: {
		files: '6acd7bef-8c9e-4fa0-9b1c-2d3e4f5a6b7c',
		archive: '7bde8cfa-9daf-4ab1-8c2d-3e4f5a6b7c8d',
		bucket: '8cef9dab-aeb0-4bc2-9d3e-4f5a6b7c8d9e',
	},
	jobIds: {
		copied: '9dfa0ebc-bfc1-4cd3-8e4f-5a6b7c8d9eaf',
		failedSync: 'ae0b1fcd-c0d2-4de4-9f5a-6b7c8d9eafb0',
		dryRun: 'bf1c2ade-d1e3-4ef5-8a6b-7c8d9eafb0c1',
	},
};

const T0 = '2024-05-01T09:00:00.000Z';

function csv(random: () => number, rows: number, header: string[]): string {
	const lines = [header.join(',')];
	for (let i = 1; i <= rows; i++) {
		lines.push([i, ...header.slice(1).map(() => Math.floor(random() * 100000) / 100)].join(','));
	}
	return lines.join('\n') + '\n';
}

function log(random: () => number, lines: number, day: string): string {
	const levels = ['INFO', 'INFO', 'INFO', 'WARN', 'ERROR'];
	const out: string[] = [];
	for (let i = 0; i < lines; i++) {
		const level = levels[Math.floor(random() * levels.length)];
		out.push(`${day}T${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z ${level} request ${Math.floor(random() * 1e6)}`);
	}
	return out.join('\n') + '\n';
}

/** Demo file contents per storage name; paths are absolute inside the storage. */
function demoFiles(seed: number): Record<'files' | 'archive' | 'bucket', Record<string, string>> {
	const random = seededRandom(seed);
	const q1 = csv(random, 40, ['id', 'revenue', 'cost']);
	const q2 = csv(random, 45, ['id', 'revenue', 'cost']);
	const summary = 'Quarterly summary 2024\nRevenue up, cost flat.\n';
	const readme = 'Reports folder. CSV files are exported nightly.\n';
	const events1 = csv(random, 30, ['id', 'latency', 'bytes']);
	return {
		files: {
			'/reports/2024/q1.csv': q1,
			'/reports/2024/q2.csv': q2,
			'/reports/2024/summary.txt': summary,
			'/reports/readme.txt': readme,
			'/logs/app.log': log(random, 50, '2024-06-03'),
			'/logs/archive/app-2024-05.log': log(random, 80, '2024-05-31'),
			'/data/customers.csv': csv(random, 25, ['id', 'score', 'balance']),
			'/data/orders.csv': csv(random, 60, ['id', 'amount', 'tax']),
			'/notes.txt': 'Shared notes for the sandbox.\n',
		},
		archive: {
			'/reports/2024/q1.csv': q1,
			'/reports/2024/q2.csv': q2,
			'/reports/2024/summary.txt': summary,
			'/reports/readme.txt': readme,
			'/incoming/2024-06-01/events.csv': events1,
			'/old/2023-summary.txt': 'Summary 2023.\n',
		},
		bucket: {
			'/incoming/2024-06-01/events.csv': events1,
			'/incoming/2024-06-01/events.log': log(random, 20, '2024-06-01'),
			'/incoming/2024-06-02/events.csv': csv(random, 35, ['id', 'latency', 'bytes']),
			'/exports/report.txt': 'Export report: 3 objects.\n',
		},
	};
}

/** Attributes of a job as the sandbox creates it, before the caller's values are laid over. */
export function defaultJobAttributes(accountId: string, storages: { source: StorageRecord; target: StorageRecord }): JobAttributes {
	const now = new Date().toISOString();
	return {
		name: 'Job',
		status: 'scanning',
		accountId,
		deploymentId: accountId,
		groupId: null,
		userId: null,
		dryRun: false,
		transferType: 'copy',
		source: { type: storages.source.type, id: storages.source.id, path: null },
		target: { id: storages.target.id, path: null, type: storages.target.type },
		scope: { type: 'rules', method: 'include-if-all', rules: [] },
		conflictHandling: 'skip',
		failureConditions: [],
		transferRateLimit: null,
		stats: emptyStats(),
		createdAt: now,
		updatedAt: now,
	};
}

/**
 * Creates the account and the three storages (always), and with `demo` the groups, users, storage files
 * and finished/failed jobs. Storage files are seeded only into storage folders that do not exist yet.
 */
export function seed(store: Store, dataDir: string, demo: boolean, seedValue: number): void {
	const ids = DEMO_IDS;
	store.accounts.set(ids.accountId, {
		id: ids.accountId,
		type: 'accounts',
		attributes: { name: 'Sandbox Account', createdAt: T0, updatedAt: T0 },
	});
	const storages: StorageRecord[] = [
		{
			id: ids.storageIds.files,
			type: 'file',
			name: 'files',
			createdAt: '2024-05-01T09:10:00.000Z',
			updatedAt: '2024-05-01T09:10:00.000Z',
			metadata: { address: 'nas01.sandbox.local', path: '/exports/files', options: 'vers=4.1' },
			dir: path.join(dataDir, 'files'),
			available: true,
		},
		{
			id: ids.storageIds.archive,
			type: 'file',
			name: 'archive',
			createdAt: '2024-05-01T09:11:00.000Z',
			updatedAt: '2024-05-01T09:11:00.000Z',
			metadata: { address: 'nas02.sandbox.local', path: '/exports/archive', options: 'vers=4.1' },
			dir: path.join(dataDir, 'archive'),
			available: true,
		},
		{
			id: ids.storageIds.bucket,
			type: 'object-aws',
			name: 'bucket',
			createdAt: '2024-05-01T09:12:00.000Z',
			updatedAt: '2024-05-01T09:12:00.000Z',
			metadata: { bucket: 'sandbox-bucket', prefix: '', storageClass: 'STANDARD' },
			dir: path.join(dataDir, 'bucket'),
			available: true,
		},
	];
	const files = demoFiles(seedValue);
	for (const storage of storages) {
		store.storages.set(storage.id, storage);
		const fresh = !fs.existsSync(storage.dir);
		fs.mkdirSync(storage.dir, { recursive: true });
		if (demo && fresh) {
			for (const [p, content] of Object.entries(files[storage.name as keyof typeof files])) {
				writeFileDeep(path.join(storage.dir, ...p.slice(1).split('/')), content);
			}
		}
	}
	if (!demo) return;

	const account = ids.accountId;
	const groupNames = ['Operations', 'Finance'];
	ids.groupIds.forEach((id, i) => {
		const at = `2024-05-02T10:0${i}:00.000Z`;
		store.groups.set(id, {
			id,
			type: 'groups',
			attributes: { accountId: account, deploymentId: account, name: groupNames[i], createdAt: at, updatedAt: at },
		});
	});
	const people = [
		{ email: 'alice.admin@example.com', firstName: 'Alice', lastName: 'Admin', group: 0, timezone: 'Europe/Berlin' },
		{ email: 'bob.ops@example.com', firstName: 'Bob', lastName: 'Operator', group: 0, timezone: 'America/New_York' },
		{ email: 'carol.finance@example.com', firstName: 'Carol', lastName: 'Finance', group: 1, timezone: null },
	];
	ids.userIds.forEach((id, i) => {
		const p = people[i];
		const at = `2024-05-03T11:0${i}:00.000Z`;
		store.users.set(id, {
			id,
			type: 'users',
			attributes: {
				accountId: account,
				deploymentId: account,
				groupId: ids.groupIds[p.group],
				email: p.email,
				firstName: p.firstName,
				lastName: p.lastName,
				timezone: p.timezone,
				createdAt: at,
				updatedAt: at,
			},
		});
	});

	const [filesStorage, archive, bucket] = storages;
	const transfer = (p: string, content: string, status: 0 | 1 | -1 = 0) => {
		const data = Buffer.from(content);
		return {
			type: 'job-transfers' as const,
			attributes: {
				path: p,
				status,
				size: data.length,
				hash: status === -1 ? { md5: '', s3Etag: '' } : { md5: md5Hex(data), s3Etag: s3Etag(data) },
			},
		};
	};

	// A finished copy of /reports from "files" to "archive".
	const reports = ['/reports/2024/q1.csv', '/reports/2024/q2.csv', '/reports/2024/summary.txt', '/reports/readme.txt'];
	const reportsSize = reports.reduce((s, p) => s + Buffer.byteLength(files.files[p]), 0);
	const copied: Job = {
		id: ids.jobIds.copied,
		type: 'jobs',
		attributes: {
			...defaultJobAttributes(account, { source: filesStorage, target: archive }),
			name: 'Copy reports to archive',
			status: 'finished',
			userId: ids.userIds[0],
			groupId: ids.groupIds[0],
			source: { type: 'file', id: filesStorage.id, path: '/reports' },
			target: { id: archive.id, path: '/reports', type: 'file' },
			conflictHandling: 'overwrite',
			failureConditions: [{ type: 'error-count', value: 10 }],
			stats: {
				startedAt: '2024-06-01T08:00:00.000Z',
				finishedAt: '2024-06-01T08:00:04.250Z',
				estimatedDuration: 4,
				estimatedCost: { amount: '0.0104', currency: 'USD' },
				estimatedFinishedAt: '2024-06-01T08:00:04.250Z',
				scannedFilesCount: 4,
				filesCount: 4,
				filesSize: reportsSize,
				transferredCount: 4,
				transferredSize: reportsSize,
			},
			createdAt: '2024-06-01T08:00:00.000Z',
			updatedAt: '2024-06-01T08:00:04.250Z',
		},
	};
	store.addJob(copied);
	store.transfers.set(copied.id, reports.map((p) => transfer(p, files.files[p])));

	// A sync from the bucket that failed after two unreadable objects.
	const incoming = '/incoming/2024-06-01/events.csv';
	const failed: Job = {
		id: ids.jobIds.failedSync,
		type: 'jobs',
		attributes: {
			...defaultJobAttributes(account, { source: bucket, target: archive }),
			name: 'Sync incoming events',
			status: 'failed',
			userId: ids.userIds[1],
			groupId: ids.groupIds[0],
			transferType: 'sync',
			conflictHandling: null,
			source: { type: 'object-aws', id: bucket.id, path: '/incoming', retrievalType: 'standard' },
			target: { id: archive.id, path: '/incoming', type: 'file' },
			scope: { type: 'rules', method: 'include-if-all', rules: [{ type: 'name', condition: 'ends-with', value: '.csv' }] },
			failureConditions: [{ type: 'error-count', value: 2 }],
			stats: {
				startedAt: '2024-06-02T07:30:00.000Z',
				finishedAt: '2024-06-02T07:30:03.100Z',
				estimatedDuration: 3,
				estimatedCost: { amount: '0.0103', currency: 'USD' },
				estimatedFinishedAt: '2024-06-02T07:30:03.000Z',
				scannedFilesCount: 3,
				filesCount: 3,
				filesSize: Buffer.byteLength(files.bucket[incoming]) + Buffer.byteLength(files.bucket['/incoming/2024-06-02/events.csv']) + 512,
				transferredCount: 1,
				transferredSize: Buffer.byteLength(files.bucket[incoming]),
			},
			createdAt: '2024-06-02T07:30:00.000Z',
			updatedAt: '2024-06-02T07:30:03.100Z',
		},
	};
	store.addJob(failed);
	store.transfers.set(failed.id, [
		transfer(incoming, files.bucket[incoming]),
		{ type: 'job-transfers', attributes: { path: '/incoming/2024-06-02/events.csv', status: -1, size: Buffer.byteLength(files.bucket['/incoming/2024-06-02/events.csv']), hash: { md5: '', s3Etag: '' } } },
		{ type: 'job-transfers', attributes: { path: '/incoming/2024-06-03/events.csv', status: -1, size: 512, hash: { md5: '', s3Etag: '' } } },
	]);
	store.jobErrors.set(failed.id, [
		{
			id: 'c02d3bef-e2f4-4fa6-9b7c-8d9eafb0c1d2',
			type: 'job-errors',
			attributes: { sourcePath: '/incoming/2024-06-02/events.csv', message: 'The object cannot be read (AccessDenied).', timestamp: '2024-06-02T07:30:02.000Z', event: 'error' },
		},
		{
			id: 'd13e4cfa-f3a5-4ab7-8c8d-9eafb0c1d2e3',
			type: 'job-errors',
			attributes: { sourcePath: '/incoming/2024-06-03/events.csv', message: 'The object cannot be read (AccessDenied).', timestamp: '2024-06-02T07:30:03.000Z', event: 'error' },
		},
	]);

	// A dry run that estimated a copy of /data to the bucket.
	const dataSize = Buffer.byteLength(files.files['/data/customers.csv']) + Buffer.byteLength(files.files['/data/orders.csv']);
	store.addJob({
		id: ids.jobIds.dryRun,
		type: 'jobs',
		attributes: {
			...defaultJobAttributes(account, { source: filesStorage, target: bucket }),
			name: 'Estimate data export',
			status: 'finished',
			userId: ids.userIds[2],
			groupId: ids.groupIds[1],
			dryRun: true,
			source: { type: 'file', id: filesStorage.id, path: '/data' },
			target: { id: bucket.id, path: '/imports', type: 'object-aws' },
			conflictHandling: 'rename',
			stats: {
				startedAt: '2024-06-03T12:00:00.000Z',
				finishedAt: '2024-06-03T12:00:00.400Z',
				estimatedDuration: 0.3,
				estimatedCost: { amount: '0.0102', currency: 'USD' },
				estimatedFinishedAt: '2024-06-03T12:00:00.700Z',
				scannedFilesCount: 2,
				filesCount: 2,
				filesSize: dataSize,
				transferredCount: 0,
				transferredSize: 0,
			},
			createdAt: '2024-06-03T12:00:00.000Z',
			updatedAt: '2024-06-03T12:00:00.400Z',
		},
	});
}
