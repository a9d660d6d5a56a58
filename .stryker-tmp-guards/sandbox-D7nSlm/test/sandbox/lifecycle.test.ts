// @ts-nocheck
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import { Api, createJobOk, pollJob, type Harness } from './helpers';

// This file starts and closes its own sandboxes: the start/close behaviour is what it tests.

describe('sandbox lifecycle (programmatic interface)', () => {
	it('listens on 127.0.0.1 at a free port and uses the given client credentials', async () => {
		const sb = await startSandbox({ port: 0, clientId: 'me', clientSecret: 'pw', demo: false });
		const api = new Api(sb.baseUrl);
		try {
			expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect({ id: sb.clientId, secret: sb.clientSecret }).toEqual({ id: 'me', secret: 'pw' });
			const token = await api.fetchToken('me', 'pw');
			expect((await api.get('/', undefined, { token })).status).toBe(200);
			const wrong = await api.tokenRequest({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' });
			expect(wrong.status).toBe(401);
		} finally {
			api.close();
			await sb.close();
		}
	});

	it('close() removes its own temporary folder, even with a job running and a keep-alive connection open', async () => {
		const sb = await startSandbox({ port: 0, demo: false, speed: 1 });
		const api = new Api(sb.baseUrl);
		const h = { sb, api } as Harness;
		api.token = await api.fetchToken(sb.clientId, sb.clientSecret);
		sb.control.writeFile(DEMO_IDS.storageIds.files, '/slow/big.bin', Buffer.alloc(10_000));
		const id = await createJobOk(h, {
			source: { id: DEMO_IDS.storageIds.files, path: '/slow' },
			target: { id: DEMO_IDS.storageIds.archive, path: '/out' },
			transferRateLimit: 1,
		});
		await pollJob(h, id, (s) => s === 'running');
		const dir = sb.state.storageDir(DEMO_IDS.storageIds.files);
		expect(existsSync(dir)).toBe(true);
		await sb.close();
		api.close();
		expect(existsSync(dir)).toBe(false);
	});

	it('a given dataDir is kept after close() and reused: files persist, demo files are not written again', async () => {
		const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ftm-suite-'));
		try {
			const first = await startSandbox({ port: 0, dataDir, demo: true });
			const notes = path.join(first.state.storageDir(DEMO_IDS.storageIds.files), 'notes.txt');
			expect(existsSync(notes)).toBe(true);
			first.control.writeFile(DEMO_IDS.storageIds.files, '/notes.txt', 'changed by the test');
			first.control.writeFile(DEMO_IDS.storageIds.files, '/mine.txt', 'mine');
			await first.close();
			expect(readFileSync(notes, 'utf8')).toBe('changed by the test');

			const second = await startSandbox({ port: 0, dataDir, demo: true });
			try {
				const dir = second.state.storageDir(DEMO_IDS.storageIds.files);
				expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('changed by the test');
				expect(readFileSync(path.join(dir, 'mine.txt'), 'utf8')).toBe('mine');
			} finally {
				await second.close();
			}
			expect(existsSync(dataDir)).toBe(true);
		} finally {
			rmSync(dataDir, { recursive: true, force: true });
		}
	});

	it('demo: false holds the account and the three storages, nothing else', async () => {
		const sb = await startSandbox({ port: 0, demo: false });
		try {
			expect(sb.state.accounts().map((a) => a.id)).toEqual([DEMO_IDS.accountId]);
			expect(sb.state.storages().map((s) => s.id).sort()).toEqual(Object.values(DEMO_IDS.storageIds).sort());
			expect({ groups: sb.state.groups(), users: sb.state.users(), jobs: sb.state.jobs() }).toEqual({ groups: [], users: [], jobs: [] });
		} finally {
			await sb.close();
		}
	});

	it('demo: true holds the demo groups and users under their fixed ids', async () => {
		const sb = await startSandbox({ port: 0, demo: true });
		try {
			expect(sb.state.groups().map((g) => g.id).sort()).toEqual([...DEMO_IDS.groupIds].sort());
			expect(sb.state.users().map((u) => u.id).sort()).toEqual([...DEMO_IDS.userIds].sort());
		} finally {
			await sb.close();
		}
	});
});
