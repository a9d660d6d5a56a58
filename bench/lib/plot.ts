/**
 * A small SVG line chart, written by hand (no dependency): step lines of one or more series over time, with
 * axes, ticks and a legend. Used for the trace of requests in flight in bench/concurrency.ts.
 */

interface Series {
	label: string;
	/** [time in ms from the start, value], in time order. */
	points: Array<[number, number]>;
	color: string;
	/** A dashed line (for a reference, e.g. the service's capacity). */
	dashed?: boolean;
}

export interface Chart {
	title: string;
	xLabel: string;
	yLabel: string;
	series: Series[];
	width?: number;
	height?: number;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A "nice" step for about `count` ticks over `span` (1, 2 or 5 times a power of ten). */
function niceStep(span: number, count: number): number {
	const raw = span / Math.max(1, count);
	const power = 10 ** Math.floor(Math.log10(raw || 1));
	const fraction = raw / power;
	return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

export function lineChartSvg(chart: Chart): string {
	const width = chart.width ?? 720;
	const height = chart.height ?? 300;
	const margin = { left: 56, right: 16, top: 34, bottom: 62 };
	const plotW = width - margin.left - margin.right;
	const plotH = height - margin.top - margin.bottom;
	const all = chart.series.flatMap((s) => s.points);
	const maxX = Math.max(1, ...all.map(([x]) => x));
	const maxY = Math.max(1, ...all.map(([, y]) => y)) * 1.05;
	const x = (value: number) => margin.left + (value / maxX) * plotW;
	const y = (value: number) => margin.top + plotH - (value / maxY) * plotH;
	const out: string[] = [];
	out.push(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
		`<rect width="${width}" height="${height}" fill="white"/>`,
		`<text x="${width / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${escape(chart.title)}</text>`,
	);
	const xStep = niceStep(maxX, 8);
	for (let tick = 0; tick <= maxX; tick += xStep) {
		out.push(
			`<line x1="${x(tick)}" y1="${margin.top}" x2="${x(tick)}" y2="${margin.top + plotH}" stroke="#eee"/>`,
			`<text x="${x(tick)}" y="${margin.top + plotH + 14}" text-anchor="middle">${tick}</text>`,
		);
	}
	const yStep = niceStep(maxY, 5);
	for (let tick = 0; tick <= maxY; tick += yStep) {
		out.push(
			`<line x1="${margin.left}" y1="${y(tick)}" x2="${margin.left + plotW}" y2="${y(tick)}" stroke="#eee"/>`,
			`<text x="${margin.left - 6}" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`,
		);
	}
	out.push(
		`<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
		`<text x="${margin.left + plotW / 2}" y="${margin.top + plotH + 30}" text-anchor="middle">${escape(chart.xLabel)}</text>`,
		`<text transform="translate(14 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(chart.yLabel)}</text>`,
	);
	for (const series of chart.series) {
		if (series.points.length === 0) continue;
		// Steps: a value holds until the next point.
		let d = `M${x(series.points[0][0]).toFixed(1)},${y(series.points[0][1]).toFixed(1)}`;
		for (let i = 1; i < series.points.length; i++) {
			const [px, py] = series.points[i];
			d += `H${x(px).toFixed(1)}V${y(py).toFixed(1)}`;
		}
		const dash = series.dashed ? ' stroke-dasharray="5 4"' : '';
		out.push(`<path d="${d}" fill="none" stroke="${series.color}" stroke-width="1.5"${dash}/>`);
	}
	let legendX = margin.left;
	const legendY = height - 12;
	for (const series of chart.series) {
		const dash = series.dashed ? ' stroke-dasharray="5 4"' : '';
		out.push(
			`<line x1="${legendX}" y1="${legendY - 4}" x2="${legendX + 18}" y2="${legendY - 4}" stroke="${series.color}" stroke-width="2"${dash}/>`,
			`<text x="${legendX + 22}" y="${legendY}">${escape(series.label)}</text>`,
		);
		legendX += 30 + series.label.length * 6;
	}
	out.push('</svg>');
	return `${out.join('\n')}\n`;
}

/**
 * Requests in service at once over time, from each request's start and end (ms): a step series with a
 * point at every change, thinned to at most about 2 × `maxPoints`: per slice of time its highest value, then
 * the value it ends with (so that a level that drops inside a slice is not drawn across the gap after it).
 */
export function inFlightSeries(spans: Array<[number, number]>, maxPoints = 600): Array<[number, number]> {
	if (spans.length === 0) return [];
	const origin = Math.min(...spans.map(([start]) => start));
	const events: Array<[number, number]> = [];
	for (const [start, end] of spans) events.push([start - origin, 1], [Math.max(start, end) - origin, -1]);
	// Ends before starts at the same moment.
	events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	const points: Array<[number, number]> = [[0, 0]];
	let level = 0;
	for (const [at, change] of events) {
		level += change;
		points.push([at, level]);
	}
	const last = points[points.length - 1][0];
	const slice = Math.max(1, last / maxPoints);
	const thinned: Array<[number, number]> = [];
	let current: { slot: number; max: number; end: [number, number] } | undefined;
	const flush = () => {
		if (!current) return;
		thinned.push([current.slot, current.max]);
		if (current.end[1] !== current.max) thinned.push(current.end);
	};
	for (const [at, value] of points) {
		const slot = Math.floor(at / slice) * slice;
		if (current && current.slot === slot) {
			current.max = Math.max(current.max, value);
			current.end = [at, value];
		} else {
			flush();
			current = { slot, max: value, end: [at, value] };
		}
	}
	flush();
	thinned.push([last, 0]);
	return thinned;
}
