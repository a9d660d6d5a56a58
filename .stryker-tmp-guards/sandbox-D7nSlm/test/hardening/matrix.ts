/**
 * The fault matrix: every operation × every fault, generated from one expectation table. Each cell runs
 * the operation once against the sandbox with one injected fault and checks the outcome (success after
 * a repeat, or a clear error), what reached the sandbox, what it holds afterwards (exactly what one
 * clean run leaves, or nothing), and that no secret shows anywhere.
 */
// @ts-nocheck

import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src';
import type { FaultRule } from '../../sandbox/src/api';
import { credentialsFor, runNode } from '../harness/engine';
import type { MatrixEnv, OpKind, OpRun, OpSpec } from './operations';
import { TRIGGER } from './operations';
import {
	RawApi,
	captureLogs,
	diffOf,
	findSecrets,
	secretsOf,
	settle,
	shapeOf,
	sleepMs,
	snapshot,
	uniq,
} from './harness';

type FaultId =
	| 'none'
	| '429 with Retry-After'
	| '429 without Retry-After'
	| '500'
	| '503'
	| 'dropped before the body was read'
	| 'dropped after the body was read'
	| 'slow answer past the timeout'
	| 'token expired'
	| 'malformed JSON'
	| 'wrong content type';

/** Retry-After of the 429 cells, in seconds, and the delay of the slow cells (timeout is 1 s). */
const RETRY_AFTER_SECONDS = 1;
const SLOW_DELAY_MS = 1500;

/** The columns, in order ('none' first: it is the reference of its row). */
const FAULT_IDS: FaultId[] = [
	'none',
	'429 with Retry-After',
	'429 without Retry-After',
	'500',
	'503',
	'dropped before the body was read',
	'dropped after the body was read',
	'slow answer past the timeout',
	'token expired',
	'malformed JSON',
	'wrong content type',
];

const FAULTS: Record<FaultId, Omit<FaultRule, 'method' | 'path'> | null> = {
	none: null,
	'429 with Retry-After': { kind: 'rate-limit', retryAfterSeconds: RETRY_AFTER_SECONDS },
	'429 without Retry-After': { kind: 'rate-limit' },
	'500': { kind: 'internal-error' },
	'503': { kind: 'unavailable' },
	'dropped before the body was read': { kind: 'drop-before-body' },
	'dropped after the body was read': { kind: 'drop-after-body' },
	'slow answer past the timeout': { kind: 'slow', delayMs: SLOW_DELAY_MS },
	'token expired': { kind: 'expire-token' },
	'malformed JSON': { kind: 'malformed-json' },
	'wrong content type': { kind: 'wrong-content-type' },
};

/**
 * - ok: succeeds (after a repeat when there was a fault); the sandbox holds what one clean run leaves.
 * - recovered: a create's POST got no clear answer, was NOT repeated, and the node found the record it
 *   made; succeeds with recoveredAfterAmbiguousError, one record.
 * - unclear, nothing: a clear "may or may not have been" error; the POST was sent once; nothing changed
 *   (the sandbox did not carry it out).
 */
type Outcome = 'ok' | 'recovered' | 'unclear, nothing';

/** THE expectation table: fault × kind of operation. */
const EXPECTED: Record<FaultId, Record<OpKind, Outcome>> = {
	//                                          read        write       create                trigger
	none: /*                              */ { read: 'ok', write: 'ok', create: 'ok', trigger: 'ok' },
	'429 with Retry-After': /*            */ { read: 'ok', write: 'ok', create: 'ok', trigger: 'ok' },
	'429 without Retry-After': /*         */ { read: 'ok', write: 'ok', create: 'ok', trigger: 'ok' },
	'500': /*                             */ { read: 'ok', write: 'ok', create: 'unclear, nothing', trigger: 'ok' },
	'503': /*                             */ { read: 'ok', write: 'ok', create: 'ok', trigger: 'ok' },
	'dropped before the body was read': { read: 'ok', write: 'ok', create: 'unclear, nothing', trigger: 'ok' },
	'dropped after the body was read': { read: 'ok', write: 'ok', create: 'recovered', trigger: 'ok' },
	'slow answer past the timeout': /*    */ { read: 'ok', write: 'ok', create: 'recovered', trigger: 'ok' },
	'token expired': /*                   */ { read: 'ok', write: 'ok', create: 'ok', trigger: 'ok' },
	'malformed JSON': /*                  */ { read: 'ok', write: 'ok', create: 'unclear, nothing', trigger: 'ok' },
	'wrong content type': /*              */ { read: 'ok', write: 'ok', create: 'unclear, nothing', trigger: 'ok' },
};

/** Request Options of every cell: 1 s timeout, 3 repeats, short waits (the 429 column waits the full Retry-After). */
function requestOptionsFor(fault: FaultId): IDataObject {
	return { timeout: 1, maxRetries: 3, maxRetryWait: fault === '429 with Retry-After' ? 5 : 0.05 };
}

const UNCLEAR = /may or may not have been/;

interface Env extends MatrixEnv {
	/** Diff shape of a clean run, per operation. */
	reference: Map<string, string[]>;
}

/** Starts a sandbox for the calling test file, with more than one page of jobs, users and groups. */
function useMatrixEnv(): Env {
	const env = { reference: new Map(), staticJobs: new Set<string>() } as unknown as Env;
	beforeAll(async () => {
		env.logs = captureLogs();
		env.sandbox = await startSandbox({ speed: 1000 });
		env.credentials = credentialsFor(env.sandbox);
		env.api = new RawApi(env.sandbox);
		for (const id of env.sandbox.control.insertJobs(150)) env.staticJobs.add(id);
		// The credential's first token, so that a cell's token requests are its own.
		const warmUp = await runNode({ credentials: env.credentials, parameters: { resource: 'api', operation: 'getVersion' } });
		if (warmUp.error) throw warmUp.error;
		for (let i = 0; i < 110; i++) {
			await env.api.createGroup(uniq('filler'));
			await env.api.createUser(`${uniq('filler')}@example.com`);
		}
	});
	afterAll(async () => {
		await env.sandbox?.close();
	});
	return env;
}

