/**
 * API › Check Compatibility against the sandbox: every check passes when the sandbox keeps to the contract,
 * and under each deviation mode of docs/api-contract.md the check(s) for that assumption fail and no other
 * does. The operation is read-only: the sandbox holds the same records afterwards.
 */
// @ts-nocheck

import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import { DEMO_IDS } from '../../../sandbox/src/demo';
import { credentialsFor, runNode } from '../../harness/engine';

const CHECK_IDS = [
	'token',
	'root',
	'media-type',
	'list-routes',
	'page-size',
	'page-total',
	'cursor-paging',
	'sort-updatedAt',
	'sort-createdAt',
	'filter-status',
	'filter-source',
	'filter-target',
	'filter-transferType',
	'filter-accountId',
	'filter-groupId',
	'filter-userId',
	'filter-dryRun',
	'filter-email',
	'filter-name',
	'filter-unknown',
	'job-statuses',
	'unknown-attributes',
	'account-id',
	'transfers-route',
	'errors-route',
	'sync-conflict',
	'not-found',
];

/** Checks that cannot be probed through the node whatever the deployment does. */
const NEVER_PROBED: string[] = [];

const FILTER_CHECKS = CHECK_IDS.filter((id) => id.startsWith('filter-') && id !== 'filter-unknown');

/** Deviation mode → the checks that must fail under it (all others pass). */
const FAILS: Array<[string, string[]]> = [
	['ignore-sort', ['sort-updatedAt', 'sort-createdAt']],
	['ignore-filters', [...FILTER_CHECKS, 'filter-unknown']],
	['ignore-filter:status', ['filter-status']],
	['ignore-filter:source.id', ['filter-source']],
	['ignore-filter:target.id', ['filter-target']],
	['ignore-filter:transferType', ['filter-transferType']],
	['ignore-filter:accountId', ['filter-accountId']],
	['ignore-filter:groupId', ['filter-groupId']],
	['ignore-filter:userId', ['filter-userId']],
	['ignore-filter:dryRun', ['filter-dryRun']],
	['ignore-filter:email', ['filter-email']],
	['ignore-filter:name', ['filter-name']],
	// Jobs know only status, name and dryRun there; every other filter the nodes use is refused.
	[
		'reject-unknown-filters',
		['filter-source', 'filter-target', 'filter-transferType', 'filter-accountId', 'filter-groupId', 'filter-userId'],
	],
	['cursor-name', ['cursor-paging']],
	['links-only', ['cursor-paging']],
	['max-page:50', ['page-size']],
	['json-only', ['media-type']],
	['no-total', ['page-total']],
	['other-routes', ['transfers-route', 'errors-route']],
	['moved-subroutes', ['transfers-route', 'errors-route']],
	['root-shape', ['root']],
	// Harmless to the nodes: reported in `observed`, not as failures (see the tests below).
	['extra-attributes', ['unknown-attributes']],
	['no-deployment-id', []],
	// Not visible to a read-only probe with the credential's token.
	['delete-200', []],
	['auth-403', []],
];

type CheckItem = { check: string; title: string; result: string; observed: string; fix: string };

async function checkCompatibility(sandbox: Sandbox, items?: IDataObject[]) {
	const run = await runNode({
		credentials: credentialsFor(sandbox),
		parameters: { resource: 'api', operation: 'checkCompatibility' },
		items: items?.map((json) => ({ json })),
	});
	return { ...run, checks: run.items.map((i) => i.json as unknown as CheckItem) };
}

const resultsOf = (checks: CheckItem[]) => Object.fromEntries(checks.map((c) => [c.check, c.result]));
const byId = (checks: CheckItem[], id: string) => checks.find((c) => c.check === id)!;

/** What the sandbox holds, to prove that nothing was created, changed or deleted. */
function holdings(sandbox: Sandbox): string {
	return JSON.stringify({
		jobs: sandbox.state.jobs().map((j) => [j.id, j.attributes.status, j.attributes.updatedAt]),
		groups: sandbox.state.groups(),
		users: sandbox.state.users(),
	});
}

