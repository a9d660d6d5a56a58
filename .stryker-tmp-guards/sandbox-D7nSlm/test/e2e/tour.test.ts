/**
 * Browser end-to-end: the README's "Try it locally" tour in real n8n, in Debian's Chromium.
 *
 * Sets up what `npm start` sets up (the packed package installed into n8n's community-nodes folder, the
 * sandbox with its demo data and default speed, n8n, an owner, the "File Transfer Manager (sandbox)" credential
 * and every example of examples/, the active ones activated), but in a temporary user folder on free ports,
 * with the functions of scripts/n8n/ as start.ts uses them. Then a headless Chromium (Debian's, installed with apt when
 * /usr/bin/chromium is missing, driven with playwright-core) logs in through the login page, opens example 1
 * from the workflows list, clicks "Execute workflow", opens the Report node and reads the output panel's JSON
 * view.
 *
 * Asserts on what the page shows: the cost estimate and the summary, checked against the sandbox's own record
 * of the dry run and the files on the archive storage's disk. Screenshots go to tmp/tour/ (git-ignored);
 * `cp tmp/tour/5-report-output.png docs/tour-report.png` refreshes the README's picture.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_IDS, startSandbox, type Sandbox } from '../../sandbox/src';
import type { Browser } from 'playwright-core';
import { ensureChromium, launchChromium } from '../../scripts/n8n/chromium';
import { TOUR_VIEWPORT, driveTour, type TourResult } from '../../scripts/n8n/tour';
import { ensureCredential } from '../../scripts/n8n/credentials';
import { ensureOwner, generatePassword, publicApi, type PublicApiClient } from '../../scripts/n8n/n8nApi';
import { startN8n, type N8nServer } from '../../scripts/n8n/n8nProcess';
import { projectRoot, tempDir } from '../../scripts/n8n/paths';
import { ensureWorkflow, withCredential, type WorkflowJson } from '../../scripts/n8n/workflows';
import { EXAMPLES_DIR, EXAMPLE_CREDENTIAL_NAME, EXAMPLE_FILES, listFiles, readExample } from './helpers/examples';
import { prepareUserFolder } from './helpers/userFolder';

const MINUTE = 60 * 1000;
const OUT_DIR = path.join(projectRoot, 'tmp', 'tour');
const REPORT_NODE = 'Report';
const { files: FILES, archive: ARCHIVE } = DEMO_IDS.storageIds;
const say = (line: string) => process.stderr.write(`[tour e2e] ${line}\n`);

let workDir: string;
let sandbox: Sandbox | undefined;
let n8n: N8nServer | undefined;
let browser: Browser | undefined;
let api: PublicApiClient;
const owner = { email: 'owner@example.com', password: generatePassword(), firstName: 'Dev', lastName: 'Owner' };
const example1 = readExample(EXAMPLE_FILES.dryRunThenRun);
const workflowIds = new Map<string, string>();

describe('README "Try it locally": log in, open example 1, execute it, read the cost and the report', () => {
	beforeAll(async () => {
		const t0 = Date.now();
		await ensureChromium(say);
		workDir = tempDir('ftm-tour-e2e-');
		const userFolder = await prepareUserFolder(workDir);
		// As npm start: the sandbox's default client, demo data and speed.
		sandbox = await startSandbox({ port: 0, clientId: 'sandbox-client', clientSecret: 'sandbox-secret' });
		n8n = await startN8n({ userFolder, logFile: path.join(workDir, 'n8n.log') });
		const { client: rest } = await ensureOwner(n8n.url, owner);
		api = await publicApi(rest, 'npm start');
		const credential = await ensureCredential(api, EXAMPLE_CREDENTIAL_NAME, {
			baseUrl: sandbox.baseUrl,
			clientId: sandbox.clientId,
			clientSecret: sandbox.clientSecret,
		});
		for (const file of fs.readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.json')).sort()) {
			const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as WorkflowJson;
			const { id } = await ensureWorkflow(api, withCredential(workflow, credential), { activate: workflow.active === true });
			workflowIds.set(workflow.name, id);
		}
		fs.rmSync(OUT_DIR, { recursive: true, force: true });
		browser = await launchChromium(say);
		say(`stack ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: n8n ${n8n.url}, sandbox ${sandbox.baseUrl}`);
	}, 30 * MINUTE);

	afterAll(async () => {
		await browser?.close().catch(() => undefined);
		await n8n?.stop().catch(() => undefined);
		await sandbox?.close().catch(() => undefined);
		if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
	}, 2 * MINUTE);

	test('the Report node shows the dry run\'s cost and the copied files, as the sandbox and its disk hold them', async () => {
		expect(example1.nodes.map((node) => node.name)).toContain(REPORT_NODE);
		const sourceDir = path.join(sandbox!.state.storageDir(FILES), 'reports');
		const targetDir = path.join(sandbox!.state.storageDir(ARCHIVE), 'archive', 'reports');
		const sourceFiles = listFiles(sourceDir);
		expect(sourceFiles.length).toBeGreaterThan(0);
		expect(fs.existsSync(targetDir)).toBe(false);

		const page = await browser!.newPage({ viewport: TOUR_VIEWPORT });
		const tour: TourResult = await driveTour(page, {
			url: n8n!.url,
			email: owner.email,
			password: owner.password,
			workflowName: example1.name,
			reportNode: REPORT_NODE,
			outDir: OUT_DIR,
			log: say,
		});
		say(`run ${tour.runSeconds.toFixed(1)} s (click to "executed successfully"), whole tour ${tour.totalSeconds.toFixed(1)} s`);

		// What the page shows: one item with the cost and the summary.
		expect(tour.items).toHaveLength(1);
		const [shown] = tour.items;
		const flat = tour.outputText.replace(/\s+/g, ' ');
		expect(flat).toContain('1 item');

		// The real job and its dry run, as the sandbox holds them.
		const job = sandbox!.state.job(shown.jobId as string);
		const dryRun = sandbox!.state.job(shown.dryRunJobId as string);
		expect(job?.attributes).toMatchObject({ status: 'finished', dryRun: false, target: { id: ARCHIVE, path: '/archive/reports' } });
		expect(dryRun?.attributes).toMatchObject({ status: 'finished', dryRun: true, name: 'Archive reports' });
		const cost = dryRun!.attributes.stats.estimatedCost;
		expect(cost).not.toBeNull();
		expect(Number(cost!.amount)).toBeGreaterThan(0);

		// The files: every source file is on the archive storage's disk now.
		expect(listFiles(targetDir)).toEqual(sourceFiles);
		const bytes = sourceFiles.reduce((sum, rel) => sum + fs.statSync(path.join(targetDir, rel)).size, 0);

		// The cost and the report, as the page shows them.
		expect(shown.estimatedCost).toEqual({ amount: cost!.amount, currency: cost!.currency });
		expect(shown.status).toBe('finished');
		expect(shown.transferredFiles).toBe(sourceFiles.length);
		expect(shown.transferredBytes).toBe(bytes);
		const summary =
			`Job "${job!.attributes.name}" finished: ${sourceFiles.length} of ${sourceFiles.length} files (${bytes} bytes) transferred. ` +
			`The dry run estimated ${cost!.amount} ${cost!.currency}.`;
		expect(shown.summary).toBe(summary);
		expect(flat).toContain(`"amount": "${cost!.amount}"`);
		expect(flat).toContain(JSON.stringify(summary));

		// n8n recorded one successful manual run of example 1: the one the button started.
		const executions = await api.call<{ data: Array<{ mode: string; status: string; finished: boolean }> }>(
			'GET',
			`/executions?workflowId=${workflowIds.get(example1.name)}`,
		);
		expect(executions.data).toHaveLength(1);
		expect(executions.data[0]).toMatchObject({ mode: 'manual', status: 'success', finished: true });

		for (const file of tour.screenshots) expect(fs.statSync(file).size).toBeGreaterThan(10000);
	}, 15 * MINUTE);
});
