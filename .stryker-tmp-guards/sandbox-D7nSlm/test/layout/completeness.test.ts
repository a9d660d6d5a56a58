/**
 * Completeness: every operation the node offers has its documentation and its rows in the test lists that
 * are written by hand. Adding an operation without them fails here, naming what is missing.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';

import { OPERATIONS } from '../hardening/operations';
import { headingAnchor, offeredOperations } from '../harness/operations';
import { RESOURCES } from '../settings/cases';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

const offered = offeredOperations();

/**
 * Operations the fault matrix (test/hardening) leaves out, with the reason and where faults are tested instead.
 */
const NOT_IN_FAULT_MATRIX: Record<string, string> = {
	'api.checkCompatibility':
		'it reports a failed probe as a failed check of its output instead of failing the item, so the matrix\'s verdicts do not apply; test/node/api/compatibility.test.ts covers a probe that keeps failing (not every fault kind)',
};

describe('every operation the node offers', () => {
	it('is read from the node (the list is not empty and has the operations every release had)', () => {
		expect(offered.map((o) => o.key)).toEqual(expect.arrayContaining(['job.create', 'job.getMany', 'api.getVersion']));
	});

	it('has a section "### <Resource>: <Operation>" in docs/operations.md', () => {
		const headings = new Set([...read('docs/operations.md').matchAll(/^### (.+)$/gm)].map((m) => m[1].trim()));
		const missing = offered.filter((o) => !headings.has(`${o.resourceName}: ${o.operationName}`)).map((o) => o.key);
		expect(missing).toEqual([]);
	});

	it('has a row in the README\'s operation table that links to its section', () => {
		const readme = read('README.md');
		const missing = offered
			.filter((o) => !readme.includes(`[${o.operationName}](docs/operations.md#${headingAnchor(`${o.resourceName}: ${o.operationName}`)})`))
			.map((o) => o.key);
		expect(missing).toEqual([]);
	});

	it('has a row in the fault matrix (test/hardening/operations.ts), or a stated reason why not', () => {
		const rows = new Set(OPERATIONS.map((spec) => spec.name));
		const missing = offered.filter((o) => !rows.has(o.key) && !(o.key in NOT_IN_FAULT_MATRIX)).map((o) => o.key);
		expect(missing).toEqual([]);
		// And no row or exception names an operation the node does not offer.
		const keys = new Set(offered.map((o) => o.key));
		expect([...rows, ...Object.keys(NOT_IN_FAULT_MATRIX)].filter((name) => !keys.has(name))).toEqual([]);
	});
});

describe('every resource the node offers', () => {
	it('has a case in the node-settings tests (test/settings/cases.ts)', () => {
		const resources = [...new Set(offered.map((o) => o.resource))];
		const cased = new Set(RESOURCES.map((c) => c.resource));
		expect(resources.filter((r) => !cased.has(r))).toEqual([]);
	});
});