describe('api: check compatibility, the contract (demo data)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ speed: 1000 });
	});
	afterAll(async () => {
		await sandbox.close();
	});
	afterEach(() => {
		sandbox.deviations.clear();
	});

	it('outputs one item per check, with its id, title, result, observed and fix; every check passes', async () => {
		const before = holdings(sandbox);
		sandbox.requests.clear();
		const { checks, error } = await checkCompatibility(sandbox);
		expect(error).toBeUndefined();
		expect(checks.map((c) => c.check)).toEqual(CHECK_IDS);
		for (const c of checks) {
			expect(Object.keys(c)).toEqual(['check', 'title', 'result', 'observed', 'fix']);
			expect([c.title, c.observed, c.fix].every((text) => typeof text === 'string' && text.length > 0)).toBe(true);
		}
		const expected = Object.fromEntries(CHECK_IDS.map((id) => [id, NEVER_PROBED.includes(id) ? 'cannot tell' : 'pass']));
		expect(resultsOf(checks)).toEqual(expected);
		expect(byId(checks, 'root').observed).toContain('1.0.0-sandbox');

		// Read-only: GETs, and one PATCH of a job id that does not exist (answered 404); nothing changed.
		const writes = sandbox.requests.all().filter((r) => r.method !== 'GET' && r.path !== '/oauth/token');
		expect(writes.map((r) => [r.method, r.path, r.status])).toEqual([
			['PATCH', '/jobs/00000000-0000-4000-8000-000000000000', 404],
		]);
		expect(holdings(sandbox)).toBe(before);
	});

	it.each(FAILS)('under %s exactly the checks for it fail', async (mode, failing) => {
		sandbox.deviations.set([mode]);
		const { checks, error } = await checkCompatibility(sandbox);
		expect(error).toBeUndefined();
		const expected = Object.fromEntries(
			CHECK_IDS.map((id) => [id, failing.includes(id) ? 'fail' : NEVER_PROBED.includes(id) ? 'cannot tell' : 'pass']),
		);
		expect(resultsOf(checks)).toEqual(expected);
		for (const id of failing) {
			const check = byId(checks, id);
			expect(check.fix).not.toBe('Nothing to change.');
		}
	});

	it('a failing check says what it saw and whether the nodes cope (json-only, root-shape, max-page, links-only, cursor-name)', async () => {
		sandbox.deviations.set(['json-only']);
		let { checks } = await checkCompatibility(sandbox);
		expect(byId(checks, 'media-type').observed).toContain('HTTP 415');
		expect(byId(checks, 'media-type').fix).toContain('application/json');
		sandbox.deviations.set(['root-shape']);
		({ checks } = await checkCompatibility(sandbox));
		expect(byId(checks, 'root').observed).toContain('2024-06-01');
		sandbox.deviations.set(['max-page:50']);
		({ checks } = await checkCompatibility(sandbox));
		expect(byId(checks, 'page-size').observed).toContain('stated maximum of 50');
		expect(byId(checks, 'page-size').fix).toContain('ask for pages of 50');
		sandbox.deviations.set(['links-only']);
		({ checks } = await checkCompatibility(sandbox));
		expect(byId(checks, 'cursor-paging').observed).toMatch(/no meta\.page\.after.*following links\.next gave job/);
		expect(byId(checks, 'cursor-paging').fix).toContain('the nodes follow links.next');
		sandbox.deviations.set(['cursor-name']);
		({ checks } = await checkCompatibility(sandbox));
		expect(byId(checks, 'cursor-paging').observed).toContain('"cursor"');
		expect(byId(checks, 'cursor-paging').fix).toContain('Report this output');
	});

	it.each(['moved-subroutes', 'other-routes'])('%s: the transfers and errors routes are reported as not served for a job that exists', async (mode) => {
		sandbox.deviations.set([mode]);
		const { checks } = await checkCompatibility(sandbox);
		for (const kind of ['transfers', 'errors']) {
			const check = byId(checks, `${kind}-route`);
			expect(check.observed).toMatch(/HTTP 404/);
			expect(check.observed).toContain(`the job exists (it was listed), so this deployment serves a job's ${kind} elsewhere, not at GET /jobs/{id}/${kind}.`);
			expect(check.fix).toContain(`saying that the job exists and its ${kind} are served elsewhere`);
		}
	});

	it('no-total: list-routes gives a count only where it is one', async () => {
		let { checks } = await checkCompatibility(sandbox);
		const total = sandbox.state.jobs().length;
		expect(byId(checks, 'list-routes').observed).toContain(`/jobs: ${total} in all`);
		sandbox.deviations.set(['no-total']);
		({ checks } = await checkCompatibility(sandbox));
		const observed = byId(checks, 'list-routes').observed;
		// A page of one of several jobs: the record read is not the count.
		expect(observed).toContain('/jobs: 1 record on the first page, no total given');
		expect(observed).not.toMatch(/\/jobs: 1 in all/);
		// The one account is all of them: its page says it is the last.
		expect(sandbox.state.accounts().length).toBe(1);
		expect(observed).toContain('/accounts: 1 in all');
	});

	it('extra-attributes fails its check with nothing to change, no-deployment-id passes, with what was seen in observed', async () => {
		sandbox.deviations.set(['extra-attributes']);
		let { checks } = await checkCompatibility(sandbox);
		const unknown = byId(checks, 'unknown-attributes');
		expect(unknown.result).toBe('fail');
		expect(unknown.fix).toMatch(/^Nothing to change/);
		expect(unknown.observed).toContain('x-region');
		expect(unknown.observed).toContain('labels');
		expect(unknown.observed).toContain('stats.x-verifiedCount');
		sandbox.deviations.set(['no-deployment-id']);
		({ checks } = await checkCompatibility(sandbox));
		expect(byId(checks, 'account-id').observed).toContain('deploymentId is left out');
	});

	it('a probe that keeps failing is reported by its own check; the other checks still run and pass', async () => {
		// Every answer of the transfers route is a 500, the node's retry included.
		sandbox.faults.add({ kind: 'internal-error', path: '/jobs/{id}/transfers', times: Infinity });
		try {
			const run = await runNode({
				credentials: credentialsFor(sandbox),
				parameters: { resource: 'api', operation: 'checkCompatibility', requestOptions: { maxRetries: 1 } },
			});
			expect(run.error).toBeUndefined();
			const checks = run.items.map((i) => i.json as unknown as CheckItem);
			const results = resultsOf(checks);
			expect(results['transfers-route']).toBe('fail');
			expect(byId(checks, 'transfers-route').observed).toContain('HTTP 500');
			expect(results).toEqual(
				Object.fromEntries(
					CHECK_IDS.map((id) => [id, id === 'transfers-route' ? 'fail' : NEVER_PROBED.includes(id) ? 'cannot tell' : 'pass']),
				),
			);
		} finally {
			sandbox.faults.clear();
		}
	});

	it('one run per input item, every item paired', async () => {
		const { items } = await runNode({
			credentials: credentialsFor(sandbox),
			parameters: { resource: 'api', operation: 'checkCompatibility' },
			items: [{ json: { a: 1 } }, { json: { a: 2 } }],
		});
		expect(items).toHaveLength(2 * CHECK_IDS.length);
		expect(items.slice(0, CHECK_IDS.length).every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(items.slice(CHECK_IDS.length).every((i) => (i.pairedItem as { item: number }).item === 1)).toBe(true);
	});

	it('a wrong client secret fails the token check; the checks that need the API cannot tell, and the run goes on', async () => {
		const run = await runNode({
			credentials: credentialsFor(sandbox, { clientSecret: 'wrong-secret' }),
			parameters: { resource: 'api', operation: 'checkCompatibility' },
		});
		expect(run.error).toBeUndefined();
		const checks = run.items.map((i) => i.json as unknown as CheckItem);
		expect(checks.map((c) => c.check)).toEqual(CHECK_IDS);
		const results = resultsOf(checks);
		expect(results.token).toBe('fail');
		expect(results).toEqual(Object.fromEntries(CHECK_IDS.map((id) => [id, id === 'token' ? 'fail' : 'cannot tell'])));
		expect(byId(checks, 'token').fix).toContain('Client ID and Secret');
		expect(JSON.stringify(checks)).not.toContain('wrong-secret');
	});
});

