/**
 * What Parallel Requests Auto remembers per service (transport/learnt.ts), alone: the key, the age checked at
 * each read, the bound on services, and a limit held at a run's own maximum. test/throughput/learnt.test.ts
 * shows it through executions.
 */
// @ts-nocheck

import type { LearntLimits } from '../../nodes/FileTransferManager/transport/learnt';
import {
	forgetLearntLimits,
	KEPT_MS,
	recall,
	remember,
	SERVICES_KEPT,
	serviceKey,
} from '../../nodes/FileTransferManager/transport/learnt';

const limits = (limit: number): LearntLimits => ({
	limit,
	slowStart: false,
	windowMs: 0,
	windowStart: 0,
	windowSent: 0,
	windowRefused: false,
});

let now = 1_000_000;
beforeEach(() => {
	forgetLearntLimits();
	now = 1_000_000;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

describe('what Auto learnt, per service', () => {
	it('is keyed by the Base URL and the Client ID, never by the secret', () => {
		const key = serviceKey('https://api.acme.example.com/v2', 'client-1');
		expect(key).not.toMatch(/secret/);
		// The same service spelt differently is the same key: a trailing slash, the host's case, blanks.
		expect(serviceKey(' https://API.acme.example.com/v2/ ', ' client-1 ')).toBe(key);
		expect(serviceKey('https://api.acme.example.com/v3', 'client-1')).not.toBe(key);
		expect(serviceKey('https://api.acme.example.com/v2', 'client-2')).not.toBe(key);
		expect(serviceKey('https://api.other.example.com/v2', 'client-1')).not.toBe(key);
		// A Base URL the URL parser cannot read is still trimmed; no Client ID is an empty one.
		expect(serviceKey(' not a url/ ', 'client-1')).toBe(serviceKey('not a url', 'client-1'));
		expect(serviceKey('https://api.acme.example.com/v2', undefined)).toBe(serviceKey('https://api.acme.example.com/v2', ''));
		expect(serviceKey('https://api.acme.example.com/v2', null)).toBe(JSON.stringify(['https://api.acme.example.com/v2', '']));
	});

	it('is forgotten whole when the process starts again (forgetLearntLimits)', () => {
		remember('a', limits(40), 1000);
		forgetLearntLimits();
		expect(recall('a')).toBeUndefined();
	});

	it('is kept for its age since it was last confirmed, checked when read', () => {
		remember('a', limits(40), 1000);
		now += KEPT_MS;
		expect(recall('a')?.limit).toBe(40);
		// Confirmed again: the age counts from now.
		remember('a', limits(50), 1000);
		now += KEPT_MS;
		expect(recall('a')?.limit).toBe(50);
		now += 1;
		expect(recall('a')).toBeUndefined();
	});

	it('forgets where the service ran out of room its age after the 503 that taught it, however often confirmed since', () => {
		remember('a', { ...limits(40), overload: { inFlight: 81, at: now } }, 1000);
		for (let i = 0; i < 4; i++) {
			now += KEPT_MS / 4;
			expect(recall('a')?.overload).toEqual({ inFlight: 81, at: 1_000_000 });
			remember('a', recall('a')!, 1000);
		}
		now += 1;
		expect(recall('a')?.limit).toBe(40);
		expect(recall('a')?.overload).toBeUndefined();
	});

	it('hands out copies: a run changes its own limits, not the memory', () => {
		remember('a', limits(40), 1000);
		const copy = recall('a')!;
		copy.limit = 1;
		expect(recall('a')?.limit).toBe(40);
	});

	it(`keeps at most ${SERVICES_KEPT} services, dropping the one confirmed longest ago`, () => {
		for (let i = 0; i < SERVICES_KEPT; i++) {
			remember(`s${i}`, limits(10 + i), 1000);
			now++;
		}
		// s0 confirmed again: s1 is now the oldest.
		remember('s0', limits(10), 1000);
		remember('new', limits(99), 1000);
		expect(recall('s1')).toBeUndefined();
		// Only the oldest one goes: the bound holds SERVICES_KEPT, not one fewer.
		expect(recall('s2')?.limit).toBe(12);
		expect(recall('s0')?.limit).toBe(10);
		expect(recall('new')?.limit).toBe(99);
		expect(recall(`s${SERVICES_KEPT - 1}`)?.limit).toBe(10 + SERVICES_KEPT - 1);
	});

	it("a limit held at a run's own maximum does not replace a larger one; a limit below it does", () => {
		remember('a', limits(300), 1000);
		// A node whose Auto maximum is 24 got to 24: that says nothing of what lies above.
		remember('a', limits(24), 24);
		expect(recall('a')?.limit).toBe(300);
		// Cut below its maximum: the service took less than was remembered.
		remember('a', limits(12), 24);
		expect(recall('a')?.limit).toBe(12);
		// Held at its maximum above a smaller remembered limit: the larger one, its own, is kept.
		remember('a', limits(24), 24);
		expect(recall('a')?.limit).toBe(24);
	});
});
