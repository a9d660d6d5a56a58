import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { User } from '../../../nodes/shared/api/types';
import * as listSearch from '../../../nodes/shared/methods/listSearch';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { credentialsFor, runNode } from '../../harness/engine';
import { loadOptionsContext } from '../../harness/loadOptions';

const INSERTED = 150;

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;

/** The sandbox's users in the order searchUsers asks for (email ascending; emails are unique). */
function usersByEmail(): User[] {
	return sandbox.state
		.users()
		.sort((a, b) => (a.attributes.email < b.attributes.email ? -1 : a.attributes.email > b.attributes.email ? 1 : 0));
}

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	credentials = credentialsFor(sandbox);
	const items = Array.from({ length: INSERTED }, (_, i) => ({
		json: { email: `member-${String(i).padStart(3, '0')}@example.com`, first: `Member${i}` },
	}));
	const { error } = await runNode({
		credentials,
		parameters: {
			resource: 'user',
			operation: 'create',
			accountId: { __rl: true, mode: 'id', value: DEMO_IDS.accountId },
			email: '={{ $json.email }}',
			additionalFields: { firstName: '={{ $json.first }}', lastName: 'Search' },
		},
		items,
	});
	if (error) throw error;
	if (sandbox.state.users().length !== INSERTED + DEMO_IDS.userIds.length) {
		throw new Error('setup: users were not created');
	}
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => sandbox.requests.clear());

describe('searchUsers', () => {
	it('pages through all users with the API cursor: 100 and a token, then the rest without one', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.userId');
		const expected = usersByEmail();

		const first = await listSearch.searchUsers.call(context);
		expect(first.results).toHaveLength(100);
		expect(first.results.map((r) => r.value)).toEqual(expected.slice(0, 100).map((u) => u.id));
		expect(first.paginationToken).toEqual(expect.any(String));

		const second = await listSearch.searchUsers.call(context, undefined, first.paginationToken as string);
		expect(second.results.map((r) => r.value)).toEqual(expected.slice(100).map((u) => u.id));
		expect(second.paginationToken).toBeUndefined();

		const lists = sandbox.requests.all().filter((r) => r.method === 'GET' && r.path === '/users');
		expect(lists.map((r) => r.query)).toEqual([
			{ sort: 'email', 'page[limit]': '100' },
			{ sort: 'email', 'page[limit]': '100', 'page[after]': first.paginationToken },
		]);
	});

	it('labels a user with full name and e-mail address', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.userId');
		const page = await listSearch.searchUsers.call(context, 'alice.admin@example.com');
		const alice = sandbox.state.users().find((u) => u.attributes.email === 'alice.admin@example.com')!;
		expect(page.results).toEqual([
			{
				name: `${alice.attributes.firstName} ${alice.attributes.lastName} <${alice.attributes.email}>`,
				value: alice.id,
			},
		]);
	});

	it('filters by the search text (case-insensitive, name or e-mail)', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.userId');
		const page = await listSearch.searchUsers.call(context, 'MEMBER-00');
		const expected = usersByEmail()
			.filter((u) => u.attributes.email.startsWith('member-00'))
			.map((u) => u.id);
		expect(expected).toHaveLength(10);
		expect(page.results.map((r) => r.value)).toEqual(expected);
	});

	it('finds a user by its exact id', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.userId');
		const target = usersByEmail()[42];
		const page = await listSearch.searchUsers.call(context, target.id);
		expect(page.results.map((r) => r.value)).toEqual([target.id]);
	});

	it('reads on through further pages until the search text matches, in one call', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.userId');
		const last = usersByEmail().at(-1)!;
		sandbox.requests.clear();
		const page = await listSearch.searchUsers.call(context, last.attributes.email);
		expect(page.results.map((r) => r.value)).toEqual([last.id]);
		expect(page.paginationToken).toBeUndefined();
		expect(sandbox.requests.count({ method: 'GET', path: '/users' })).toBe(2);
	});
});

describe('searchGroups, searchAccounts, searchStorages, searchJobs', () => {
	it('searchGroups lists the groups by name and filters by the search text', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.groupId');
		const groups = sandbox.state.groups().sort((a, b) => (a.attributes.name < b.attributes.name ? -1 : 1));
		const all = await listSearch.searchGroups.call(context);
		expect(all.results).toEqual(groups.map((g) => ({ name: g.attributes.name, value: g.id })));
		expect(all.paginationToken).toBeUndefined();

		const wanted = groups[groups.length - 1];
		const some = await listSearch.searchGroups.call(context, wanted.attributes.name.slice(1).toUpperCase());
		expect(some.results.map((r) => r.value)).toEqual(
			groups.filter((g) => g.attributes.name.toLowerCase().includes(wanted.attributes.name.slice(1).toLowerCase())).map((g) => g.id),
		);
		expect(some.results.map((r) => r.value)).toContain(wanted.id);
	});

	it('searchAccounts lists the accounts and returns nothing for text that matches none', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.accountId');
		const accounts = sandbox.state.accounts();
		const all = await listSearch.searchAccounts.call(context);
		expect(all.results).toEqual(accounts.map((a) => ({ name: a.attributes.name, value: a.id })));
		const none = await listSearch.searchAccounts.call(context, 'no account is called like this');
		expect(none.results).toEqual([]);
	});

	it('searchStorages labels storages with name and type, and filters by type text', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.storageId');
		const storages = sandbox.state.storages().sort((a, b) => (a.attributes.name < b.attributes.name ? -1 : 1));
		const all = await listSearch.searchStorages.call(context);
		expect(all.results).toEqual(
			storages.map((s) => ({ name: `${s.attributes.name} (${s.attributes.type})`, value: s.id })),
		);
		const aws = await listSearch.searchStorages.call(context, 'object-aws');
		expect(aws.results.map((r) => r.value)).toEqual(
			storages.filter((s) => s.attributes.type === 'object-aws').map((s) => s.id),
		);
		expect(aws.results.length).toBeGreaterThan(0);
	});

	it('searchJobs lists jobs newest first with their status, and filters by name', async () => {
		const context = loadOptionsContext(credentials, {}, 'parameters.jobId');
		const jobs = sandbox.state
			.jobs()
			.sort((a, b) =>
				a.attributes.createdAt > b.attributes.createdAt ? -1 : a.attributes.createdAt < b.attributes.createdAt ? 1 : a.id < b.id ? -1 : 1,
			);
		const all = await listSearch.searchJobs.call(context);
		expect(all.results.map((r) => r.value)).toEqual(jobs.map((j) => j.id));
		for (const [i, job] of jobs.entries()) {
			expect(all.results[i].name).toContain(job.attributes.status);
		}
		const named = jobs.find((j) => j.attributes.name)!;
		const some = await listSearch.searchJobs.call(context, named.attributes.name);
		expect(some.results.map((r) => r.value)).toContain(named.id);
		expect(some.results.every((r) => r.name.toLowerCase().includes(named.attributes.name.toLowerCase()))).toBe(true);
	});

	it('pages jobs with the API cursor when there are more than 100', async () => {
		sandbox.control.insertJobs(120);
		const context = loadOptionsContext(credentials, {}, 'parameters.jobId');
		const first = await listSearch.searchJobs.call(context);
		expect(first.results).toHaveLength(100);
		const second = await listSearch.searchJobs.call(context, undefined, first.paginationToken as string);
		expect(second.paginationToken).toBeUndefined();
		const seen = [...first.results, ...second.results].map((r) => r.value);
		expect(new Set(seen).size).toBe(seen.length);
		expect([...seen].sort()).toEqual(sandbox.state.jobs().map((j) => j.id).sort());
	});
});
