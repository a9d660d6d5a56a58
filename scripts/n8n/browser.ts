/**
 * Headless Debian Chromium driven over the DevTools protocol, with Node 24's built-in WebSocket (no browser
 * library): used by the screenshot script and the browser tour test (test/e2e/tour.test.ts).
 *
 * Every wait here is bounded: a protocol call fails after `callTimeoutMs`, and `waitFor` polls until its own
 * deadline.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sleep, spawnGroup, type ManagedProcess } from './lib';

export const CHROMIUM = '/usr/bin/chromium';

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

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; method: string };

/** A minimal DevTools-protocol client over one browser WebSocket, with flat sessions. */
export class Cdp {
	private nextId = 1;
	private pending = new Map<number, Pending>();
	private closed = false;

	private constructor(
		private readonly ws: WebSocket,
		private readonly callTimeoutMs: number,
	) {
		ws.addEventListener('message', (event) => {
			const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
			if (msg.id === undefined) return;
			const waiter = this.pending.get(msg.id);
			if (!waiter) return;
			this.pending.delete(msg.id);
			clearTimeout(waiter.timer);
			if (msg.error) waiter.reject(new Error(`${waiter.method}: ${msg.error.message}`));
			else waiter.resolve(msg.result);
		});
		ws.addEventListener('close', () => {
			this.closed = true;
			for (const [id, waiter] of this.pending) {
				clearTimeout(waiter.timer);
				waiter.reject(new Error(`${waiter.method}: the browser connection closed`));
				this.pending.delete(id);
			}
		});
	}

	static connect(url: string, callTimeoutMs = 60000): Promise<Cdp> {
		return new Promise((resolve, reject) => {
			const ws = new WebSocket(url);
			const timer = setTimeout(() => reject(new Error(`no DevTools connection to ${url} within 30 s`)), 30000);
			ws.addEventListener('open', () => {
				clearTimeout(timer);
				resolve(new Cdp(ws, callTimeoutMs));
			});
			ws.addEventListener('error', () => {
				clearTimeout(timer);
				reject(new Error(`cannot connect to ${url}`));
			});
		});
	}

	send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
		if (this.closed) return Promise.reject(new Error(`${method}: the browser connection is closed`));
		const id = this.nextId++;
		return new Promise<T>((resolve, reject) => {
			const timer = setTimeout(() => {
				this.pending.delete(id);
				reject(new Error(`${method}: no answer within ${this.callTimeoutMs / 1000} s`));
			}, this.callTimeoutMs);
			this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, method });
			this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
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
	throw new Error(`chromium printed no DevTools URL within ${timeoutMs / 1000} s:\n${browser.tail()}`);
}

export interface LaunchOptions {
	/** Folder for the browser profile (created; the caller removes it). */
	profileDir: string;
	width?: number;
	height?: number;
	/** Host names besides 127.0.0.1 the browser may resolve; every other host fails to resolve. */
	allowHosts?: string[];
}

export interface Browser {
	proc: ManagedProcess;
	cdp: Cdp;
	newPage(): Promise<Page>;
	close(): Promise<void>;
}

/** Starts headless chromium with the flags that work on these machines, and connects to it. */
export async function launchChromium(options: LaunchOptions): Promise<Browser> {
	const width = options.width ?? 1600;
	const height = options.height ?? 1000;
	const chromium = ensureChromium();
	fs.mkdirSync(options.profileDir, { recursive: true });
	const proc = spawnGroup(
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
			'--mute-audio',
			// Nothing but the local n8n: every other host name fails to resolve.
			`--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1${(options.allowHosts ?? []).map((h) => `, EXCLUDE ${h}`).join('')}`,
			`--user-data-dir=${path.resolve(options.profileDir)}`,
			`--window-size=${width},${height}`,
			'--remote-debugging-address=127.0.0.1',
			'--remote-debugging-port=0',
			'about:blank',
		],
		{ label: 'chromium' },
	);
	let cdp: Cdp;
	try {
		cdp = await Cdp.connect(await waitForDevtoolsUrl(proc));
	} catch (error) {
		await proc.stop(3000);
		throw error;
	}
	return {
		proc,
		cdp,
		async newPage() {
			const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
			const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
			const page = new Page(cdp, sessionId);
			await page.send('Page.enable');
			await page.send('Runtime.enable');
			await page.send('Network.enable');
			await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
			return page;
		},
		async close() {
			cdp.close();
			await proc.stop(3000);
		},
	};
}

/**
 * A JavaScript expression, evaluated in the page, that yields one Element or null. Built by `byTestId`,
 * `byText` or written by hand.
 */
export type ElementQuery = string;

/** The first visible element with `data-test-id="<id>"` (optionally inside another query's element). */
export function byTestId(id: string, within?: ElementQuery): ElementQuery {
	return `(() => {
		const root = ${within ?? 'document'};
		if (!root) return null;
		return [...root.querySelectorAll(${JSON.stringify(`[data-test-id="${id}"]`)})]
			.find((el) => el.getBoundingClientRect().width > 0) ?? null;
	})()`;
}

