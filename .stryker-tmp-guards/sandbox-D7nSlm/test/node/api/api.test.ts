// @ts-nocheck
import { startSandbox } from '../../../sandbox/src';
import type { Sandbox } from '../../../sandbox/src/api';
import { ROOT_SHAPE_VERSION } from '../../../sandbox/src/deviations';
import { API_VERSION } from '../../../sandbox/src/handlers';
import { credentialsFor, runNode } from '../../harness/engine';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
});

afterAll(async () => {
	await sandbox.close();
});

describe('api: get version', () => {
	it("returns the sandbox's apiVersion from an authenticated GET /", async () => {
		const { items, error } = await runNode({
			credentials: credentialsFor(sandbox),
			parameters: { resource: 'api', operation: 'getVersion' },
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([
			{ apiVersion: API_VERSION, jsonapiVersion: '1.1', root: { jsonapi: { version: '1.1' }, meta: { apiVersion: API_VERSION } } },
		]);
		const root = sandbox.requests.all().filter((r) => r.path === '/');
		expect(root.map((r) => [r.method, r.status, r.authorization?.startsWith('Bearer ')])).toEqual([['GET', 200, true]]);
	});

	it('gives one item per input item', async () => {
		const { items } = await runNode({
			credentials: credentialsFor(sandbox),
			parameters: { resource: 'api', operation: 'getVersion' },
			items: [{ json: { a: 1 } }, { json: { a: 2 } }],
		});
		expect(items.map((i) => [i.json.apiVersion, i.pairedItem])).toEqual([
			[API_VERSION, { item: 0 }],
			[API_VERSION, { item: 1 }],
		]);
	});

	it('outputs the root document as sent under root, also when the version is elsewhere (apiVersion null then)', async () => {
		sandbox.deviations.set(['root-shape']);
		try {
			const { items, error } = await runNode({
				credentials: credentialsFor(sandbox),
				parameters: { resource: 'api', operation: 'getVersion' },
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual([
				{ apiVersion: null, jsonapiVersion: '1.0', root: { jsonapi: { version: '1.0' }, meta: { version: ROOT_SHAPE_VERSION } } },
			]);
		} finally {
			sandbox.deviations.clear();
		}
	});
});
