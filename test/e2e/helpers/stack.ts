/**
 * What an end-to-end suite that drives one real n8n starts from: a work folder, the sandbox, n8n with the
 * packed package installed as users install it, an owner, the public API and our credential pointing at the
 * sandbox. `useN8nStack` starts it before the suite and stops it after. A suite that gives no extraEnv uses
 * the run's shared n8n when there is one (sharedN8n.ts): then it brings its own sandbox, API key and a new
 * credential, and stops only those (and the workflows it left active). An n8n of its own runs without its
 * editor (NO_EDITOR_ENV: no /rest/settings, no /types/*.json); `N8N_DISABLE_UI: 'false'` in extraEnv brings it
 * back. The shared n8n keeps it: agent-review.test.ts reads /types/nodes.json.
 */
import * as fs from 'node:fs';

import { startSandbox, type Sandbox } from '../../../sandbox/src';
import type { SandboxOptions } from '../../../sandbox/src/api';
import { createCredential, ensureCredential } from '../../../scripts/n8n/credentials';
import {
	ensureOwner,
	generatePassword,
	publicApi,
	type PublicApiClient,
	type RestClient,
} from '../../../scripts/n8n/n8nApi';
import { NO_EDITOR_ENV, startN8n, type N8nServer, type StartN8nOptions } from '../../../scripts/n8n/n8nProcess';
import { tempDir } from '../../../scripts/n8n/paths';
import { sharedN8n, sharedOwner } from './sharedN8n';
import { prepareUserFolder } from './userFolder';

const MINUTE = 60 * 1000;

export interface N8nStack {
	workDir: string;
	sandbox: Sandbox;
	/** The suite's own n8n, or the run's shared one (then stop() leaves it running). */
	n8n: Pick<N8nServer, 'url' | 'port' | 'userFolder' | 'stop'>;
	/** Whether n8n is the run's shared one. */
	shared: boolean;
	/** n8n's REST API as the owner, and its public API. */
	rest: RestClient;
	api: PublicApiClient;
	credential: { id: string; name: string };
}

export interface N8nStackOptions {
	/** A short name for the folder, the owner and the API key (e.g. 'alert e2e'). */
	name: string;
	clientId: string;
	clientSecret: string;
	credentialName: string;
	sandbox?: Omit<SandboxOptions, 'port' | 'clientId' | 'clientSecret'>;
	/** What to do in the sandbox before n8n starts. */
	beforeN8n?: (sandbox: Sandbox) => void;
	/** n8n's environment, and a file for its log (`<workDir>/<logFile>`). */
	extraEnv?: StartN8nOptions['extraEnv'];
	logFile?: string;
}

/**
 * Starts the stack in `beforeAll` and stops it in `afterAll`; the returned object is filled in once it runs
 * (read it inside tests and hooks, not at the top of the file).
 */
export function useN8nStack(options: N8nStackOptions): N8nStack {
	const stack = {} as N8nStack;
	beforeAll(async () => {
		const slug = options.name.replace(/\W+/g, '-');
		stack.workDir = tempDir(`ftm-${slug}-`);
		const shared = options.extraEnv === undefined ? sharedN8n() : undefined;
		const userFolder = shared ? undefined : await prepareUserFolder(stack.workDir);
		stack.sandbox = await startSandbox({ port: 0, clientId: options.clientId, clientSecret: options.clientSecret, ...options.sandbox });
		options.beforeN8n?.(stack.sandbox);
		const credentialData = { baseUrl: stack.sandbox.baseUrl, clientId: options.clientId, clientSecret: options.clientSecret };
		if (shared) {
			stack.shared = true;
			stack.n8n = { url: shared.url, port: shared.port, userFolder: shared.userFolder, stop: async () => undefined };
			stack.rest = sharedOwner(shared);
			stack.api = await publicApi(stack.rest, options.name);
			// Other suites in this n8n may have a credential of the same name: this suite's is a new one.
			stack.credential = await createCredential(stack.api, options.credentialName, credentialData);
			return;
		}
		stack.shared = false;
		stack.n8n = await startN8n({
			userFolder: userFolder as string,
			extraEnv: { ...NO_EDITOR_ENV, ...options.extraEnv },
			logFile: options.logFile ? `${stack.workDir}/${options.logFile}` : undefined,
		});
		const owner = { email: 'owner@example.com', password: generatePassword(), firstName: 'E2e', lastName: 'Owner' };
		({ client: stack.rest } = await ensureOwner(stack.n8n.url, owner));
		stack.api = await publicApi(stack.rest, options.name);
		stack.credential = await ensureCredential(stack.api, options.credentialName, credentialData);
	}, 30 * MINUTE);
	afterAll(async () => {
		if (stack.shared) await deactivateWorkflowsOf(stack).catch((error: Error) => process.stderr.write(`[${options.name}] ${error.message}\n`));
		await stack.n8n?.stop();
		await stack.sandbox?.close();
		if (stack.workDir) fs.rmSync(stack.workDir, { recursive: true, force: true });
	}, 2 * MINUTE);
	return stack;
}

/**
 * In the shared n8n, deactivates the active workflows that use this suite's credential, so that their triggers
 * stop polling the suite's sandbox once it is closed.
 */
async function deactivateWorkflowsOf(stack: N8nStack): Promise<void> {
	if (!stack.api || !stack.credential) return;
	type Listed = { id: string; nodes?: Array<{ credentials?: Record<string, { id?: string | null }> }> };
	const active = await stack.api.list<Listed>('/workflows?active=true');
	for (const workflow of active) {
		const uses = (workflow.nodes ?? []).some((node) => Object.values(node.credentials ?? {}).some((ref) => ref?.id === stack.credential.id));
		if (uses) await stack.api.call('POST', `/workflows/${workflow.id}/deactivate`);
	}
}
