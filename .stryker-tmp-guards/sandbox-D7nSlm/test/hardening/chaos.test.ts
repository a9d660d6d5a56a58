/**
 * The seeded chaos run: 2,000 operations (creates, updates, deletes, gets, lists, job status changes and
 * trigger polls) while the sandbox injects every kind of fault at random. After each operation the test
 * checks it against what the sandbox holds: a success did exactly what it says, a failure is a clear
 * error and changed nothing (or, for an unclear answer to a create, at most one record). At the end, the
 * sandbox holds exactly what the reported outcomes imply: no duplicates, nothing lost, and the trigger
 * delivered every cancel exactly once.
 */
// @ts-nocheck

import type { INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src';
import type { FaultKind, Sandbox } from '../../sandbox/src/api';
import { seededRandom } from '../../sandbox/src/util';
import type { TestCredentialsHelper } from '../harness/credentials';
import { credentialsFor, runNode, triggerHandle, type NodeRunResult } from '../harness/engine';
import { ACCOUNT, ARCHIVE, DEMO_IDS, FILES, captureLogs, findSecrets, rl, runTexts, secretsOf } from './harness';

const OPERATIONS = 2000;
const SEED = 20240611;
const CHAOS_RATE = 0.12;
const KINDS: FaultKind[] = [
	'rate-limit',
	'internal-error',
	'bad-gateway',
	'unavailable',
	'drop-before-body',
	'drop-after-body',
	'slow',
	'malformed-json',
	'wrong-content-type',
	'expire-token',
];
/** Slow answers (0.6 s) outlast the timeout (0.3 s); waits are short so that the run stays fast. */
const REQUEST_OPTIONS = { timeout: 0.3, maxRetries: 3, maxRetryWait: 0.02 };
const SLOW_MS = 600;

/** Every error message the node may give under these faults; anything else is not "clear". */
const CLEAR_ERRORS = [
	/^The (job|user|group) may or may not have been created: /,
	/^The service did not answer within 0\.3 seconds$/,
	/^The connection to the service failed \(E[A-Z]+\)$/,
	/^The service answered with something that is not JSON$/,
	/^(Too Many Requests|Service Unavailable|Internal Server Error|Bad Gateway|Unauthorized)$/,
	/^Could not get an access token from the service \(.+\)$/,
];

const logs = captureLogs();
let sandbox: Sandbox;
let credentials: TestCredentialsHelper;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000, seed: SEED });
	credentials = credentialsFor(sandbox);
});
afterAll(async () => {
	await sandbox.close();
});

interface Tally {
	operations: number;
	succeeded: number;
	failed: Map<string, number>;
	byOperation: Map<string, number>;
}

function clear(message: string): boolean {
	return CLEAR_ERRORS.some((pattern) => pattern.test(message));
}

const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

