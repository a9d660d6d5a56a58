// @ts-nocheck
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_IDS } from '../../sandbox/src';
import {
	createJob,
	createJobOk,
	expectError,
	diskPath,
	expectJsonApi,
	listFiles,
	md5,
	md5Tree,
	readAll,
	uniq,
	useSandbox,
	waitFinal,
	type JobInput,
} from './helpers';

// demo: false still has the three storages, with empty folders.
const h = useSandbox({ demo: false, speed: 1000 });

const FILES = () => DEMO_IDS.storageIds.files;
const ARCHIVE = () => DEMO_IDS.storageIds.archive;
const BUCKET = () => DEMO_IDS.storageIds.bucket;

/** Writes `{relative path: content}` under `folder` of a storage. */
function put(storageId: string, folder: string, files: Record<string, string | Buffer>): void {
	for (const [rel, content] of Object.entries(files)) h.sb.control.writeFile(storageId, `${folder}/${rel}`, content);
}

const md5s = (files: Record<string, string | Buffer>): Record<string, string> =>
	Object.fromEntries(Object.entries(files).map(([k, v]) => [k, md5(v)]));

/** Creates a job, waits until it is final, and returns it with all of its transfers and errors. */
async function run(attrs: JobInput) {
	const id = await createJobOk(h, attrs);
	const { job } = await waitFinal(h, id);
	const transfers = await readAll(h, `/jobs/${id}/transfers`);
	const errors = await readAll(h, `/jobs/${id}/errors`);
	return { id, job, transfers, errors };
}

