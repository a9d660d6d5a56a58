/**
 * Debian's Chromium for the browser tests and scripts, driven with playwright-core (no browser download:
 * playwright launches /usr/bin/chromium). Used by the tour (tour.ts, test/e2e/tour.test.ts), the node-panel
 * screenshot (screenshot.ts) and the install routes (test/install/install-routes.test.ts).
 */
import { chromium, selectors, type Browser } from 'playwright-core';
import { CHROMIUM, ensureSystemPackages } from '../system-packages';

/** Debian's chromium, installed first when missing (scripts/system-packages.ts: once, under the machine's lock). */
export async function ensureChromium(log: (line: string) => void = () => undefined): Promise<string> {
	const { [CHROMIUM.name]: binary } = await ensureSystemPackages([CHROMIUM], { log });
	return binary;
}

/**
 * Launches headless Debian chromium (installed first when missing) with the flags that work on these
 * machines; only 127.0.0.1 resolves, every other host name fails. Also makes playwright's `getByTestId` read
 * n8n's `data-test-id` attribute.
 */
export async function launchChromium(log: (line: string) => void = () => undefined): Promise<Browser> {
	const executablePath = await ensureChromium(log);
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
