/**
 * Set-up shared by the hostile shape, id, key, wait and limit tests: a sandbox behind the recording
 * "service" server on 127.0.0.1, the credential pointed at the service, and small builders of JSON:API
 * documents taken from the sandbox's own records, so that each test changes only the part it is about.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { Job } from '../../nodes/shared/api/types';
import type { TestCredentialsHelper } from '../harness/credentials';
import type { NodeRunResult } from '../harness/engine';
import { credentialsFor, runNode, triggerHandle } from '../harness/engine';
import { loadOptionsContext } from '../harness/loadOptions';
import type { HostileServer, Recorded } from './servers';
import { startHostile } from './servers';
export { rl } from '../harness/locator';

export { DEMO_IDS };

export const FILES = DEMO_IDS.storageIds.files;
export const ARCHIVE = DEMO_IDS.storageIds.archive;
export const JOB_ID = DEMO_IDS.jobIds.copied;

/** A resource locator value as the editor stores it. */

/** Matches the path of one job (GET /jobs/{uuid}). */
export const ONE_JOB = /^\/jobs\/[0-9a-f-]{36}$/;

export interface HostileContext {
	sandbox: Sandbox;
	service: HostileServer;
	credentials: TestCredentialsHelper;
	run(parameters: INodeParameters, options?: { items?: INodeExecutionData[]; continueOnFail?: boolean }): Promise<NodeRunResult>;
	/** Requests that reached the service other than the token request, as "METHOD /path". */
	calls(): string[];
	/** Same, with the query string. */
	recorded(): Recorded[];
}

/** One sandbox and one service server per test file; routes and records are cleared after every test. */
export function useHostileService(): HostileContext {
	const context = {} as HostileContext;
	beforeAll(async () => {
		context.sandbox = await startSandbox({ speed: 1000 });
		context.service = await startHostile('service', '127.0.0.1', context.sandbox.baseUrl);
		context.credentials = credentialsFor({ ...context.sandbox, baseUrl: context.service.origin });
	});
	afterEach(() => context.service.reset());
	afterAll(async () => {
		await context.service?.close();
		await context.sandbox?.close();
	});
	context.run = (parameters, options = {}) =>
		runNode({
			credentials: context.credentials,
			parameters,
			items: options.items,
			continueOnFail: options.continueOnFail ?? false,
		});
	context.recorded = () => context.service.requests.filter((r) => !r.url.startsWith('/oauth/token'));
	context.calls = () => context.recorded().map((r) => `${r.method} ${new URL(r.url, 'http://x').pathname}`);
	return context;
}

/** A copy of a sandbox job, with its attributes changed as given. */
export function jobLike(sandbox: Sandbox, attributes: IDataObject = {}, id = JOB_ID): IDataObject {
	const job = JSON.parse(JSON.stringify(sandbox.state.job(JOB_ID))) as Job;
	return { ...job, id, attributes: { ...job.attributes, ...attributes } };
}

/** A one-page list document. */
export function listOf(data: unknown, after: unknown = null, total?: number): IDataObject {
	return { data, meta: { page: { after, total: total ?? (Array.isArray(data) ? data.length : 1) } } } as IDataObject;
}

/** The list-search context the editor builds for the action node. */
export function pickerContext(credentials: TestCredentialsHelper) {
	return loadOptionsContext(credentials, { resource: 'job', operation: 'get' });
}

/** A trigger driven like n8n does, against the service. */
export function triggerFor(credentials: TestCredentialsHelper, options: INodeParameters = {}) {
	return triggerHandle(credentials, {
		events: ['failed', 'finished', 'stuck'],
		filters: {},
		options,
		requestOptions: { maxRetries: 0 },
	});
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