/** Checks each transferred record's md5 (and s3Etag for object-aws) against the file on disk. */
function expectHashesMatchDisk(storageId: string, transfers: any[]): void {
	for (const t of transfers.filter((x) => x.attributes.status === 0)) {
		const data = readFileSync(diskPath(h, storageId, t.attributes.path));
		expect({ path: t.attributes.path, md5: t.attributes.hash.md5, size: t.attributes.size }).toEqual({
			path: t.attributes.path,
			md5: md5(data),
			size: data.length,
		});
		if (h.sb.state.storages().find((s) => s.id === storageId)!.attributes.type === 'object-aws') {
			expect(t.attributes.hash.s3Etag.replace(/"/g, '')).toBe(md5(data));
		}
	}
}

const byPath = (transfers: any[]) =>
	Object.fromEntries(transfers.map((t) => [t.attributes.path, t.attributes.status])) as Record<string, number>;

describe('real files: copy, move, sync', () => {
	const content = { 'a.txt': 'alpha\n', 'b.csv': 'id,v\n1,2\n', 'sub/c.txt': 'nested c', 'sub/deeper/d.bin': Buffer.from([0, 1, 2, 255]) };

	it('copy leaves exactly the source files at the target (sub folders kept), md5 as on disk; source intact', async () => {
		const src = `/${uniq('copy-src')}`;
		const dst = `/${uniq('copy-dst')}/new/folder`;
		put(FILES(), src, content);
		const { job, transfers } = await run({
			transferType: 'copy',
			conflictHandling: 'skip',
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(md5s(content));
		expect(md5Tree(h, FILES(), src)).toEqual(md5s(content));
		expect(Object.keys(byPath(transfers)).sort()).toEqual(Object.keys(content).map((r) => `${dst}/${r}`).sort());
		expect(Object.values(byPath(transfers)).every((s) => s === 0)).toBe(true);
		expectHashesMatchDisk(ARCHIVE(), transfers);
		expect(job.attributes.stats).toEqual(
			expect.objectContaining({ filesCount: 4, transferredCount: 4, transferredSize: 6 + 9 + 8 + 4, filesSize: 27 }),
		);
	});

	it('copy to an object-aws target: md5 and s3Etag match the object on disk', async () => {
		const src = `/${uniq('s3-src')}`;
		const dst = `/${uniq('s3-dst')}`;
		put(FILES(), src, content);
		const { job, transfers } = await run({
			transferType: 'copy',
			conflictHandling: 'overwrite',
			source: { id: FILES(), path: src },
			target: { id: BUCKET(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, BUCKET(), dst)).toEqual(md5s(content));
		expect(transfers).toHaveLength(4);
		expectHashesMatchDisk(BUCKET(), transfers);
	});

	it('copy from an object-aws source with a retrievalType', async () => {
		const src = `/${uniq('from-s3')}`;
		const dst = `/${uniq('from-s3-dst')}`;
		put(BUCKET(), src, { 'k1.json': '{"a":1}', 'p/k2.json': '{"b":2}' });
		const { job, transfers } = await run({
			transferType: 'copy',
			conflictHandling: 'skip',
			source: { id: BUCKET(), path: src, retrievalType: 'bulk' },
			target: { id: ARCHIVE(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(md5s({ 'k1.json': '{"a":1}', 'p/k2.json': '{"b":2}' }));
		expectHashesMatchDisk(ARCHIVE(), transfers);
	});

	it('move leaves the files at the target and removes them from the source', async () => {
		const src = `/${uniq('move-src')}`;
		const dst = `/${uniq('move-dst')}`;
		put(FILES(), src, content);
		const { job, transfers } = await run({
			transferType: 'move',
			conflictHandling: 'skip',
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(md5s(content));
		expect(listFiles(diskPath(h, FILES(), src))).toEqual([]);
		expect(transfers).toHaveLength(4);
		expectHashesMatchDisk(ARCHIVE(), transfers);
	});

	it('sync makes the target mirror the source: extra target files deleted, unchanged files skipped (1)', async () => {
		const src = `/${uniq('sync-src')}`;
		const dst = `/${uniq('sync-dst')}`;
		put(FILES(), src, content);
		put(ARCHIVE(), dst, {
			'a.txt': 'alpha\n', // unchanged
			'b.csv': 'stale', // changed
			'extra.txt': 'not on the source',
			'sub/old.txt': 'gone',
			'zzz/only-target.bin': 'gone too',
		});
		const { job, transfers } = await run({
			transferType: 'sync',
			conflictHandling: null,
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(job.attributes.conflictHandling).toBeNull();
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(md5s(content));
		expect(byPath(transfers)).toEqual({
			[`${dst}/a.txt`]: 1,
			[`${dst}/b.csv`]: 0,
			[`${dst}/sub/c.txt`]: 0,
			[`${dst}/sub/deeper/d.bin`]: 0,
		});
		expectHashesMatchDisk(ARCHIVE(), transfers);
		expect(md5Tree(h, FILES(), src)).toEqual(md5s(content));
	});

	it('sync with rules also deletes target files that do not match the rules', async () => {
		const src = `/${uniq('syncr-src')}`;
		const dst = `/${uniq('syncr-dst')}`;
		put(FILES(), src, { 'a.txt': 'a', 'b.csv': 'b', 'sub/c.txt': 'c' });
		put(ARCHIVE(), dst, { 'b.csv': 'b', 'old.csv': 'x', 'keep-me-not.txt': 'y' });
		const { job } = await run({
			transferType: 'sync',
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
			scope: { type: 'rules', method: 'include-if-all', rules: [{ type: 'name', condition: 'ends-with', value: '.txt' }] },
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(md5s({ 'a.txt': 'a', 'sub/c.txt': 'c' }));
	});
});

describe('real files: null paths mean the storage root', () => {
	it('copies the whole source storage (path null) into the target root (path null)', async () => {
		put(BUCKET(), `/${uniq('root-a')}`, { 'one.txt': '1', 'sub/two.txt': '2' });
		const expected = md5Tree(h, BUCKET(), '/');
		expect(Object.keys(expected).length).toBeGreaterThanOrEqual(2);
		const { job, transfers } = await run({
			conflictHandling: 'overwrite',
			source: { id: BUCKET(), path: null },
			target: { id: FILES(), path: null },
		});
		expect(job.attributes.status).toBe('finished');
		const atTarget = md5Tree(h, FILES(), '/');
		for (const [rel, sum] of Object.entries(expected)) expect({ rel, sum: atTarget[rel] }).toEqual({ rel, sum });
		expect(Object.keys(byPath(transfers)).sort()).toEqual(Object.keys(expected).map((r) => `/${r}`).sort());
		expectHashesMatchDisk(FILES(), transfers);
	});
});

describe('real files: paths stay inside the storage', () => {
	it('a target path with .. segments writes inside the target storage, never next to it', async () => {
		const src = `/${uniq('esc-src')}`;
		const name = uniq('escape');
		put(FILES(), src, { 'e.txt': 'e' });
		const root = h.sb.state.storageDir(ARCHIVE());
		const res = await createJob(h, { source: { id: FILES(), path: src }, target: { id: ARCHIVE(), path: `/../../${name}` } });
		if (res.status === 400) {
			// Refusing the path is as good as keeping it inside.
			expectError(res, 400, 'validation-failed', '/data/attributes/target/path');
		} else {
			expectJsonApi(res, 201);
			const { job } = await waitFinal(h, res.data.data.id);
			expect(job.attributes.status).toBe('finished');
			expect(listFiles(path.join(root, name))).toEqual(['e.txt']);
		}
		expect(listFiles(path.resolve(root, '..', '..', name))).toEqual([]);
		expect(listFiles(path.resolve(root, '..', name))).toEqual([]);
	});
});

describe('real files: scope rules', () => {
	const content = {
		'report-1.csv': '1',
		'report-22.csv': '22',
		'report-x.csv': 'x',
		'notes.txt': 'n',
		'sub/report-3.csv': '3',
		'sub/report-4.txt': '4',
	};

	it('ends-with keeps only names with that ending', async () => {
		const src = `/${uniq('rules-src')}`;
		const dst = `/${uniq('rules-dst')}`;
		put(FILES(), src, content);
		const { job, transfers } = await run({
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
			scope: { type: 'rules', method: 'include-if-all', rules: [{ type: 'name', condition: 'ends-with', value: '.csv' }] },
		});
		expect(job.attributes.status).toBe('finished');
		expect(listFiles(diskPath(h, ARCHIVE(), dst))).toEqual(['report-1.csv', 'report-22.csv', 'report-x.csv', 'sub/report-3.csv']);
		expect(job.attributes.stats.scannedFilesCount).toBe(6);
		expect(job.attributes.stats.filesCount).toBe(4);
		expectHashesMatchDisk(ARCHIVE(), transfers);
	});

	it('matches applies the regular expression to the name; all rules must match', async () => {
		const src = `/${uniq('rules-src')}`;
		const dst = `/${uniq('rules-dst')}`;
		put(FILES(), src, content);
		const { job } = await run({
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
			scope: {
				type: 'rules',
				method: 'include-if-all',
				rules: [
					{ type: 'name', condition: 'matches', value: '^report-\\d+\\.' },
					{ type: 'name', condition: 'ends-with', value: '.csv' },
				],
			},
		});
		expect(job.attributes.status).toBe('finished');
		expect(listFiles(diskPath(h, ARCHIVE(), dst))).toEqual(['report-1.csv', 'report-22.csv', 'sub/report-3.csv']);
	});
});

describe('real files: conflict handling', () => {
	it('skip keeps the existing target file and records status 1', async () => {
		const src = `/${uniq('skip-src')}`;
		const dst = `/${uniq('skip-dst')}`;
		put(FILES(), src, { 'a.txt': 'incoming', 'b.txt': 'new' });
		put(ARCHIVE(), dst, { 'a.txt': 'existing' });
		const { job, transfers } = await run({
			conflictHandling: 'skip',
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(md5s({ 'a.txt': 'existing', 'b.txt': 'new' }));
		expect(byPath(transfers)).toEqual({ [`${dst}/a.txt`]: 1, [`${dst}/b.txt`]: 0 });
		expectHashesMatchDisk(ARCHIVE(), transfers);
	});

	it('overwrite replaces the existing target file', async () => {
		const src = `/${uniq('ow-src')}`;
		const dst = `/${uniq('ow-dst')}`;
		put(FILES(), src, { 'a.txt': 'incoming' });
		put(ARCHIVE(), dst, { 'a.txt': 'existing, longer content' });
		const { job, transfers } = await run({
			conflictHandling: 'overwrite',
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(md5s({ 'a.txt': 'incoming' }));
		expect(byPath(transfers)).toEqual({ [`${dst}/a.txt`]: 0 });
		expectHashesMatchDisk(ARCHIVE(), transfers);
	});

	it('rename writes <name>_copy-<n>.<ext> with the smallest free n (split at the last dot; no dot: no ext)', async () => {
		const src = `/${uniq('rn-src')}`;
		const dst = `/${uniq('rn-dst')}`;
		const incoming = { 'a.txt': 'new a', 'README': 'new readme', 'archive.tar.gz': 'new tgz', 'fresh.txt': 'fresh' };
		put(FILES(), src, incoming);
		put(ARCHIVE(), dst, {
			'a.txt': 'old a',
			'a_copy-2.txt': 'old a2', // n=1 is free and smaller
			'README': 'old readme',
			'README_copy-1': 'old readme 1',
			'archive.tar.gz': 'old tgz',
		});
		const { job, transfers } = await run({
			conflictHandling: 'rename',
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(
			md5s({
				'a.txt': 'old a',
				'a_copy-1.txt': 'new a',
				'a_copy-2.txt': 'old a2',
				'README': 'old readme',
				'README_copy-1': 'old readme 1',
				'README_copy-2': 'new readme',
				'archive.tar.gz': 'old tgz',
				'archive.tar_copy-1.gz': 'new tgz',
				'fresh.txt': 'fresh',
			}),
		);
		expect(byPath(transfers)).toEqual({
			[`${dst}/a_copy-1.txt`]: 0,
			[`${dst}/README_copy-2`]: 0,
			[`${dst}/archive.tar_copy-1.gz`]: 0,
			[`${dst}/fresh.txt`]: 0,
		});
		expectHashesMatchDisk(ARCHIVE(), transfers);

		// The same job again: the next free n.
		const again = await run({
			conflictHandling: 'rename',
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
		});
		expect(Object.keys(byPath(again.transfers)).sort()).toEqual(
			[`${dst}/a_copy-3.txt`, `${dst}/README_copy-3`, `${dst}/archive.tar_copy-2.gz`, `${dst}/fresh_copy-1.txt`].sort(),
		);
		expectHashesMatchDisk(ARCHIVE(), again.transfers);
	});
});

describe('real files: dry run', () => {
	it('ends finished with estimates and estimatedCost, moves nothing, lists no transfers', async () => {
		const src = `/${uniq('dry-src')}`;
		const dst = `/${uniq('dry-dst')}`;
		const content = { 'a.txt': 'aaaa', 'b.txt': 'bb', 'sub/c.bin': Buffer.alloc(1000, 1) };
		put(FILES(), src, content);
		const { job, transfers } = await run({
			transferType: 'move',
			conflictHandling: 'overwrite',
			dryRun: true,
			source: { id: FILES(), path: src },
			target: { id: BUCKET(), path: dst },
		});
		expect(job.attributes.status).toBe('finished');
		expect(job.attributes.dryRun).toBe(true);
		const stats = job.attributes.stats;
		expect(stats.filesCount).toBe(3);
		expect(stats.filesSize).toBe(1006);
		expect(typeof stats.estimatedDuration).toBe('number');
		expect(stats.estimatedDuration).toBeGreaterThanOrEqual(0);
		expect(stats.estimatedCost).toEqual({ amount: expect.stringMatching(/^\d+(\.\d+)?$/), currency: expect.stringMatching(/^[A-Z]{3}$/) });
		expect(stats.transferredCount).toBe(0);
		expect(transfers).toEqual([]);
		expect(listFiles(diskPath(h, BUCKET(), dst))).toEqual([]);
		expect(md5Tree(h, FILES(), src)).toEqual(md5s(content));
		const listed = await h.api.get(`/jobs/${job.id}/transfers`);
		expectJsonApi(listed, 200);
		expect(listed.data.meta.page.total).toBe(0);
	});

	it('ends failed when the source cannot be scanned', async () => {
		const { job } = await run({
			dryRun: true,
			source: { id: FILES(), path: `/${uniq('missing')}` },
			target: { id: ARCHIVE(), path: '/x' },
		});
		expect(job.attributes.status).toBe('failed');
	});
});

describe('real files: failures', () => {
	/** A source folder with two good files and one that cannot be read (a dangling symbolic link: root can't read it either). */
	function sourceWithUnreadable(): { src: string; bad: string } {
		const src = `/${uniq('fail-src')}`;
		put(FILES(), src, { 'a.txt': 'a', 'c.txt': 'c' });
		const dir = diskPath(h, FILES(), src);
		mkdirSync(dir, { recursive: true });
		symlinkSync(path.join(dir, 'no-such-target'), path.join(dir, 'b.txt'));
		return { src, bad: `${src}/b.txt` };
	}

	it('fails when an error-count failure condition is reached; the error is listed', async () => {
		const { src, bad } = sourceWithUnreadable();
		const dst = `/${uniq('fail-dst')}`;
		const { job, transfers, errors } = await run({
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
			failureConditions: [{ type: 'error-count', value: 1 }],
		});
		expect(job.attributes.status).toBe('failed');
		expect(errors.map((e) => ({ sourcePath: e.attributes.sourcePath, event: e.attributes.event }))).toContainEqual({
			sourcePath: bad,
			event: 'error',
		});
		expect(transfers.map((t) => t.attributes.status)).toContain(-1);
	});

	it('finishes when the failure condition is not reached; the good files arrive, the bad one is -1', async () => {
		const { src, bad } = sourceWithUnreadable();
		const dst = `/${uniq('fail-dst')}`;
		const { job, transfers, errors } = await run({
			source: { id: FILES(), path: src },
			target: { id: ARCHIVE(), path: dst },
			failureConditions: [{ type: 'error-count', value: 2 }],
		});
		expect(job.attributes.status).toBe('finished');
		expect(md5Tree(h, ARCHIVE(), dst)).toEqual(md5s({ 'a.txt': 'a', 'c.txt': 'c' }));
		expect(byPath(transfers)).toEqual({ [`${dst}/a.txt`]: 0, [`${dst}/b.txt`]: -1, [`${dst}/c.txt`]: 0 });
		expect(errors.map((e) => e.attributes.sourcePath)).toEqual([bad]);
		expectHashesMatchDisk(ARCHIVE(), transfers);
	});
});
