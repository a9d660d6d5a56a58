import { startSandbox } from '../../sandbox/src';
import type { Sandbox, SandboxOptions } from '../../sandbox/src/api';
import type { TestCredentialsHelper } from './credentials';
import { credentialsFor } from './engine';
import { forgetRemembered } from '../../nodes/shared/transport/pace/remembered';

/** A running sandbox and the credential a user would fill in for it. */
export interface NodeSandbox {
	sandbox: Sandbox;
	credentials: TestCredentialsHelper;
}

/**
 * One sandbox and its credential for the calling test file: started before the file's tests, its injected
 * faults and request log cleared before each test, and what Parallel Requests Auto learnt about it forgotten
 * (each test starts as a fresh n8n process would), closed after all. `started` receives them once they run
 * (assign them to the file's variables: `useNodeSandbox({ speed: 1000 }, (s) => ({ sandbox, credentials } = s))`).
 */
export function useNodeSandbox(options: SandboxOptions, started: (running: NodeSandbox) => void): void {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox(options);
		started({ sandbox, credentials: credentialsFor(sandbox) });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	beforeEach(() => {
		sandbox?.faults.clear();
		sandbox?.requests.clear();
		forgetRemembered();
	});
}
