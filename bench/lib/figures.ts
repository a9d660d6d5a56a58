/** How the benchmarks write their figures, shared by run.ts and concurrency.ts. */

export const ms = (value: number) => `${value.toFixed(0)} ms`;

export const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
