import type { JobStatus } from '../../nodes/shared/api/types';
import type { FaultKind, Sandbox } from '../../sandbox/src/api';
import { countBy, handleFor, keys, nextMillisecond, pollJson, sandboxForTrigger, triggerState } from './helpers';
import { seededRandom } from '../../sandbox/src/util';

let sandbox: Sandbox;
beforeEach(async () => {
	sandbox = await sandboxForTrigger();
});
afterEach(async () => {
	await sandbox.close();
});

const snapshot = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const listRequests = () => sandbox.requests.count({ path: '/jobs' });

it('1,000 jobs reaching watched statuses across 50 polls, some failing, state round-tripped through JSON: every event exactly once', async () => {
	const pool = sandbox.control.insertJobs(1000, { status: 'running' });
	const handle = handleFor(sandbox);
	expect(await handle.poll()).toBeNull();

	const next = seededRandom(7);
	const status = new Map<string, JobStatus>(pool.map((id) => [id, 'running']));
	/** Jobs whose current status a successful poll has seen: only those may change again (see below). */
	const observed = new Set(pool);
	const wasStuck = new Set<string>();
	const expected: string[] = [];
	const delivered: string[] = [];
	const set = (id: string, to: JobStatus) => {
		sandbox.control.setJobStatus(id, to);
		status.set(id, to);
		observed.delete(id);
		if (to === 'stuck') wasStuck.add(id);
		if (to === 'finished' || to === 'failed' || to === 'stuck') expected.push(`${id}:${to}`);
	};
	const pick = (count: number, test: (id: string) => boolean) => pool.filter(test).slice(0, count);

	// Failing polls: a fault on the first page, or (poll 25, which has more than a page) on the second.
	const faults = new Map<number, { kind: FaultKind; after: number }>([
		[4, { kind: 'internal-error', after: 0 }],
		[11, { kind: 'bad-gateway', after: 0 }],
		[18, { kind: 'unavailable', after: 0 }],
		[25, { kind: 'internal-error', after: 1 }],
		[33, { kind: 'malformed-json', after: 0 }],
		[40, { kind: 'drop-before-body', after: 0 }],
	]);
	let fresh = 0;
	let failedPolls = 0;
	for (let round = 0; round < 50; round++) {
		// 49 rounds of 18 jobs and one of 118: 1,000 jobs reach finished, failed or stuck.
		const count = round === 25 ? 118 : 18;
		for (const id of pool.slice(fresh, fresh + count)) {
			const draw = next();
			set(id, draw < 0.45 ? 'finished' : draw < 0.8 ? 'failed' : 'stuck');
		}
		fresh += count;
		// Polling sees each job's latest status only; a job changes at most once between two successful
		// polls (updates without a status change aside), so that every entry is visible to the trigger.
		for (const id of pick(3, (id) => status.get(id) === 'stuck' && observed.has(id))) set(id, 'running');
		for (const id of pick(3, (id) => status.get(id) === 'running' && wasStuck.has(id) && observed.has(id))) {
			set(id, 'stuck');
		}
		for (const id of pick(2, (id) => status.get(id) === 'stuck' && observed.has(id))) set(id, 'failed');
		for (const id of pick(3, (id) => status.get(id) === 'stuck')) {
			sandbox.control.addJobError(id, { sourcePath: '/x', message: 'still unreachable', event: 'warning' });
		}

		handle.restart();
		const fault = faults.get(round);
		if (fault) {
			const before = snapshot(handle.staticData());
			sandbox.faults.add({ kind: fault.kind, path: '/jobs', after: fault.after, times: 1 });
			await expect(handle.poll()).rejects.toThrow();
			expect(snapshot(handle.staticData())).toEqual(before);
			failedPolls++;
		} else {
			delivered.push(...keys(await pollJson(handle)));
			for (const id of pool) observed.add(id);
		}
	}
	handle.restart();
	expect(await pollJson(handle)).toEqual([]);

	expect(fresh).toBe(1000);
	expect(failedPolls).toBe(6);
	expect(expected.length).toBeGreaterThan(1000);
	expect(delivered.length).toBe(expected.length);
	expect(countBy(delivered)).toEqual(countBy(expected));
});

