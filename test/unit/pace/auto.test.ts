/**
 * Parallel Requests "Auto" alone (transport/pace/auto.ts): the limit that the answers teach, sample by sample.
 */
import type { AutoState, Sample } from '../../../nodes/shared/transport/pace/auto';
import type { FailureFacts } from '../../../nodes/shared/transport/failure';
import { loadSignalOf, newAuto, noteAnswer, OVERLOAD_KEEP, OVERLOAD_LEARNT_ABOVE, resumeAt } from '../../../nodes/shared/transport/pace/auto';
import { AUTO_MAXIMUM_DEFAULT, DEFAULT_PARALLEL } from '../../../nodes/shared/transport/settings';

/** One round trip: `limit` requests sent at `at`, all answered after `ms` the same way. */
function roundTrip(state: AutoState, at: number, ms: number, answer: Sample['answer'] = 'clean'): number {
	const sent = state.parallel;
	for (let i = 0; i < sent; i++) {
		noteAnswer(state, { answer, sentAt: at, answeredAt: at + ms, inFlight: sent });
	}
	return at + ms;
}

/**
 * Clean round trips of 40 ms until the limit reaches `at least`; returns the time. The tests need 10 at most (8 to
 * 300 in slow start): past 200, growth has stopped, and the test fails at once instead of looping (a mutant
 * under `npm run test:mutation` would otherwise run into Stryker's timeout).
 */
function growTo(state: AutoState, atLeast: number): number {
	let now = 0;
	for (let trips = 0; state.parallel < atLeast; trips++) {
		if (trips === 200) throw new Error(`the limit stopped growing at ${state.parallel}, below ${atLeast}`);
		now = roundTrip(state, now, 40);
	}
	return now;
}

