/**
 * `npm run bench -- --base <commit>` (bench/lib/base.ts): how the printed tables of three bench runs become one
 * comparison, and which flags the base's bench is given. No bench runs here: the tables are written out.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { OUTSIDE_BY_CHANCE, compareRows, flagsFor, parseRows } from '../../bench/lib/base';
import { forgetterOf } from '../../bench/concurrency';
import { forgetRemembered } from '../../nodes/shared/transport/pace/remembered';
import { seededRandom } from '../../sandbox/src/util';

const MAIN = (ratio: string, ours = '896 ms') =>
	[
		'| Metric | Ours | Baseline | Ratio (ours / baseline) | Baseline is |',
		'|---|---:|---:|---:|---|',
		`| Job Get, 1,000 input items: wall time (median of 7) | ${ours} | 583 ms | ${ratio} | n's HTTP Request node |`,
		`| Job Get, 1,000 input items: wall time (median of 7) | ${ours} | 1141 ms | 0.79× | our node at a fixed 8 |`,
	].join('\n');

const CHECKS = (best: string, measured: string, failed = '0, 0') =>
	[
		'### Parallel Requests Auto against a service with a network',
		'',
		'| Check | Measured | Target | Met |',
		'|---|---:|---:|---|',
		`| Capacity-limited: Auto, first execution / best fixed (${best}) | ${measured} | ≤ 1.20× | yes |`,
		`| Capacity-limited: Auto items failed (first, second execution) | ${failed} | 0 | yes |`,
		'',
		'#### Healthy: 40 ± 10 ms, Job Get × 1,000 (median of 3)',
		'',
		'| Variant | Wall time (fastest–slowest) | Client CPU |',
		'|---|---:|---:|',
		'| Auto, first execution | 1,608 ms (1534–1735) | 1726 ms |',
	].join('\n');

describe('parseRows', () => {
	it("reads the main table's ratio, keyed by the metric and what it is against", () => {
		const rows = parseRows(MAIN('1.54×'));
		expect(rows).toHaveLength(2);
		expect(rows[0].figure).toBe('1.54×');
		expect(rows[1].figure).toBe('0.79×');
		expect(rows[0].key).not.toBe(rows[1].key);
	});

	it('keys a check without what the run found in brackets, and a variant by its table', () => {
		const [check, failed, variant] = parseRows(CHECKS('Fixed 64', '1.11×'));
		expect(check.key).toBe(parseRows(CHECKS('Fixed 80', '1.09×'))[0].key);
		expect(check.figure).toBe('1.11×');
		expect(failed.figure).toBe('0, 0');
		expect(variant.key).toBe('Healthy: 40 ± 10 ms, Job Get × 1,000 › Auto, first execution');
		expect(variant.figure).toBe('1,608 ms (1534–1735)');
	});
});

describe('compareRows', () => {
	const verdicts = (base: string, head1: string, head2: string) =>
		compareRows(parseRows(base), parseRows(head1), parseRows(head2), 'abc1234');

	it('is within the noise when the base is no further from the mean of the head runs than they are apart', () => {
		const { lines, within, outside } = verdicts(MAIN('1.50×'), MAIN('1.40×'), MAIN('1.54×'));
		expect(lines[2]).toContain('| 1.50× | 1.40× | 1.54× | 0.14 | 0.03 | within the noise |');
		expect([within, outside]).toEqual([2, 0]);
	});

	it('is outside the noise when the base is further than that, and says which way the head went', () => {
		const { lines, outside } = verdicts(MAIN('1.31×'), MAIN('1.10×'), MAIN('1.14×'));
		expect(lines[2]).toContain('**outside the noise**: head lower');
		expect(outside).toBe(1);
		expect(verdicts(MAIN('1.00×'), MAIN('1.10×'), MAIN('1.14×')).lines[2]).toContain('head higher');
	});

	it('compares figures that are not one number as printed', () => {
		const same = verdicts(CHECKS('Fixed 64', '1.1×'), CHECKS('Fixed 64', '1.1×'), CHECKS('Fixed 64', '1.1×'));
		expect(same.lines.find((line) => line.includes('items failed'))).toContain('the same in all three');
		const differs = verdicts(CHECKS('Fixed 64', '1.1×', '0, 1'), CHECKS('Fixed 64', '1.1×'), CHECKS('Fixed 64', '1.1×'));
		expect(differs.lines.find((line) => line.includes('items failed'))).toContain('**differs**');
	});

	it('lists a row only one side printed, never drops it', () => {
		const { lines, oneSided } = verdicts(MAIN('1.31×'), `${MAIN('1.2×')}\n\n${CHECKS('Fixed 64', '1.1×')}`, `${MAIN('1.2×')}\n\n${CHECKS('Fixed 64', '1.1×')}`);
		expect(oneSided).toBe(3);
		expect(lines.filter((line) => line.includes('the base bench has no such row'))).toHaveLength(3);
	});

	it('counts the rows outside by the way the head went, and the rows whose runs varied', () => {
		const rows = (first: string, second: string) =>
			[
				'| Metric | Ours | Baseline | Ratio (ours / baseline) | Baseline is |',
				'|---|---:|---:|---:|---|',
				`| Job Get: wall time (median of 7) | 1 ms | 1 ms | ${first} | n's HTTP Request node |`,
				`| Job Get: wall time (median of 7) | 1 ms | 1 ms | ${second} | our node at a fixed 8 |`,
				'| Job Get: requests | 1 | 1 | 1.00× | plain client |',
			].join('\n');
		const up = verdicts(rows('1.00×', '1.00×'), rows('1.30×', '1.01×'), rows('1.32×', '0.99×'));
		expect([up.higher, up.lower, up.outside, up.varying]).toEqual([1, 0, 1, 2]);
		const down = verdicts(rows('1.00×', '1.00×'), rows('0.70×', '1.00×'), rows('0.72×', '1.00×'));
		expect([down.higher, down.lower, down.outside, down.varying]).toEqual([0, 1, 1, 1]);
	});

	it("states chance's share of rows outside as a simulation of three draws of one distribution gives it", () => {
		// Box-Muller on a seeded generator: base, head run 1 and head run 2 from one normal distribution.
		const random = seededRandom(7);
		const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
		const draws = 40_000;
		let outside = 0;
		for (let i = 0; i < draws; i++) {
			const [base, run1, run2] = [normal(), normal(), normal()];
			if (Math.abs(base - (run1 + run2) / 2) > Math.abs(run1 - run2)) outside++;
		}
		expect(Math.abs(outside / draws - OUTSIDE_BY_CHANCE)).toBeLessThan(0.01);
	});
});

describe('flagsFor', () => {
	it("passes the flags the base's bench knows, with their values, and names the others", () => {
		const known = new Set(['rounds', 'no-memory']);
		const takesValue = (name: string) => name === 'rounds' || name === 'only';
		expect(flagsFor(['--rounds', '3', '--only', 'healthy', '--no-memory', '--new-flag'], known, takesValue)).toEqual({
			pass: ['--rounds', '3', '--no-memory'],
			dropped: ['--only', 'healthy', '--new-flag'],
		});
	});
});

describe("forgetterOf: how a base's Auto run is made a first execution", () => {
	const made: string[] = [];
	afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
	const checkout = (file: string[], source: string): string => {
		const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ftm-forgetter-'));
		made.push(root);
		fs.mkdirSync(path.join(root, ...file.slice(0, -1)), { recursive: true });
		fs.writeFileSync(path.join(root, ...file), source);
		return root;
	};

	it("finds 438b4c0's learnt.ts, where the pacing kept what Auto learnt before nodes/shared/", () => {
		const root = checkout(['nodes', 'FileTransferManager', 'transport', 'learnt.ts'], 'export const calls: string[] = [];\nexport function forgetLearntLimits(): void { calls.push("forgot"); }\n');
		forgetterOf(root)();
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		expect((require(path.join(root, 'nodes', 'FileTransferManager', 'transport', 'learnt.ts')) as { calls: string[] }).calls).toEqual(['forgot']);
	});

	it('finds this checkout\'s remembered.ts, and refuses a checkout with neither', () => {
		expect(forgetterOf(path.resolve(__dirname, '..', '..'))).toBe(forgetRemembered);
		expect(() => forgetterOf(checkout(['README.md'], ''))).toThrow(/no module that keeps what Auto learnt/);
	});
});