describe('api: check compatibility, a credential that cannot be used', () => {
	it('a Base URL without a scheme fails the item as an input error, before any request', async () => {
		const sandbox = await startSandbox({ speed: 1000 });
		try {
			const run = await runNode({
				credentials: credentialsFor(sandbox, { baseUrl: 'api.example.com' }),
				parameters: { resource: 'api', operation: 'checkCompatibility' },
			});
			expect(run.error?.message).toContain('Base URL');
			expect(run.error?.message).toContain('[item 0]');
			expect(sandbox.requests.count()).toBe(0);
		} finally {
			await sandbox.close();
		}
	});
});

describe('api: check compatibility, an empty deployment', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ speed: 1000, demo: false });
	});
	afterAll(async () => {
		await sandbox.close();
	});

	it('without jobs, users or groups the checks that need them cannot tell; none fails', async () => {
		const { checks } = await checkCompatibility(sandbox);
		const results = resultsOf(checks);
		expect(Object.values(results)).not.toContain('fail');
		for (const id of ['cursor-paging', 'sort-updatedAt', 'sort-createdAt', 'job-statuses', 'transfers-route', 'errors-route', 'sync-conflict']) {
			expect([id, results[id]]).toEqual([id, 'cannot tell']);
		}
		for (const id of ['token', 'root', 'media-type', 'list-routes', 'page-size', 'page-total', 'filter-unknown', 'not-found']) {
			expect([id, results[id]]).toEqual([id, 'pass']);
		}
	});
});