describe('Parallel Requests Auto', () => {
	it('starts at the former fixed default, bounded by the cap', () => {
		expect(newAuto().parallel).toBe(DEFAULT_PARALLEL);
		expect(newAuto().maximum).toBe(AUTO_MAXIMUM_DEFAULT);
		expect(newAuto(3).parallel).toBe(3);
		expect(newAuto(0).parallel).toBe(1);
	});

	it('grows by half per round trip (slow start) while answers are fast and clean, up to the cap', () => {
		const state = newAuto(100);
		let now = 0;
		const seen: number[] = [state.parallel];
		for (let i = 0; i < 9; i++) {
			now = roundTrip(state, now, 40);
			seen.push(state.parallel);
		}
		for (let i = 1; i < seen.length && seen[i] < 100; i++) {
			expect(seen[i]).toBeGreaterThanOrEqual(Math.floor(seen[i - 1] * 1.5));
			expect(seen[i]).toBeLessThanOrEqual(Math.ceil(seen[i - 1] * 1.5));
		}
		expect(seen.slice(-2)).toEqual([100, 100]);
	});

	it('does not grow a limit that is not in use (one request after another)', () => {
		const state = newAuto();
		for (let i = 0; i < 50; i++) noteAnswer(state, { answer: 'clean', sentAt: i * 40, answeredAt: i * 40 + 40, inFlight: 1 });
		expect(state.parallel).toBe(DEFAULT_PARALLEL);
		// Half in use is enough: two such answers add one.
		for (let i = 0; i < 2; i++) noteAnswer(state, { answer: 'clean', sentAt: 0, answeredAt: 40, inFlight: DEFAULT_PARALLEL / 2 });
		expect(state.parallel).toBe(DEFAULT_PARALLEL + 1);
	});

	it('halves on a refusal, once per round trip however many answers of that round trip refuse', () => {
		const state = newAuto();
		let now = growTo(state, 30);
		const before = state.parallel;
		// Every request sent at the same moment, all refused: one cut.
		now = roundTrip(state, now, 40, 'refused');
		expect(state.parallel).toBe(Math.floor(before / 2));
		// Requests sent after that cut can cut again.
		roundTrip(state, now, 40, 'refused');
		expect(state.parallel).toBe(Math.floor(Math.floor(before / 2) / 2));
	});

	it('goes down to 1 on refusals alone', () => {
		const state = newAuto();
		let now = 0;
		for (let i = 0; i < 10; i++) now = roundTrip(state, now, 40, 'refused');
		expect(state.parallel).toBe(1);
	});

	it('slow answers neither cut nor end slow start: the node\'s own work slows them as much as a queue would', () => {
		const state = newAuto();
		let now = roundTrip(state, 0, 40);
		for (const ms of [400, 2000]) {
			const before = state.parallel;
			now = roundTrip(state, now, ms);
			expect(state.parallel).toBe(Math.floor(before * 1.5));
			expect(state.slowStart).toBe(true);
		}
	});

	it(`a 503 with more than ${OVERLOAD_LEARNT_ABOVE} in flight bounds the limit at ${OVERLOAD_KEEP} of them for the rest of the run`, () => {
		const state = newAuto();
		let now = growTo(state, 100);
		// 90 in flight when the 503 was sent: halved at once, and at most 72 from then on, however clean the answers.
		const before = state.parallel;
		noteAnswer(state, { answer: 'overloaded', sentAt: now, answeredAt: now + 40, inFlight: 90 });
		expect(state.overload).toEqual({ inFlight: 90, at: now + 40 });
		expect(state.parallel).toBe(Math.min(Math.floor(before / 2), Math.floor(90 * OVERLOAD_KEEP)));
		now += 40;
		for (let i = 0; i < 30; i++) now = roundTrip(state, now, 40);
		expect(state.parallel).toBe(Math.floor(90 * OVERLOAD_KEEP));
		// A 503 at fewer in flight lowers the bound; one at more does not raise it.
		noteAnswer(state, { answer: 'overloaded', sentAt: now, answeredAt: now + 40, inFlight: 50 });
		noteAnswer(state, { answer: 'overloaded', sentAt: now, answeredAt: now + 41, inFlight: 70 });
		expect(state.overload?.inFlight).toBe(50);
		for (let i = 0; i < 30; i++) now = roundTrip(state, now + 41, 40);
		expect(state.parallel).toBe(Math.floor(50 * OVERLOAD_KEEP));
	});

	it('counts what the service held at a 503 by the requests ahead of the refused one, not all in flight when it was sent', () => {
		const state = newAuto();
		const now = growTo(state, 300);
		// 250 in flight when it was sent, but only 80 sent before it were still unanswered when its 503 came: the
		// others had been answered, their answers not yet read.
		noteAnswer(state, { answer: 'overloaded', sentAt: now, answeredAt: now + 1, inFlight: 250, ahead: 80 });
		expect(state.overload?.inFlight).toBe(81);
		expect(state.parallel).toBe(Math.floor(81 * OVERLOAD_KEEP));
	});

	it(`a 503 with ${OVERLOAD_LEARNT_ABOVE} or fewer in flight, a 429 and a timeout halve the limit but bound nothing`, () => {
		for (const [answer, inFlight] of [
			['overloaded', OVERLOAD_LEARNT_ABOVE],
			['refused', 200],
		] as const) {
			const state = newAuto();
			let now = growTo(state, 200);
			const before = state.parallel;
			noteAnswer(state, { answer, sentAt: now, answeredAt: now + 40, inFlight });
			expect(state.parallel).toBe(Math.floor(before / 2));
			expect(state.overload).toBeUndefined();
			for (let i = 0; i < 200 && state.parallel < AUTO_MAXIMUM_DEFAULT; i++) now = roundTrip(state, now + 40, 40);
			expect(state.parallel).toBe(AUTO_MAXIMUM_DEFAULT);
		}
	});

	it('after a cut, grows by about the square root of the limit per round trip', () => {
		const state = newAuto();
		let now = growTo(state, 60);
		now = roundTrip(state, now, 40, 'refused');
		expect(state.slowStart).toBe(false);
		const cutTo = state.parallel;
		now = roundTrip(state, now, 40);
		// cutTo answers × √cutTo / cutTo = √cutTo, the fraction carried over.
		expect(state.parallel).toBe(cutTo + Math.floor(Math.sqrt(cutTo)));
		const next = state.parallel;
		roundTrip(state, now, 40);
		expect(state.parallel - next).toBeGreaterThanOrEqual(Math.floor(Math.sqrt(next)));
		expect(state.parallel - next).toBeLessThanOrEqual(Math.ceil(Math.sqrt(next)));
	});

	it('ignores answers that say nothing about load', () => {
		const state = newAuto();
		roundTrip(state, 0, 5000, 'neutral');
		expect(state.parallel).toBe(DEFAULT_PARALLEL);
		expect(state.slowStart).toBe(true);
	});
});

