/**
 * What `npm test` reports of its stages after the table: their failures, and their CPU time.
 *
 * CI keeps only the end of a run's output. The e2e stage prints its failures long before the queue stage ends, so
 * without the failure report a red run says which stage failed but not which test, nor why.
 */

/** Lines kept of each failure's explanation after its "●" heading; stack frames and blank lines are left out. */
export const LINES_PER_FAILURE = 30;
/** Bound of the whole report, so that a stage that fails everywhere cannot bury the table. */
export const MAX_FAILURE_LINES = 400;

export class FailureReport {
	readonly lines: string[] = [];

	/** A line sink for one stage: keeps jest's "FAIL <file>" lines and each "●" heading with the lines under it. */
	collector(stage: string): (line: string) => void {
		let left = 0;
		const keep = (line: string) => {
			if (this.lines.length < MAX_FAILURE_LINES) this.lines.push(`[${stage}] ${line}`);
		};
		return (line: string) => {
			if (/^FAIL /.test(line)) {
				keep(line);
				left = 0;
			} else if (/^\s+● /.test(line) && !/● Console/.test(line)) {
				keep(line);
				left = LINES_PER_FAILURE;
			} else if (left > 0) {
				left -= 1;
				if (!/^\s+at /.test(line) && line.trim() !== '') keep(line);
			}
		};
	}
}

/** bash's `times` prints the shell's own user and system time, then its children's: "1m2.345s 0m6.789s". */
export function childCpuSeconds(times: string): number | undefined {
	const children = times.trim().split('\n')[1];
	const parts = children?.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
	if (!parts) return undefined;
	const [, um, us, sm, ss] = parts.map(Number);
	return um * 60 + us + sm * 60 + ss;
}
