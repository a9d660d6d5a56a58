/**
 * The README's "Try it locally" tour, as a browser drives it: log in through n8n's login page, open
 * example 1 from the workflows list, click "Execute workflow", wait for the run, open the Report node and
 * read its output (the cost estimate and the summary) in the JSON view. Used by test/e2e/tour.test.ts.
 *
 * Run against a running `npm start` (reads the login from .n8n-data/dev-login.json):
 *   npx tsx scripts/n8n/tour.ts [--url http://127.0.0.1:5678] [--out tmp/tour]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { byTestId, launchChromium, type ElementQuery, type Page } from './browser';
import { projectRoot, sleep, tempDir } from './lib';

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

/** The visible workflow card whose name is exactly `name`. */
function workflowCard(name: string): ElementQuery {
	return `(() => [...document.querySelectorAll('[data-test-id="resources-list-item-workflow"]')].find((card) => {
		const title = card.querySelector('[data-test-id="workflow-card-name"]');
		return title && title.textContent.trim() === ${JSON.stringify(name)} && card.getBoundingClientRect().width > 0;
	}) ?? null)()`;
}

/** The body of a canvas node, by node name. */
function canvasNode(name: string): ElementQuery {
	return `(() => {
		const node = [...document.querySelectorAll('[data-test-id="canvas-node"]')]
			.find((el) => el.getAttribute('data-node-name') === ${JSON.stringify(name)});
		return node?.querySelector('[data-test-id="canvas-default-node"], [data-test-id="canvas-trigger-node"]') ?? null;
	})()`;
}

/** The text of the first visible toast, or null. */
const TOAST_TEXT = `(() => {
	const toast = [...document.querySelectorAll('.el-notification')].find((el) => el.getBoundingClientRect().width > 0);
	return toast ? toast.innerText.replace(/\\s+/g, ' ').trim() : null;
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

export async function driveTour(page: Page, options: TourOptions): Promise<TourResult> {
	const log = options.log ?? (() => undefined);
	const screenshots: string[] = [];
	const t0 = Date.now();
	let step = 'start';
	const shot = async (name: string) => {
		const file = path.join(options.outDir, name);
		await page.screenshot(file);
		screenshots.push(file);
		log(`${((Date.now() - t0) / 1000).toFixed(1)} s  ${step}: ${path.relative(projectRoot, file)}`);
	};
	try {
		step = 'log in';
		await page.goto(`${options.url}/signin`);
		const emailInput = `document.querySelector('[data-test-id="emailOrLdapLoginId"] input')`;
		const passwordInput = `document.querySelector('[data-test-id="password"] input')`;
		await page.waitForElement('the login form', emailInput, LOAD_TIMEOUT);
		await page.type('the e-mail field', emailInput, options.email);
		await page.type('the password field', passwordInput, options.password);
		await shot('1-signin.png');
		await page.click('the "Sign in" button', byTestId('form-submit-button'));

		step = 'open example 1';
		await page.waitForElement(`the workflow "${options.workflowName}" in the list`, workflowCard(options.workflowName), LOAD_TIMEOUT);
		await shot('2-workflows.png');
		await page.click(`the workflow "${options.workflowName}"`, workflowCard(options.workflowName));
		await page.waitForElement(`the node "${options.reportNode}" on the canvas`, canvasNode(options.reportNode), LOAD_TIMEOUT);
		await page.waitForElement('the "Execute workflow" button', byTestId('execute-workflow-button'), LOAD_TIMEOUT);
		await shot('3-canvas.png');

		step = 'execute';
		await page.click('the "Execute workflow" button', byTestId('execute-workflow-button'));
		const clicked = Date.now();
		const toast = await page.waitFor<string>(
			'the end of the run (a toast)',
			`(() => { const t = ${TOAST_TEXT}; return t && /executed successfully|problem|error|failed/i.test(t) ? t : null; })()`,
			RUN_TIMEOUT,
		);
		const runSeconds = (Date.now() - clicked) / 1000;
		if (!/executed successfully/i.test(toast)) {
			await shot('4-run-failed.png');
			throw new Error(`the run did not succeed; n8n says: ${toast}`);
		}
		await page.waitFor(
			`the green check on "${options.reportNode}"`,
			`document.querySelector('[data-node-name=${JSON.stringify(options.reportNode)}] [data-test-id="canvas-node-status-success"]') !== null`,
			30 * SECOND,
		);
		await shot('4-executed.png');

		step = 'open the report';
		const output = byTestId('output-panel');
		// The canvas may still pan after the run: a double click that misses is repeated, at most three times.
		for (let attempt = 1; ; attempt++) {
			await page.doubleClick(`the node "${options.reportNode}"`, canvasNode(options.reportNode));
			try {
				await page.waitForElement('the output panel', output, 20 * SECOND);
				break;
			} catch (error) {
				if (attempt >= 3) throw error;
				log(`the node panel did not open (attempt ${attempt}); double-clicking again`);
				await page.press('Escape');
				await sleep(1000);
			}
		}
		await page.click('the JSON view of the output', byTestId('radio-button-json', output));
		const outputText = await page.waitFor<string>(
			'the JSON view of the output',
			`(() => {
				const panel = ${output};
				// aria-checked is on the radio with the test id (2.x), or on the label around it (1.x).
				const json = panel?.querySelector('[data-test-id="radio-button-json"]')?.closest('[aria-checked]');
				if (!panel || json?.getAttribute('aria-checked') !== 'true') return null;
				const text = panel.innerText;
				return text.includes('"summary"') ? text : null;
			})()`,
			60 * SECOND,
		);
		await sleep(1000); // let the view settle for the screenshot
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
	const profileDir = tempDir('ftm-tour-chromium-');
	const browser = await launchChromium({ profileDir });
	try {
		const result = await driveTour(await browser.newPage(), {
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
		fs.rmSync(profileDir, { recursive: true, force: true });
	}
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`[tour] ERROR: ${error.message}\n`);
		process.exit(1);
	});
}
