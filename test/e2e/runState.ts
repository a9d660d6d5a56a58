/**
 * What test/e2e/globalSetup.ts started, for test/e2e/globalTeardown.ts: jest runs both in its main process,
 * each loaded as a module of its own, so the state lives on globalThis.
 */
import type { N8nServer } from '../../scripts/n8n/n8nProcess';

interface RunState {
	runDir: string;
	server?: N8nServer;
}

const KEY = '__ftmE2eRun';

export function setRun(state: RunState): void {
	(globalThis as Record<string, unknown>)[KEY] = state;
}

export function takeRun(): RunState | undefined {
	const state = (globalThis as Record<string, unknown>)[KEY] as RunState | undefined;
	delete (globalThis as Record<string, unknown>)[KEY];
	return state;
}
