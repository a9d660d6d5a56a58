/**
 * What an end-to-end suite that drives one real n8n starts from: a work folder, the sandbox, n8n with the
 * packed package installed as users install it, an owner, the public API and our credential pointing at the
 * sandbox. `useN8nStack` starts it before the suite and stops it after.
 */
// @ts-nocheck

import * as fs from 'node:fs';

import { startSandbox, type Sandbox } from '../../../sandbox/src';
import type { SandboxOptions } from '../../../sandbox/src/api';
import { ensureCredential } from '../../../scripts/n8n/credentials';
import {
	ensureOwner,
	generatePassword,
	publicApi,
	type PublicApiClient,
	type RestClient,
} from '../../../scripts/n8n/n8nApi';
import { startN8n, type N8nServer, type StartN8nOptions } from '../../../scripts/n8n/n8nProcess';
import { tempDir } from '../../../scripts/n8n/paths';
import { prepareUserFolder } from './userFolder';

const MINUTE = 60 * 1000;

export interface N8nStack {
	workDir: string;
	sandbox: Sandbox;
	n8n: N8nServer;
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
		const userFolder = await prepareUserFolder(stack.workDir);
		stack.sandbox = await startSandbox({ port: 0, clientId: options.clientId, clientSecret: options.clientSecret, ...options.sandbox });
		options.beforeN8n?.(stack.sandbox);
		stack.n8n = await startN8n({
			userFolder,
			extraEnv: options.extraEnv,
			logFile: options.logFile ? `${stack.workDir}/${options.logFile}` : undefined,
		});
		const owner = { email: 'owner@example.com', password: generatePassword(), firstName: 'E2e', lastName: 'Owner' };
		({ client: stack.rest } = await ensureOwner(stack.n8n.url, owner));
		stack.api = await publicApi(stack.rest, options.name);
		stack.credential = await ensureCredential(stack.api, options.credentialName, {
			baseUrl: stack.sandbox.baseUrl,
			clientId: options.clientId,
			clientSecret: options.clientSecret,
		});
	}, 30 * MINUTE);
	afterAll(async () => {
		await stack.n8n?.stop();
		await stack.sandbox?.close();
		if (stack.workDir) fs.rmSync(stack.workDir, { recursive: true, force: true });
	}, 2 * MINUTE);
	return stack;
}
