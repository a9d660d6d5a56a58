/**
 * A minimal SMTP server on 127.0.0.1 for tests: it accepts every message (any sender, any recipient, any
 * AUTH PLAIN or LOGIN), one connection at a time, and keeps them for the test to read. No STARTTLS (it does not
 * offer it, and nodemailer then sends in clear on a port that is not 465). Plain `node:net`, no dependency.
 */
import * as net from 'node:net';

import { until } from '../../../scripts/n8n/waiting';

export interface ReceivedMail {
	from: string;
	to: string[];
	/** The message as sent (headers and body), dot-unstuffed. */
	raw: string;
	/** Subject header, decoded from RFC 2047 when encoded. */
	subject: string;
	/** The text of every part, quoted-printable and base64 decoded. */
	text: string;
}

export interface SmtpSink {
	port: number;
	messages: ReceivedMail[];
	/** Waits up to `timeoutMs` for the message number `index` (0-based) and returns it. */
	message(index: number, timeoutMs: number): Promise<ReceivedMail>;
	close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
	const bytes: number[] = [];
	const soft = text.replace(/=\r?\n/g, '');
	for (let i = 0; i < soft.length; i++) {
		const hex = soft[i] === '=' ? soft.slice(i + 1, i + 3) : '';
		if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
			bytes.push(parseInt(hex, 16));
			i += 2;
		} else {
			bytes.push(...Buffer.from(soft[i], 'utf8'));
		}
	}
	return Buffer.from(bytes).toString('utf8');
}

function decodeHeaderWord(value: string): string {
	return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, data: string) =>
		encoding.toUpperCase() === 'B'
			? Buffer.from(data, 'base64').toString('utf8')
			: decodeQuotedPrintable(data.replace(/_/g, ' ')),
	);
}

/** Headers (unfolded, lower-case names) and body of one MIME entity. */
function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
	const end = entity.search(/\r?\n\r?\n/);
	const head = end < 0 ? entity : entity.slice(0, end);
	const body = end < 0 ? '' : entity.slice(end).replace(/^\r?\n\r?\n/, '');
	const headers = new Map<string, string>();
	for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
		const colon = line.indexOf(':');
		if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
	}
	return { headers, body };
}

/** The decoded text of an entity and of every part under it, joined. */
function entityText(entity: string): string {
	const { headers, body } = splitEntity(entity);
	const type = headers.get('content-type') ?? 'text/plain';
	const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
	if (/^multipart\//i.test(type) && boundary) {
		return body
			.split(`--${boundary}`)
			.slice(1)
			.filter((part) => !part.startsWith('--'))
			.map((part) => entityText(part.replace(/^\r?\n/, '')))
			.join('\n');
	}
	const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
	if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
	if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	return body;
}

function parseMail(from: string, to: string[], raw: string): ReceivedMail {
	const { headers } = splitEntity(raw);
	return { from, to, raw, subject: decodeHeaderWord(headers.get('subject') ?? ''), text: entityText(raw) };
}

/** Starts the sink on a free port of 127.0.0.1. */
export async function startSmtpSink(): Promise<SmtpSink> {
	const messages: ReceivedMail[] = [];
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		socket.setEncoding('utf8');
		const reply = (line: string) => socket.write(`${line}\r\n`);
		let buffer = '';
		let from = '';
		let to: string[] = [];
		let data: string | undefined; // collecting DATA
		let authLogin = 0; // lines of AUTH LOGIN still to come
		reply('220 127.0.0.1 ESMTP test sink');
		socket.on('data', (chunk: string) => {
			buffer += chunk;
			for (;;) {
				if (data !== undefined) {
					const end = buffer.indexOf('\r\n.\r\n');
					const atStart = data === '' && buffer.startsWith('.\r\n');
					if (end < 0 && !atStart) return;
					const body = atStart ? '' : buffer.slice(0, end);
					buffer = atStart ? buffer.slice(3) : buffer.slice(end + 5);
					data = undefined;
					messages.push(parseMail(from, to, body.replace(/^\.\./gm, '.')));
					reply('250 2.0.0 queued');
					continue;
				}
				const newline = buffer.indexOf('\r\n');
				if (newline < 0) return;
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 2);
				if (authLogin > 0) {
					authLogin--;
					reply(authLogin > 0 ? '334 UGFzc3dvcmQ6' : '235 2.7.0 accepted');
					continue;
				}
				const verb = line.split(' ')[0].toUpperCase();
				if (verb === 'EHLO') {
					socket.write('250-127.0.0.1\r\n250-AUTH PLAIN LOGIN\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
				} else if (verb === 'HELO' || verb === 'NOOP') {
					reply('250 ok');
				} else if (verb === 'AUTH') {
					const [, mechanism, initial] = line.split(' ');
					if (mechanism?.toUpperCase() === 'LOGIN') {
						authLogin = initial ? 1 : 2;
						reply(initial ? '334 UGFzc3dvcmQ6' : '334 VXNlcm5hbWU6');
					} else if (initial) {
						reply('235 2.7.0 accepted');
					} else {
						authLogin = 1;
						reply('334 ');
					}
				} else if (verb === 'MAIL') {
					from = /<([^>]*)>/.exec(line)?.[1] ?? '';
					to = [];
					reply('250 ok');
				} else if (verb === 'RCPT') {
					to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
					reply('250 ok');
				} else if (verb === 'DATA') {
					data = '';
					reply('354 end with <CRLF>.<CRLF>');
				} else if (verb === 'RSET') {
					from = '';
					to = [];
					reply('250 ok');
				} else if (verb === 'QUIT') {
					reply('221 bye');
					socket.end();
					return;
				} else {
					reply('502 5.5.2 command not implemented');
				}
			}
		});
	});
	server.maxConnections = 1;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const port = (server.address() as net.AddressInfo).port;
	return {
		port,
		messages,
		message: (index, timeoutMs) =>
			until(`e-mail #${index + 1} at the SMTP sink (port ${port})`, timeoutMs, () => messages[index], 250),
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}
