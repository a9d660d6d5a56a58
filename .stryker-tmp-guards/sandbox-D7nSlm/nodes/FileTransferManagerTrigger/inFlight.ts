/**
 * The polls of one trigger node within an n8n process: one at a time, and each from where the previous one
 * ended, the first one from where the activation stood.
 *
 * One at a time: n8n's legacy scheduler fires a poll on every tick of its cron, whether or not the previous
 * poll has returned. When a poll takes longer than the interval (a backlog, a slow service, a busy main), two
 * polls run side by side, both start from the same saved position, and both emit the same events. A poll that
 * finds another one of the same node still running returns nothing and leaves the state alone: the running
 * poll delivers those events, and the next tick goes on from where it ends.
 *
 * A poll that never returns would otherwise block the node for good; a claim older than STALE_AFTER_MS is
 * taken over. The transport bounds every request far below it.
 *
 * From where the previous one ended: n8n's durable scheduler (N8N_POLLER_DURABLE_CURSORS_ENABLED) gives each
 * poll the position it read from its database when the poll's task began. It saves the position a poll that
 * emitted items leaves together with the execution of those items, after the poll has returned (that of a
 * poll that emitted nothing, before the poll's task ends). The next poll's task can begin in between (its
 * interval came, or the poll ran long on a busy main): it would then read the position from before the
 * previous poll and deliver that poll's events a second time. So the process remembers, per node, the
 * position the last poll that emitted items started from, and when it returned. A poll handed that position
 * within SAVE_AWAITED_MS returns nothing and leaves the state alone; a later poll finds the saved position. If
 * n8n never saves it (the execution could not be stored, or n8n abandoned the poll at its timeout and
 * discarded its items), those events were never delivered, and after SAVE_AWAITED_MS the polls read them
 * again from the position n8n kept.
 *
 * From where the activation stood: n8n runs a poll when the workflow is activated, and the durable scheduler
 * runs it as a test whose position it never saves (n8n-core 2.41.1 `poll-trigger-executor.js` commits the
 * position only for a poll that is not a test). Its first scheduled poll is then handed no position, and
 * taking a new one there would pass over every event between the activation and that poll. So the process
 * keeps the position a poll took where it was handed none, until n8n hands a saved position back, and a poll
 * handed none starts from it. A restart of n8n in between loses it: that first poll then takes a new position.
 */
// @ts-nocheck


import type { TriggerState } from './state';

/** Longer than any poll can last with the transport's own time bounds. */
export const STALE_AFTER_MS = 15 * 60 * 1000;

/**
 * How long a position a poll left is awaited in what n8n hands the next polls: far longer than n8n takes to
 * store an execution, short enough that events whose position n8n never saved come again soon.
 */
export const SAVE_AWAITED_MS = 2 * 60 * 1000;

/** Nodes whose last poll is remembered, at most: the oldest is forgotten first. */
const NODES_REMEMBERED = 1000;

const running = new Map<string, number>();

/**
 * Per node, for its last poll that emitted items: fingerprints of the state it started from and of the one it
 * left, and when it returned.
 */
const lastPoll = new Map<string, { from: string; left: string; at: number }>();

/** The key of a trigger node: its workflow and its node id (its name where n8n gives no id). */
export function pollKey(workflowId: string | undefined, nodeId: string | undefined, nodeName: string): string {
	return JSON.stringify([workflowId ?? '', nodeId || nodeName]);
}

/**
 * Claims the node for one poll: returns the release of the claim, or undefined when another poll of the
 * node is running (and not stale). A taken-over claim is not released by the poll that lost it.
 */
export function claimPoll(key: string, now: number = Date.now()): (() => void) | undefined {
	const since = running.get(key);
	if (since !== undefined && now - since < STALE_AFTER_MS) return undefined;
	running.set(key, now);
	return () => {
		if (running.get(key) === now) running.delete(key);
	};
}

/**
 * Whether a poll handed the state `from` (a fingerprint) starts from behind: the last poll of the node that
 * emitted items started from that same state and returned less than SAVE_AWAITED_MS ago, and n8n has not
 * saved the state it left yet.
 */
export function startsBehind(key: string, from: string, now: number = Date.now()): boolean {
	const last = lastPoll.get(key);
	return last !== undefined && last.from === from && now - last.at < SAVE_AWAITED_MS;
}

/**
 * Notes the state a poll that emitted items started from and the one it left (fingerprints), as it returns;
 * a poll that changed nothing is not noted.
 */
export function notePoll(key: string, from: string, left: string, now: number = Date.now()): void {
	if (from === left) return;
	lastPoll.delete(key);
	lastPoll.set(key, { from, left, at: now });
	if (lastPoll.size > NODES_REMEMBERED) lastPoll.delete(lastPoll.keys().next().value as string);
}

/** Per node, the position a poll took where n8n handed it none, until n8n hands a saved position back. */
const taken = new Map<string, TriggerState>();

/** Keeps the position a poll took where it was handed none (a copy). */
export function keepTakenPosition(key: string, state: TriggerState): void {
	taken.delete(key);
	taken.set(key, JSON.parse(JSON.stringify(state)) as TriggerState);
	if (taken.size > NODES_REMEMBERED) taken.delete(taken.keys().next().value as string);
}

/** The position a poll of the node took where it was handed none, if n8n has not handed a saved one since (a copy). */
export function takenPosition(key: string): TriggerState | undefined {
	const state = taken.get(key);
	return state && (JSON.parse(JSON.stringify(state)) as TriggerState);
}

/** n8n handed the node a saved position: what a poll took before is no longer needed. */
export function forgetTakenPosition(key: string): void {
	taken.delete(key);
}
