/**
 * The network and capacity model: a deployment that serves at most `capacity` requests at once, each for its
 * service time (latency ± jitter, then its handling), with a FIFO queue of at most `queue` waiting requests;
 * a request that finds the queue full is refused with 503 at once. Off by default. The HTTP front
 * (server.ts) asks it for a place before anything else happens to an API request (see sandbox/README.md,
 * "Network and capacity model").
 */
// @ts-nocheck

import type { NetworkSettings, NetworkState } from './api';
import { isObject, seededRandom } from './util';

type Settings = Required<NetworkSettings>;

/** Bounds that keep a typo from stalling a run for hours. */
const MAX_LATENCY_MS = 600_000;
const MAX_COUNT = 1_000_000;
const MAX_RETRY_AFTER = 3600;

const KEYS: (keyof Settings)[] = ['latencyMs', 'jitterMs', 'capacity', 'queue', 'overloadRetryAfterSeconds'];

/** Checks and completes settings; throws an Error naming the field for a bad value or an unknown field. */
function networkSettings(input: unknown): Settings {
	if (!isObject(input)) throw new Error('The network settings must be a JSON object.');
	const unknown = Object.keys(input).filter((key) => !KEYS.includes(key as keyof Settings));
	if (unknown.length > 0) throw new Error(`Unknown network setting ${unknown.join(', ')}; known: ${KEYS.join(', ')}.`);
	const number = (key: keyof Settings, fallback: number, max: number, integer: boolean, min = 0): number => {
		const value = input[key];
		if (value === undefined) return fallback;
		if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
			throw new Error(`${key} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(value)}.`);
		}
		return value;
	};
	const limit = (key: 'capacity' | 'queue', min: number): number | null =>
		input[key] === null || input[key] === undefined ? null : number(key, 0, MAX_COUNT, true, min);
	const settings: Settings = {
		latencyMs: number('latencyMs', 0, MAX_LATENCY_MS, false),
		jitterMs: number('jitterMs', 0, MAX_LATENCY_MS, false),
		capacity: limit('capacity', 1),
		queue: limit('queue', 0),
		overloadRetryAfterSeconds: number('overloadRetryAfterSeconds', 1, MAX_RETRY_AFTER, true),
	};
	if (settings.jitterMs > settings.latencyMs) {
		throw new Error(`jitterMs (${settings.jitterMs}) must not exceed latencyMs (${settings.latencyMs}).`);
	}
	return settings;
}

/** A request's place: admitted (with its drawn latency) or refused because the queue is full. */
export type Ticket = { overloaded: true; retryAfterSeconds: number } | { overloaded: false; admitted: Promise<Place | undefined> };

/** A place in service; `leave` (once) frees it for the next waiting request. */
interface Place {
	latencyMs: number;
	leave(): void;
}

/** One setting of the model: its places, its queue and its counters. Requests leave the gate they entered. */
class Gate {
	inFlight = 0;
	served = 0;
	overloaded = 0;
	peakInFlight = 0;
	peakQueued = 0;
	private waiting: ((place: Place | undefined) => void)[] = [];
	private head = 0;

	constructor(
		readonly settings: Settings,
		private readonly random: () => number,
	) {}

	get queued(): number {
		return this.waiting.length - this.head;
	}

	enter(): Ticket {
		const { capacity, queue } = this.settings;
		if (capacity === null || this.inFlight < capacity) return { overloaded: false, admitted: Promise.resolve(this.place()) };
		if (queue !== null && this.queued >= queue) {
			this.overloaded++;
			return { overloaded: true, retryAfterSeconds: this.settings.overloadRetryAfterSeconds };
		}
		const admitted = new Promise<Place | undefined>((resolve) => this.waiting.push(resolve));
		this.peakQueued = Math.max(this.peakQueued, this.queued);
		return { overloaded: false, admitted };
	}

	/** Releases every waiting request without a place (the sandbox is closing). */
	close(): void {
		const waiting = this.waiting.slice(this.head);
		this.waiting = [];
		this.head = 0;
		for (const resolve of waiting) resolve(undefined);
	}

	private place(): Place {
		this.inFlight++;
		this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
		const { latencyMs, jitterMs } = this.settings;
		let left = true;
		return {
			latencyMs: jitterMs > 0 ? Math.max(0, Math.round(latencyMs - jitterMs + 2 * jitterMs * this.random())) : latencyMs,
			leave: () => {
				if (!left) return;
				left = false;
				this.inFlight--;
				this.served++;
				this.next();
			},
		};
	}

	private next(): void {
		if (this.queued === 0) return;
		const resolve = this.waiting[this.head];
		this.head++;
		if (this.head > 1024 && this.head * 2 > this.waiting.length) {
			this.waiting = this.waiting.slice(this.head);
			this.head = 0;
		}
		resolve(this.place());
	}
}

/** The model of a sandbox: off, or one gate per setting. */
export class NetworkModel {
	private gate: Gate | undefined;
	/** Every gate set so far: requests still wait in an earlier one until they get their place. */
	private readonly gates = new Set<Gate>();
	/** The gate counters are read from: the one in force, or the last one after clear(). */
	private last: Gate | undefined;

	constructor(
		private readonly seed: number,
		settings?: NetworkSettings,
	) {
		if (settings) this.set(settings);
	}

	/** Sets the model (counters start from zero, jitter from the seed again); throws on a bad value. */
	set(input: NetworkSettings): NetworkState {
		this.gate = new Gate(networkSettings(input), seededRandom(this.seed));
		this.gates.add(this.gate);
		this.last = this.gate;
		return this.get();
	}

	clear(): NetworkState {
		this.gate = undefined;
		return this.get();
	}

	get(): NetworkState {
		const g = this.last;
		return {
			settings: this.gate ? { ...this.gate.settings } : null,
			served: g?.served ?? 0,
			overloaded: g?.overloaded ?? 0,
			inFlight: g?.inFlight ?? 0,
			queued: g?.queued ?? 0,
			peakInFlight: g?.peakInFlight ?? 0,
			peakQueued: g?.peakQueued ?? 0,
		};
	}

	/** A place for one request, or undefined when the model is off. */
	enter(): Ticket | undefined {
		return this.gate?.enter();
	}

	close(): void {
		for (const gate of this.gates) gate.close();
		this.gates.clear();
		this.gate = undefined;
	}
}
