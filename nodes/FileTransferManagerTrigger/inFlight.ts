/**
 * One poll at a time per trigger node within an n8n process.
 *
 * n8n's legacy scheduler fires a poll on every tick of its cron, whether or not the previous poll has
 * returned. When a poll takes longer than the interval (a backlog, a slow service, a busy main), two polls
 * run side by side, both start from the same saved position, and both emit the same events. A poll that
 * finds another one of the same node still running returns nothing and leaves the state alone: the running
 * poll delivers those events, and the next tick goes on from where it ends.
 *
 * A poll that never returns would otherwise block the node for good; a claim older than STALE_AFTER_MS is
 * taken over. The transport bounds every request far below it.
 */

/** Longer than any poll can last with the transport's own time bounds. */
export const STALE_AFTER_MS = 15 * 60 * 1000;

const running = new Map<string, number>();

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
