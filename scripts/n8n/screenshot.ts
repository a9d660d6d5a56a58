/**
 * Writes docs/node-panel.png: the n8n editor with a workflow whose File Transfer Manager node panel is open.
 * Runs its own throw-away n8n (temp user folder, free ports) and sandbox, and Debian's chromium headless
 * driven with playwright-core (chromium.ts; no browser download).
 * Usage: npx tsx scripts/n8n/screenshot.ts [--resource job] [--operation create] [--out docs/node-panel.png] [--keep]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_IDS, startSandbox, type Sandbox } from '../../sandbox/src';
import { ensureChromium, launchChromium } from './chromium';
import { ensureN8nInstalled } from './install';
import { ensureCredential } from './credentials';
import { PublicApiClient, createApiKey, ensureOwner, generatePassword } from './n8nApi';
import { startN8n, type N8nServer } from './n8nProcess';
import { CREDENTIAL_TYPE, NODE_TYPE, buildAndPack, installPackage } from './packaging';
import { projectRoot, tempDir } from './paths';
import { ensureWorkflow, type WorkflowJson } from './workflows';

const say = (line: string) => process.stderr.write(`[screenshot] ${line}\n`);

/** A storage locator value as the editor stores it after a pick from the list. */
function pickedStorage(sandbox: Sandbox, storageId: string): Record<string, unknown> {
	const storage = sandbox.state.storages().find((s) => s.id === storageId);
	return { __rl: true, mode: 'list', value: storageId, cachedResultName: storage?.attributes.name ?? storageId };
}

function panelWorkflow(
	sandbox: Sandbox,
	resource: string,
	operation: string,
	credential: { id: string; name: string },
): WorkflowJson {
	return {
		name: 'File Transfer Manager: node panel',
		nodes: [
			{
				id: '5d2e6a2e-1f1b-4c9a-9a51-000000000001',
				name: 'When clicking ‘Execute workflow’',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: '5d2e6a2e-1f1b-4c9a-9a51-000000000002',
				name: 'File Transfer Manager',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource,
					operation,
					...(resource === 'job' && operation === 'create'
						? {
								sourceStorageId: pickedStorage(sandbox, DEMO_IDS.storageIds.files),
								sourcePath: '/incoming',
								targetStorageId: pickedStorage(sandbox, DEMO_IDS.storageIds.archive),
							}
						: {}),
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {
			'When clicking ‘Execute workflow’': { main: [[{ node: 'File Transfer Manager', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			resource: { type: 'string', default: 'job' },
			operation: { type: 'string', default: 'create' },
			out: { type: 'string', default: path.join('docs', 'node-panel.png') },
			width: { type: 'string', default: '1600' },
			height: { type: 'string', default: '1000' },
			keep: { type: 'boolean', default: false },
		},
	});
	const out = path.resolve(projectRoot, values.out!);
	const width = Number(values.width);
	const height = Number(values.height);

	await ensureChromium(say);
	await ensureN8nInstalled();
	const work = tempDir('ftm-screenshot-');
	const stops: Array<() => Promise<void>> = [];
	try {
		say('building and installing the package into a temporary n8n user folder');
		const tarball = await buildAndPack(path.join(work, 'pack'));
		const userFolder = path.join(work, 'n8n-user');
		await installPackage(userFolder, tarball);

		const sandbox = await startSandbox({ port: 0 });
		stops.push(() => sandbox.close());
		say('starting n8n');
		const n8n: N8nServer = await startN8n({ userFolder });
		stops.push(() => n8n.stop());

		const owner = { email: 'owner@example.com', password: generatePassword(), firstName: 'Docs', lastName: 'Owner' };
		const { client: rest } = await ensureOwner(n8n.url, owner);
		const api = new PublicApiClient(n8n.url, await createApiKey(rest, 'screenshot'));
		const credential = await ensureCredential(api, 'File Transfer Manager account', {
			baseUrl: sandbox.baseUrl,
			clientId: sandbox.clientId,
			clientSecret: sandbox.clientSecret,
		});
		const workflow = panelWorkflow(sandbox, values.resource!, values.operation!, credential);
		const { id: workflowId } = await ensureWorkflow(api, workflow);
		const nodeId = workflow.nodes[1].id as string;

		say('starting chromium');
		const browser = await launchChromium(say);
		stops.push(() => browser.close());
		const context = await browser.newContext({ viewport: { width, height } });
		await context.addCookies([{ name: 'n8n-auth', value: rest.cookieValue, url: n8n.url, httpOnly: true }]);
		const page = await context.newPage();

		const target = `${n8n.url}/workflow/${workflowId}/${nodeId}`;
		say(`opening ${target} (the editor takes 10-30 s to render on two cores)`);
		const started = Date.now();
		await page.goto(target, { waitUntil: 'commit', timeout: 120000 });

		// The node panel (NDV) shows our node's parameters once the node type has loaded.
		let shown = true;
		try {
			await page.locator('[data-test-id="ndv"]').filter({ visible: true }).first().waitFor({ timeout: 120000 });
			const params = page.locator('[data-test-id="parameter-input"], [data-test-id^="parameter-input-"]');
			await params.nth(2).waitFor({ state: 'attached', timeout: Math.max(1000, 120000 - (Date.now() - started)) });
		} catch {
			shown = false;
			say('the node panel did not show within 120 s: taking the screenshot anyway');
		}
		await page.waitForTimeout(3000); // let fonts, icons and the credential field settle
		say(`rendered after ${((Date.now() - started) / 1000).toFixed(1)} s`);
		await page.screenshot({ path: out });
		say(`wrote ${path.relative(projectRoot, out)} (${width}x${height})${shown ? '' : ' WITHOUT the node panel'}`);
		if (!shown) process.exitCode = 2;
	} finally {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		if (values.keep) say(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	say(`ERROR: ${error.message}`);
	process.exit(1);
});
