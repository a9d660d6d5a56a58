/**
 * CPU profiles of a workload taken in-process with node:inspector, summarised by where the CPU time
 * went (by package / our code / Node internals) and by a few functions of interest (inclusive time).
 */
import { Session } from 'node:inspector/promises';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

export interface ProfileSummary {
	wallMs: number;
	/** CPU time by category, in ms, largest first. */
	categories: Array<{ name: string; ms: number }>;
	/** Inclusive CPU time of the named functions, in ms. */
	inclusive: Record<string, number>;
	/** Top functions by self time. */
	top: Array<{ name: string; ms: number }>;
}

/** Runs `work` under the V8 sampling profiler (100 µs interval) and summarises the profile. */
export async function profile(work: () => Promise<unknown>, inclusiveOf: string[]): Promise<ProfileSummary> {
	const session = new Session();
	session.connect();
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 100 });
		await session.post('Profiler.start');
		await work();
		const { profile: result } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
		return summarise(result, inclusiveOf);
	} finally {
		session.disconnect();
	}
}

function category(frame: ProfileNode['callFrame']): string {
	const { url, functionName } = frame;
	if (url === '') {
		if (/^\((idle|program|garbage collector|root)\)$/.test(functionName)) return functionName;
		return 'V8 builtin';
	}
	const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
	if (pkg) {
		if (pkg === 'follow-redirects' || pkg === 'axios' || pkg === 'form-data' || pkg === 'proxy-from-env') return 'axios';
		return pkg;
	}
	if (url.startsWith('node:')) {
		if (/^node:(_http|http|net|dns|internal\/(http|net|dns|stream_base|streams))/.test(url)) return 'Node http/net/streams';
		return 'Node internals (other)';
	}
	if (url.includes('/test/harness/')) return 'test harness (credentials helper)';
	if (url.includes('/nodes/')) return 'our node code (nodes/)';
	if (url.includes('/bench/')) return 'bench code';
	if (url.includes('/tsx/')) return 'tsx loader';
	return url;
}

function summarise(profile: CpuProfile, inclusiveOf: string[]): ProfileSummary {
	const byId = new Map<number, ProfileNode>();
	const parent = new Map<number, number>();
	for (const node of profile.nodes) {
		byId.set(node.id, node);
		for (const child of node.children ?? []) parent.set(child, node.id);
	}
	const self = new Map<number, number>();
	for (let i = 0; i < profile.samples.length; i++) {
		const delta = (profile.timeDeltas[i + 1] ?? 0) / 1000;
		self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + delta);
	}
	const categories = new Map<string, number>();
	const functions = new Map<string, number>();
	const inclusive = new Map<string, number>(inclusiveOf.map((name) => [name, 0]));
	for (const [id, ms] of self) {
		const node = byId.get(id);
		if (!node) continue;
		// A builtin (JSON.parse, RegExp#exec, Socket connect, ...) counts for the code that called it.
		let name = category(node.callFrame);
		for (let at = parent.get(id); name === 'V8 builtin' && at !== undefined; at = parent.get(at)) {
			const frame = byId.get(at)?.callFrame;
			if (frame && frame.url !== '') name = category(frame);
		}
		categories.set(name, (categories.get(name) ?? 0) + ms);
		const fn = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/main\//, '')}`;
		functions.set(fn, (functions.get(fn) ?? 0) + ms);
		const onStack = new Set<string>();
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const frameName = byId.get(at)?.callFrame.functionName;
			if (frameName && inclusive.has(frameName)) onStack.add(frameName);
		}
		for (const frameName of onStack) inclusive.set(frameName, (inclusive.get(frameName) ?? 0) + ms);
	}
	const sorted = (map: Map<string, number>) =>
		[...map].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
	return {
		wallMs: (profile.endTime - profile.startTime) / 1000,
		categories: sorted(categories),
		inclusive: Object.fromEntries(inclusive),
		top: sorted(functions).slice(0, 15),
	};
}
