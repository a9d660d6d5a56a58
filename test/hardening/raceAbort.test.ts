/**
 * An attempt races the request against its Timeout signal. Once the race is decided, nothing may stay
 * subscribed to that signal: a timeout signal with a listener lives until it fires, and would keep every
 * answer of the last Timeout (30 s by default) in memory with it, 20 MB per 1,000 pages in one measurement.
 */
import { getEventListeners } from 'node:events';

import { raceAbort } from '../../nodes/shared/transport/attempt';

describe('raceAbort', () => {
	it('a request that answers first: its value, and no listener left on the signal', async () => {
		const controller = new AbortController();
		await expect(raceAbort(Promise.resolve('answer'), controller.signal)).resolves.toBe('answer');
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});

	it('a request that fails first: its error, and no listener left on the signal', async () => {
		const controller = new AbortController();
		await expect(raceAbort(Promise.reject(new Error('refused')), controller.signal)).rejects.toThrow('refused');
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});

	it('a signal that aborts first: the abort reason, and no listener left', async () => {
		const controller = new AbortController();
		const pending = new Promise<string>(() => undefined);
		const raced = raceAbort(pending, controller.signal);
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
		controller.abort(new Error('timed out'));
		await expect(raced).rejects.toThrow('timed out');
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});

	it('a signal aborted before the race: the abort reason at once', async () => {
		const controller = new AbortController();
		controller.abort(new Error('stopped'));
		await expect(raceAbort(new Promise<string>(() => undefined), controller.signal)).rejects.toThrow('stopped');
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});
});
