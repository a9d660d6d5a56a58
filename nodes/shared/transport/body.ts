/**
 * Reading an answer's body within the attempt's bounds: its size (counted after decompression, which the
 * request helper does while streaming) and its deadline. Whatever the server sends, reading stops there.
 */

/** A body that broke a bound; `kind` says which. */
export class BodyBoundError extends Error {
	constructor(
		readonly kind: 'too-large' | 'timeout' | 'aborted',
		message: string,
	) {
		super(message);
	}
}

interface ReadableLike {
	on(event: string, listener: (...args: unknown[]) => void): unknown;
	removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
	destroy(error?: Error): unknown;
	readableEnded?: boolean;
}

function isReadable(value: unknown): value is ReadableLike {
	return (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as ReadableLike).on === 'function' &&
		typeof (value as ReadableLike).destroy === 'function'
	);
}

/**
 * The whole body as text, or a BodyBoundError once it passes `maxBytes` or `signal` aborts (the stream
 * is destroyed either way, which closes the connection). Buffers and strings (from helpers that read
 * bodies themselves) are checked against the same cap.
 */
export async function readBody(body: unknown, maxBytes: number, signal: AbortSignal): Promise<string> {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') {
		if (Buffer.byteLength(body) > maxBytes) throw tooLarge(maxBytes);
		return body;
	}
	if (Buffer.isBuffer(body)) {
		if (body.length > maxBytes) throw tooLarge(maxBytes);
		return body.toString('utf8');
	}
	if (!isReadable(body)) return JSON.stringify(body);
	const stream = body;
	return await new Promise<string>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const finish = (error?: Error) => {
			stream.removeListener('data', onData);
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
			stream.removeListener('aborted', onAborted);
			signal.removeEventListener('abort', onAbort);
			if (error) {
				stream.destroy();
				reject(error);
			} else {
				resolve(Buffer.concat(chunks).toString('utf8'));
			}
		};
		const onData = (chunk: unknown) => {
			const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
			size += buffer.length;
			if (size > maxBytes) {
				finish(tooLarge(maxBytes));
				return;
			}
			chunks.push(buffer);
		};
		const onEnd = () => finish();
		const onError = (error: unknown) =>
			finish(
				signal.aborted
					? abortReason(signal)
					: error instanceof Error
						? error
						: new BodyBoundError('aborted', 'the answer was cut off'),
			);
		const onAborted = () => finish(new BodyBoundError('aborted', 'the answer was cut off'));
		const onAbort = () => finish(abortReason(signal));
		if (signal.aborted) {
			finish(abortReason(signal));
			return;
		}
		signal.addEventListener('abort', onAbort);
		stream.on('data', onData);
		stream.on('end', onEnd);
		stream.on('error', onError);
		stream.on('aborted', onAborted);
	});
}

/** Closes a body nobody will read, so that its connection does not stay open. */
export function discardBody(body: unknown): void {
	if (isReadable(body)) body.destroy();
}

function tooLarge(maxBytes: number): BodyBoundError {
	return new BodyBoundError('too-large', `the answer was larger than ${formatBytes(maxBytes)}`);
}

function abortReason(signal: AbortSignal): BodyBoundError {
	const reason = signal.reason as { name?: string } | undefined;
	return reason?.name === 'TimeoutError'
		? new BodyBoundError('timeout', 'the answer did not arrive in time')
		: new BodyBoundError('aborted', 'the execution was stopped');
}

export function formatBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(3)} MB`;
	if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
	return `${bytes} bytes`;
}
