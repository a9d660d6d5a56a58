/**
 * The defaults, limits and version ranges the user pages state are the code's. Each row of CLAIMS is a phrase
 * (a regular expression whose groups capture the stated values), the pages that must state it, and the values
 * the code holds (its constants, or a parameter's `default` read from the node description). Every occurrence
 * of the phrase in any page is checked, not only in the pages listed, so two pages cannot disagree with each
 * other or with the node: change a constant and each page that states it fails here, by file and line.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import { MATRIX_N8N_VERSIONS as MATRIX_VERSIONS, PINNED_N8N_VERSION as PINNED_VERSION } from '../../scripts/n8n/paths';
import { NO_SUCH_ID as CHECK_NOT_FOUND_ID } from '../../nodes/FileTransferManager/actions/api/compatibility/probe';
import { STARTS_PER_TURN } from '../../nodes/FileTransferManager/actions/itemRun';
import { PAGE_LIMIT_MAX } from '../../nodes/shared/api/types';
import { requestOptions, returnAllOrLimit } from '../../nodes/shared/descriptions/common.descriptions';
import { waitProperties } from '../../nodes/FileTransferManager/helpers/jobWait';
import { OVERLOAD_KEEP, OVERLOAD_LEARNT_ABOVE } from '../../nodes/shared/transport/pace/auto';
import { MAX_REDIRECTS } from '../../nodes/shared/transport/adaptations';
import { MAX_DETAIL, MAX_TITLE } from '../../nodes/shared/transport/errors';
import { KEPT_MS, SERVICES_KEPT } from '../../nodes/shared/transport/pace/remembered';
import { WINDOW_MARGIN } from '../../nodes/shared/transport/pace/retryAfter';
import { BACKOFF_BASE_MS } from '../../nodes/shared/transport/retry';
import { AUTO_MAXIMUM_DEFAULT, DEFAULT_PARALLEL, DEFAULT_TRANSPORT, MAX_PARALLEL, SETTING_RANGES } from '../../nodes/shared/transport/settings';
import { FRESH_KEPT_MS, TOKEN_MAX_BYTES, TOKEN_TIMEOUT_MS } from '../../nodes/shared/transport/token';
import { FINISHING_MS, OWN_POLL_BOUND_MS } from '../../nodes/FileTransferManagerTrigger/budget';
import { MAX_ATTACHED_ERRORS, properties as triggerProperties } from '../../nodes/FileTransferManagerTrigger/description';
import { SAVE_AWAITED_MS, STALE_AFTER_MS } from '../../nodes/FileTransferManagerTrigger/inFlight';
import { STATE_VERSION } from '../../nodes/FileTransferManagerTrigger/state';
import { CLOCK_TOLERANCE_MS } from '../../nodes/FileTransferManagerTrigger/watch';

const ROOT = path.join(__dirname, '..', '..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	version: string;
	peerDependencies: Record<string, string>;
	devDependencies: Record<string, string>;
};

/** Every user page: README.md, CHANGELOG.md and docs/. */
const PAGES = [
	'README.md',
	'CHANGELOG.md',
	...fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => `docs/${name}`),
];
const TEXT = new Map(PAGES.map((page) => [page, fs.readFileSync(path.join(ROOT, page), 'utf8')]));

/** A parameter of a node description by name, searched through collections (Request Options, Options). */
function parameter(list: readonly INodeProperties[], name: string): INodeProperties {
	for (const property of list) {
		if (property.name === name) return property;
		const nested = (property.options ?? []).filter((option): option is INodeProperties => 'type' in option);
		const found = nested.length ? findIn(nested, name) : undefined;
		if (found) return found;
	}
	throw new Error(`no parameter "${name}" in the node description`);
}
function findIn(list: readonly INodeProperties[], name: string): INodeProperties | undefined {
	try {
		return parameter(list, name);
	} catch {
		return undefined;
	}
}
const defaultOf = (list: readonly INodeProperties[], name: string) => parameter(list, name).default;
const request = (name: string) => defaultOf([requestOptions], name);
const trigger = (name: string) => defaultOf(triggerProperties, name);

