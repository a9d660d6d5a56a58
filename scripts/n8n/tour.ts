/**
 * The README's "Try it locally" tour, as a browser drives it: log in through n8n's login page, open
 * example 1 from the workflows list, click "Execute workflow", wait for the run, open the Report node and
 * read its output (the cost estimate and the summary) in the JSON view. Used by test/e2e/tour.test.ts.
 * Driven with playwright-core on Debian's chromium (chromium.ts).
 *
 * Run against a running `npm start` (reads the login from .n8n-data/dev-login.json):
 *   npx tsx scripts/n8n/tour.ts [--url http://127.0.0.1:5678] [--out tmp/tour]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { projectRoot } from './paths';

export interface TourOptions {
	/** n8n's base URL, e.g. http://127.0.0.1:5678. */
	url: string;
	email: string;
	password: string;
	/** The name of example 1 as imported (its "name" in examples/01-dry-run-then-run.json). */
	workflowName: string;
	/** The node whose output the tour reads. */
	reportNode: string;
	/** Folder for the screenshots (1-signin.png ... 5-report-output.png). */
	outDir: string;
	log?: (line: string) => void;
}

export interface TourResult {
	/** Seconds from the click on "Execute workflow" to n8n's "executed successfully". */
	runSeconds: number;
	/** Seconds from opening the login page to the report on screen. */
	totalSeconds: number;
	/** The output panel's text in the JSON view, as shown. */
	outputText: string;
	/** The items the JSON view shows, parsed from that text. */
	items: Array<Record<string, unknown>>;
	screenshots: string[];
}

const SECOND = 1000;
/** Generous bounds for two shared cores: the first editor load compiles a lot of JavaScript. */
const LOAD_TIMEOUT = 180 * SECOND;
const RUN_TIMEOUT = 300 * SECOND;
/** The viewport the tour's screenshots have. */
export const TOUR_VIEWPORT = { width: 1600, height: 1000 };

/** The first visible element of `locator` (playwright's errors name it by its selector). */
const firstVisible = (locator: Locator): Locator => locator.filter({ visible: true }).first();

/** Text that is exactly `text`, give or take surrounding white space. */
const exactly = (text: string): RegExp => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/** The body of a canvas node, by node name. */
function canvasNode(page: Page, name: string): Locator {
	return page
		.locator(`[data-test-id="canvas-node"][data-node-name=${JSON.stringify(name)}]`)
		.locator('[data-test-id="canvas-default-node"], [data-test-id="canvas-trigger-node"]')
		.first();
}

/**
 * The output panel's text once its JSON view is on and shows the summary. aria-checked is on the radio with
 * the test id (2.x), or on the label around it (1.x).
 */
const JSON_VIEW_TEXT = `(() => {
	const panel = [...document.querySelectorAll('[data-test-id="output-panel"]')].find((el) => el.getBoundingClientRect().width > 0);
	const json = panel?.querySelector('[data-test-id="radio-button-json"]')?.closest('[aria-checked]');
	if (!panel || json?.getAttribute('aria-checked') !== 'true') return null;
	const text = panel.innerText;
	return text.includes('"summary"') ? text : null;
})()`;

/**
 * Parses what n8n's JSON view shows: its text is the pretty-printed JSON with a line break between each key
 * and value, so the lines join back into JSON.
 */
export function parseJsonView(outputText: string): Array<Record<string, unknown>> {
	const start = outputText.indexOf('[');
	const end = outputText.lastIndexOf(']');
	if (start < 0 || end < start) throw new Error(`the output panel shows no JSON array:\n${outputText}`);
	const joined = outputText
		.slice(start, end + 1)
		.split('\n')
		.map((line) => line.trim())
		.join('');
	return JSON.parse(joined) as Array<Record<string, unknown>>;
}

