// @ts-nocheck
import { childCpuSeconds, FailureReport, LINES_PER_FAILURE, MAX_FAILURE_LINES } from '../../scripts/stageReport';

const feed = (report: FailureReport, stage: string, text: string) => {
	const sink = report.collector(stage);
	for (const line of text.split('\n')) sink(line);
};

describe('npm test › the failure report after the table', () => {
	it('keeps the failed file, the failed test and its explanation, without stack frames or passing output', () => {
		const report = new FailureReport();
		feed(
			report,
			'e2e',
			[
				'PASS e2e test/e2e/errors.test.ts (31.955 s)',
				'  ● Console',
				'    console.log',
				'      noise from a passing test',
				'FAIL e2e test/e2e/poll-drain.test.ts (61.2 s)',
				'  ● poll drain › delivers every job once',
				'',
				'    expect(received).toBe(expected)',
				'    Expected: 0',
				'    Received: 3',
				'      at Object.<anonymous> (test/e2e/poll-drain.test.ts:120:5)',
			].join('\n'),
		);
		expect(report.lines).toEqual([
			'[e2e] FAIL e2e test/e2e/poll-drain.test.ts (61.2 s)',
			'[e2e]   ● poll drain › delivers every job once',
			'[e2e]     expect(received).toBe(expected)',
			'[e2e]     Expected: 0',
			'[e2e]     Received: 3',
		]);
	});

	it('keeps a bounded explanation per failure and a bounded report', () => {
		const report = new FailureReport();
		const long = Array.from({ length: LINES_PER_FAILURE + 20 }, (_, i) => `    detail ${i}`);
		feed(report, 'unit', ['  ● one', ...long, 'after the block'].join('\n'));
		expect(report.lines).toHaveLength(1 + LINES_PER_FAILURE);
		expect(report.lines).not.toContain('[unit] after the block');

		const many = Array.from({ length: MAX_FAILURE_LINES * 2 }, (_, i) => `FAIL unit test/${i}.test.ts`);
		feed(report, 'unit', many.join('\n'));
		expect(report.lines).toHaveLength(MAX_FAILURE_LINES);
	});
});

describe('npm test › the CPU time of a stage', () => {
	it("reads the children's line of bash's `times`", () => {
		expect(childCpuSeconds('0m0.012s 0m0.004s\n1m20.500s 0m9.250s\n')).toBeCloseTo(89.75, 5);
	});

	it('gives nothing for output it cannot read', () => {
		expect(childCpuSeconds('')).toBeUndefined();
		expect(childCpuSeconds('0m0.012s 0m0.004s\n')).toBeUndefined();
	});
});