it('250 jobs finishing between two polls are all delivered by one poll, in pages of 100', async () => {
	const ids = sandbox.control.insertJobs(250, { status: 'running' });
	const handle = handleFor(sandbox);
	expect(await handle.poll()).toBeNull();
	for (const id of ids) sandbox.control.setJobStatus(id, 'finished');
	const before = listRequests();
	const items = await pollJson(handle);
	expect(listRequests() - before).toBe(3);
	expect(sandbox.requests.all().filter((r) => r.path === '/jobs').pop()!.query['page[limit]']).toBe('100');
	expect(items).toHaveLength(250);
	expect(new Set(keys(items))).toEqual(new Set(ids.map((id) => `${id}:finished`)));
});

it('after 10,000 events the state is under 4 KB, and an idle poll costs one request', async () => {
	const ids = sandbox.control.insertJobs(10_000, { status: 'running' });
	const handle = handleFor(sandbox);
	expect(await handle.poll()).toBeNull();
	const staysStuck = new Set(ids.slice(0, 40));
	let delivered = 0;
	let largest = 0;
	for (let round = 0; round < 20; round++) {
		const batch = ids.slice(round * 500, (round + 1) * 500);
		for (const [i, id] of batch.entries()) {
			sandbox.control.setJobStatus(id, staysStuck.has(id) ? 'stuck' : i % 2 ? 'failed' : 'finished');
			// About five status changes per millisecond: the jobs that share the newest millisecond are
			// part of the state (see docs/trigger.md, "State"), so a test of its size must not pile them into one.
			if (i % 5 === 4) await nextMillisecond();
		}
		handle.restart();
		const items = await pollJson(handle);
		expect(new Set(keys(items)).size).toBe(items.length);
		delivered += items.length;
		largest = Math.max(largest, JSON.stringify(handle.staticData()).length);
	}
	expect(delivered).toBe(10_000);
	expect(triggerState(handle).stuck).toEqual([...staysStuck].sort());
	expect(largest).toBeLessThan(4096);

	const before = sandbox.requests.count();
	expect(await handle.poll()).toBeNull();
	expect(sandbox.requests.count() - before).toBe(1);
});

it('many jobs changing in one millisecond, split across polls, are delivered exactly once', async () => {
	const running = sandbox.control.insertJobs(30, { status: 'running' });
	const handle = handleFor(sandbox);
	expect(await handle.poll()).toBeNull();
	await nextMillisecond();
	const stamp = new Date().toISOString();

	// The sandbox stamps a change with its clock, so equal timestamps come from jobs stored with the
	// same updatedAt, and from status changes made while the clock is held at that millisecond.
	const first = sandbox.control.insertJobs(150, { status: 'finished', updatedAt: stamp });
	const firstItems = await pollJson(handle);
	expect(triggerState(handle).cursor).toBe(stamp);

	const second = sandbox.control.insertJobs(120, { status: 'failed', updatedAt: stamp });
	const secondItems = await pollJson(handle);

	const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.parse(stamp));
	try {
		running.forEach((id, i) => sandbox.control.setJobStatus(id, i % 2 ? 'stuck' : 'finished'));
	} finally {
		clock.mockRestore();
	}
	expect(running.every((id) => sandbox.state.job(id)!.attributes.updatedAt === stamp)).toBe(true);
	const thirdItems = await pollJson(handle);
	const idle = await pollJson(handle);

	expect(new Set(keys(firstItems))).toEqual(new Set(first.map((id) => `${id}:finished`)));
	expect(firstItems).toHaveLength(150);
	expect(new Set(keys(secondItems))).toEqual(new Set(second.map((id) => `${id}:failed`)));
	expect(secondItems).toHaveLength(120);
	expect(new Set(keys(thirdItems))).toEqual(new Set(running.map((id, i) => `${id}:${i % 2 ? 'stuck' : 'finished'}`)));
	expect(thirdItems).toHaveLength(30);
	expect(idle).toEqual([]);
});
