import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Storage } from '../../nodes/shared/api/types';
import type { StorageRecord } from './store';

/** Size reported as bytesTotal for `file` storages (1 TiB). */
const FILE_STORAGE_BYTES_TOTAL = 1024 ** 4;

/** Normalises a storage path: absolute, `/` separated, no `..`; null means the root. */
export function normalizeStoragePath(p: string | null | undefined): string {
	if (!p) return '/';
	const normal = path.posix.normalize('/' + p).replace(/\/+$/, '');
	return normal === '' ? '/' : normal;
}

/** Folder or file on disk for a path inside a storage; never outside the storage's folder. */
export function diskPath(storage: StorageRecord, storagePath: string | null | undefined): string {
	const rel = normalizeStoragePath(storagePath).slice(1);
	return rel ? path.join(storage.dir, ...rel.split('/')) : storage.dir;
}

export interface ListedFile {
	/** Path relative to the listed folder, `/` separated, no leading slash. */
	rel: string;
	/** File name (last segment). */
	name: string;
	size: number;
	/** False for an entry that cannot be read (e.g. a dangling symlink). */
	readable: boolean;
}

/**
 * Lists the files under a folder on disk, recursively, sorted by path. A file path lists that one file.
 * Returns undefined when the path does not exist.
 */
export function listFiles(root: string): ListedFile[] | undefined {
	let rootStat: fs.Stats;
	try {
		rootStat = fs.statSync(root);
	} catch {
		return undefined;
	}
	if (rootStat.isFile()) {
		const name = path.basename(root);
		return [{ rel: name, name, size: rootStat.size, readable: true }];
	}
	const out: ListedFile[] = [];
	const walk = (dir: string, prefix: string): void => {
		const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
		for (const entry of entries) {
			const full = path.join(dir, entry.name);
			const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
			let stat: fs.Stats | undefined;
			try {
				stat = fs.statSync(full);
			} catch {
				stat = undefined;
			}
			if (stat?.isDirectory()) walk(full, rel);
			else if (stat?.isFile()) out.push({ rel, name: entry.name, size: stat.size, readable: true });
			else if (!stat) out.push({ rel, name: entry.name, size: 0, readable: false });
		}
	};
	walk(root, '');
	return out;
}

/** Writes a file, creating missing folders. */
export function writeFileDeep(file: string, content: string | Buffer): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, content);
}

/** Removes a file and then any folders it leaves empty, up to (not including) `stopAt`. */
export function removeFile(file: string, stopAt: string): void {
	fs.rmSync(file, { force: true });
	let dir = path.dirname(file);
	while (dir.startsWith(stopAt) && dir !== stopAt) {
		try {
			fs.rmdirSync(dir);
		} catch {
			break;
		}
		dir = path.dirname(dir);
	}
}

/** The storage as the API returns it, with capacity counted from its folder. */
export function storageResource(storage: StorageRecord): Storage {
	const files = listFiles(storage.dir) ?? [];
	const bytesUsed = files.reduce((sum, f) => sum + f.size, 0);
	const capacity =
		storage.type === 'file'
			? { bytesUsed, fileCount: files.length, bytesTotal: FILE_STORAGE_BYTES_TOTAL }
			: { bytesUsed, fileCount: files.length };
	return {
		id: storage.id,
		type: 'storages',
		attributes: {
			type: storage.type,
			name: storage.name,
			status: storage.available ? 'ready' : 'unavailable',
			metadata: { ...storage.metadata },
			stats: { capacity },
			createdAt: storage.createdAt,
			updatedAt: storage.updatedAt,
		},
	};
}
