/**
 * Parallel Requests "Auto" alone (transport/adaptive.ts): the limit that the answers teach, sample by sample.
 */
import type { AdaptiveLimit, Sample } from '../../nodes/FileTransferManager/transport/adaptive';
import { AUTO_DEFAULT_CAP, newAdaptiveLimit, noteAnswer } from '../../nodes/FileTransferManager/transport/adaptive';
import { DEFAULT_PARALLEL } from '../../nodes/FileTransferManager/transport/settings';

/** One round trip: `limit` requests sent at `at`, all answered after `ms` the same way. */
function roundTrip(state: AdaptiveLimit, at: number, ms: number, answer: Sample['answer'] = 'clean', clientBusy = 0): number {
	const sent = state.limit;
	for (let i = 0; i < sent; i++) {
		noteAnswer(state, { answer, sentAt: at, answeredAt: at + ms, inFlight: sent, clientBusy });
	}
	return at + ms;
}

describe('Parallel Requests Auto', () => {
	it('starts at the former fixed default, bounded by the cap', () => {
		expect(newAdaptiveLimit().limit).toBe(DEFAULT_PARALLEL);
		expect(newAdaptiveLimit().cap).toBe(AUTO_DEFAULT_CAP);
		expect(newAdaptiveLimit(3).limit).toBe(3);
		expect(newAdaptiveLimit(0).limit).toBe(1);
	});

	it('doubles per round trip while answers are fast and clean, up to the cap', () => {
		const state = newAdaptiveLimit(100);
		let now = 0;
		const seen: number[] = [];
		for (let i = 0; i < 6; i++) {
			now = roundTrip(state, now, 40);
			seen.push(state.limit);
		}
		expect(seen).toEqual([16, 32, 64, 100, 100, 100]);
	});

	it('does not grow a limit that is not in use (one request after another)', () => {
		const state = newAdaptiveLimit();
		for (let i = 0; i < 50; i++) noteAnswer(state, { answer: 'clean', sentAt: i * 40, answeredAt: i * 40 + 40, inFlight: 1 });
		expect(state.limit).toBe(DEFAULT_PARALLEL);
		// Half in use is enough.
		noteAnswer(state, { answer: 'clean', sentAt: 0, answeredAt: 40, inFlight: DEFAULT_PARALLEL / 2 });
		expect(state.limit).toBe(DEFAULT_PARALLEL + 1);
	});

	it('halves on a refusal, once per round trip however many answers of that round trip refuse', () => {
		const state = newAdaptiveLimit();
		let now = roundTrip(state, 0, 40);
		now = roundTrip(state, now, 40);
		expect(state.limit).toBe(32);
		// 32 requests sent at the same moment, all refused: one cut.
		now = roundTrip(state, now, 40, 'refused');
		expect(state.limit).toBe(16);
		// Requests sent after that cut can cut again.
		roundTrip(state, now, 40, 'refused');
		expect(state.limit).toBe(8);
	});

	it('goes down to 1 on refusals alone', () => {
		const state = newAdaptiveLimit();
		let now = 0;
		for (let i = 0; i < 10; i++) now = roundTrip(state, now, 40, 'refused');
		expect(state.limit).toBe(1);
	});

	it('cuts when answers take well over twice the fastest, by that ratio, at most by half, never below the start', () => {
		const state = newAdaptiveLimit();
		let now = roundTrip(state, 0, 40);
		now = roundTrip(state, now, 40);
		now = roundTrip(state, now, 40);
		expect(state.limit).toBe(64);
		// 100 ms against 2 × 40 + 10 = 90: keep 90 %.
		now = roundTrip(state, now, 100);
		expect(state.limit).toBe(57);
		// 1 s: at most by half.
		now = roundTrip(state, now, 1000);
		expect(state.limit).toBe(28);
		for (let i = 0; i < 5; i++) now = roundTrip(state, now, 1000);
		expect(state.limit).toBe(DEFAULT_PARALLEL);
	});

	it('does not read slow answers as a queue at the service while the node itself was busy', () => {
		const state = newAdaptiveLimit();
		let now = roundTrip(state, 0, 40);
		now = roundTrip(state, now, 200, 'clean', 0.95);
		expect(state.limit).toBe(32);
		expect(state.slowStart).toBe(true);
		roundTrip(state, now, 200, 'clean', 0.5);
		expect(state.limit).toBeLessThan(32);
	});

	it('after a cut, grows by about the square root of the limit per round trip', () => {
		const state = newAdaptiveLimit();
		let now = roundTrip(state, 0, 40);
		now = roundTrip(state, now, 40);
		now = roundTrip(state, now, 40);
		now = roundTrip(state, now, 40, 'refused');
		expect(state.limit).toBe(32);
		expect(state.slowStart).toBe(false);
		now = roundTrip(state, now, 40);
		// 32 answers × √32/32 ≈ 5.66 → +5 (the fraction carries over).
		expect(state.limit).toBe(37);
		roundTrip(state, now, 40);
		expect(state.limit).toBe(43);
	});

	it('ignores answers that say nothing about load', () => {
		const state = newAdaptiveLimit();
		roundTrip(state, 0, 5000, 'neutral');
		expect(state.limit).toBe(DEFAULT_PARALLEL);
		expect(state.fastestMs).toBe(Infinity);
	});
});
