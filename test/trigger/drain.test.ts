/**
 * A backlog larger than one poll's time budget: the trigger stops reading before the budget runs out, delivers
 * what it read, and the next polls go on from the gaps it left in its state (sweep.ts, docs/trigger.md
 * "A backlog larger than one poll"). The budget is what n8n-core's PollContext answers to getPollBudgetMs(), as
 * n8n's durable scheduler sets it; the sandbox's network model makes every answer take 40 ms, so that a few
 * hundred milliseconds of budget hold only a few pages. Static data goes through JSON between every two polls.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { JobStatus } from '../../nodes/shared/api/types';
import { startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { TriggerHandle } from '../harness/engine';
import { credentialsFor, triggerHandle } from '../harness/engine';
import { countBy, keys, nextMillisecond, params, pollJson, triggerState } from './helpers';

/** The budget the tests give a poll, and the sandbox's service time per answer. */
const BUDGET_MS = 1000;
const LATENCY_MS = 40;
/** A budget shorter than 12 pages read one after the other at LATENCY_MS. */
const SHORT_BUDGET_MS = 300;

let sandbox: Sandbox;
beforeEach(async () => {
	sandbox = await startSandbox({ speed: 1000, network: { latencyMs: LATENCY_MS } });
});
afterEach(async () => {
	await sandbox.close();
});

const handleWith = (budget: number | 'missing', parameters: INodeParameters = params()): TriggerHandle =>
	triggerHandle(credentialsFor(sandbox), parameters, {}, budget);

const gapsOf = (handle: TriggerHandle): IDataObject[] => (triggerState(handle).gaps ?? []) as IDataObject[];
const listRequests = () => sandbox.requests.count({ path: '/jobs' });

interface Drained {
	/** The items of each poll, in order. */
	polls: IDataObject[][];
	/** The gaps each poll left. */
	gapsAfter: number[];
}

/** Polls until a poll leaves no gap (a restart between every two polls); at most `max` polls. */
async function drainAll(handle: TriggerHandle, max = 60, between?: (poll: number) => void): Promise<Drained> {
	const drained: Drained = { polls: [], gapsAfter: [] };
	for (let poll = 1; poll <= max; poll++) {
		handle.restart();
		drained.polls.push(await pollJson(handle));
		drained.gapsAfter.push(gapsOf(handle).length);
		if (gapsOf(handle).length === 0) return drained;
		between?.(poll);
	}
	throw new Error(`not drained after ${max} polls`);
}

/** Sets the status of jobs, each at its own moment (several may share a millisecond). */
function setAll(ids: string[], status: (i: number) => JobStatus): string[] {
	return ids.map((id, i) => {
		const to = status(i);
		sandbox.control.setJobStatus(id, to);
		return `${id}:${to}`;
	});
}

const seenAt = (json: IDataObject): number => Date.parse(String(json.seenAt));

it('a backlog of 2,000 events (300 of them in one millisecond) is delivered over several polls, each once, newest part first, with little reading twice', async () => {
	const pool = sandbox.control.insertJobs(1700, { status: 'running' });
	const handle = handleWith(BUDGET_MS);
	expect(await handle.poll()).toBeNull();
	await nextMillisecond();
	const expected = setAll(pool, (i) => (i % 4 === 0 ? 'failed' : 'finished'));
	await nextMillisecond();
	// 300 failed jobs stamped with one and the same millisecond: a poll may stop between two of them.
	const sameMs = sandbox.control.insertJobs(300, { status: 'failed', updatedAt: new Date().toISOString() });
	expected.push(...sameMs.map((id) => `${id}:failed`));

	const before = listRequests();
	const { polls, gapsAfter } = await drainAll(handle);
	const delivered = polls.flat();

	expect(polls.length).toBeGreaterThanOrEqual(2);
	expect(gapsAfter[0]).toBe(1);
	expect(delivered).toHaveLength(2000);
	expect(countBy(keys(delivered))).toEqual(countBy(expected));
	// Within a poll, oldest first; across the polls of a drain, each poll's items are newer than the next one's.
	for (const items of polls) {
		expect(items.map(seenAt)).toEqual([...items.map(seenAt)].sort((a, b) => a - b));
	}
	for (let i = 0; i + 1 < polls.length; i++) {
		if (polls[i].length === 0 || polls[i + 1].length === 0) continue;
		expect(Math.min(...polls[i].map(seenAt))).toBeGreaterThanOrEqual(Math.max(...polls[i + 1].map(seenAt)));
	}
	// 20 pages of 100, plus per poll the page it stopped on, read again, and the fresh read: once the cursor is
	// at the 300 jobs' millisecond, 4 pages (those jobs, listed again until an older one: see "Cost per poll").
	expect(listRequests() - before).toBeLessThanOrEqual(20 + polls.length + 4 * (polls.length - 1));
	// Drained: the next poll delivers nothing, reading only the jobs at the cursor's millisecond and one more.
	handle.restart();
	const idle = listRequests();
	expect(await pollJson(handle)).toEqual([]);
	expect(listRequests() - idle).toBe(4);
});

