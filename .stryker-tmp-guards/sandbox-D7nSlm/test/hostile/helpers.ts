/**
 * Set-up shared by the hostile suite: the sandbox, a hostile "service" on 127.0.0.1 in front of it (the
 * credential's Base URL), and an "other host" on 127.0.0.2 that must never see a token or a secret.
 */
// @ts-nocheck

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_IDS, startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from '../harness/credentials';
import type { NodeRunOptions, NodeRunResult } from '../harness/engine';
import { credentialsFor, runNode } from '../harness/engine';
import type { HostileServer, Recorded } from './servers';
import { startHostile, traffic, trafficText } from './servers';
import { rl } from '../harness/locator';

export { DEMO_IDS };

export interface Hostile {
	sandbox: Sandbox;
	/** The credential's Base URL points here (127.0.0.1). */
	service: HostileServer;
	/** Another origin (127.0.0.2): nothing secret may ever reach it. */
	other: HostileServer;
	/** Tokens that hostile token endpoints of the tests handed out. */
	minted: string[];
	/** A fresh credential for the service. */
	credentials(overrides?: IDataObject): TestCredentialsHelper;
	/** Runs the action node against the service with a fresh credential unless one is given. */
	run(parameters: INodeParameters, options?: Partial<NodeRunOptions>): Promise<NodeRunResult & { ms: number }>;
	/** Every secret known: the client secret, every token seen or minted. */
	secrets(extra?: TestCredentialsHelper[]): string[];
	reset(): void;
	close(): Promise<void>;
}

const used: TestCredentialsHelper[] = [];

/**
 * The hostile suite for the calling test file: started before its tests, reset after each, closed after
 * all. The object forwards to the started suite, so read it inside tests and hooks only.
 */
export function useHostileSuite(): Hostile {
	let started: Hostile | undefined;
	beforeAll(async () => {
		started = await startHostileSuite();
	});
	afterEach(() => started?.reset());
	afterAll(async () => {
		await started?.close();
	});
	return new Proxy({} as Hostile, {
		get(_, key) {
			if (!started) throw new Error('the hostile suite is not started yet: use it inside a test or a hook');
			return Reflect.get(started, key);
		},
	});
}

async function startHostileSuite(): Promise<Hostile> {
	const sandbox = await startSandbox({ speed: 1000 });
	const service = await startHostile('service', '127.0.0.1', sandbox.baseUrl);
	const other = await startHostile('other', '127.0.0.2');
	const minted: string[] = [];
	const credentials = (overrides: IDataObject = {}) => {
		const helper = credentialsFor({ ...sandbox, baseUrl: service.origin }, overrides);
		used.push(helper);
		return helper;
	};
	const secrets = (extra: TestCredentialsHelper[] = []) => {
		const all = new Set<string>([sandbox.clientSecret, ...minted]);
		for (const record of traffic) {
			const token = String(record.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim();
			if (token) all.add(token);
		}
		for (const helper of [...used, ...extra]) for (const token of helper.tokenUpdates) all.add(token);
		return [...all].filter((secret) => secret.length >= 8);
	};
	return {
		sandbox,
		service,
		other,
		minted,
		credentials,
		secrets,
		async run(parameters, options = {}) {
			const started = Date.now();
			const result = await runNode({ credentials: options.credentials ?? credentials(), parameters, ...options });
			return { ...result, ms: Date.now() - started };
		},
		reset() {
			service.reset();
			other.reset();
			sandbox.faults.clear();
			sandbox.requests.clear();
		},
		async close() {
			await Promise.all([service.close(), other.close()]);
			await sandbox.close();
		},
	};
}

/** The requests `server` received, as "METHOD path" lines (query left out). */
export function seen(server: HostileServer): string[] {
	return server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`);
}

/** Secrets found in the traffic that reached `records` (empty when none). */
export function secretsIn(records: Recorded[], secrets: string[]): string[] {
	const text = trafficText(records);
	return secrets.filter((secret) => text.includes(secret)).map((secret) => `${secret.slice(0, 4)}…`);
}

/** Everything the other host received in this test file. */
export function otherHostTraffic(): Recorded[] {
	return traffic.filter((record) => record.server === 'other');
}

export { rl };
export const getGroup = (requestOptions: IDataObject = {}): INodeParameters => ({
	resource: 'group',
	operation: 'get',
	groupId: rl(DEMO_IDS.groupIds[0]),
	requestOptions: requestOptions as INodeParameters,
});
/** Settings that keep retries quick. */
export const FAST = { maxRetryWait: 0.05 };
