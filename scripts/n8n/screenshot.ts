/**
 * Writes docs/node-panel.png: the n8n editor with a workflow whose File Transfer Manager node panel is open.
 * Runs its own throw-away n8n (temp user folder, free ports) and sandbox, and Debian's chromium headless
 * driven over the DevTools protocol (Node 24's built-in WebSocket; no browser library needed).
 * Usage: npx tsx scripts/n8n/screenshot.ts [--resource job] [--operation create] [--out docs/node-panel.png] [--keep]
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_IDS, startSandbox, type Sandbox } from '../../sandbox/src';
import { ensureN8nInstalled } from './install';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE,
	PublicApiClient,
	buildAndPack,
	createApiKey,
	ensureCredential,
	ensureOwner,
	ensureWorkflow,
	generatePassword,
	installPackage,
	projectRoot,
	sleep,
	spawnGroup,
	startN8n,
	tempDir,
	type ManagedProcess,
	type N8nServer,
	type WorkflowJson,
} from './lib';

const CHROMIUM = '/usr/bin/chromium';
const say = (line: string) => process.stderr.write(`[screenshot] ${line}\n`);

/** Installs Debian's chromium when it is missing (about 30 s). */
function ensureChromium(): string {
	if (fs.existsSync(CHROMIUM)) return CHROMIUM;
	say('chromium not found: apt-get install -y chromium');
	const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit' });
	if (result.status !== 0 || !fs.existsSync(CHROMIUM)) {
		throw new Error('could not install chromium with apt-get (run "apt-get update && apt-get install -y chromium" as root)');
	}
	return CHROMIUM;
}

/** A minimal DevTools-protocol client over one browser WebSocket, with flat sessions. */
class Cdp {
	private nextId = 1;
	private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

	private constructor(private readonly ws: WebSocket) {
		ws.addEventListener('message', (event) => {
			const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
			if (msg.id === undefined) return;
			const waiter = this.pending.get(msg.id);
			if (!waiter) return;
			this.pending.delete(msg.id);
			if (msg.error) waiter.reject(new Error(msg.error.message));
			else waiter.resolve(msg.result);
		});
	}

	static connect(url: string): Promise<Cdp> {
		return new Promise((resolve, reject) => {
			const ws = new WebSocket(url);
			ws.addEventListener('open', () => resolve(new Cdp(ws)));
			ws.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)));
		});
	}

	send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
		const id = this.nextId++;
		this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
		return new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
		});
	}

	close(): void {
		this.ws.close();
	}
}

async function waitForDevtoolsUrl(browser: ManagedProcess, timeoutMs = 30000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const match = /DevTools listening on (ws:\/\/\S+)/.exec(browser.stderr());
		if (match) return match[1];
		if (!browser.isRunning()) throw new Error(`chromium exited:\n${browser.tail()}`);
		await sleep(100);
	}
	throw new Error(`chromium printed no DevTools URL:\n${browser.tail()}`);
}

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

	const chromium = ensureChromium();
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
		const browser = spawnGroup(
			chromium,
			[
				'--headless=new',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-dev-shm-usage',
				'--disable-quic',
				'--no-first-run',
				'--no-default-browser-check',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--disable-extensions',
				'--hide-scrollbars',
				// Nothing but the local n8n: every other host name fails to resolve.
				'--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
				`--user-data-dir=${path.join(work, 'chromium')}`,
				`--window-size=${width},${height}`,
				'--remote-debugging-address=127.0.0.1',
				'--remote-debugging-port=0',
				'about:blank',
			],
			{ label: 'chromium' },
		);
		stops.push(() => browser.stop(3000));
		const cdp = await Cdp.connect(await waitForDevtoolsUrl(browser));
		const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
		const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
		const page = <T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}) =>
			cdp.send<T>(method, params, sessionId);
		await page('Page.enable');
		await page('Network.enable');
		await page('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
		await page('Network.setCookie', { name: 'n8n-auth', value: rest.cookieValue, url: n8n.url, httpOnly: true });

		const target = `${n8n.url}/workflow/${workflowId}/${nodeId}`;
		say(`opening ${target} (the editor takes 10-30 s to render on two cores)`);
		const started = Date.now();
		await page('Page.navigate', { url: target });

		const evaluate = async (expression: string) =>
			(await page<{ result: { value?: unknown } }>('Runtime.evaluate', { expression, returnByValue: true })).result.value;
		// The node panel (NDV) shows our node's parameters once the node type has loaded.
		const ready = `(() => {
			const ndv = document.querySelector('[data-test-id="ndv"]');
			const params = document.querySelectorAll('[data-test-id="parameter-input"], [data-test-id^="parameter-input-"]');
			return Boolean(ndv && ndv.getBoundingClientRect().width > 0 && params.length > 2);
		})()`;
		let shown = false;
		while (Date.now() - started < 120000) {
			if ((await evaluate(ready)) === true) {
				shown = true;
				break;
			}
			await sleep(1000);
		}
		if (!shown) say('the node panel did not show within 120 s: taking the screenshot anyway');
		await sleep(3000); // let fonts, icons and the credential field settle
		say(`rendered after ${((Date.now() - started) / 1000).toFixed(1)} s`);
		const { data } = await page<{ data: string }>('Page.captureScreenshot', { format: 'png' });
		fs.mkdirSync(path.dirname(out), { recursive: true });
		fs.writeFileSync(out, Buffer.from(data, 'base64'));
		say(`wrote ${path.relative(projectRoot, out)} (${width}x${height})${shown ? '' : ' WITHOUT the node panel'}`);
		cdp.close();
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
