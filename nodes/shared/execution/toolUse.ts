/**
 * The node run as an AI agent's tool (n8n's AI Agent, the MCP Server Trigger): n8n runs the same node under
 * the type `<package>.fileTransferManagerTool` (its name with "Tool" appended, in n8n 1.x and 2.x). A model
 * reads only the messages and the output, so what differs there is worded for it here, in one place: the
 * input error of an ID (what the parameter must be, what it got, where to find one) and the API's 404 of a
 * record (which record was not found). docs/operations.md › As an AI agent tool.
 */
import type { INode } from 'n8n-workflow';

/** Whether the node runs as a tool: its type's last part ends with "Tool", as n8n names the tool variant. */
export function isToolUse(node: Pick<INode, 'type'>): boolean {
	const type = typeof node.type === 'string' ? node.type : '';
	return (type.split('.').pop() ?? '').endsWith('Tool');
}

/** The records an ID can name, and how a model finds one of each. */
export type RecordKind = 'job' | 'dryRun' | 'storage' | 'user' | 'group' | 'account';

const RECORDS: Readonly<Record<RecordKind, { what: string; find: string }>> = {
	job: { what: "a job's UUID", find: 'list jobs with Job › Get Many' },
	dryRun: { what: "a finished dry run's UUID", find: 'list dry runs with Job › Get Many (filter Dry Run on)' },
	storage: { what: "a storage's UUID", find: 'list storages with Storage › Get Many' },
	user: { what: "a user's UUID", find: 'list users with User › Get Many' },
	group: { what: "a group's UUID", find: 'list groups with Group › Get Many' },
	account: { what: "an account's UUID", find: 'list accounts with Account › Get Many' },
};

/** The record kind of an ID parameter, by its name (`jobId`, `sourceStorageId`, `filters.accountId`, …). */
export function recordKindOf(parameter: string): RecordKind | undefined {
	const name = parameter.split('.').pop() ?? '';
	if (name === 'jobId') return 'job';
	if (/^(source|target)?[sS]torageId$/.test(name)) return 'storage';
	if (name === 'userId') return 'user';
	if (name === 'groupId') return 'group';
	if (name === 'accountId') return 'account';
	return undefined;
}

const SHOWN_MAX = 80;

function shownValue(value: unknown): string {
	let text: string;
	try {
		text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
	} catch {
		text = String(value);
	}
	return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text;
}

/** The start of a `$fromAI(` call, in any of the spellings n8n's expressions accept (`$fromAI`, `$fromAi`, `$fromai`). */
const FROM_AI_CALL = String.raw`\$fromai\s*\(`;
const FROM_AI_KEY = new RegExp(`${FROM_AI_CALL}\\s*(['"\`])([A-Za-z0-9_-]{1,64})\\1`, 'i');

/** The key of the first `$fromAI('key', …)` in a raw parameter value (a text, or a locator's `value`). */
function fromAiKeyIn(raw: unknown): string | undefined {
	const value = raw !== null && typeof raw === 'object' && 'value' in raw ? (raw as { value: unknown }).value : raw;
	if (typeof value !== 'string') return undefined;
	return FROM_AI_KEY.exec(value)?.[2];
}

/** The raw value at a dotted parameter path (`additionalFields.groupId`), or undefined. */
export function rawParameterAt(parameters: unknown, path: string): unknown {
	let raw: unknown = parameters;
	for (const part of path.split('.')) {
		raw = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[part] : undefined;
	}
	return raw;
}

/**
 * Whether a raw parameter value (a text, a locator, a collection or a list, at any depth) calls `$fromAI()`,
 * in any of its spellings.
 */
export function holdsFromAi(raw: unknown): boolean {
	if (typeof raw === 'string') return new RegExp(FROM_AI_CALL, 'i').test(raw);
	if (Array.isArray(raw)) return raw.some(holdsFromAi);
	if (raw !== null && typeof raw === 'object') return Object.values(raw).some(holdsFromAi);
	return false;
}

/**
 * The name a model knows a parameter by: the key of the `$fromAI()` that fills it (what the model sent),
 * else the parameter's own name (`jobId`, `additionalFields.groupId` → `groupId`).
 */
export function toolParameterName(node: Pick<INode, 'parameters'>, parameter: string): string {
	return fromAiKeyIn(rawParameterAt(node.parameters, parameter)) ?? parameter.split('.').pop() ?? parameter;
}

/**
 * The input error of an ID in tool use: `jobId must be a job's UUID (got "abc"); list jobs with Job › Get
 * Many to find one`. No item number (a tool call is one item) and no editor hint.
 */
export function toolIdProblem(node: Pick<INode, 'parameters'>, parameter: string, kind: RecordKind, value: unknown): string {
	const { what, find } = RECORDS[kind];
	return `${toolParameterName(node, parameter)} must be ${what} (got ${shownValue(value)}); ${find} to find one`;
}

const RECORD_PATHS: Readonly<Record<string, Exclude<RecordKind, 'dryRun'>>> = {
	jobs: 'job',
	storages: 'storage',
	users: 'user',
	groups: 'group',
	accounts: 'account',
};

/**
 * The record a route path names (`/jobs/<id>`, `/jobs/<id>/transfers`, `/storages/<id>`, …), with the words
 * a 404 of it gets in tool use: `no job with ID <id> exists; list jobs with Job › Get Many to find one`.
 */
export function notFoundInToolUse(path: string): string | undefined {
	const match = /^\/(jobs|storages|users|groups|accounts)\/([^/?#]+)/.exec(path);
	if (!match) return undefined;
	const kind = RECORD_PATHS[match[1]];
	return `no ${kind} with ID ${match[2]} exists; ${RECORDS[kind].find} to find one`;
}
