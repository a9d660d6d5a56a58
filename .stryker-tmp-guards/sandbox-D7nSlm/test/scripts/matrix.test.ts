/**
 * The version matrix's report (scripts/n8n/matrix.ts): how a jest result becomes a cell, a failure one line,
 * and the cells a Markdown table. No n8n is run here.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';
import { PINNED_ONLY, cellOf, columnTitle, e2eSuites, markdownTable, summarizeFailure, type VersionRun } from '../../scripts/n8n/matrix';
import { parseProfile, profileEnv } from '../../scripts/n8n/profile';
import { projectRoot } from '../../scripts/n8n/paths';

const assertion = (fullName: string, status: string, failureMessages: string[] = []) => ({
	fullName,
	title: fullName,
	status,
	failureMessages,
});

describe('summarizeFailure', () => {
	test('a thrown error: its first line, without "Error: "', () => {
		expect(summarizeFailure('Error: n8n execute failed (exit 1):\n{\n  "data": {}\n}\n    at Object.<anonymous> (x.ts:1:1)')).toBe(
			'n8n execute failed (exit 1):',
		);
	});

	test('a matcher with a diff: its first line and the first received line that holds more than a bracket', () => {
		const message = [
			'Error: \u001b[2mexpect(\u001b[22m\u001b[31mreceived\u001b[39m\u001b[2m).\u001b[22mtoEqual\u001b[2m(\u001b[22m\u001b[32mexpected\u001b[39m\u001b[2m) // deep equality\u001b[22m',
			'',
			'- Expected  - 1',
			'+ Received  + 3',
			'',
			'- Array []',
			'+ Array [',
			'+   "not-found: fail: HTTP 404 without an error document",',
			'+ ]',
		].join('\n');
		expect(summarizeFailure(message)).toBe(
			'expect(received).toEqual(expected) // deep equality +   "not-found: fail: HTTP 404 without an error document",',
		);
	});

	test('a matcher without a diff: its first line and the "Received" line', () => {
		expect(summarizeFailure('expect(received).toHaveLength(expected)\n\nExpected length: 1\nReceived length: 3\nReceived array: [1, 2, 3]')).toBe(
			'expect(received).toHaveLength(expected) Received length: 3',
		);
	});

	test('a long line is cut to 240 characters', () => {
		const line = summarizeFailure(`Error: ${'x'.repeat(500)}`);
		expect(line).toHaveLength(240);
		expect(line.endsWith('...')).toBe(true);
	});
});

describe('cellOf', () => {
	test('a passed file: pass, with the number of passed tests', () => {
		const cell = cellOf({ name: '/p/test/e2e/a.test.ts', status: 'passed', message: '', assertionResults: [assertion('a', 'passed'), assertion('b', 'passed')] });
		expect(cell).toEqual({ kind: 'pass', tests: 2 });
	});

	test('a failed file: the first failed test, by its full name, with its message', () => {
		const cell = cellOf({
			name: '/p/test/e2e/a.test.ts',
			status: 'failed',
			message: '',
			assertionResults: [
				assertion('group passes', 'passed'),
				assertion('group first failure', 'failed', ['Error: the first\nmore']),
				assertion('group second failure', 'failed', ['Error: the second']),
			],
		});
		expect(cell).toEqual({ kind: 'fail', test: 'group first failure', message: 'the first', fullMessage: 'Error: the first\nmore' });
	});

	test('a file that failed without a failed test (it did not compile): the file\'s message', () => {
		const cell = cellOf({ name: '/p/test/e2e/a.test.ts', status: 'failed', message: 'Test suite failed to run\n\n  error TS2304', assertionResults: [] });
		expect(cell).toMatchObject({ kind: 'fail', test: '(suite)', message: 'Test suite failed to run' });
	});

	test("a file whose tests passed and some skipped themselves (jest's 'focused'): pass, with the passed ones", () => {
		const cell = cellOf({ name: '/p/test/e2e/a.test.ts', status: 'focused', message: '', assertionResults: [assertion('a', 'passed'), assertion('b', 'pending')] });
		expect(cell).toEqual({ kind: 'pass', tests: 1 });
	});

	test('a file whose every test skipped itself: skipped, not a pass', () => {
		const cell = cellOf({ name: '/p/test/e2e/a.test.ts', status: 'focused', message: '', assertionResults: [assertion('a', 'pending')] });
		expect(cell).toMatchObject({ kind: 'skipped' });
	});

	test("a file whose every test was skipped by a describe.skip (jest's 'skipped'): skipped, not a failure", () => {
		const cell = cellOf({ name: '/p/test/e2e/a.test.ts', status: 'skipped', message: '', assertionResults: [assertion('a', 'pending'), assertion('b', 'pending')] });
		expect(cell).toMatchObject({ kind: 'skipped' });
	});

	test('a file jest did not report: a failure, not a pass', () => {
		expect(cellOf(undefined)).toMatchObject({ kind: 'fail', message: 'jest reported nothing for this file' });
	});
});

describe('markdownTable', () => {
	test('rows the suites, columns the versions, a cell per pair; pipes in messages are escaped', () => {
		const run = (version: string, cells: VersionRun['cells']): VersionRun => ({ version, installSeconds: 0, suitesSeconds: 61, cells });
		const table = markdownTable(
			['a.test.ts', 'b.test.ts'],
			[
				run('1.0.0', {
					'a.test.ts': { kind: 'fail', test: 'x', message: 'a | b', fullMessage: '' },
					'b.test.ts': { kind: 'skipped', why: 'pinned only' },
				}),
				run('2.0.0', { 'a.test.ts': { kind: 'pass', tests: 1 }, 'b.test.ts': { kind: 'pass', tests: 3 } }),
			],
		);
		const lines = table.split('\n');
		expect(lines[0]).toBe('| Suite | n8n 1.0.0 | n8n 2.0.0 |');
		expect(lines[2]).toBe('| `a.test.ts` | FAIL: x: a \\| b | pass |');
		expect(lines[3]).toBe('| `b.test.ts` | skipped: pinned only | pass |');
		expect(lines[5]).toBe('| *suites (wall time)* | 61 s | 61 s |');
	});
});

describe('the suites of the matrix', () => {
	test('every test/e2e/*.test.ts, and every pinned-only entry names one of them', () => {
		const files = fs.readdirSync(path.join(projectRoot, 'test', 'e2e')).filter((name) => name.endsWith('.test.ts'));
		expect(e2eSuites()).toEqual(files.sort());
		expect(Object.keys(PINNED_ONLY).filter((name) => !files.includes(name))).toEqual([]);
	});
});

describe('the 3.0 profile column', () => {
	test('a profile run is its own column, headed by its version and "3.0 defaults"', () => {
		const runs: VersionRun[] = [
			{ version: '2.41.1', installSeconds: 0, suitesSeconds: 60, cells: { 'a.test.ts': { kind: 'pass', tests: 1 } } },
			{ version: '2.41.1', profile: 'v3', installSeconds: 0, suitesSeconds: 70, cells: { 'a.test.ts': { kind: 'pass', tests: 1 } } },
		];
		expect(markdownTable(['a.test.ts'], runs).split('\n')[0]).toBe('| Suite | n8n 2.41.1 | n8n 2.41.1 + 3.0 defaults |');
		expect(columnTitle({ version: '2.41.1', profile: 'v3' })).toBe('n8n 2.41.1 + 3.0 defaults');
	});

	test('FTM_N8N_PROFILE takes only known profiles; v3 sets 3.0 defaults and what the README tells 3.0 users', () => {
		expect(parseProfile(undefined)).toBeUndefined();
		expect(parseProfile(' ')).toBeUndefined();
		expect(parseProfile('v3')).toBe('v3');
		expect(() => parseProfile('v4')).toThrow(/not a profile/);
		expect(profileEnv(undefined)).toEqual({});
		expect(profileEnv('v3')).toMatchObject({
			N8N_SCHEDULER_ENABLED: 'true',
			N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
			N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_SSRF_PROTECTION_ENABLED: 'true',
			N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		});
	});
});
