import { DEMO_IDS, startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import type { Account } from '../../../nodes/shared/api/types';
import type { INodeParameters } from 'n8n-workflow';
import type { TestCredentialsHelper } from '../../harness/credentials';
import { credentialsFor, runNode } from '../../harness/engine';
import { rlList as rl } from '../../harness/locator';

let sandbox: Sandbox;
let credentials: TestCredentialsHelper;

const flat = (a: Account) => ({ id: a.id, ...a.attributes });

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
	credentials = credentialsFor(sandbox);
});

afterAll(async () => {
	await sandbox.close();
});

describe('account: get', () => {
	it('returns the account flattened, as the sandbox holds it', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'account', operation: 'get', accountId: rl(DEMO_IDS.accountId, 'id') },
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(sandbox.state.accounts().filter((a) => a.id === DEMO_IDS.accountId).map(flat));
		expect(items).toHaveLength(1);
	});

	it('an unknown account fails with "Entity Not Found"', async () => {
		const { error } = await runNode({
			credentials,
			parameters: { resource: 'account', operation: 'get', accountId: rl('0a0a0a0a-0000-4000-8000-000000000000') },
		});
		expect(error?.message).toBe('Entity Not Found');
		expect(error?.httpCode).toBe('404');
	});
});

describe('account: get many', () => {
	it('returns every account the client sees', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: { resource: 'account', operation: 'getMany', returnAll: true },
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(sandbox.state.accounts().map(flat));
	});

	it('filters by name (exact match) and sorts by name descending', async () => {
		const name = sandbox.state.accounts()[0].attributes.name;
		sandbox.requests.clear();
		const matching = await runNode({
			credentials,
			parameters: {
				resource: 'account',
				operation: 'getMany',
				returnAll: true,
				filters: { name },
				sort: { rules: [{ field: 'name', direction: 'descending' }] },
			},
		});
		expect(matching.items.map((i) => i.json)).toEqual(
			sandbox.state.accounts().filter((a) => a.attributes.name === name).map(flat),
		);
		expect(sandbox.requests.all().at(-1)?.query).toEqual({
			'filter[name]': name,
			sort: '-name',
			'page[limit]': '100',
		});
		const partial = await runNode({
			credentials,
			parameters: { resource: 'account', operation: 'getMany', returnAll: true, filters: { name: name.slice(0, 3) } },
		});
		expect(partial.items).toEqual([]);
	});

	it('Limit 5 asks for one page of 5', async () => {
		sandbox.requests.clear();
		await runNode({ credentials, parameters: { resource: 'account', operation: 'getMany', limit: 5 } });
		expect(sandbox.requests.all().filter((r) => r.path === '/accounts').map((r) => r.query['page[limit]'])).toEqual(['5']);
	});
});

describe('account: validation before any request', () => {
	async function expectRejected(parameters: INodeParameters, ...parts: string[]) {
		const before = sandbox.requests.count();
		const { error } = await runNode({
			credentials: credentialsFor(sandbox),
			parameters: { resource: 'account', ...parameters },
		});
		for (const part of [...parts, '[item 0]']) expect(error?.message).toContain(part);
		expect(sandbox.requests.count()).toBe(before);
	}

	it('get: an Account that is not a UUID', async () => {
		await expectRejected({ operation: 'get', accountId: rl('acme') }, '"Account"', 'must be a UUID');
	});

	it('get many: Limit -1', async () => {
		await expectRejected({ operation: 'getMany', limit: -1 }, '"Limit"');
	});

	it('get many: an unknown sort field from an expression', async () => {
		await expectRejected(
			{ operation: 'getMany', sort: { rules: [{ field: '={{ "email" }}', direction: 'ascending' }] } },
			'"Sort › Field"',
		);
	});
});