it(`${OPERATIONS} seeded operations under random faults leave exactly what their outcomes report`, async () => {
	const random = seededRandom(SEED);
	const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
	const tally: Tally = { operations: 0, succeeded: 0, failed: new Map(), byOperation: new Map() };
	const problems: string[] = [];
	const problem = (text: string) => {
		if (problems.length < 20) problems.push(text);
	};

	// Jobs the status operations work on: inserted, so that only the node moves them.
	const running = sandbox.control.insertJobs(150, { status: 'running' });
	const paused = sandbox.control.insertJobs(150, { status: 'paused' });
	const staticJobs = new Set([...running, ...paused]);
	/** Names and e-mail addresses the run created: each must exist at most once, always. */
	const createdNames = new Set<string>();
	/**
	 * The records the run can account for from the node's outcomes: the demo data, what a successful
	 * create output, what an unclear create said it may have made (and did), minus what deletes removed.
	 */
	const known = {
		groups: new Set(sandbox.state.groups().map((g) => g.id)),
		users: new Set(sandbox.state.users().map((u) => u.id)),
		jobs: new Set(sandbox.state.jobs().filter((job) => !staticJobs.has(job.id)).map((job) => job.id)),
	};
	/** Jobs canceled after the trigger's activation: each must be delivered exactly once. */
	const canceled = new Set<string>();
	const delivered: string[] = [];

	const trigger = triggerHandle(credentials, {
		events: ['canceled'],
		filters: {},
		options: {},
		requestOptions: REQUEST_OPTIONS,
	});
	expect(await trigger.poll()).toBeNull();
	sandbox.faults.chaos({ rate: CHAOS_RATE, seed: SEED, kinds: KINDS, retryAfterSeconds: 0, delayMs: SLOW_MS });

	let sequence = 0;
	const unique = (prefix: string) => `${prefix}-${SEED}-${++sequence}`;
	const groups = () => sandbox.state.groups();
	const users = () => sandbox.state.users();

	const run = async (parameters: INodeParameters): Promise<NodeRunResult> => {
		const result = await runNode({ credentials, parameters: { ...parameters, requestOptions: REQUEST_OPTIONS } });
		const found = findSecrets([...runTexts(result), logs.text()], secretsOf(sandbox, [credentials]));
		if (found.length > 0) problem(`secret in ${JSON.stringify(parameters)}: ${found[0]}`);
		logs.clear();
		return result;
	};

	/** Records the outcome; a failure must be clear. Returns whether it succeeded. */
	const outcome = (name: string, result: NodeRunResult): boolean => {
		tally.operations++;
		tally.byOperation.set(name, (tally.byOperation.get(name) ?? 0) + 1);
		if (!result.error) {
			tally.succeeded++;
			return true;
		}
		const message = result.error.message;
		const kind = message.replace(/\(.*\)|[0-9a-f-]{36}|: .*/g, '…');
		tally.failed.set(kind, (tally.failed.get(kind) ?? 0) + 1);
		if (!clear(message)) problem(`${name}: unclear error "${message}"`);
		if (result.items.length > 0) problem(`${name}: failed but output ${result.items.length} items`);
		return false;
	};
	const unclearCreate = (result: NodeRunResult) => /may or may not have been/.test(result.error?.message ?? '');

	const operations: Array<[number, string, () => Promise<void>]> = [
		[10, 'group.create', async () => {
			const name = unique('chaos-group');
			createdNames.add(name);
			const result = await run({ resource: 'group', operation: 'create', name, accountId: rl(ACCOUNT) });
			const held = groups().filter((g) => g.attributes.name === name);
			if (outcome('group.create', result)) {
				if (held.length !== 1 || held[0].id !== result.items[0].json.id) problem(`group.create ok, held ${held.length}`);
				known.groups.add(String(result.items[0].json.id));
			} else if (held.length > (unclearCreate(result) ? 1 : 0)) {
				problem(`group.create failed (${result.error?.message}), held ${held.length}`);
			} else if (held.length === 1) known.groups.add(held[0].id);
		}],
		[8, 'group.update', async () => {
			const group = pick(groups());
			const name = unique('chaos-renamed');
			createdNames.add(name);
			const result = await run({ resource: 'group', operation: 'update', groupId: rl(group.id), updateFields: { name } });
			const now = groups().find((g) => g.id === group.id)?.attributes.name;
			if (outcome('group.update', result)) {
				if (now !== name) problem(`group.update ok but name ${now}`);
			} else if (now !== name && now !== group.attributes.name) problem(`group.update failed, name ${now}`);
		}],
		[5, 'group.deleteGroup', async () => {
			const group = pick(groups().filter((g) => !DEMO_IDS.groupIds.includes(g.id)));
			if (!group) return;
			const result = await run({ resource: 'group', operation: 'deleteGroup', groupId: rl(group.id) });
			const exists = groups().some((g) => g.id === group.id);
			if (outcome('group.deleteGroup', result) && exists) problem('group.deleteGroup ok but the group exists');
			if (!exists) known.groups.delete(group.id);
		}],
		[4, 'group.get', async () => {
			const group = pick(groups());
			const result = await run({ resource: 'group', operation: 'get', groupId: rl(group.id) });
			if (outcome('group.get', result) && result.items[0].json.name !== group.attributes.name) problem('group.get: wrong record');
		}],
		[10, 'user.create', async () => {
			const email = `${unique('chaos-user')}@example.com`;
			createdNames.add(email);
			const result = await run({ resource: 'user', operation: 'create', accountId: rl(ACCOUNT), email });
			const held = users().filter((u) => u.attributes.email === email);
			if (outcome('user.create', result)) {
				if (held.length !== 1 || held[0].id !== result.items[0].json.id) problem(`user.create ok, held ${held.length}`);
				known.users.add(String(result.items[0].json.id));
			} else if (held.length > (unclearCreate(result) ? 1 : 0)) {
				problem(`user.create failed (${result.error?.message}), held ${held.length}`);
			} else if (held.length === 1) known.users.add(held[0].id);
		}],
		[8, 'user.update', async () => {
			const user = pick(users());
			const firstName = unique('First');
			const result = await run({ resource: 'user', operation: 'update', userId: rl(user.id), updateFields: { firstName } });
			const now = users().find((u) => u.id === user.id)?.attributes.firstName;
			if (outcome('user.update', result)) {
				if (now !== firstName) problem(`user.update ok but firstName ${now}`);
			} else if (now !== firstName && now !== user.attributes.firstName) problem(`user.update failed, firstName ${now}`);
		}],
		[5, 'user.deleteUser', async () => {
			const user = pick(users().filter((u) => !DEMO_IDS.userIds.includes(u.id)));
			if (!user) return;
			const result = await run({ resource: 'user', operation: 'deleteUser', userId: rl(user.id) });
			const exists = users().some((u) => u.id === user.id);
			if (outcome('user.deleteUser', result) && exists) problem('user.deleteUser ok but the user exists');
			if (!exists) known.users.delete(user.id);
		}],
		[4, 'user.get', async () => {
			const user = pick(users());
			const result = await run({ resource: 'user', operation: 'get', userId: rl(user.id) });
			if (outcome('user.get', result) && result.items[0].json.email !== user.attributes.email) problem('user.get: wrong record');
		}],
		[8, 'job.create', async () => {
			const name = unique('chaos-job');
			createdNames.add(name);
			const result = await run({
				resource: 'job',
				operation: 'create',
				transferType: 'copy',
				sourceStorageId: rl(FILES),
				sourcePath: '/reports/2024',
				targetStorageId: rl(ARCHIVE),
				targetPath: `/chaos/${name}`,
				conflictHandling: 'skip',
				dryRun: true,
				additionalFields: { name },
			});
			// A create delayed past the timeout is carried out later: let it land before counting.
			await sleepMs(result.error ? SLOW_MS : 0);
			const held = sandbox.state.jobs().filter((job) => job.attributes.name === name);
			if (outcome('job.create', result)) {
				if (held.length !== 1 || held[0].id !== result.items[0].json.id) problem(`job.create ok, held ${held.length}`);
				known.jobs.add(String(result.items[0].json.id));
			} else if (held.length > 1 || (held.length === 1 && !unclearCreate(result))) {
				problem(`job.create failed (${result.error?.message}), held ${held.length}`);
			} else if (held.length === 1) known.jobs.add(held[0].id);
		}],
		...(
			[
				['pause', running, 'paused'],
				['resume', paused, 'running'],
				['cancel', running, 'canceled'],
			] as const
		).map(([operation, pool, to]): [number, string, () => Promise<void>] => [4, `job.${operation}`, async () => {
			const from = operation === 'resume' ? 'paused' : 'running';
			const id = pick(pool.filter((jobId) => sandbox.state.job(jobId)?.attributes.status === from));
			if (!id) return;
			const result = await run({ resource: 'job', operation, jobId: rl(id) });
			const now = sandbox.state.job(id)?.attributes.status;
			if (now === 'canceled') canceled.add(id);
			if (outcome(`job.${operation}`, result)) {
				if (now !== to || result.items[0].json.status !== to) problem(`job.${operation} ok but status ${now}`);
			} else if (now !== to && now !== from) problem(`job.${operation} failed, status ${now}`);
		}]),
		[4, 'job.get', async () => {
			const job = pick(sandbox.state.jobs());
			const result = await run({ resource: 'job', operation: 'get', jobId: rl(job.id) });
			if (outcome('job.get', result) && result.items[0].json.id !== job.id) problem('job.get: wrong record');
		}],
		[3, 'group.getMany', async () => {
			const result = await run({ resource: 'group', operation: 'getMany', returnAll: true });
			if (outcome('group.getMany', result)) {
				const ids = result.items.map((item) => String(item.json.id)).sort();
				if (JSON.stringify(ids) !== JSON.stringify(groups().map((g) => g.id).sort())) problem('group.getMany: not the whole list');
			}
		}],
		[3, 'user.getMany', async () => {
			const result = await run({ resource: 'user', operation: 'getMany', returnAll: true });
			if (outcome('user.getMany', result)) {
				const ids = result.items.map((item) => String(item.json.id)).sort();
				if (JSON.stringify(ids) !== JSON.stringify(users().map((u) => u.id).sort())) problem('user.getMany: not the whole list');
			}
		}],
		[3, 'job.getMany', async () => {
			const limit = 150 + Math.floor(random() * 100);
			const result = await run({ resource: 'job', operation: 'getMany', returnAll: false, limit });
			if (outcome('job.getMany', result)) {
				const ids = new Set(result.items.map((item) => String(item.json.id)));
				const all = new Set(sandbox.state.jobs().map((job) => job.id));
				if (ids.size !== result.items.length || ids.size !== Math.min(limit, all.size)) problem('job.getMany: wrong count');
				for (const id of ids) if (!all.has(id)) problem('job.getMany: unknown job');
			}
		}],
		[2, 'job.getTransfers', async () => {
			const result = await run({ resource: 'job', operation: 'getTransfers', jobId: rl(DEMO_IDS.jobIds.copied), returnAll: true });
			if (outcome('job.getTransfers', result) && result.items.length !== sandbox.state.jobTransfers(DEMO_IDS.jobIds.copied).length) {
				problem('job.getTransfers: wrong count');
			}
		}],
		[2, 'storage.getMany', async () => {
			const result = await run({ resource: 'storage', operation: 'getMany', returnAll: true });
			if (outcome('storage.getMany', result) && result.items.length !== 3) problem('storage.getMany: wrong count');
		}],
		[2, 'account.get', async () => {
			const result = await run({ resource: 'account', operation: 'get', accountId: rl(ACCOUNT) });
			if (outcome('account.get', result) && result.items[0].json.id !== ACCOUNT) problem('account.get: wrong record');
		}],
		[2, 'api.getVersion', async () => {
			const result = await run({ resource: 'api', operation: 'getVersion' });
			if (outcome('api.getVersion', result) && typeof result.items[0].json.apiVersion !== 'string') problem('api.getVersion: no version');
		}],
		[3, 'trigger.poll', async () => {
			tally.operations++;
			tally.byOperation.set('trigger.poll', (tally.byOperation.get('trigger.poll') ?? 0) + 1);
			try {
				const items = await trigger.poll();
				tally.succeeded++;
				for (const item of items ?? []) delivered.push(`${String(item.json.id)}:${String(item.json.event)}`);
			} catch (error) {
				const message = (error as Error).message;
				tally.failed.set(`trigger: ${message}`, (tally.failed.get(`trigger: ${message}`) ?? 0) + 1);
				if (!clear(message)) problem(`trigger.poll: unclear error "${message}"`);
			}
		}],
	];
	const totalWeight = operations.reduce((sum, [weight]) => sum + weight, 0);

	while (tally.operations < OPERATIONS) {
		let draw = random() * totalWeight;
		const chosen = operations.find(([weight]) => (draw -= weight) < 0) ?? operations[0];
		await chosen[2]();
	}

	// The service recovers: the trigger's next poll delivers what the failed ones did not.
	sandbox.faults.clear();
	for (const item of (await trigger.poll()) ?? []) delivered.push(`${String(item.json.id)}:${String(item.json.event)}`);
	const finalState = {
		groups: groups(),
		users: users(),
		jobs: sandbox.state.jobs().filter((job) => !staticJobs.has(job.id)),
	};

	expect(problems).toEqual([]);
	// Faults did happen, and most operations still succeeded.
	const faulted = sandbox.requests.all().filter((r) => r.fault !== undefined);
	expect(new Set(faulted.map((r) => r.fault))).toEqual(new Set(KINDS));
	expect(tally.succeeded).toBeGreaterThan(OPERATIONS * 0.9);
	expect(tally.operations).toBe(OPERATIONS);
	// Every kind of operation ran, and some failed for good (the faults outlasted the retries).
	expect([...tally.byOperation.keys()].sort()).toEqual(operations.map(([, name]) => name).sort());
	expect(tally.failed.size).toBeGreaterThan(0);
	// No duplicates: every name or address the run used is held at most once.
	for (const [key, records] of [
		['name', finalState.groups],
		['email', finalState.users],
		['name', finalState.jobs],
	] as const) {
		const names = records.map((record) => String((record.attributes as unknown as Record<string, unknown>)[key]));
		const duplicates = names.filter((name, index) => createdNames.has(name) && names.indexOf(name) !== index);
		expect(duplicates).toEqual([]);
	}
	// Nothing lost, nothing unaccounted for: the sandbox holds exactly the records the outcomes report.
	expect(finalState.groups.map((g) => g.id).sort()).toEqual([...known.groups].sort());
	expect(finalState.users.map((u) => u.id).sort()).toEqual([...known.users].sort());
	expect(finalState.jobs.map((j) => j.id).sort()).toEqual([...known.jobs].sort());
	// The trigger delivered every cancel exactly once.
	expect(delivered.sort()).toEqual([...canceled].map((id) => `${id}:canceled`).sort());
	expect(canceled.size).toBeGreaterThan(0);
}, 240_000);
