// @ts-nocheck
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEMO_IDS, SandboxDataError, startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/src';
import { Api, createJobOk, diskPath, listFiles, md5Tree, pollJob, setStatus, uniq, type Harness } from './helpers';

// Each test starts, stops and restarts sandboxes on one data folder: the restart is what it tests.

const { files, archive } = DEMO_IDS.storageIds;
let dataDir: string;

beforeEach(() => {
	dataDir = mkdtempSync(path.join(os.tmpdir(), 'ftm-persist-'));
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

/** A sandbox on the test's data folder, with a client that holds `token` (or fetches one). */
async function open(options: SandboxOptions = {}, token?: string): Promise<Harness> {
	const sb = await startSandbox({ port: 0, speed: 1000, dataDir, ...options });
	const api = new Api(sb.baseUrl);
	api.token = token ?? (await api.fetchToken(sb.clientId, sb.clientSecret));
	return { sb, api, relogin: async () => void (api.token = await api.fetchToken(sb.clientId, sb.clientSecret)) };
}

async function close(h: Harness): Promise<void> {
	h.api.close();
	await h.sb.close();
}

/** What the API serves of the state: every collection and, per job, its transfers and errors. */
async function snapshot(h: Harness): Promise<Record<string, unknown>> {
	const out: Record<string, unknown> = {};
	for (const collection of ['accounts', 'groups', 'users', 'storages', 'jobs']) {
		const res = await h.api.get(`/${collection}`, { 'page[limit]': 100 });
		expect(res.status).toBe(200);
		out[collection] = res.data.data;
		if (collection === 'jobs') {
			for (const job of res.data.data as Array<{ id: string }>) {
				out[`transfers ${job.id}`] = (await h.api.get(`/jobs/${job.id}/transfers`, { 'page[limit]': 100 })).data.data;
				out[`errors ${job.id}`] = (await h.api.get(`/jobs/${job.id}/errors`, { 'page[limit]': 100 })).data.data;
			}
		}
	}
	return out;
}

describe('sandbox state in a data folder (sandbox.db)', () => {
	it('a restarted sandbox serves the same jobs (with transfers and errors), users, groups, and the same tokens', async () => {
		const first = await open();
		expect(first.sb.data).toMatchObject({ created: true, database: path.join(dataDir, 'sandbox.db') });
		// Changes of every kind: new records, in-place updates, deletes, engine work, errors, availability.
		const group = (await first.api.post('/groups', { data: { type: 'groups', attributes: { name: 'Persisted', accountId: DEMO_IDS.accountId } } })).data.data;
		const user = (
			await first.api.post('/users', {
				data: { type: 'users', attributes: { email: `${uniq('p')}@example.com`, accountId: DEMO_IDS.accountId, groupId: group.id } },
			})
		).data.data;
		const patched = await first.api.patch(`/users/${DEMO_IDS.userIds[1]}`, {
			data: { type: 'users', id: DEMO_IDS.userIds[1], attributes: { firstName: 'Robert', timezone: 'Asia/Tokyo' } },
		});
		expect(patched.status).toBe(200);
		expect((await first.api.delete(`/users/${DEMO_IDS.userIds[2]}`)).status).toBe(204);
		expect((await first.api.delete(`/groups/${DEMO_IDS.groupIds[1]}`)).status).toBe(204);
		const jobId = await createJobOk(first, { name: 'persisted copy', source: { id: files, path: '/reports' }, target: { id: archive, path: '/p' } });
		await first.sb.control.waitForJob(jobId);
		first.sb.control.addJobError(jobId, { sourcePath: '/reports/x.csv', message: 'added by the test', event: 'warning' });
		first.sb.control.setStorageAvailable(DEMO_IDS.storageIds.bucket, false);
		const page1 = await first.api.get('/jobs', { sort: 'name', 'page[limit]': 2 });
		const before = await snapshot(first);
		const token = first.api.token;
		await close(first);

		// Same token, no new token request.
		const second = await open({}, token);
		try {
			expect(second.sb.data.created).toBe(false);
			expect(second.sb.data.kept).toMatchObject({ jobs: 4, users: 3, groups: 2, storages: 3, accounts: 1, errors: 3, tokens: 1 });
			expect(second.sb.data.kept.transfers).toBe(7 + 4);
			expect(await snapshot(second)).toEqual(before);
			expect((before[`transfers ${jobId}`] as unknown[]).length).toBe(4);
			expect(before[`errors ${jobId}`]).toEqual([expect.objectContaining({ attributes: expect.objectContaining({ message: 'added by the test' }) })]);
			expect((before.users as Array<{ id: string }>).map((u) => u.id)).toContain(user.id);
			// A cursor issued before the restart still pages on.
			const page2 = await second.api.get('/jobs', { sort: 'name', 'page[limit]': 2, 'page[after]': page1.data.meta.page.after });
			expect(page2.status).toBe(200);
			expect(page2.data.data).toHaveLength(2);
			// The token that was expired stays expired: expire all, restart, refused.
			second.sb.control.expireTokens();
		} finally {
			await close(second);
		}
		const third = await open({}, token);
		try {
			expect((await third.api.get('/')).status).toBe(401);
		} finally {
			await close(third);
		}
	});

	it('a job running when the sandbox stopped carries on after the restart and finishes, files on disk', async () => {
		// At speed 1 with 2,000 bytes/s, each of the 8 files takes 0.65 s: the job is mid-way when it stops.
		const first = await open({ speed: 1 });
		const content = (i: number) => `file ${i} `.repeat(100);
		for (let i = 0; i < 8; i++) first.sb.control.writeFile(files, `/resume/f${i}.txt`, content(i));
		const jobId = await createJobOk(first, {
			name: 'resumed',
			source: { id: files, path: '/resume' },
			target: { id: archive, path: '/resumed' },
			transferRateLimit: 2000,
			failureConditions: [{ type: 'error-count', value: 3 }],
		});
		// A second job paused mid-scan: it stays paused across the restart, and resumes when asked.
		const pausedId = await createJobOk(first, { name: 'paused', source: { id: files, path: '/resume' }, target: { id: archive, path: '/paused' } });
		expect((await setStatus(first, pausedId, 'paused')).status).toBe(200);
		const { job } = await pollJob(first, jobId, () => (first.sb.state.job(jobId)?.attributes.stats.transferredCount ?? 0) >= 2, 20000);
		expect(job.attributes.status).toBe('running');
		await close(first);
		const doneBefore = listFiles(path.join(dataDir, 'archive', 'resumed')).length;
		expect(doneBefore).toBeGreaterThanOrEqual(2);
		expect(doneBefore).toBeLessThan(8);

		const second = await open({ speed: 1000 });
		try {
			expect(second.sb.data.kept.resumedRuns).toBe(1);
			expect(second.sb.state.job(pausedId)?.attributes.status).toBe('paused');
			const final = await second.sb.control.waitForJob(jobId, 20000);
			expect(final.attributes.status).toBe('finished');
			expect(final.attributes.stats).toMatchObject({ filesCount: 8, scannedFilesCount: 8, transferredCount: 8 });
			const transfers = second.sb.state.jobTransfers(jobId);
			expect(transfers.map((t) => t.attributes.path).sort()).toEqual([...Array(8).keys()].map((i) => `/resumed/f${i}.txt`));
			expect(transfers.every((t) => t.attributes.status === 0)).toBe(true);
			expect(md5Tree(second, archive, '/resumed')).toEqual(md5Tree(second, files, '/resume'));

			expect((await setStatus(second, pausedId, 'running')).status).toBe(200);
			expect((await second.sb.control.waitForJob(pausedId)).attributes.status).toBe('finished');
			expect(listFiles(diskPath(second, archive, '/paused'))).toHaveLength(8);
		} finally {
			await close(second);
		}
		// Nothing left to resume after that.
		const third = await open();
		try {
			expect(third.sb.data.kept.resumedRuns).toBe(0);
			expect(third.sb.state.job(jobId)?.attributes.status).toBe('finished');
		} finally {
			await close(third);
		}
	});

	it('a new data folder is seeded with the demo data once, not again on restart', async () => {
		const first = await open({ demo: true });
		expect(first.sb.data.created).toBe(true);
		expect(first.sb.state.jobs()).toHaveLength(3);
		expect((await first.api.delete(`/users/${DEMO_IDS.userIds[0]}`)).status).toBe(204);
		first.sb.control.writeFile(files, '/notes.txt', 'mine');
		await close(first);

		for (let restart = 0; restart < 2; restart++) {
			const again = await open({ demo: true });
			try {
				expect(again.sb.data.created).toBe(false);
				expect(again.sb.state.jobs().map((j) => j.id).sort()).toEqual(Object.values(DEMO_IDS.jobIds).sort());
				expect(again.sb.state.users().map((u) => u.id)).not.toContain(DEMO_IDS.userIds[0]);
				expect(again.sb.state.users()).toHaveLength(2);
				expect(readFileSync(diskPath(again, files, '/notes.txt'), 'utf8')).toBe('mine');
			} finally {
				await close(again);
			}
		}
	});

	it('the CLI: a killed sandbox (SIGKILL) keeps what it had answered; the next start says what it kept', async () => {
		const root = path.resolve(__dirname, '..', '..');
		const cli = () => {
			const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/src/cli.ts', '--port', '0', '--data-dir', dataDir], {
				cwd: root,
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			let out = '';
			child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
			child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
			// 'close', not 'exit': output written just before the exit may still be in the pipe at 'exit'.
			const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
			const url = new Promise<string>((resolve, reject) => {
				const timer = setInterval(() => {
					const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
					if (match) {
						clearInterval(timer);
						resolve(match[0]);
					} else if (child.exitCode !== null) {
						clearInterval(timer);
						reject(new Error(out));
					}
				}, 50);
			});
			return { child, url, exited, output: () => out };
		};
		const first = cli();
		const api = new Api(await first.url);
		try {
			expect(first.output()).toMatch(/^Sandbox: new data folder .*: created sandbox\.db and seeded it$/m);
			api.token = await api.fetchToken('sandbox-client', 'sandbox-secret');
			const res = await api.post('/groups', { data: { type: 'groups', attributes: { name: 'Survives a kill', accountId: DEMO_IDS.accountId } } });
			expect(res.status).toBe(201);
			// The journal writes 5 ms after a change; no close() runs after SIGKILL.
			await new Promise((resolve) => setTimeout(resolve, 100));
		} finally {
			api.close();
			first.child.kill('SIGKILL');
			await first.exited;
		}
		const second = cli();
		try {
			await second.url;
			expect(second.output()).toMatch(
				/^Sandbox: kept 3 jobs \(7 transfers, 2 errors\), 3 users, 3 groups, 3 storages, 1 account and 1 token from .*sandbox\.db$/m,
			);
		} finally {
			second.child.kill('SIGTERM');
			await second.exited;
		}
		expect(second.output()).toMatch(/SIGTERM: closing the sandbox/);
	});

	it('without a data folder nothing is written and nothing is kept', async () => {
		const sb: Sandbox = await startSandbox({ port: 0 });
		try {
			expect(sb.data).toMatchObject({ database: null, created: true });
		} finally {
			await sb.close();
		}
	});

	it('a damaged or foreign database file, or a folder in use, gives a clear error and is left as it is', async () => {
		const db = path.join(dataDir, 'sandbox.db');
		writeFileSync(db, 'this is not a database, just some text that is long enough to be read as one '.repeat(20));
		await expect(startSandbox({ port: 0, dataDir })).rejects.toThrow(SandboxDataError);
		await expect(startSandbox({ port: 0, dataDir })).rejects.toThrow(/sandbox\.db is not a sandbox database or is damaged \(.*\)\. Move .* away/);
		expect(readFileSync(db, 'utf8')).toMatch(/^this is not a database/);

		const foreignDir = path.join(dataDir, 'foreign');
		mkdirSync(foreignDir);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { DatabaseSync } = require('node:sqlite') as typeof import('node:sqlite');
		const foreign = new DatabaseSync(path.join(foreignDir, 'sandbox.db'));
		foreign.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (12.5);');
		foreign.close();
		await expect(startSandbox({ port: 0, dataDir: foreignDir })).rejects.toThrow(
			/sandbox\.db is an SQLite database, but not the sandbox's \(it holds the tables invoices\)/,
		);

		const busyDir = path.join(dataDir, 'busy');
		const running = await startSandbox({ port: 0, dataDir: busyDir });
		try {
			await expect(startSandbox({ port: 0, dataDir: busyDir })).rejects.toThrow(/is in use by another sandbox/);
		} finally {
			await running.close();
		}
		// Closed, the folder is free again.
		const after = await startSandbox({ port: 0, dataDir: busyDir });
		await after.close();
	});
});
