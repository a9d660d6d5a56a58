/**
 * The JSON blocks of the user documentation (README.md, docs/*.md) and what they claim.
 *
 * Every ```json block is preceded by an HTML comment that says what it is:
 *
 * - `<!-- output: {…} -->`: the output of a node for the parameters the comment gives. The output-example test
 *   (test/docs/output-examples.test.ts) runs the node against the sandbox and compares: the same keys in the
 *   same order, the same values, except at the paths listed in `vary` (ids and times of records the run
 *   creates), where the type and the form (UUID, ISO time) must match.
 * - `<!-- json: <why it is not a node's output> -->`: anything else (a state, a request body).
 *
 * A block with neither fails the guard, so an output example cannot be added unchecked.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');

/** The pages whose JSON blocks are checked. */
export function documentationPages(): string[] {
	const docs = fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => `docs/${name}`);
	return ['README.md', ...docs];
}

/** One step of a scenario's set-up: a method of the sandbox's `control`, its arguments, and a name for its result. */
interface SetupStep {
	call: [string, ...unknown[]];
	as?: string;
}

/** What an `output` comment says. */
export interface OutputSpec {
	/** `action` (default): the action node in a workflow; `tool`: as an AI agent's tool; `trigger`: a poll. */
	node?: 'action' | 'tool' | 'trigger';
	/** The node's parameters. A string `$name.path` is the value at `path` of an earlier output or set-up result of the page. */
	parameters: Record<string, unknown>;
	/** The sandbox: its deviation modes (one sandbox per distinct list). */
	deviations?: string[];
	/** Steps before the run (for the trigger: after its first activation, before the poll whose items are shown). */
	setup?: SetupStep[];
	/** Only the output items that have these values (e.g. one check of Check Compatibility). */
	pick?: Record<string, unknown>;
	/** The block shows the items as a list (default: a single item as an object, several as a list). */
	list?: boolean;
	/** Paths whose values differ from run to run (`stats.startedAt`, `*.id`: `*` is any key or index). */
	vary?: string[];
	/** A name under which later examples of the page refer to this output (`$name.id`). */
	as?: string;
}

export interface JsonBlock {
	file: string;
	/** 1-based line of the ```json fence. */
	line: number;
	/** The block's text, between the fences. */
	text: string;
	/** Character offsets of that text in the file (for rewriting it). */
	start: number;
	end: number;
	/** `output` with its spec, `other` with its reason, or `unmarked`. */
	kind: 'output' | 'other' | 'unmarked';
	spec?: OutputSpec;
	reason?: string;
	/** A comment that could not be read, with the reason. */
	badMarker?: string;
}

