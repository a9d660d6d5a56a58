/**
 * What the transport reads from the error n8n's request helper throws. n8n 2.x keeps the request error as
 * the NodeApiError's `cause` (with its `response`); n8n 1.x clears `cause` and keeps only the answer's body
 * under `context.data` (with `encoding: 'stream'`, the response stream, which carries status and headers),
 * and for a failed token request only the message. Both shapes must give the same facts. The real n8n
 * versions are checked end to end by test/e2e/errors.test.ts in `npm run test:matrix`.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { failureFacts, noteTokenFailure } from '../../nodes/shared/transport/failure';
import type { TokenFailure } from '../../nodes/shared/transport/failure';
import { tokenMessage } from '../../nodes/shared/transport/token';

const ERROR_DOCUMENT = {
	errors: [{ status: '404', code: 'entity-not-found', title: 'Entity Not Found', detail: 'No such job.' }],
};

let server: http.Server;
let url: string;

beforeAll(async () => {
	server = http.createServer((_req, res) => {
		res.writeHead(404, { 'content-type': 'application/vnd.api+json', 'retry-after': '7' });
		res.end(JSON.stringify(ERROR_DOCUMENT));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs/x`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A response stream as axios hands it with `responseType: 'stream'`. */
function responseStream(): Promise<http.IncomingMessage> {
	return new Promise((resolve, reject) => http.get(url, resolve).on('error', reject));
}

const signal = () => new AbortController().signal;

describe('failureFacts', () => {
	it('n8n 2.x: the request error kept as cause, with its response', async () => {
		const stream = await responseStream();
		const requestError = Object.assign(new Error('Request failed with status code 404'), {
			response: { status: 404, headers: stream.headers, data: stream },
		});
		const wrapped = Object.assign(new Error('The resource you are requesting could not be found'), {
			httpCode: '404',
			cause: requestError,
		});
		const facts = await failureFacts(wrapped, 1024 * 1024, signal());
		expect(facts).toEqual(
			expect.objectContaining({ status: 404, body: ERROR_DOCUMENT, headers: expect.objectContaining({ 'retry-after': '7' }) }),
		);
	});

	it('n8n 1.x: no cause, the response stream under context.data: the same status, headers and body', async () => {
		const stream = await responseStream();
		const wrapped = Object.assign(new Error('The resource you are requesting could not be found'), {
			httpCode: '404',
			cause: undefined,
			context: { data: stream },
		});
		const facts = await failureFacts(wrapped, 1024 * 1024, signal());
		expect(facts).toEqual(
			expect.objectContaining({ status: 404, body: ERROR_DOCUMENT, headers: expect.objectContaining({ 'retry-after': '7' }) }),
		);
	});

	it('context.data that is not a response stream is not taken for one', async () => {
		const wrapped = Object.assign(new Error('Bad request'), { httpCode: '400', context: { data: { message: 'x' } } });
		const facts = await failureFacts(wrapped, 1024, signal());
		expect(facts.status).toBe(400);
		expect(facts.body).toBeUndefined();
		expect(facts.headers).toEqual({});
	});

	it('n8n 1.x: a failed token request is found again by its message, also when n8n rewrote the message', async () => {
		const failure: TokenFailure = { kind: 'refused', status: 401, oauthError: 'invalid_client', problem: 'HTTP 401 invalid_client' };
		noteTokenFailure(tokenMessage(failure), failure);
		const byMessage = await failureFacts(Object.assign(new Error(tokenMessage(failure)), { cause: undefined }), 1024, signal());
		expect(byMessage.token).toEqual(failure);
		const rewritten = Object.assign(new Error('The connection to the server was closed unexpectedly'), {
			messages: [tokenMessage(failure)],
		});
		expect((await failureFacts(rewritten, 1024, signal())).token).toEqual(failure);
	});

	it('a message that no token request threw is no token failure', async () => {
		const facts = await failureFacts(new Error('Could not get an access token: something else'), 1024, signal());
		expect(facts.token).toBeUndefined();
	});
});