/** How a page writes a number: 1,000 → 1000; kept as text otherwise. */
const stated = (text: string): string => text.replace(/(\d),(\d{3})/g, '$1$2');
/** How the code's value reads on a page. */
const shown = (value: number | string | boolean): string =>
	typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);
const majorMinor = (version: string) => version.split('.').slice(0, 2).join('.');
/** The lower bound as the node's own range error words it (settings.ts): "above 0" or "from N". */
const lowerBound = (min: number) => (min > 0 && min < 1 ? 'above 0' : `from ${min}`);

/**
 * n8n's own wall-clock budget for a resource locator's regex check (n8n-workflow's REGEX_TIMEOUT_MS), read
 * from the n8n-workflow this project tests with: the pages state it as a limit users meet.
 */
function n8nRegexTimeoutMs(): string {
	const dist = path.dirname(require.resolve('n8n-workflow/package.json', { paths: [ROOT] }));
	const files: string[] = [];
	const walk = (dir: string) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (entry.name.endsWith('.js') && full.includes(`${path.sep}cjs${path.sep}`)) files.push(full);
		}
	};
	walk(path.join(dist, 'dist'));
	for (const file of files) {
		const match = /REGEX_TIMEOUT_MS = (\d+)/.exec(fs.readFileSync(file, 'utf8'));
		if (match) return match[1];
	}
	throw new Error('REGEX_TIMEOUT_MS not found in n8n-workflow');
}

/** The name the node shows for Parallel Requests' default mode (Auto, Fixed Number). */
function parallelModeName(): string {
	const mode = parameter([requestOptions], 'parallelMode');
	const option = (mode.options ?? []).find((entry) => 'value' in entry && entry.value === mode.default);
	if (!option) throw new Error(`Parallel Requests has no option for its default ${JSON.stringify(mode.default)}`);
	return option.name;
}

interface Claim {
	/** What is claimed, for the failure message. */
	claim: string;
	/** The phrase, with one group per stated value. Every match in every page is checked. */
	pattern: RegExp;
	/** Pages that must state it at least once. */
	pages: string[];
	/** The code's values, one per group, as the pages write them. */
	values: () => Array<number | string | boolean>;
	/** The values may be stated in any order (a list of versions, of events). */
	unordered?: true;
}

const seconds = (ms: number) => ms / 1000;
const minutes = (ms: number) => ms / 60_000;
const retries = DEFAULT_TRANSPORT.maxRetries;
/** The backoff of every repeat at its most: 0.5 s × 2ⁿ for n from 0 to Max Retries − 1 (retry.ts). */
const fullBackoffS = seconds(Array.from({ length: retries }, (_, n) => BACKOFF_BASE_MS * 2 ** n).reduce((a, b) => a + b, 0));