/** Walks the tour in `page` (from a browser of launchChromium, which sets the test-id attribute to n8n's). */
export async function driveTour(page: Page, options: TourOptions): Promise<TourResult> {
	const log = options.log ?? (() => undefined);
	const screenshots: string[] = [];
	const t0 = Date.now();
	let step = 'start';
	const shot = async (name: string) => {
		const file = path.join(options.outDir, name);
		await page.screenshot({ path: file });
		screenshots.push(file);
		log(`${((Date.now() - t0) / 1000).toFixed(1)} s  ${step}: ${path.relative(projectRoot, file)}`);
	};
	try {
		step = 'log in';
		await page.goto(`${options.url}/signin`, { waitUntil: 'commit', timeout: LOAD_TIMEOUT });
		const emailInput = page.locator('[data-test-id="emailOrLdapLoginId"] input');
		await emailInput.waitFor({ timeout: LOAD_TIMEOUT });
		await emailInput.fill(options.email);
		await page.locator('[data-test-id="password"] input').fill(options.password);
		await shot('1-signin.png');
		await firstVisible(page.getByTestId('form-submit-button')).click(); // "Sign in"

		step = 'open example 1';
		const card = firstVisible(
			page
				.getByTestId('resources-list-item-workflow')
				.filter({ has: page.getByTestId('workflow-card-name').filter({ hasText: exactly(options.workflowName) }) }),
		);
		await card.waitFor({ timeout: LOAD_TIMEOUT });
		await shot('2-workflows.png');
		await card.click();
		const report = canvasNode(page, options.reportNode);
		await report.waitFor({ timeout: LOAD_TIMEOUT });
		const execute = firstVisible(page.getByTestId('execute-workflow-button'));
		await execute.waitFor({ timeout: LOAD_TIMEOUT });
		await shot('3-canvas.png');

		step = 'execute';
		await execute.click();
		const clicked = Date.now();
		// The end of the run: n8n's toast.
		const toastLocator = firstVisible(page.locator('.el-notification').filter({ hasText: /executed successfully|problem|error|failed/i }));
		await toastLocator.waitFor({ timeout: RUN_TIMEOUT });
		const runSeconds = (Date.now() - clicked) / 1000;
		const toast = (await toastLocator.innerText()).replace(/\s+/g, ' ').trim();
		if (!/executed successfully/i.test(toast)) {
			await shot('4-run-failed.png');
			throw new Error(`the run did not succeed; n8n says: ${toast}`);
		}
		await page
			.locator(`[data-node-name=${JSON.stringify(options.reportNode)}] [data-test-id="canvas-node-status-success"]`)
			.first()
			.waitFor({ state: 'attached', timeout: 30 * SECOND });
		await shot('4-executed.png');

		step = 'open the report';
		const output = firstVisible(page.getByTestId('output-panel'));
		// The canvas may still pan after the run: a double click that misses is repeated, at most three times.
		for (let attempt = 1; ; attempt++) {
			await report.dblclick({ timeout: 30 * SECOND });
			try {
				await output.waitFor({ timeout: 20 * SECOND });
				break;
			} catch (error) {
				if (attempt >= 3) throw error;
				log(`the node panel did not open (attempt ${attempt}); double-clicking again`);
				await page.keyboard.press('Escape');
				await page.waitForTimeout(1000);
			}
		}
		await firstVisible(output.getByTestId('radio-button-json')).click({ timeout: 30 * SECOND });
		const outputText = (await (
			await page.waitForFunction(JSON_VIEW_TEXT, undefined, { timeout: 60 * SECOND, polling: 500 })
		).jsonValue()) as string;
		await page.waitForTimeout(1000); // let the view settle for the screenshot
		await shot('5-report-output.png');
		return { runSeconds, totalSeconds: (Date.now() - t0) / 1000, outputText, items: parseJsonView(outputText), screenshots };
	} catch (error) {
		await shot(`failed-${step.replace(/\W+/g, '-')}.png`).catch(() => undefined);
		(error as Error).message = `tour step "${step}": ${(error as Error).message}`;
		throw error;
	}
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			url: { type: 'string', default: `http://127.0.0.1:${process.env.N8N_PORT ?? 5678}` },
			out: { type: 'string', default: path.join('tmp', 'tour') },
		},
	});
	const say = (line: string) => process.stderr.write(`[tour] ${line}\n`);
	const loginFile = path.join(projectRoot, '.n8n-data', 'dev-login.json');
	const login = JSON.parse(fs.readFileSync(loginFile, 'utf8')) as { email: string; password: string };
	const example = JSON.parse(fs.readFileSync(path.join(projectRoot, 'examples', '01-dry-run-then-run.json'), 'utf8')) as { name: string };
	const browser = await launchChromium(say);
	try {
		const result = await driveTour(await browser.newPage({ viewport: TOUR_VIEWPORT }), {
			url: values.url!,
			email: login.email,
			password: login.password,
			workflowName: example.name,
			reportNode: 'Report',
			outDir: path.resolve(values.out!),
			log: say,
		});
		say(`run ${result.runSeconds.toFixed(1)} s, tour ${result.totalSeconds.toFixed(1)} s`);
		process.stdout.write(`${JSON.stringify(result.items, null, 2)}\n`);
	} finally {
		await browser.close();
	}
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`[tour] ERROR: ${error.message}\n`);
		process.exit(1);
	});
}