describe('api: check compatibility, modes that need a job in a certain state', () => {
	it('sync-needs-conflict: fails once a sync job carries a conflict handling (created with Sync Conflict Handling)', async () => {
		const sandbox = await startSandbox({ speed: 1000, deviations: ['sync-needs-conflict'] });
		try {
			// The demo's sync job predates the mode (null): nothing shows it yet.
			expect(resultsOf((await checkCompatibility(sandbox)).checks)['sync-conflict']).toBe('pass');
			const created = await runNode({
				credentials: credentialsFor(sandbox),
				parameters: {
					resource: 'job',
					operation: 'create',
					transferType: 'sync',
					sourceStorageId: { __rl: true, mode: 'id', value: DEMO_IDS.storageIds.files },
					sourcePath: '/reports',
					targetStorageId: { __rl: true, mode: 'id', value: DEMO_IDS.storageIds.archive },
					targetPath: '/sync-needs-conflict',
					syncConflictHandling: 'rename',
					dryRun: true,
				},
			});
			expect(created.error).toBeUndefined();
			const { checks } = await checkCompatibility(sandbox);
			const expected = Object.fromEntries(
				CHECK_IDS.map((id) => [id, id === 'sync-conflict' ? 'fail' : NEVER_PROBED.includes(id) ? 'cannot tell' : 'pass']),
			);
			expect(resultsOf(checks)).toEqual(expected);
			expect(byId(checks, 'sync-conflict').observed).toContain('"rename"');
			expect(byId(checks, 'sync-conflict').fix).toContain('Sync Conflict Handling');
		} finally {
			await sandbox.close();
		}
	});

	it('extra-status: fails while a job is in the extra status, naming it', async () => {
		// Slow, so that the job stays in "analyzing" (400 ms / speed) while the checks run.
		const sandbox = await startSandbox({ speed: 0.05, deviations: ['extra-status'] });
		try {
			const created = await runNode({
				credentials: credentialsFor(sandbox),
				parameters: {
					resource: 'job',
					operation: 'create',
					transferType: 'copy',
					sourceStorageId: { __rl: true, mode: 'id', value: DEMO_IDS.storageIds.files },
					sourcePath: '/reports',
					targetStorageId: { __rl: true, mode: 'id', value: DEMO_IDS.storageIds.archive },
					targetPath: '/extra-status',
					conflictHandling: 'skip',
					dryRun: false,
				},
			});
			expect(created.error).toBeUndefined();
			const id = created.items[0].json.id as string;
			const deadline = Date.now() + 30_000;
			while ((sandbox.state.job(id)!.attributes.status as string) !== 'analyzing' && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			expect(sandbox.state.job(id)!.attributes.status as string).toBe('analyzing');
			const { checks } = await checkCompatibility(sandbox);
			expect(sandbox.state.job(id)!.attributes.status as string).toBe('analyzing');
			const results = resultsOf(checks);
			expect(results['job-statuses']).toBe('fail');
			expect(byId(checks, 'job-statuses').observed).toContain('"analyzing"');
			expect(Object.entries(results).filter(([, r]) => r === 'fail')).toEqual([['job-statuses', 'fail']]);
		} finally {
			await sandbox.close();
		}
	}, 90_000);
});