const CLAIMS: Claim[] = [
	// Request Options: defaults and ranges, as the transport applies them and the node shows them.
	{
		claim: 'Timeout (Seconds): default and range',
		pattern: /\| Timeout \(Seconds\) \| (\d+) \| (above 0|from \d+) to ([\d,]+) \|/g,
		pages: ['docs/reliability.md'],
		values: () => [seconds(DEFAULT_TRANSPORT.timeout), lowerBound(SETTING_RANGES.timeout.min), SETTING_RANGES.timeout.max],
	},
	{
		claim: 'Max Retries: default and range',
		pattern: /\| Max Retries \| (\d+) \| (\d+) to (\d+) \|/g,
		pages: ['docs/reliability.md'],
		values: () => [retries, SETTING_RANGES.maxRetries.min, SETTING_RANGES.maxRetries.max],
	},
	{
		claim: 'Max Wait Between Retries: default and range',
		pattern: /\| Max Wait Between Retries \(Seconds\) \| (\d+) \| (\d+) to (\d+) \|/g,
		pages: ['docs/reliability.md'],
		values: () => [DEFAULT_TRANSPORT.maxRetryWait, SETTING_RANGES.maxRetryWait.min, SETTING_RANGES.maxRetryWait.max],
	},
	{
		claim: 'Max Response Size (MB): default and range',
		pattern: /\| Max Response Size \(MB\) \| (\d+) \| (above 0|from \d+) to (\d+) \|/g,
		pages: ['docs/reliability.md'],
		values: () => [
			DEFAULT_TRANSPORT.maxResponseBytes / SETTING_RANGES.maxResponseSize.scale,
			lowerBound(SETTING_RANGES.maxResponseSize.min),
			SETTING_RANGES.maxResponseSize.max,
		],
	},
	{
		claim: 'Max Response Size default in MB',
		pattern: /Max Response Size \(default (\d+) MB\)/g,
		pages: ['docs/reliability.md'],
		values: () => [DEFAULT_TRANSPORT.maxResponseBytes / SETTING_RANGES.maxResponseSize.scale],
	},
	{
		claim: 'Parallel Requests (Auto Maximum): default and range',
		pattern: /\| Parallel Requests \(Auto Maximum\) \| ([\d,]+) \| (\d+) to ([\d,]+) \(whole numbers\) \|/g,
		pages: ['docs/reliability.md'],
		values: () => [AUTO_MAXIMUM_DEFAULT, 1, MAX_PARALLEL],
	},
	{
		claim: 'Parallel Requests (Fixed Number): default and range',
		pattern: /\| Parallel Requests \(Fixed Number\) \| (\d+) \| (\d+) to ([\d,]+) \(whole numbers\) \|/g,
		pages: ['docs/reliability.md'],
		values: () => [DEFAULT_PARALLEL, 1, MAX_PARALLEL],
	},
	{
		claim: "Auto's maximum by default",
		pattern: /At most Parallel Requests \(Auto Maximum\), default ([\d,]+)/g,
		pages: ['docs/reliability.md'],
		values: () => [AUTO_MAXIMUM_DEFAULT],
	},
	{
		claim: 'the most requests at once a fixed number allows',
		pattern: /as fast as possible \(up to ([\d,]+)\)/g,
		pages: ['docs/reliability.md'],
		values: () => [MAX_PARALLEL],
	},
	{
		claim: 'Parallel Requests: the mode by default',
		pattern: /(?:\| Parallel Requests \| (Auto|Fixed Number) \||\*\*Parallel Requests (Auto|Fixed Number)\*\* \(the default\)|Parallel Requests, (Auto|Fixed Number) by default)/g,
		pages: ['docs/reliability.md', 'CHANGELOG.md'],
		values: () => [parallelModeName()],
	},
	{
		claim: 'Auto starts at the default number of requests at once',
		pattern: /[Ss]tarts? (?:with|at) (\d+) requests at (?:a time|once)/g,
		pages: ['README.md', 'docs/reliability.md', 'CHANGELOG.md'],
		values: () => [DEFAULT_PARALLEL],
	},
	{
		claim: 'a remembered limit is used instead of the start, and a refused one goes back to it',
		pattern: /(?:instead of at|goes back to) (\d+)\b/g,
		pages: ['docs/reliability.md', 'CHANGELOG.md'],
		values: () => [DEFAULT_PARALLEL],
	},
	{
		claim: 'the trigger sends the default number of requests at once',
		pattern: /(?:sends at most (\d+) requests at once|The trigger always uses (\d+))/g,
		pages: ['docs/trigger.md', 'docs/reliability.md'],
		values: () => [DEFAULT_PARALLEL],
	},
	{
		claim: 'items start so many at a time',
		pattern: /(?:[Ii]tems start (\d+) at a time|requests of (\d+) started items leave before the next (\d+))/g,
		pages: ['docs/reliability.md'],
		values: () => [STARTS_PER_TURN],
	},
	// Retries.
	{
		claim: 'backoff base',
		pattern: /100% of\s+(\d+(?:\.\d+)?) s × 2ⁿ/g,
		pages: ['docs/reliability.md'],
		values: () => [seconds(BACKOFF_BASE_MS)],
	},
	{
		claim: 'with the defaults: attempts, backoff in all, and the Retry-After case',
		pattern:
			/given up after (\d+) attempts: at most (\d+(?:\.\d+)?) s of backoff in all \((\d+) minutes when\s+the service keeps asking for (\d+) s\), plus up to (\d+) s per attempt/g,
		pages: ['docs/reliability.md'],
		values: () => [
			retries + 1,
			fullBackoffS,
			minutes(retries * DEFAULT_TRANSPORT.maxRetryWait * 1000),
			DEFAULT_TRANSPORT.maxRetryWait,
			seconds(DEFAULT_TRANSPORT.timeout),
		],
	},
	{
		claim: "a learnt rate budget's margin",
		pattern: /per `Retry-After` \(\+(\d+) %\)/g,
		pages: ['docs/reliability.md'],
		values: () => [Math.round((WINDOW_MARGIN - 1) * 100)],
	},
	{
		claim: 'redirects followed at most',
		pattern: /(?:at most|more than) (\d+) hops/g,
		pages: ['docs/reliability.md'],
		values: () => [MAX_REDIRECTS],
	},
	{
		claim: 'API titles and details are trimmed',
		pattern: /trimmed \((\d+) and ([\d,]+) characters\)/g,
		pages: ['docs/reliability.md'],
		values: () => [MAX_TITLE, MAX_DETAIL],
	},
	// The token request.
	{
		claim: "the token request's time and size bound",
		pattern: /bounded to (\d+) s and (\d+) KB/g,
		pages: ['docs/reliability.md'],
		values: () => [seconds(TOKEN_TIMEOUT_MS), TOKEN_MAX_BYTES / 1024],
	},
	{
		claim: "a token answer's size cap",
		pattern: /a token answer is capped at (\d+) KB/g,
		pages: ['docs/reliability.md'],
		values: () => [TOKEN_MAX_BYTES / 1024],
	},
	{
		claim: 'a fetched token is handed to executions without one for so many seconds',
		pattern: /for (\d+) seconds after\s+it an execution/g,
		pages: ['docs/scaling.md'],
		values: () => [seconds(FRESH_KEPT_MS)],
	},
	// What Auto remembers.
	{
		claim: 'Auto remembers for so many minutes',
		pattern: /(?:(\d+) minutes since it was last confirmed|where the last one ended \(for (\d+) minutes\)|forgotten (\d+)\s+minutes after the 503|remembered for (\d+) minutes)/g,
		pages: ['README.md', 'docs/reliability.md', 'CHANGELOG.md'],
		values: () => [minutes(KEPT_MS)],
	},
	{
		claim: 'Auto remembers at most so many services',
		pattern: /[Aa]t most (\d+) services/g,
		pages: ['docs/reliability.md', 'CHANGELOG.md'],
		values: () => [SERVICES_KEPT],
	},
	{
		claim: 'after a 503 Auto stays at or below a share of where the service ran out of room',
		pattern: /(?:at or below (\d+) %|(\d+) % of the requests it held)/g,
		pages: ['docs/reliability.md', 'CHANGELOG.md'],
		values: () => [Math.round(OVERLOAD_KEEP * 100)],
	},
	{
		claim: 'a 503 bounds Auto only above so many requests held',
		pattern: /when they are more than (\d+)\b/g,
		pages: ['docs/reliability.md'],
		values: () => [OVERLOAD_LEARNT_ABOVE],
	},
	// Lists and pages.
	{
		claim: 'page size of lists and of the trigger',
		pattern: /(?:sort=-updatedAt&page\[limit\]=(\d+)|lists ask for pages of (\d+)|Every list request returns up to (\d+) jobs|the nodes read pages of (\d+)|Pages of (\d+) records)/g,
		pages: ['docs/trigger.md', 'docs/reliability.md', 'docs/compatibility.md'],
		values: () => [PAGE_LIMIT_MAX],
	},
	{
		claim: 'Get Many: Limit by default',
		pattern: /(?:\| Limit \| (\d+) \||Return All off, Limit (\d+)|up to Limit, (\d+) by default)/g,
		pages: ['docs/operations.md'],
		values: () => [defaultOf(returnAllOrLimit, 'limit') as number],
	},
	{
		claim: 'Return All by default',
		pattern: /Return All (off|on), Limit/g,
		pages: ['docs/operations.md'],
		values: () => [defaultOf(returnAllOrLimit, 'returnAll') as boolean],
	},
	// Wait for Completion.
	{
		claim: 'Wait for Completion, Poll Interval, Max Wait, Fail on Failed Job: defaults',
		pattern: /\| Wait for Completion, Poll Interval, Max Wait, Fail on Failed Job \| (\w+), (\d+), (\d+), (\w+) \|/g,
		pages: ['docs/operations.md'],
		values: () => ['waitForCompletion', 'pollInterval', 'maxWait', 'failOnFailedJob'].map((name) => defaultOf(waitProperties, name) as number | boolean),
	},
	{
		claim: 'Poll Interval and Max Wait: defaults',
		pattern: /\| (?:Poll Interval|Max Wait) \(Seconds\) \| (\d+) \|/g,
		pages: ['docs/operations.md'],
		// Each row states its own default: checked per match below (valuesFor).
		values: () => [],
	},
	// The trigger.
	{
		claim: 'Attach Errors: range and default',
		pattern: /Attach Errors\* \((\d+) to (\d+), default (\d+)/g,
		pages: ['docs/trigger.md'],
		values: () => [parameter(triggerProperties, 'attachErrors').typeOptions?.minValue as number, MAX_ATTACHED_ERRORS, trigger('attachErrors') as number],
	},
	{
		claim: 'the events watched by default',
		pattern: /\*\*Events\*\* \(pick any; default: (\w+), (\w+), (\w+)\)/g,
		pages: ['docs/trigger.md'],
		values: () => [...(trigger('events') as string[])],
		unordered: true,
	},
	{
		claim: "the trigger's clock tolerance",
		pattern: /(?:(\d+) seconds\*\* after that time|within (\d+) seconds ahead|more than (\d+) (?:seconds|s) ahead|less than (\d+) seconds ahead|at most (\d+) seconds' worth)/g,
		pages: ['docs/trigger.md', 'docs/reliability.md'],
		values: () => [seconds(CLOCK_TOLERANCE_MS)],
	},
	{
		claim: "the poll's own bound where n8n gives no budget",
		pattern: /(?:after (\d+) s of its own|[Ii]ts own bound of (\d+) seconds|(\d+) s \(the trigger's own bound\))/g,
		pages: ['docs/trigger.md', 'CHANGELOG.md'],
		values: () => [seconds(OWN_POLL_BOUND_MS)],
	},
	{
		claim: 'what a poll keeps free at the end of its budget',
		pattern: /(?:ends (\d+(?:\.\d+)?) s before the\s+budget|⌊\(B − (\d+(?:\.\d+)?)\) \/ L⌋)/g,
		pages: ['docs/trigger.md'],
		values: () => [seconds(FINISHING_MS)],
	},
	{
		claim: 'a poll still marked running is taken for dead after so many minutes',
		pattern: /running after (\d+) minutes is taken to be dead/g,
		pages: ['docs/trigger.md'],
		values: () => [minutes(STALE_AFTER_MS)],
	},
	{
		claim: 'a poll handed its previous position is skipped for so many minutes',
		pattern: /(?:within (\d+) minutes\s+returns nothing|for up to (\d+) minutes, until n8n has saved|polls after the (\d+) minutes)/g,
		pages: ['docs/trigger.md', 'docs/scaling.md'],
		values: () => [minutes(SAVE_AWAITED_MS)],
	},
	{
		claim: "the trigger state's version",
		pattern: /(?:written back as version (\d+)|"version": (\d+), "fingerprint")/g,
		pages: ['docs/trigger.md'],
		values: () => [STATE_VERSION],
	},
	// n8n versions and the package.
	{
		claim: 'the supported n8n versions, exactly',
		pattern: /\*\*n8n (\d+\.\d+\.\d+) \(the last 1\.x\), (\d+\.\d+\.\d+) and (\d+\.\d+\.\d+)\*\*/g,
		pages: ['docs/versions.md'],
		values: () => [...MATRIX_VERSIONS],
	},
	{
		claim: 'the supported n8n versions, by minor version',
		pattern: /(?:n8n (\d+\.\d+) or (\d+\.\d+) to (\d+\.\d+)|n8n (\d+\.\d+) \(the last 1\.x line\) and n8n (\d+\.\d+) to (\d+\.\d+)|versions: (\d+\.\d+) and (\d+\.\d+) to (\d+\.\d+))/g,
		pages: ['README.md', 'CHANGELOG.md'],
		values: () => MATRIX_VERSIONS.map(majorMinor),
	},
	{
		claim: 'the versions each install route and the credential origin passed on',
		pattern: /(?:\(n8n (\d+\.\d+\.\d+), (\d+\.\d+\.\d+), (\d+\.\d+\.\d+)\)|\| (\d+\.\d+\.\d+), (\d+\.\d+\.\d+), (\d+\.\d+\.\d+) \||Passed on n8n (\d+\.\d+\.\d+), (\d+\.\d+\.\d+) and (\d+\.\d+\.\d+))/g,
		pages: ['README.md', 'docs/install.md', 'docs/credential-origin.md'],
		values: () => [...MATRIX_VERSIONS],
		unordered: true,
	},
	{
		claim: 'the pinned n8n version the tests run',
		pattern: /(?:`FTM_N8N_VERSION`, default (\d+\.\d+\.\d+)|n8n-core (\d+\.\d+\.\d+))/g,
		pages: ['docs/credential-origin.md', 'docs/versions.md'],
		values: () => [PINNED_VERSION],
	},
	{
		claim: "the package's n8n range: its peer n8n-workflow",
		pattern: /(?:peer is `n8n-workflow` \((any version)\)|peer `n8n-workflow: ([^`]+)`|only `n8n-workflow: ([^`]+)` as peer)/g,
		pages: ['docs/install.md', 'docs/verification.md'],
		values: () => [PACKAGE.peerDependencies['n8n-workflow'] === '*' ? '*' : PACKAGE.peerDependencies['n8n-workflow']],
	},
	{
		claim: "the package's version",
		pattern: /(?:n8n-nodes-file-transfer-manager-(\d+\.\d+\.\d+)\.tgz|"name": ?"n8n-nodes-file-transfer-manager", ?"version": ?"(\d+\.\d+\.\d+)"|n8n-nodes-file-transfer-manager@(\d+\.\d+\.\d+)|pre-release (\d+\.\d+\.\d+)|^## \[(\d+\.\d+\.\d+)\])/gm,
		pages: ['README.md', 'docs/install.md', 'CHANGELOG.md'],
		values: () => [PACKAGE.version],
	},
	{
		claim: "n8n's wall-clock budget of a picker's By ID check",
		pattern: /(\d+) ms (?:wall-clock budget|budget of wall time)/g,
		pages: ['CHANGELOG.md', 'docs/troubleshooting.md'],
		values: () => [n8nRegexTimeoutMs()],
	},
	{
		claim: "Check Compatibility's id of a job that does not exist",
		pattern: /`GET \/jobs\/([0-9a-f-]{36})`/g,
		pages: ['docs/compatibility.md'],
		values: () => [CHECK_NOT_FOUND_ID],
	},
];

/** The values a match must show: its own row's default where a phrase covers rows of different options. */
function valuesFor(claim: Claim, match: RegExpMatchArray): string[] {
	if (claim.claim === 'Poll Interval and Max Wait: defaults') {
		return [shown(defaultOf(waitProperties, match[0].includes('Poll Interval') ? 'pollInterval' : 'maxWait') as number)];
	}
	if (claim.claim === "the package's n8n range: its peer n8n-workflow" && match[1] !== undefined) {
		return [PACKAGE.peerDependencies['n8n-workflow'] === '*' ? 'any version' : PACKAGE.peerDependencies['n8n-workflow']];
	}
	return claim.values().map(shown);
}

/** A phrase as written in the table, with each space standing for any run of white space (a page wraps lines). */
const phrase = (claim: Claim) => new RegExp(claim.pattern.source.replace(/ /g, '\\s+'), claim.pattern.flags);

interface Found {
	page: string;
	line: number;
	match: RegExpMatchArray;
	stated: string[];
}

function occurrences(claim: Claim): Found[] {
	const found: Found[] = [];
	for (const [page, text] of TEXT) {
		for (const match of text.matchAll(phrase(claim))) {
			const captured = match.slice(1).filter((group): group is string => group !== undefined);
			found.push({ page, line: text.slice(0, match.index).split('\n').length, match, stated: captured.map(stated) });
		}
	}
	return found;
}

/** What is wrong with one occurrence, or nothing. */
function mismatch(claim: Claim, found: Found): string[] {
	const expected = valuesFor(claim, found.match);
	// A phrase with alternatives captures only its own groups; a single expected value covers each of them.
	const want = expected.length === 1 ? found.stated.map(() => expected[0]) : expected;
	const order = (values: string[]) => (claim.unordered ? [...values].sort() : values);
	if (JSON.stringify(order(found.stated)) === JSON.stringify(order(want))) return [];
	const text = found.match[0].replace(/\s+/g, ' ');
	return [`${found.page}:${found.line} states ${JSON.stringify(found.stated)} in "${text}"; the code: ${JSON.stringify(want)}`];
}

const rows = CLAIMS.map((claim) => [claim.claim, claim] as const);

describe('the defaults, limits and versions the user pages state', () => {
	it('are read from every user page, by a table of at least 40 phrases', () => {
		expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/reliability.md', 'docs/trigger.md']));
		expect(CLAIMS.length).toBeGreaterThanOrEqual(40);
	});

	it.each(rows)('%s: stated in each page listed', (_name, claim) => {
		const where = new Set(occurrences(claim).map((found) => found.page));
		expect(claim.pages.filter((page) => !where.has(page))).toEqual([]);
	});

	it.each(rows)("%s: the code's value wherever stated", (_name, claim) => {
		expect(occurrences(claim).flatMap((found) => mismatch(claim, found))).toEqual([]);
	});

	it("the node shows the transport's defaults (the pages are checked against one value)", () => {
		expect({
			timeout: request('timeout'),
			maxRetries: request('maxRetries'),
			maxRetryWait: request('maxRetryWait'),
			maxResponseSize: request('maxResponseSize'),
			maxParallelRequests: request('maxParallelRequests'),
			parallelRequests: request('parallelRequests'),
			parallelMode: request('parallelMode'),
		}).toEqual({
			timeout: seconds(DEFAULT_TRANSPORT.timeout),
			maxRetries: DEFAULT_TRANSPORT.maxRetries,
			maxRetryWait: DEFAULT_TRANSPORT.maxRetryWait,
			maxResponseSize: DEFAULT_TRANSPORT.maxResponseBytes / SETTING_RANGES.maxResponseSize.scale,
			maxParallelRequests: AUTO_MAXIMUM_DEFAULT,
			parallelRequests: DEFAULT_PARALLEL,
			parallelMode: 'auto',
		});
		expect(parameter([requestOptions], 'maxRetries').typeOptions).toMatchObject({
			minValue: SETTING_RANGES.maxRetries.min,
			maxValue: SETTING_RANGES.maxRetries.max,
		});
		expect(parameter([requestOptions], 'maxResponseSize').typeOptions?.maxValue).toBe(SETTING_RANGES.maxResponseSize.max);
		expect(parameter(triggerProperties, 'attachErrors').typeOptions?.maxValue).toBe(MAX_ATTACHED_ERRORS);
	});
});