describe('noteAnswer, answer by answer: what it returns and where the limit lands', () => {
	const clean = (sentAt: number, answeredAt: number, inFlight: number): Sample => ({ answer: 'clean', sentAt, answeredAt, inFlight });

	it('says whether the limit grew: a neutral answer, a refusal, an answer to a limit not in use, half a step: no', () => {
		const state = newAuto();
		expect(noteAnswer(state, { answer: 'neutral', sentAt: 0, answeredAt: 1, inFlight: 8 })).toBe(false);
		expect(noteAnswer(state, clean(0, 1, 3))).toBe(false); // 3 of 8 in flight: not in use
		expect(noteAnswer(state, clean(0, 1, 8))).toBe(false); // half a request
		expect(state.parallel).toBe(8);
		expect(noteAnswer(state, clean(0, 1, 8))).toBe(true); // the second half: 9
		expect(state.parallel).toBe(9);
		expect(noteAnswer(state, { answer: 'refused', sentAt: 2, answeredAt: 3, inFlight: 9 })).toBe(false);
	});

	it('a fresh run that grew halves on a refusal of a request sent before its first clean answer', () => {
		// Only a resumed run goes back to the start on such a refusal: a fresh run has nothing to drop.
		const state = newAuto();
		growTo(state, 100);
		const grown = state.parallel;
		noteAnswer(state, { answer: 'refused', sentAt: -1, answeredAt: 5000, inFlight: grown });
		expect(state.parallel).toBe(Math.floor(grown / 2));
	});

	it('after slow start, the limit grows by a whole request when the fractions add up to exactly one', () => {
		// At 16, each answer adds √16 / 16 = 0.25 of a request: the fourth makes exactly one.
		const state = newAuto();
		resumeAt(state, 16, false);
		for (let i = 1; i < 4; i++) expect(noteAnswer(state, clean(0, 1, 16))).toBe(false);
		expect(state.parallel).toBe(16);
		expect(noteAnswer(state, clean(0, 1, 16))).toBe(true);
		expect(state.parallel).toBe(17);
	});

	it('a first refusal halves the limit of a fresh run at once', () => {
		const state = newAuto();
		noteAnswer(state, { answer: 'refused', sentAt: 0, answeredAt: 1, inFlight: 8 });
		expect(state.parallel).toBe(4);
	});

	it("a 503 of a request sent before the latest cut teaches a lower bound, and the limit keeps to it at once", () => {
		const state = newAuto();
		growTo(state, 100);
		noteAnswer(state, { answer: 'refused', sentAt: 1000, answeredAt: 1001, inFlight: state.parallel });
		const afterCut = state.parallel;
		expect(afterCut).toBeGreaterThan(20);
		noteAnswer(state, { answer: 'overloaded', sentAt: 999, answeredAt: 1002, inFlight: 100, ahead: 20 });
		expect(state.overload).toEqual({ inFlight: 21, at: 1002 });
		expect(state.parallel).toBe(Math.floor(21 * OVERLOAD_KEEP));
		// The same bound heard again later keeps the time it was first learnt.
		noteAnswer(state, { answer: 'overloaded', sentAt: 998, answeredAt: 1003, inFlight: 100, ahead: 20 });
		expect(state.overload).toEqual({ inFlight: 21, at: 1002 });
	});

	it('a resumed run is confirmed by its first clean answer only: a refusal sent at or after it halves', () => {
		for (const sentAt of [10, 12]) {
			const state = newAuto();
			resumeAt(state, 100, false);
			noteAnswer(state, clean(5, 10, 100));
			noteAnswer(state, clean(15, 20, 100));
			noteAnswer(state, { answer: 'refused', sentAt, answeredAt: 21, inFlight: 100 });
			expect(state.parallel).toBe(50);
		}
	});
});

