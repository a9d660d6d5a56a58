/**
 * A stand-in for OpenAI on 127.0.0.1: no language model, a script decides each answer from the conversation it
 * is sent. n8n 2.41.1's OpenAI Chat Model (typeVersion 1.3, its **Use Responses API** on by default) calls the
 * Responses API, `POST <base URL>/responses`, through LangChain's ChatOpenAI, without a stream when the agent
 * does not stream to a chat (a run from the editor's chat, or a Chat Trigger answering with the last node).
 * That is the one shape served; any other request (Chat Completions, a stream) is answered 400 with what was
 * asked, so that a change on n8n's side shows as a failure that says so. Plain `node:http`.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One turn of the conversation as the model receives it. */
export type Turn =
	| { kind: 'system' | 'user' | 'assistant'; text: string }
	| { kind: 'call'; callId: string; name: string; args: Record<string, unknown> }
	| { kind: 'result'; callId: string; name: string; output: string };

/** What the script answers: a tool call, or the final text. */
export type Reply = { call: string; args: Record<string, unknown> } | { text: string };

export interface ScriptedModel {
	/** The base URL to give n8n's OpenAI credential (…/v1). */
	baseUrl: string;
	/** Every request answered, in order: its path, the turns it held and the names of the tools it offered. */
	requests: Array<{ path: string; turns: Turn[]; tools: string[] }>;
	close(): Promise<void>;
}

const text = (content: unknown): string => {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part: unknown) => (typeof part === 'string' ? part : typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : ''))
			.join('');
	}
	return '';
};

const parseArgs = (raw: unknown): Record<string, unknown> => {
	if (raw && typeof raw === 'object') return raw as Record<string, unknown>;
	try {
		return JSON.parse(String(raw)) as Record<string, unknown>;
	} catch {
		return {};
	}
};

/** The turns of a Responses API request (`input`, with `instructions` as the system turn). */
function responsesTurns(body: Record<string, unknown>): Turn[] {
	const turns: Turn[] = [];
	const names = new Map<string, string>();
	if (typeof body.instructions === 'string') turns.push({ kind: 'system', text: body.instructions });
	const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input as unknown[]) ?? []);
	for (const raw of input) {
		const item = raw as Record<string, unknown>;
		if (item.type === 'function_call') {
			const callId = String(item.call_id);
			names.set(callId, String(item.name));
			turns.push({ kind: 'call', callId, name: String(item.name), args: parseArgs(item.arguments) });
		} else if (item.type === 'function_call_output') {
			const callId = String(item.call_id);
			turns.push({ kind: 'result', callId, name: names.get(callId) ?? '', output: text(item.output) });
		} else if (item.role === 'system' || item.role === 'developer') {
			turns.push({ kind: 'system', text: text(item.content) });
		} else if (item.role === 'user' || item.role === 'assistant') {
			turns.push({ kind: item.role, text: text(item.content) });
		}
	}
	return turns;
}

const toolNames = (body: Record<string, unknown>): string[] =>
	((body.tools as Array<Record<string, unknown>> | undefined) ?? []).map((tool) =>
		String(tool.name ?? (tool.function as Record<string, unknown> | undefined)?.name ?? ''),
	);

/** Starts the server; `script` decides each answer. */
export async function startScriptedModel(script: (turns: Turn[]) => Reply): Promise<ScriptedModel> {
	const requests: ScriptedModel['requests'] = [];
	let counter = 0;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const path = (req.url ?? '').split('?')[0];
			const fail = (status: number, message: string) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
			};
			let body: Record<string, unknown>;
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
			} catch {
				return fail(400, 'body is not JSON');
			}
			const stream = body.stream === true;
			if (req.method !== 'POST' || !path.endsWith('/responses') || stream) {
				return fail(400, `the scripted model answers only POST /responses without a stream, not ${req.method} ${path}${stream ? ' with stream: true' : ''}`);
			}
			const turns = responsesTurns(body);
			requests.push({ path, turns, tools: toolNames(body) });
			let reply: Reply;
			try {
				reply = script(turns);
			} catch (error) {
				return fail(500, `the script failed: ${(error as Error).message}`);
			}
			sendResponse(res, ++counter, String(body.model ?? 'scripted'), reply);
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const USAGE = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };

function sendResponse(res: http.ServerResponse, n: number, model: string, reply: Reply): void {
	const item =
		'call' in reply
			? { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: reply.call, arguments: JSON.stringify(reply.args), status: 'completed' }
			: {
					type: 'message',
					id: `msg_${n}`,
					role: 'assistant',
					status: 'completed',
					content: [{ type: 'output_text', text: reply.text, annotations: [] }],
				};
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(
		JSON.stringify({
			id: `resp_${n}`,
			object: 'response',
			created_at: Math.floor(Date.now() / 1000),
			status: 'completed',
			error: null,
			incomplete_details: null,
			model,
			output: [item],
			parallel_tool_calls: true,
			tool_choice: 'auto',
			tools: [],
			usage: USAGE,
		}),
	);
}
