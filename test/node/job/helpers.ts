/** Shared set-up of the Job operation tests: one sandbox per test file, and node parameters. */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox, SandboxOptions } from '../../../sandbox/src/api';
import type { Job } from '../../../nodes/shared/api/types';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { credentialsFor, runNode, type NodeRunResult } from '../../harness/engine';
import { rl } from '../../harness/locator';

export { DEMO_IDS };

export const FILES = DEMO_IDS.storageIds.files;
export const ARCHIVE = DEMO_IDS.storageIds.archive;
export const BUCKET = DEMO_IDS.storageIds.bucket;

/** A resource locator value as the editor stores it. */

export { rl };

export interface JobTestContext {
	sandbox: Sandbox;
	credentials: TestCredentialsHelper;
	/** Runs the node with resource "job" and the given operation parameters. */
	run(parameters: INodeParameters, options?: { items?: INodeExecutionData[]; continueOnFail?: boolean }): Promise<NodeRunResult>;
}

/** Starts a sandbox for the calling test file (speed 1000 unless told) and closes it afterwards. */
export function useJobSandbox(options: SandboxOptions = {}): JobTestContext {
	const context = {} as JobTestContext;
	beforeAll(async () => {
		context.sandbox = await startSandbox({ speed: 1000, ...options });
		context.credentials = credentialsFor(context.sandbox);
	});
	afterAll(async () => {
		await context.sandbox?.close();
	});
	context.run = (parameters, runOptions = {}) =>
		runNode({
			credentials: context.credentials,
			parameters: { resource: 'job', ...parameters },
			items: runOptions.items,
			continueOnFail: runOptions.continueOnFail ?? false,
		});
	return context;
}

let counter = 0;
/** A name unique within this process. */
export function uniq(prefix = 'job'): string {
	counter += 1;
	return `${prefix}-${counter}-${randomUUID().slice(0, 8)}`;
}

/** Parameters of a valid Job Create: a dry-run copy of /reports from "files" to a fresh folder of "archive". */
export function createParameters(over: INodeParameters = {}): INodeParameters {
	return {
		operation: 'create',
		transferType: 'copy',
		sourceStorageId: rl(FILES),
		sourcePath: '/reports',
		targetStorageId: rl(ARCHIVE),
		targetPath: `/${uniq('target')}`,
		conflictHandling: 'skip',
		dryRun: true,
		...over,
	};
}

/** Jobs of the sandbox with this name. */
export function jobsNamed(sandbox: Sandbox, name: string): Job[] {
	return sandbox.state.jobs().filter((job) => job.attributes.name === name);
}

export function md5(content: Buffer | string): string {
	return createHash('md5').update(content).digest('hex');
}

/** The error item json of continueOnFail, or the thrown error of a failed run, as text. */
export function errorText(result: NodeRunResult): string {
	return `${result.error?.message ?? ''} ${result.error?.description ?? ''}`;
}

/** Files (not folders) under `dir`, as sorted '/'-separated paths relative to it; [] when it is missing. */
export function listFiles(dir: string): string[] {
	const out: string[] = [];
	const walk = (folder: string, relative: string) => {
		if (!existsSync(folder)) return;
		for (const entry of readdirSync(folder, { withFileTypes: true })) {
			const name = relative ? `${relative}/${entry.name}` : entry.name;
			if (entry.isDirectory()) walk(path.join(folder, entry.name), name);
			else out.push(name);
		}
	};
	walk(dir, '');
	return out.sort();
}