/** The innermost visible element matching a CSS selector whose text contains `text`. */
export function byText(selector: string, text: string, within?: ElementQuery): ElementQuery {
	return `(() => {
		const root = ${within ?? 'document'};
		if (!root) return null;
		const all = [...root.querySelectorAll(${JSON.stringify(selector)})].filter(
			(el) => el.getBoundingClientRect().width > 0 && (el.textContent ?? '').includes(${JSON.stringify(text)}),
		);
		return all.find((el) => !all.some((other) => other !== el && el.contains(other))) ?? null;
	})()`;
}

/** One page (tab), attached with a flat session. */
export class Page {
	constructor(
		private readonly cdp: Cdp,
		private readonly sessionId: string,
	) {}

	send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
		return this.cdp.send<T>(method, params, this.sessionId);
	}

	/** Evaluates an expression in the page (promises awaited) and returns its JSON value. */
	async evaluate<T = unknown>(expression: string): Promise<T> {
		const answer = await this.send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
			'Runtime.evaluate',
			{ expression, returnByValue: true, awaitPromise: true },
		);
		if (answer.exceptionDetails) {
			throw new Error(`in the page: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
		}
		return answer.result.value as T;
	}

	async goto(url: string): Promise<void> {
		await this.send('Page.navigate', { url });
	}

	async url(): Promise<string> {
		return this.evaluate<string>('location.href');
	}

	async setCookie(url: string, name: string, value: string): Promise<void> {
		await this.send('Network.setCookie', { name, value, url, httpOnly: true });
	}

	/**
	 * Polls `expression` until it yields a value other than null, undefined or false, at most `timeoutMs`;
	 * fails naming `what`. Errors thrown in the page count as "not yet".
	 */
	async waitFor<T = unknown>(what: string, expression: string, timeoutMs: number, intervalMs = 500): Promise<T> {
		const deadline = Date.now() + timeoutMs;
		let lastError = '';
		for (;;) {
			try {
				const value = await this.evaluate<T>(expression);
				if (value !== null && value !== undefined && (value as unknown) !== false) return value;
			} catch (error) {
				lastError = (error as Error).message;
			}
			if (Date.now() >= deadline) {
				throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}`);
			}
			await sleep(intervalMs);
		}
	}

	/**
	 * Waits until the element exists, is visible, is the topmost element at its centre and has stopped moving
	 * (the same centre on two polls half a second apart: the canvas pans and zooms after loading and after a
	 * run); returns its centre in viewport pixels.
	 */
	async waitForElement(what: string, query: ElementQuery, timeoutMs: number): Promise<{ x: number; y: number }> {
		const centre = `(() => {
			const el = ${query};
			if (!el) return null;
			const r = el.getBoundingClientRect();
			if (r.width === 0 || r.height === 0) return null;
			const x = Math.round(r.left + r.width / 2);
			const y = Math.round(r.top + r.height / 2);
			if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return null;
			// Not covered by something else (a toast, a sticky note, a dialog): a click there reaches it.
			const hit = document.elementFromPoint(x, y);
			if (!hit || !(hit === el || el.contains(hit))) return null;
			return x + ',' + y;
		})()`;
		const deadline = Date.now() + timeoutMs;
		let previous: string | undefined;
		for (;;) {
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what} to stay in place`);
			const now = await this.waitFor<string>(what, centre, left);
			if (now === previous) {
				const [x, y] = now.split(',').map(Number);
				return { x, y };
			}
			previous = now;
			await sleep(500);
		}
	}

	/** Text of the element, or null when it is not there. */
	async text(query: ElementQuery): Promise<string | null> {
		return this.evaluate<string | null>(`(() => { const el = ${query}; return el ? el.innerText ?? el.textContent : null; })()`);
	}

	/** A real mouse click (move, press, release) at the element's centre, as a user's. */
	async click(what: string, query: ElementQuery, timeoutMs = 30000): Promise<void> {
		const { x, y } = await this.waitForElement(what, query, timeoutMs);
		await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
		await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
		await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
	}

	/** A real double click at the element's centre (opens a node on the canvas). */
	async doubleClick(what: string, query: ElementQuery, timeoutMs = 30000): Promise<void> {
		const { x, y } = await this.waitForElement(what, query, timeoutMs);
		await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
		for (const clickCount of [1, 2]) {
			await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount });
			await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount });
		}
	}

	/** Clicks into a field and types text into it, as a user does (the field is cleared first). */
	async type(what: string, query: ElementQuery, text: string, timeoutMs = 30000): Promise<void> {
		await this.click(what, query, timeoutMs);
		await this.evaluate(`(() => { const el = ${query}; el.focus(); el.select?.(); })()`);
		await this.send('Input.insertText', { text });
	}

	/** Presses one key (e.g. "Enter"). */
	async press(key: 'Enter' | 'Escape'): Promise<void> {
		const code = { Enter: 13, Escape: 27 }[key];
		const base = { key, code: key, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code };
		await this.send('Input.dispatchKeyEvent', { type: 'keyDown', ...base, ...(key === 'Enter' ? { text: '\r' } : {}) });
		await this.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
	}

	/** Saves a PNG of the viewport. */
	async screenshot(file: string): Promise<void> {
		const { data } = await this.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, Buffer.from(data, 'base64'));
	}
}