describe('Parallel Requests Auto, resumed where an earlier execution ended (resumeAt)', () => {
	it('starts at that limit, within this run\'s maximum, still in slow start if the earlier one was', () => {
		const state = newAuto(100);
		resumeAt(state, 60, true);
		expect(state.parallel).toBe(60);
		roundTrip(state, 0, 40);
		expect(state.parallel).toBe(90);
		const capped = newAuto(24);
		resumeAt(capped, 60, false);
		expect(capped.parallel).toBe(24);
		expect(capped.slowStart).toBe(false);
	});

	it('stays below where the service ran out of room, if that is remembered, and still finds it lower', () => {
		const state = newAuto();
		resumeAt(state, 200, true, { inFlight: 81, at: 0 });
		expect(state.parallel).toBe(Math.floor(81 * OVERLOAD_KEEP));
		let now = 0;
		for (let i = 0; i < 10; i++) now = roundTrip(state, now, 40);
		expect(state.parallel).toBe(Math.floor(81 * OVERLOAD_KEEP));
		noteAnswer(state, { answer: 'overloaded', sentAt: now, answeredAt: now + 40, inFlight: 40 });
		expect(state.overload).toEqual({ inFlight: 40, at: now + 40 });
		expect(state.parallel).toBe(Math.floor(81 * OVERLOAD_KEEP / 2));
	});

	it('a refusal before any clean answer of this run takes it back to the start, not to half', () => {
		const state = newAuto();
		resumeAt(state, 200, false);
		noteAnswer(state, { answer: 'refused', sentAt: 0, answeredAt: 5, inFlight: 200 });
		expect(state.parallel).toBe(DEFAULT_PARALLEL);
		// Below the start, a refusal still halves.
		const small = newAuto();
		resumeAt(small, 6, true);
		noteAnswer(small, { answer: 'refused', sentAt: 0, answeredAt: 5, inFlight: 6 });
		expect(small.parallel).toBe(3);
	});

	it('so does a refusal of a request sent before the first clean answer came back, read after it', () => {
		const state = newAuto();
		resumeAt(state, 200, false);
		noteAnswer(state, { answer: 'clean', sentAt: 0, answeredAt: 40, inFlight: 200 });
		noteAnswer(state, { answer: 'refused', sentAt: 1, answeredAt: 45, inFlight: 200 });
		expect(state.parallel).toBe(DEFAULT_PARALLEL);
	});

	it('once an answer of this run was clean, a refusal of a request sent after it halves it as any learnt limit', () => {
		const state = newAuto();
		resumeAt(state, 200, false);
		noteAnswer(state, { answer: 'clean', sentAt: 0, answeredAt: 40, inFlight: 200 });
		const before = state.parallel;
		noteAnswer(state, { answer: 'refused', sentAt: 41, answeredAt: 85, inFlight: 200 });
		expect(state.parallel).toBe(Math.floor(before / 2));
	});
});

const facts = (overrides: Partial<FailureFacts>): FailureFacts => ({ headers: {}, body: undefined, ...overrides });

describe('loadSignalOf (what a failure tells Parallel Requests Auto)', () => {
	it.each([429, 504])('HTTP %i is a refusal', (status) => {
		expect(loadSignalOf(facts({ status }))).toBe('refused');
	});

	it('HTTP 503 is an overload: the service has no room for it now', () => {
		expect(loadSignalOf(facts({ status: 503 }))).toBe('overloaded');
	});

	it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED'])('%s is a refusal: connections shed or timed out', (code) => {
		expect(loadSignalOf(facts({ code }))).toBe('refused');
		expect(loadSignalOf(facts({ timedOut: true }))).toBe('refused');
	});

	it.each([400, 404, 409, 422])('HTTP %i is a clean answer: the service answered', (status) => {
		expect(loadSignalOf(facts({ status }))).toBe('clean');
	});

	it('a canceled attempt, a token failure, 500, 502 and an unknown network error say nothing about load', () => {
		expect(loadSignalOf(facts({ canceled: true, timedOut: true }))).toBe('neutral');
		expect(loadSignalOf(facts({ status: 503, token: { kind: 'unavailable', problem: 'x' } }))).toBe('neutral');
		expect(loadSignalOf(facts({ status: 500 }))).toBe('neutral');
		expect(loadSignalOf(facts({ status: 502 }))).toBe('neutral');
		expect(loadSignalOf(facts({ code: 'EAI_AGAIN' }))).toBe('neutral');
	});
});