const FENCE = /^```json[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
/** The HTML comment right before a block (only blank lines between them). */
const MARKER = /^<!--\s*(output|json):([\s\S]*)-->$/;

export function jsonBlocks(file: string): JsonBlock[] {
	const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
	const blocks: JsonBlock[] = [];
	for (const match of source.matchAll(FENCE)) {
		const fenceAt = match.index ?? 0;
		const start = fenceAt + match[0].indexOf('\n') + 1;
		const block: JsonBlock = {
			file,
			line: source.slice(0, fenceAt).split('\n').length,
			text: match[1],
			start,
			end: start + match[1].length,
			kind: 'unmarked',
		};
		const before = source.slice(0, fenceAt).trimEnd();
		const marker = before.endsWith('-->') ? MARKER.exec(before.slice(before.lastIndexOf('<!--'))) : null;
		if (marker) {
			if (marker[1] === 'json') {
				block.kind = 'other';
				block.reason = marker[2].trim();
			} else {
				block.kind = 'output';
				try {
					block.spec = JSON.parse(marker[2]) as OutputSpec;
				} catch (error) {
					block.badMarker = `the output comment is not JSON: ${(error as Error).message}`;
				}
			}
		}
		blocks.push(block);
	}
	return blocks;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

function pathMatches(pattern: string, at: string): boolean {
	const a = pattern.split('.');
	const b = at.split('.');
	return a.length === b.length && a.every((part, i) => part === '*' || part === b[i]);
}

/**
 * The differences between what a page shows and what the node output, one line each; none when they agree.
 * Keys and their order must agree everywhere; values must be equal, except at the `vary` paths, where the
 * type must agree, and a UUID or an ISO time must be one in both.
 */
export function differences(shown: unknown, real: unknown, vary: string[] = [], at = ''): string[] {
	const name = at === '' ? '(the whole output)' : at;
	const varies = at !== '' && vary.some((pattern) => pathMatches(pattern, at));
	if (kindOf(shown) !== kindOf(real)) {
		return [`${name}: the page shows ${JSON.stringify(shown)}, the node output ${JSON.stringify(real)}`];
	}
	if (Array.isArray(shown) && Array.isArray(real)) {
		if (varies) return [];
		if (shown.length !== real.length) {
			return [`${name}: the page shows ${shown.length} entries, the node output ${real.length}`];
		}
		return shown.flatMap((entry, i) => differences(entry, real[i], vary, at === '' ? String(i) : `${at}.${i}`));
	}
	if (kindOf(shown) === 'object') {
		const a = shown as Record<string, unknown>;
		const b = real as Record<string, unknown>;
		const out: string[] = [];
		const missing = Object.keys(b).filter((key) => !(key in a));
		const extra = Object.keys(a).filter((key) => !(key in b));
		if (missing.length) out.push(`${name}: the node outputs ${missing.map((k) => `"${k}"`).join(', ')}, which the page does not show`);
		if (extra.length) out.push(`${name}: the page shows ${extra.map((k) => `"${k}"`).join(', ')}, which the node does not output`);
		if (!missing.length && !extra.length && Object.keys(a).join() !== Object.keys(b).join()) {
			out.push(`${name}: the keys come in another order: the page ${Object.keys(a).join(', ')}; the node ${Object.keys(b).join(', ')}`);
		}
		if (varies) return out;
		for (const key of Object.keys(a)) {
			if (key in b) out.push(...differences(a[key], b[key], vary, at === '' ? key : `${at}.${key}`));
		}
		return out;
	}
	if (varies) {
		for (const [form, pattern] of [['a UUID', UUID], ['an ISO time', ISO_TIME]] as const) {
			if (typeof shown === 'string' && pattern.test(shown) !== pattern.test(String(real))) {
				return [`${name}: the page shows ${JSON.stringify(shown)} and the node output ${JSON.stringify(real)}: only one of them is ${form}`];
			}
		}
		return [];
	}
	return shown === real ? [] : [`${name}: the page shows ${JSON.stringify(shown)}, the node output ${JSON.stringify(real)}`];
}

/**
 * The real output with the page's values kept at the `vary` paths where they have the same form, so that
 * writing the outputs into a page (FTM_UPDATE_DOCS=1) does not stamp it with the ids and times of that run.
 */
export function keepShownVarying(shown: unknown, real: unknown, vary: string[] = [], at = ''): unknown {
	if (at !== '' && vary.some((pattern) => pathMatches(pattern, at))) {
		return differences(shown, real, vary, at).length === 0 && kindOf(shown) !== 'object' ? shown : real;
	}
	if (Array.isArray(real)) {
		return real.map((entry, i) => keepShownVarying(Array.isArray(shown) ? shown[i] : undefined, entry, vary, at === '' ? String(i) : `${at}.${i}`));
	}
	if (kindOf(real) === 'object') {
		const source = kindOf(shown) === 'object' ? (shown as Record<string, unknown>) : {};
		return Object.fromEntries(
			Object.entries(real as Record<string, unknown>).map(([key, entry]) => [key, keepShownVarying(source[key], entry, vary, at === '' ? key : `${at}.${key}`)]),
		);
	}
	return real;
}

/** A value at a dotted path (`id`, `0.id`), or undefined. */
export function valueAt(value: unknown, at: string): unknown {
	let current = value;
	for (const part of at.split('.').filter((p) => p !== '')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string, unknown>)[part];
	}
	return current;
}

/**
 * Replaces every string `$name.path` in a parameter value by the value it names, and `$now-<n>s` by the ISO
 * time n seconds ago (a job started a moment before the example's run).
 */
export function resolveReferences(value: unknown, named: Record<string, unknown>): unknown {
	const ago = typeof value === 'string' ? /^\$now-(\d+)s$/.exec(value) : null;
	if (ago) return new Date(Date.now() - Number(ago[1]) * 1000).toISOString();
	if (typeof value === 'string' && value.startsWith('$')) {
		const [name, ...rest] = value.slice(1).split('.');
		if (!(name in named)) throw new Error(`"${value}" names no earlier output or set-up result of the page`);
		return valueAt(named[name], rest.join('.'));
	}
	if (Array.isArray(value)) return value.map((entry) => resolveReferences(entry, named));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, resolveReferences(entry, named)]));
	}
	return value;
}

const WIDTH = 116;

/** JSON as the pages write it: an object or list on one line when it fits and is not the whole output. */
export function formatJson(value: unknown, indent = 0): string {
	const inline = (v: unknown): string =>
		Array.isArray(v)
			? `[${v.map(inline).join(', ')}]`
			: v && typeof v === 'object'
				? Object.keys(v).length === 0
					? '{}'
					: `{ ${Object.entries(v).map(([k, e]) => `${JSON.stringify(k)}: ${inline(e)}`).join(', ')} }`
				: JSON.stringify(v);
	if (value === null || typeof value !== 'object') return JSON.stringify(value);
	const one = inline(value);
	if (indent > 0 && one.length + indent + 20 <= WIDTH) return one;
	const pad = '  '.repeat(indent / 2 + 1);
	const close = '  '.repeat(indent / 2);
	if (Array.isArray(value)) {
		if (value.length === 0) return '[]';
		return `[\n${value.map((entry) => pad + formatJson(entry, indent + 2)).join(',\n')}\n${close}]`;
	}
	const entries = Object.entries(value);
	if (entries.length === 0) return '{}';
	return `{\n${entries.map(([key, entry]) => `${pad}${JSON.stringify(key)}: ${formatJson(entry, indent + 2)}`).join(',\n')}\n${close}}`;
}