it('with Attach Errors, the errors requests count in the budget: 80 failed jobs over many polls, each once with its errors', async () => {
	const pool = sandbox.control.insertJobs(80, { status: 'running' });
	const handle = handleWith(BUDGET_MS, params({ events: ['failed'], options: { attachErrors: 3 } }));
	expect(await handle.poll()).toBeNull();
	for (const id of pool) {
		sandbox.control.addJobError(id, { sourcePath: '/a', message: 'first' });
		sandbox.control.addJobError(id, { sourcePath: '/b', message: 'second', event: 'warning' });
	}
	const expected = setAll(pool, () => 'failed');

	const { polls } = await drainAll(handle, 200);
	const delivered = polls.flat();

	// One request per item: a budget of a dozen answers holds far fewer than 80 items.
	expect(polls.length).toBeGreaterThanOrEqual(4);
	expect(countBy(keys(delivered))).toEqual(countBy(expected));
	for (const json of delivered) {
		expect(json.errorsTotal).toBe(2);
		expect((json.errors as IDataObject[]).map((e) => e.message)).toEqual(['first', 'second']);
	}
});

it('jobs that change while a drain is under way are delivered once each; nothing of the backlog is lost', async () => {
	const pool = sandbox.control.insertJobs(600, { status: 'running' });
	const changers = sandbox.control.insertJobs(100, { status: 'running' });
	const late = sandbox.control.insertJobs(30, { status: 'running' });
	const handle = handleWith(BUDGET_MS, params({ options: { attachErrors: 1 } }));
	expect(await handle.poll()).toBeNull();
	await nextMillisecond();

	// The backlog: 600 jobs finished, failed or stuck; among them 60 more jobs stuck and 40 still running
	// (touched by an error record, so that they sit in the backlog without being events).
	const expected = setAll(pool, (i) => (i % 10 === 0 ? 'stuck' : i % 3 === 0 ? 'failed' : 'finished'));
	const stuckChangers = changers.slice(0, 60);
	const runningChangers = changers.slice(60);
	const stuck = (ids: string[]) => {
		for (const id of ids) {
			sandbox.control.setJobStatus(id, 'stuck');
			sandbox.control.addJobError(id, { sourcePath: '/x', message: 'storage gone' });
		}
	};
	// Half of the stuck changers deep in the backlog, half at its front, where the first poll reads them however
	// little its budget lets it read on a loaded machine.
	stuck(stuckChangers.slice(0, 30));
	for (const id of runningChangers) sandbox.control.addJobError(id, { sourcePath: '/y', message: 'retrying' });
	for (const id of pool.filter((_, i) => i % 10 === 0 || i % 3 === 0)) {
		sandbox.control.addJobError(id, { sourcePath: '/z', message: 'failed file' });
	}
	stuck(stuckChangers.slice(30));

	let firstPoll: IDataObject[] = [];
	const { polls } = await drainAll(handle, 200, (poll) => {
		if (poll !== 1) return;
		// After the first poll, with the drain under way: every changer fails (moving to the front of the
		// list, out of the part not read yet), and 30 jobs that were not part of the backlog finish.
		for (const id of changers) sandbox.control.setJobStatus(id, 'failed');
		for (const id of late) sandbox.control.setJobStatus(id, 'finished');
	});
	firstPoll = polls[0];
	expect(polls.length).toBeGreaterThanOrEqual(2);

	// A stuck changer read by the first poll was delivered stuck then; one in the part not read yet was never
	// seen stuck (it left stuck before the trigger got there: polling cannot see that).
	const stuckFirst = new Set(keys(firstPoll).filter((key) => key.endsWith(':stuck')));
	expect(stuckFirst.size).toBeGreaterThan(0);
	for (const id of stuckChangers) if (stuckFirst.has(`${id}:stuck`)) expected.push(`${id}:stuck`);
	expected.push(...changers.map((id) => `${id}:failed`), ...late.map((id) => `${id}:finished`));

	const delivered = polls.flat();
	expect(countBy(keys(delivered))).toEqual(countBy(expected));
	for (const json of delivered) if (json.event !== 'finished') expect(json.errorsTotal).toBe(1);
});

it('a page cursor the service no longer takes: the gap is read from the front instead, still each event once', async () => {
	const pool = sandbox.control.insertJobs(1200, { status: 'running' });
	// Less budget than the 12 pages of the backlog take one after the other (12 × 40 ms), however many error
	// requests run side by side: the first poll always leaves a gap.
	const handle = handleWith(SHORT_BUDGET_MS);
	expect(await handle.poll()).toBeNull();
	await nextMillisecond();
	const expected = setAll(pool, (i) => (i % 2 ? 'failed' : 'finished'));

	handle.restart();
	const first = await pollJson(handle);
	const state = handle.staticData()['node:File Transfer Manager Trigger'] as IDataObject;
	const gaps = state.gaps as IDataObject[];
	expect(gaps).toHaveLength(1);
	gaps[0].page = { after: 'a-cursor-this-sandbox-never-issued' };

	const before = sandbox.requests.count({ path: '/jobs', status: 400 });
	const { polls } = await drainAll(handle);
	expect(sandbox.requests.count({ path: '/jobs', status: 400 })).toBe(before + 1);
	expect(countBy(keys([...first, ...polls.flat()]))).toEqual(countBy(expected));
});

it('without getPollBudgetMs (n8n 1.x) the trigger keeps its own bound; a backlog that fits is read in one poll', async () => {
	const pool = sandbox.control.insertJobs(450, { status: 'running' });
	const handle = handleWith('missing');
	expect(await handle.poll()).toBeNull();
	await nextMillisecond();
	const expected = setAll(pool, () => 'finished');
	const items = await pollJson(handle);
	expect(countBy(keys(items))).toEqual(countBy(expected));
	expect(gapsOf(handle)).toEqual([]);
});
