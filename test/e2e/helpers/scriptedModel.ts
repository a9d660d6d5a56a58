/**
 * A stand-in for OpenAI on 127.0.0.1: no language model, a script decides each answer from the conversation it
 * is sent. n8n 2.41.1's OpenAI Chat Model (typeVersion 1.3, its **Use Responses API** on by default) calls the
 * Responses API, `POST <base URL>/responses`, through LangChain's ChatOpenAI; the older Chat Completions API
 * (`POST <base URL>/chat/completions`, the node with Use Responses API off or before 1.3) is served too. Both
 * answer as JSON, or as server-sent events when the request asks for a stream. Plain `node:http`.
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
	/** Every request, in order: the API path, whether it asked for a stream, and the turns it held. */
	requests: Array<{ path: string; stream: boolean; turns: Turn[]; tools: string[] }>;
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

/** The turns of a Chat Completions request (`messages`). */
function chatTurns(body: Record<string, unknown>): Turn[] {
	const turns: Turn[] = [];
	const names = new Map<string, string>();
	for (const raw of (body.messages as unknown[]) ?? []) {
		const message = raw as Record<string, unknown>;
		if (message.role === 'tool') {
			const callId = String(message.tool_call_id);
			turns.push({ kind: 'result', callId, name: names.get(callId) ?? '', output: text(message.content) });
			continue;
		}
		const role = message.role === 'developer' ? 'system' : (message.role as 'system' | 'user' | 'assistant');
		if (text(message.content)) turns.push({ kind: role, text: text(message.content) });
		for (const call of (message.tool_calls as Array<Record<string, unknown>> | undefined) ?? []) {
			const fn = call.function as Record<string, unknown>;
			names.set(String(call.id), String(fn.name));
			turns.push({ kind: 'call', callId: String(call.id), name: String(fn.name), args: parseArgs(fn.arguments) });
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
			const responses = req.method === 'POST' && path.endsWith('/responses');
			const chat = req.method === 'POST' && path.endsWith('/chat/completions');
			if (!responses && !chat) return fail(404, `the scripted model serves POST /responses and /chat/completions, not ${req.method} ${path}`);
			const turns = responses ? responsesTurns(body) : chatTurns(body);
			const stream = body.stream === true;
			requests.push({ path, stream, turns, tools: toolNames(body) });
			let reply: Reply;
			try {
				reply = script(turns);
			} catch (error) {
				return fail(500, `the script failed: ${(error as Error).message}`);
			}
			const n = ++counter;
			const model = String(body.model ?? 'scripted');
			if (responses) sendResponses(res, n, model, reply, stream);
			else sendChat(res, n, model, reply, stream);
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

function sendResponses(res: http.ServerResponse, n: number, model: string, reply: Reply, stream: boolean): void {
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
	const response = {
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
	};
	if (!stream) {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(response));
		return;
	}
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	let sequence = 0;
	const event = (type: string, data: Record<string, unknown>) =>
		res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
	event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } });
	if ('call' in reply) {
		event('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
		event('response.function_call_arguments.delta', { output_index: 0, item_id: item.id, delta: JSON.stringify(reply.args) });
		event('response.function_call_arguments.done', { output_index: 0, item_id: item.id, arguments: JSON.stringify(reply.args) });
	} else {
		event('response.output_item.added', { output_index: 0, item: { ...item, content: [], status: 'in_progress' } });
		event('response.content_part.added', { output_index: 0, item_id: item.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
		event('response.output_text.delta', { output_index: 0, item_id: item.id, content_index: 0, delta: reply.text });
		event('response.output_text.done', { output_index: 0, item_id: item.id, content_index: 0, text: reply.text });
	}
	event('response.output_item.done', { output_index: 0, item });
	event('response.completed', { response });
	res.end();
}

function sendChat(res: http.ServerResponse, n: number, model: string, reply: Reply, stream: boolean): void {
	const toolCalls = 'call' in reply ? [{ id: `call_${n}`, type: 'function', function: { name: reply.call, arguments: JSON.stringify(reply.args) } }] : undefined;
	const message = { role: 'assistant', content: 'text' in reply ? reply.text : null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
	const finish = toolCalls ? 'tool_calls' : 'stop';
	const base = { id: `chatcmpl-${n}`, created: Math.floor(Date.now() / 1000), model };
	const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
	if (!stream) {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage }));
		return;
	}
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
		res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);
	chunk({ role: 'assistant', content: 'text' in reply ? reply.text : null, ...(toolCalls ? { tool_calls: toolCalls.map((call, index) => ({ index, ...call })) } : {}) }, null);
	chunk({}, finish);
	res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
	res.write('data: [DONE]\n\n');
	res.end();
}