function expectOutcome(op: OpSpec<IDataObject>, outcome: Outcome, run: OpRun): void {
	const error = run.error ? `${run.error.message} | ${run.error.description ?? ''}` : undefined;
	switch (outcome) {
		case 'ok':
			expect(error).toBeUndefined();
			expect(run.items.length).toBeGreaterThan(0);
			for (const item of run.items) expect(item.recoveredAfterAmbiguousError).toBeUndefined();
			break;
		case 'recovered':
			expect(error).toBeUndefined();
			expect(run.items).toEqual([expect.objectContaining({ recoveredAfterAmbiguousError: true })]);
			break;
		default:
			expect(run.items).toEqual([]);
			expect(run.error?.message).toMatch(UNCLEAR);
			// The description says what to do, and names no internal detail.
			expect(run.error?.description).toMatch(/Get Many/);
	}
}

/** Runs one cell; `fault` null is the clean reference run. */
async function runCell(env: Env, op: OpSpec<IDataObject>, faultId: FaultId): Promise<void> {
	const { sandbox } = env;
	const outcome = EXPECTED[faultId][op.kind];
	const ctx = await op.setup(env);
	await settle(sandbox, env.staticJobs);
	const before = snapshot(sandbox);
	const cleanTargetRequests = op.cleanRequests?.(env, ctx);
	const logStart = sandbox.requests.all().length;
	env.logs.clear();
	sandbox.faults.clear();
	const rule = FAULTS[faultId];
	if (rule) {
		sandbox.faults.add({ ...rule, method: op.target.method, path: op.target.path, after: op.multiPage ? 1 : 0 });
	}
	const started = Date.now();
	const run = await op.run(env, ctx, requestOptionsFor(faultId));
	sandbox.faults.clear();
	// A slow request is carried out after its delay, whether or not the client still waits for it.
	if (rule?.kind === 'slow') await sleepMs(Math.max(0, started + SLOW_DELAY_MS + 200 - Date.now()));
	await settle(sandbox, env.staticJobs);
	const diff = diffOf(before, snapshot(sandbox));
	const requests = sandbox.requests.all().slice(logStart);

	// 1. The outcome: success (after a repeat), or a clear error.
	expectOutcome(op, outcome, run);

	// 2. What the sandbox holds: exactly what one clean run leaves, or nothing at all.
	if (faultId === 'none') env.reference.set(op.name, shapeOf(diff));
	const reference = env.reference.get(op.name);
	if (!reference) throw new Error(`Run the clean cell of ${op.name} first`);
	if (outcome === 'unclear, nothing') {
		expect(shapeOf(diff)).toEqual([]);
	} else {
		expect(shapeOf(diff)).toEqual(reference);
		op.check(env, ctx, run, diff, outcome === 'ok' || outcome === 'recovered');
	}

	// 3. What reached the sandbox: one repeat after a fault, a POST never repeated after an unclear answer.
	const toTarget = requests.filter((r) => r.method === op.target.method && r.route === op.target.path);
	const faulted = toTarget.filter((r) => r.fault !== undefined);
	expect(faulted).toHaveLength(rule ? 1 : 0);
	// Each request (page) once, the faulted one twice when it was repeated; no page skipped or added.
	const repeated = outcome === 'ok' && rule !== null;
	const perQuery = new Map<string, number>();
	for (const r of toTarget) perQuery.set(JSON.stringify(r.query), (perQuery.get(JSON.stringify(r.query)) ?? 0) + 1);
	const faultedQuery = faulted[0] && JSON.stringify(faulted[0].query);
	for (const [query, count] of perQuery) expect([query, count]).toEqual([query, query === faultedQuery && repeated ? 2 : 1]);
	if (cleanTargetRequests !== undefined) expect(perQuery.size).toBe(cleanTargetRequests);
	if (faultId === '429 with Retry-After') {
		const index = toTarget.indexOf(faulted[0]);
		expect(toTarget[index + 1].at - faulted[0].at).toBeGreaterThanOrEqual(RETRY_AFTER_SECONDS * 1000 - 10);
	}
	const tokens = requests.filter((r) => r.path === '/oauth/token');
	expect(tokens).toHaveLength(faultId === 'token expired' ? 1 : 0);

	// 4. No secret in the output, the error, the stored run or the logs.
	const secrets = secretsOf(sandbox, [env.credentials]);
	expect(secrets.length).toBeGreaterThanOrEqual(2);
	expect(findSecrets([...run.texts, env.logs.text()], secrets)).toEqual([]);
}

/** Declares the matrix rows of the given operations (and the trigger when asked). */
export function describeMatrix(title: string, operations: OpSpec<IDataObject>[], options: { trigger?: boolean } = {}): void {
	const env = useMatrixEnv();
	const rows = options.trigger ? [...operations, TRIGGER] : operations;
	describe(title, () => {
		for (const op of rows) {
			describe(`${op.name} (${op.kind})`, () => {
				for (const faultId of FAULT_IDS) {
					it(`${faultId}: ${EXPECTED[faultId][op.kind]}`, async () => {
						if (faultId !== 'none' && !env.reference.has(op.name)) await runCell(env, op, 'none');
						await runCell(env, op, faultId);
					});
				}
			});
		}
	});
}
