/**
 * One process at a time for an install (parallel jest workers, other checkouts sharing a cache): a lock folder
 * holding its owner's pid. A lock whose owner is gone (a killed install) is removed; a lock whose owner has not
 * written its pid yet is waited for.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pidAlive } from './processes';
import { sleep } from './waiting';
import { cacheRoot } from './paths';

/** Runs `body` while holding the lock folder `lock` (created with its parent folders). */
export async function withLock<T>(
	lock: string,
	what: string,
	log: (line: string) => void,
	body: () => Promise<T>,
	pollMs = 1000,
): Promise<T> {
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	let told = false;
	for (;;) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		let owner = NaN;
		try {
			owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
		} catch {
			// the owner may not have written its pid yet
		}
		if (Number.isInteger(owner) && owner > 0 && !pidAlive(owner)) {
			log(`removing the stale lock of process ${owner}`);
			fs.rmSync(lock, { recursive: true, force: true });
			continue;
		}
		if (!told) log(`another process (${owner || 'starting'}) is installing ${what}; waiting for it`);
		told = true;
		await sleep(pollMs);
	}
	try {
		return await body();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/** The lock `name` inside `.n8n-cache/`: one installer at a time into the cache. */
export function withCacheLock<T>(
	name: string,
	what: string,
	log: (line: string) => void,
	body: () => Promise<T>,
	pollMs = 1000,
): Promise<T> {
	return withLock(path.join(cacheRoot, `.${name}.lock`), what, log, body, pollMs);
}
