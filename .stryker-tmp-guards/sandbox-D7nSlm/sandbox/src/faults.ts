// @ts-nocheck
import type { ChaosOptions, FaultKind, FaultRule, RequestRecord, SandboxFaults, SandboxRequestLog } from './api';
import { seededRandom } from './util';

const CHAOS_DEFAULT_KINDS: FaultKind[] = [
	'rate-limit',
	'internal-error',
	'bad-gateway',
	'unavailable',
	'drop-before-body',
	'drop-after-body',
	'malformed-json',
	'wrong-content-type',
];

const FAULT_KINDS: FaultKind[] = [...CHAOS_DEFAULT_KINDS, 'slow', 'expire-token'];

/** The fault chosen for one request, with its parameters. */
export interface Fault {
	kind: FaultKind;
	retryAfterSeconds?: number;
	delayMs?: number;
}

interface ActiveRule {
	rule: FaultRule;
	seen: number;
	fired: number;
	/** For a rule with perSecond: the current window's start and the requests in it. */
	windowStart: number;
	inWindow: number;
}

const TOKEN_PATH = '/oauth/token';

/** Fault rules and chaos mode; `pick` decides what happens to one request. */
export class FaultInjector implements SandboxFaults {
	private rules: ActiveRule[] = [];
	private chaosOptions: ChaosOptions | null = null;
	private random: () => number = Math.random;

	add(rule: FaultRule): void {
		if (!FAULT_KINDS.includes(rule.kind)) throw new Error(`Unknown fault kind "${String(rule.kind)}".`);
		this.rules.push({ rule: { ...rule }, seen: 0, fired: 0, windowStart: 0, inWindow: 0 });
	}

	chaos(options: ChaosOptions): void {
		this.chaosOptions = { ...options };
		this.random = seededRandom(options.seed);
	}

	clear(): void {
		this.rules = [];
		this.chaosOptions = null;
	}

	/** Decides the fault (if any) for a request; rules first, in the order added, then chaos. */
	pick(method: string, path: string, route: string): Fault | undefined {
		for (const active of this.rules) {
			const { rule } = active;
			if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) continue;
			if (rule.path === undefined || rule.path === null) {
				if (path === TOKEN_PATH) continue;
			} else if (rule.path !== route && rule.path !== path) {
				continue;
			}
			if (rule.perSecond !== undefined) {
				const now = Date.now();
				if (now - active.windowStart >= 1000) {
					active.windowStart = now;
					active.inWindow = 0;
				}
				active.inWindow++;
				if (active.inWindow <= rule.perSecond) continue;
				active.fired++;
				return { kind: rule.kind, retryAfterSeconds: rule.retryAfterSeconds, delayMs: rule.delayMs };
			}
			const times = rule.times === undefined ? 1 : rule.times === null || rule.times < 0 ? Infinity : rule.times;
			if (active.fired >= times) continue;
			active.seen++;
			if (active.seen <= (rule.after ?? 0)) continue;
			active.fired++;
			return { kind: rule.kind, retryAfterSeconds: rule.retryAfterSeconds, delayMs: rule.delayMs };
		}
		const chaos = this.chaosOptions;
		// Chaos leaves the token endpoint alone, so that clients can always authenticate.
		if (chaos && path !== TOKEN_PATH && this.random() < chaos.rate) {
			const kinds = chaos.kinds && chaos.kinds.length > 0 ? chaos.kinds : CHAOS_DEFAULT_KINDS;
			const kind = kinds[Math.floor(this.random() * kinds.length)];
			return { kind, retryAfterSeconds: chaos.retryAfterSeconds, delayMs: chaos.delayMs };
		}
		return undefined;
	}
}

/** Every API request (token endpoint included, admin routes excluded), in arrival order. */
export class RequestLog implements SandboxRequestLog {
	private records: RequestRecord[] = [];

	push(record: RequestRecord): void {
		this.records.push(record);
	}

	all(): RequestRecord[] {
		return this.records.map((r) => ({ ...r, query: { ...r.query } }));
	}

	count(match: Partial<Pick<RequestRecord, 'method' | 'path' | 'route' | 'status'>> = {}): number {
		return this.records.filter((r) =>
			(Object.keys(match) as (keyof typeof match)[]).every((k) => match[k] === undefined || r[k] === match[k]),
		).length;
	}

	clear(): void {
		this.records = [];
	}
}
