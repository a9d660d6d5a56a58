/**
 * Debian's Chromium for the browser tests and scripts, driven with playwright-core (no browser download:
 * playwright launches /usr/bin/chromium). Used by the tour (tour.ts, test/e2e/tour.test.ts), the node-panel
 * screenshot (screenshot.ts) and the install routes (test/install/install-routes.test.ts).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { chromium, selectors, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Returns Debian's chromium, installing it with apt when /usr/bin/chromium is missing (about 70 s with
 * `apt-get update`; needs root and Debian's repositories, as on CI). Installs at most once: a second call
 * finds the binary.
 */
export function ensureChromium(log: (line: string) => void = () => undefined, binary: string = CHROMIUM): string {
	if (fs.existsSync(binary)) return binary;
	log(`${binary} not found: apt-get update && apt-get install -y chromium`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const apt = (args: string[]) => spawnSync('apt-get', args, { stdio: 'inherit', env, timeout: 15 * 60 * 1000 });
	const update = apt(['update']);
	if (update.status !== 0) log(`apt-get update failed (exit ${update.status ?? update.signal}); trying the install anyway`);
	const install = apt(['install', '-y', 'chromium']);
	if (install.status !== 0 || !fs.existsSync(binary)) {
		throw new Error(
			`could not install chromium with apt-get (exit ${install.status ?? install.signal}${install.error ? `, ${install.error.message}` : ''}): ` +
				'run "apt-get update && apt-get install -y chromium" as root',
		);
	}
	return binary;
}

/**
 * Launches headless Debian chromium (installed first when missing) with the flags that work on these
 * machines; only 127.0.0.1 resolves, every other host name fails. Also makes playwright's `getByTestId` read
 * n8n's `data-test-id` attribute.
 */
export async function launchChromium(log: (line: string) => void = () => undefined): Promise<Browser> {
	const executablePath = ensureChromium(log);
	selectors.setTestIdAttribute('data-test-id');
	return chromium.launch({
		executablePath,
		headless: true,
		timeout: 60 * 1000,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-dev-shm-usage',
			'--disable-quic',
			'--disable-background-networking',
			'--disable-component-update',
			'--hide-scrollbars',
			'--mute-audio',
			'--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
		],
	});
}
