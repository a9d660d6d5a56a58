import type { Job, JobStatus } from '../../nodes/shared/api/types';
import type { Sandbox } from '../../sandbox/src/api';
import {
	handleFor,
	keys,
	nextMillisecond,
	params,
	pollJson,
	sandboxForTrigger,
	triggerState,
} from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await sandboxForTrigger();
});
afterAll(async () => {
	await sandbox.close();
});

const snapshot = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** The job the trigger should sample: newest updatedAt among jobs in a watched status, ties by id. */
function newestMatching(jobs: Job[], statuses: JobStatus[]): Job | undefined {
	return jobs
		.filter((job) => statuses.includes(job.attributes.status))
		.sort(
			(a, b) =>
				Date.parse(b.attributes.updatedAt) - Date.parse(a.attributes.updatedAt) ||
				(a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
		)[0];
}

describe('first activation', () => {
	it('fires nothing for statuses reached before it, ties at its position included, and fires what comes after', async () => {
		const [finished, failed, stuck, later] = sandbox.control.insertJobs(4, { status: 'running' });
		sandbox.control.setJobStatus(finished, 'finished');
		sandbox.control.setJobStatus(failed, 'failed');
		sandbox.control.setJobStatus(stuck, 'stuck');
		await nextMillisecond();
		// 150 jobs finished in the very millisecond the trigger takes its position: more than one page.
		const tied = sandbox.control.insertJobs(150, { status: 'finished', updatedAt: new Date().toISOString() });

		const handle = handleFor(sandbox);
		const before = sandbox.requests.count({ path: '/jobs' });
		expect(await handle.poll()).toBeNull();
		// Two pages to pass the 150 tied jobs, one to list the jobs stuck already.
		expect(sandbox.requests.count({ path: '/jobs' }) - before).toBe(3);
		expect(triggerState(handle).atCursor).toEqual([...tied].sort());
		expect(triggerState(handle).stuck).toEqual([stuck]);

		handle.restart();
		expect(await pollJson(handle)).toEqual([]);

		// The stuck job changes without leaving stuck (a new error record touches it): its entry was
		// before activation, so still nothing.
		await nextMillisecond();
		const stuckBefore = sandbox.state.job(stuck)!.attributes.updatedAt;
		sandbox.control.addJobError(stuck, { sourcePath: '/a', message: 'storage unreachable' });
		expect(sandbox.state.job(stuck)!.attributes.updatedAt).not.toBe(stuckBefore);
		sandbox.control.setJobStatus(later, 'failed');
		expect(keys(await pollJson(handle))).toEqual([`${later}:failed`]);
	});

	it('on an empty job list records no position, then delivers every later job', async () => {
		const user = '1a2b3c4d-0000-4000-8000-00000000e0e0';
		const handle = handleFor(sandbox, params({ filters: { userId: { __rl: true, mode: 'id', value: user } } }));
		expect(sandbox.state.jobs().filter((job) => job.attributes.userId === user)).toEqual([]);
		expect(await handle.poll()).toBeNull();
		expect(triggerState(handle).cursor).toBeNull();

		const ids = sandbox.control.insertJobs(3, { status: 'running', userId: user });
		for (const id of ids) sandbox.control.setJobStatus(id, 'finished');
		expect(keys(await pollJson(handle)).sort()).toEqual(ids.map((id) => `${id}:finished`).sort());
		expect(await pollJson(handle)).toEqual([]);
	});
});

describe('Fetch Test Event (manual mode)', () => {
	it('returns the most recent matching job and leaves the stored state as it was', async () => {
		const handle = handleFor(sandbox);
		expect(await handle.poll()).toBeNull();
		const [a, b, c] = sandbox.control.insertJobs(3, { status: 'running' });
		sandbox.control.setJobStatus(a, 'failed');
		await nextMillisecond();
		sandbox.control.setJobStatus(b, 'finished');
		await nextMillisecond();
		sandbox.control.setJobStatus(c, 'running'); // newer, but not in a watched status

		const stateBefore = snapshot(handle.staticData());
		const expected = newestMatching(sandbox.state.jobs(), ['failed', 'finished', 'stuck']);
		expect(expected?.id).toBe(b);
		const requestsBefore = sandbox.requests.count({ path: '/jobs' });
		const items = await handle.poll('manual');
		expect(sandbox.requests.count({ path: '/jobs' }) - requestsBefore).toBe(1);
		expect(items).toHaveLength(1);
		expect(items![0].json).toMatchObject({ event: 'finished', id: b, status: 'finished' });
		expect(snapshot(handle.staticData())).toEqual(stateBefore);

		// The sample consumed nothing: the real poll still delivers both events.
		expect(keys(await pollJson(handle)).sort()).toEqual([`${a}:failed`, `${b}:finished`].sort());
	});

	it('creates no state when used before the first activation', async () => {
		const handle = handleFor(sandbox);
		const items = await handle.poll('manual');
		expect(items).toHaveLength(1);
		expect(handle.staticData()).toEqual({});
	});

	it('asks per watched status when none of the newest page matches', async () => {
		const [canceled] = sandbox.control.insertJobs(1, { status: 'running' });
		sandbox.control.setJobStatus(canceled, 'canceled');
		await nextMillisecond();
		sandbox.control.insertJobs(120, { status: 'running', updatedAt: new Date().toISOString() });

		const handle = handleFor(sandbox, params({ events: ['canceled', 'stuck'] }));
		const expected = newestMatching(sandbox.state.jobs(), ['canceled', 'stuck']);
		const before = sandbox.requests.count({ path: '/jobs' });
		const items = await handle.poll('manual');
		expect(sandbox.requests.count({ path: '/jobs' }) - before).toBe(3);
		expect(items![0].json).toMatchObject({ id: expected!.id, event: expected!.attributes.status });
		expect(expected!.id).toBe(canceled);
		expect(handle.staticData()).toEqual({});
	});

	it('says plainly when no job matches', async () => {
		const handle = handleFor(
			sandbox,
			params({ filters: { userId: { __rl: true, mode: 'id', value: '0f0f0f0f-1111-4222-8333-444455556666' } } }),
		);
		await expect(handle.poll('manual')).rejects.toThrow('No job matching the events and filters found');
		expect(handle.staticData()).toEqual({});
	});
});

describe('filter changes', () => {
	it('reset the state: the first poll after a change behaves as a first activation', async () => {
		const handle = handleFor(sandbox, params({ filters: { transferType: 'copy' } }));
		expect(await handle.poll()).toBeNull();
		const copies = sandbox.control.insertJobs(2, { status: 'running', transferType: 'copy' });
		const moves = sandbox.control.insertJobs(2, { status: 'running', transferType: 'move' });
		sandbox.control.setJobStatus(copies[0], 'finished');
		expect(keys(await pollJson(handle))).toEqual([`${copies[0]}:finished`]);
		const fingerprint = triggerState(handle).fingerprint;

		sandbox.control.setJobStatus(moves[0], 'finished'); // before the change: not an event of the new watch
		handle.setParameters(params({ filters: { transferType: 'move' } }));
		expect(await handle.poll()).toBeNull();
		expect(triggerState(handle).fingerprint).not.toBe(fingerprint);

		sandbox.control.setJobStatus(copies[1], 'finished');
		sandbox.control.setJobStatus(moves[1], 'failed');
		expect(keys(await pollJson(handle))).toEqual([`${moves[1]}:failed`]);
	});
});

describe('cost', () => {
	it('an idle poll costs exactly one request, also with jobs tied at the cursor', async () => {
		const handle = handleFor(sandbox);
		expect(await handle.poll()).toBeNull();
		const stamp = new Date().toISOString();
		const tied = sandbox.control.insertJobs(5, { status: 'failed', updatedAt: stamp });
		expect((await pollJson(handle)).length).toBe(5);
		expect(triggerState(handle).cursor).toBe(stamp);
		for (let i = 0; i < 3; i++) {
			handle.restart();
			const before = sandbox.requests.count();
			expect(await handle.poll()).toBeNull();
			expect(sandbox.requests.count() - before).toBe(1);
		}
		expect(triggerState(handle).atCursor).toEqual([...tied].sort());
	});
});
