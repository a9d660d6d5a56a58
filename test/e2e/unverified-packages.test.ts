/**
 * End-to-end: n8n 3.0's default N8N_UNVERIFIED_PACKAGES_ENABLED=false, measured in today's n8n, route by route,
 * and the advice README › Install gives n8n 3.0 users (docs/install.md › n8n 3.0 and unverified packages).
 *
 * The package is not on n8n's list of verified packages. With the variable false, n8n 2.41.1 (source:
 * `n8n/dist/modules/community-packages/`, `instance-settings-loader/loaders/community-packages…`):
 * - still loads a package already in `~/.n8n/nodes` (installed by hand, or earlier through the page): its
 *   loader does not read the variable. n8n's 3.0 rule `unverified-packages` says that this is what changes:
 *   installed unverified packages stop loading. This suite shows the 2.x side; 3.0 itself cannot be run yet.
 * - refuses Settings › Community Nodes › Install: the page disables its Install button (the frontend setting
 *   `unverifiedCommunityNodesEnabled` is false) and the route behind it refuses the package;
 * - refuses N8N_COMMUNITY_PACKAGES without a `checksum` ("no checksum available … and unverified packages are
 *   disabled"), and does not start at all.
 * With the variable true, as the README tells n8n 3.0 users, every route works (test/install/, and every e2e
 * suite: the stack's n8n has it true, and the `v3` profile of the version matrix sets it as the README says).
 *
 * n8n 1.x has no N8N_COMMUNITY_PACKAGES route; there only the first test runs (the routes of the page are
 * not measured in 1.x).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { nodeOutput, randomId } from '../../scripts/n8n/headless';
import { HttpError } from '../../scripts/n8n/n8nApi';
import { startN8n } from '../../scripts/n8n/n8nProcess';
import { NODE_TYPE, PACKAGE_NAME } from '../../scripts/n8n/packaging';
import type { WorkflowJson } from '../../scripts/n8n/workflows';
import { N8N_VERSION, n8nMajor, projectRoot, tempDir } from '../../scripts/n8n/paths';
import { V3_DOCUMENTED_ENV, V3_ENV } from '../../scripts/n8n/profile';
import { useN8nStack } from './helpers/stack';
import { runToSuccess } from './helpers/workflows';

const MINUTE = 60 * 1000;
const VERSION = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

test("README › Install tells n8n 3.0 users what the v3 profile sets over n8n 3.0's default", () => {
	expect(V3_ENV.N8N_UNVERIFIED_PACKAGES_ENABLED).toBe('false');
	const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
	const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('\n## ', readme.indexOf('## Install') + 1));
	for (const [name, value] of Object.entries(V3_DOCUMENTED_ENV)) expect(install).toContain(`${name}=${value}`);
	expect(install).toMatch(/n8n 3\.0/);
});

describe(`n8n ${N8N_VERSION} with N8N_UNVERIFIED_PACKAGES_ENABLED=false`, () => {
	const stack = useN8nStack({
		name: 'unverified e2e',
		clientId: `unverified-e2e-${randomId()}`,
		clientSecret: `secret-${randomId()}`,
		credentialName: 'File Transfer Manager (unverified e2e)',
		sandbox: { speed: 1000 },
		// With the editor: the test reads n8n's /rest/settings, which only an n8n with its editor serves.
		extraEnv: { N8N_UNVERIFIED_PACKAGES_ENABLED: 'false', N8N_DISABLE_UI: 'false' },
	});

	test('a package already in ~/.n8n/nodes (installed by hand) still loads and runs', async () => {
		const workflow: WorkflowJson = {
			name: 'e2e: unverified packages off',
			nodes: [
				{ id: 'a0000000-0000-4000-8000-000000000000', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'a0000000-0000-4000-8000-000000000001',
					name: 'Get Version',
					type: NODE_TYPE,
					typeVersion: 1,
					position: [220, 0],
					parameters: { resource: 'api', operation: 'getVersion' },
					credentials: { fileTransferManagerOAuth2Api: stack.credential },
				},
			],
			connections: { Start: { main: [[{ node: 'Get Version', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		};
		const run = await runToSuccess(stack, workflow);
		expect(nodeOutput(run, 'Get Version')).toHaveLength(1);
	}, 5 * MINUTE);

	// Measured in n8n 2.41.1's source and run; n8n 1.x is not measured for these two.
	const twoX = n8nMajor() >= 2 ? test : test.skip;

	twoX('Settings › Community Nodes: the page is told unverified packages are off (its Install button is disabled)', async () => {
		const settings = await stack.rest.call<{ unverifiedCommunityNodesEnabled?: boolean; communityNodesEnabled?: boolean }>('GET', '/settings');
		expect(settings.communityNodesEnabled).toBe(true);
		expect(settings.unverifiedCommunityNodesEnabled).toBe(false);
	});

	twoX('Settings › Community Nodes › Install: the route behind the page refuses the package', async () => {
		let refused: unknown;
		try {
			await stack.rest.call('POST', '/community-packages', { name: PACKAGE_NAME });
		} catch (error) {
			refused = error;
		}
		expect(refused).toBeInstanceOf(HttpError);
		process.stderr.write(`[unverified e2e] install route: HTTP ${(refused as HttpError).status} ${(refused as HttpError).body.slice(0, 300)}\n`);
		expect((refused as HttpError).status).toBe(500);
		expect((refused as HttpError).body).toMatch(/unverified community packages is forbidden/i);
	}, 3 * MINUTE);
});

(n8nMajor() >= 2 ? describe : describe.skip)(`n8n ${N8N_VERSION}: N8N_COMMUNITY_PACKAGES without a checksum, unverified packages off`, () => {
	test('n8n does not start: it exits, naming the variable and the package', async () => {
		const workDir = tempDir('ftm-unverified-env-');
		const logFile = path.join(workDir, 'n8n.log');
		let started: Awaited<ReturnType<typeof startN8n>> | undefined;
		let failure: unknown;
		try {
			started = await startN8n({
				userFolder: path.join(workDir, 'n8n-user'),
				logFile,
				readyTimeoutMs: 3 * MINUTE,
				extraEnv: {
					N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
					N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
					N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE_NAME, version: VERSION }]),
				},
			});
		} catch (error) {
			failure = error;
		} finally {
			await started?.stop();
		}
		const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
		process.stderr.write(`[unverified e2e] env route: ${started ? 'n8n started' : `n8n did not start: ${String(failure).slice(0, 200)}`}\n`);
		expect(started).toBeUndefined();
		expect(String(failure)).toContain('n8n exited before it was ready');
		expect(log).toContain(`N8N_COMMUNITY_PACKAGES: no checksum available for '${PACKAGE_NAME}@${VERSION}' and unverified packages are disabled`);
		fs.rmSync(workDir, { recursive: true, force: true });
	}, 5 * MINUTE);
});
