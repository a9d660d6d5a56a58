/**
 * Which e2e runs start the shared n8n (test/e2e/helpers/sharedN8n.ts), and that the list of suites that share
 * it is complete: a suite that could share n8n but is missing from it would start an n8n of its own unnoticed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SHARED_SUITES, runIncludesSharedSuite } from '../e2e/helpers/sharedN8n';

const root = path.resolve(__dirname, '..', '..');

describe('runIncludesSharedSuite', () => {
	test('no path pattern (the whole layer): the shared n8n starts', () => {
		expect(runIncludesSharedSuite([])).toBe(true);
	});

	test('a pattern that names a sharing suite, or the folder: it starts', () => {
		expect(runIncludesSharedSuite(['test/e2e/mcp.test.ts'])).toBe(true);
		expect(runIncludesSharedSuite(['test/e2e'])).toBe(true);
		expect(runIncludesSharedSuite(['errors'])).toBe(true);
	});

	test('patterns that name only suites with an n8n of their own: it does not start', () => {
		expect(runIncludesSharedSuite(['test/e2e/tour.test.ts'])).toBe(false);
		expect(runIncludesSharedSuite(['test/install/', 'test/e2e/poll-drain.test.ts', 'start-signals'])).toBe(false);
	});
});

describe('SHARED_SUITES', () => {
	const suites = fs
		.readdirSync(path.join(root, 'test', 'e2e'))
		.filter((name) => name.endsWith('.test.ts'))
		.map((name) => `test/e2e/${name}`);

	test('names existing suite files only', () => {
		expect(SHARED_SUITES.filter((file) => !suites.includes(file))).toEqual([]);
	});

	test('holds every suite that calls useN8nStack without extraEnv, and none that gives one', () => {
		const eligible = suites.filter((file) => {
			const text = fs.readFileSync(path.join(root, file), 'utf8');
			return /useN8nStack\(/.test(text) && !/extraEnv/.test(text);
		});
		expect(eligible.length).toBeGreaterThan(5);
		expect(SHARED_SUITES.filter((file) => file !== 'test/e2e/smoke.test.ts').sort()).toEqual(eligible.sort());
	});
});
