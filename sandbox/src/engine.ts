import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Job, JobStatus, JobTransfer, TransferStatus } from '../../nodes/shared/api/types';
import { estimateCost, transferCostMs, TIMING } from './pricing';
import { diskPath, listFiles, normalizeStoragePath, removeFile, writeFileDeep, type ListedFile } from './storage-fs';
import type { StorageRecord, Store } from './store';
import { md5Hex, nextTimestamp, s3Etag, uuid } from './util';

export type Stage = 'scanning' | 'running';

/**
 * What the data folder keeps of a run, enough to carry it on after a restart: the source's listing (taken
 * once), how far the scan and the transfers got, and whether it is halted. The files in scope are the
 * listing's first `scanIndex` entries that match the job's scope rules, so they are not kept separately.
 */
export interface RunState {
	stage: Stage;
	halted: 'paused' | 'stuck' | null;
	listing: ListedFile[] | null;
	sourceIsFile: boolean;
	scanIndex: number;
	transferIndex: number;
	errorCount: number;
}

interface PlannedFile extends ListedFile {
	/** Source file on disk. */
	abs: string;
}

interface Run {
	job: Job;
	stage: Stage;
	/** Files found at the source (null until the scan has listed the source). */
	listing: ListedFile[] | null;
	sourceRoot: string;
	scanIndex: number;
	/** Files in scope, in transfer order. */
	planned: PlannedFile[];
	transferIndex: number;
	halted: 'paused' | 'stuck' | null;
	timer: NodeJS.Timeout | null;
	errorCount: number;
	/** The source path names a file, not a folder. */
	sourceIsFile: boolean;
	/** Transfer time (ms at speed 1) of the files not yet transferred. */
	remainingMs: number;
}

/** A timer fires at the earliest after this many ms; cheaper work units are batched up to it. */
const MIN_TIMER_MS = 2;
const MAX_BATCH = 500;
const FINAL: JobStatus[] = ['finished', 'failed', 'canceled'];

export const isFinal = (status: JobStatus): boolean => FINAL.includes(status);

/** Runs jobs for real on the storages' folders: scan, then copy/move/sync file by file. */
export class Engine {
	private readonly runs = new Map<string, Run>();
	private readonly timers = new Set<NodeJS.Timeout>();
	/** Stage a job without a run (inserted, demo) was paused or stuck in. */
	private readonly haltedStage = new Map<string, Stage>();
	private closed = false;

	constructor(
		private readonly store: Store,
		private readonly speed: number,
	) {}

	/** Starts a newly created job (status scanning). */
	start(job: Job): void {
		const run: Run = {
			job,
			stage: 'scanning',
			listing: null,
			sourceRoot: '',
			scanIndex: 0,
			planned: [],
			transferIndex: 0,
			halted: null,
			timer: null,
			errorCount: 0,
			sourceIsFile: false,
			remainingMs: 0,
		};
		this.runs.set(job.id, run);
		job.attributes.stats.startedAt = nextTimestamp(null);
		this.later(run, TIMING.stageMs, () => this.continue(run));
	}

	pause(job: Job): void {
		const run = this.runs.get(job.id);
		if (run) {
			this.clearTimer(run);
			run.halted = 'paused';
		} else if (job.attributes.status === 'scanning' || job.attributes.status === 'running') {
			this.haltedStage.set(job.id, job.attributes.status);
		}
		this.setStatus(job, 'paused');
	}

	/** Resumes a paused job into the stage it was paused in (stuck when a storage is still away). */
	resume(job: Job): void {
		const run = this.runs.get(job.id);
		if (!run) {
			this.setStatus(job, this.haltedStage.get(job.id) ?? 'running');
			this.haltedStage.delete(job.id);
			return;
		}
		run.halted = null;
		this.setStatus(job, run.stage);
		this.continue(run);
	}

	cancel(job: Job): void {
		this.end(job, 'canceled');
	}

	/** Moves a job to a status without transition rules (control API). */
	force(job: Job, status: JobStatus): void {
		const run = this.runs.get(job.id);
		if (isFinal(status)) return this.end(job, status);
		if (status === 'paused' || status === 'stuck') {
			if (run) {
				this.clearTimer(run);
				run.halted = status;
			} else if (job.attributes.status === 'scanning' || job.attributes.status === 'running') {
				this.haltedStage.set(job.id, job.attributes.status);
			}
			return this.setStatus(job, status);
		}
		if (run) {
			run.stage = status === 'scanning' ? 'scanning' : run.stage;
			run.halted = null;
			this.setStatus(job, status);
			this.clearTimer(run);
			this.continue(run);
		} else {
			this.setStatus(job, status);
		}
	}

	/** A storage went away or came back: its jobs go stuck, or resume. */
	storageAvailabilityChanged(storage: StorageRecord): void {
		for (const run of [...this.runs.values()]) {
			const { source, target } = run.job.attributes;
			if (source.id !== storage.id && target.id !== storage.id) continue;
			if (!storage.available && run.halted === null) {
				this.clearTimer(run);
				run.halted = 'stuck';
				this.setStatus(run.job, 'stuck');
			} else if (storage.available && run.halted === 'stuck' && this.storagesReady(run)) {
				run.halted = null;
				this.setStatus(run.job, run.stage);
				this.continue(run);
			}
		}
	}

	/** Stops all work. The runs stay as they are, so that the data folder keeps them for the next start. */
	close(): void {
		this.closed = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const run of this.runs.values()) run.timer = null;
	}

	/** The run of a job (undefined when the job has none: it ended, or never ran in this engine). */
	runOf(jobId: string): RunState | undefined {
		return this.runs.get(jobId);
	}

	/** The stage a job without a run (inserted, demo) was in when it was paused or went stuck. */
	haltedStageOf(jobId: string): Stage | undefined {
		return this.haltedStage.get(jobId);
	}

	/**
	 * Carries on the runs the data folder kept (after a restart): each run continues where it was, a halted
	 * one stays halted (a stuck one continues when its storages are available). Returns how many continue.
	 */
	restore(runs: Iterable<[string, RunState]>, halted: Iterable<[string, Stage]>): number {
		for (const [jobId, stage] of halted) if (this.store.jobs.has(jobId)) this.haltedStage.set(jobId, stage);
		let continuing = 0;
		for (const [jobId, state] of runs) {
			const job = this.store.jobs.get(jobId);
			const source = job && this.store.storages.get(job.attributes.source.id);
			if (!job || !source || isFinal(job.attributes.status)) {
				if (job) this.store.changed('jobs', jobId); // writes the job without a run: the stale run row goes
				continue;
			}
			const run: Run = {
				job,
				stage: state.stage,
				listing: state.listing,
				sourceRoot: diskPath(source, job.attributes.source.path),
				scanIndex: state.scanIndex,
				planned: [],
				transferIndex: state.transferIndex,
				halted: state.halted,
				timer: null,
				errorCount: state.errorCount,
				sourceIsFile: state.sourceIsFile,
				remainingMs: 0,
			};
			for (const file of (state.listing ?? []).slice(0, state.scanIndex)) {
				if (this.inScope(job, file.name)) run.planned.push(this.planned(run, file));
			}
			run.remainingMs = run.planned
				.slice(run.transferIndex)
				.reduce((sum, f) => sum + transferCostMs(f.size, job.attributes.transferRateLimit), 0);
			this.runs.set(jobId, run);
			if (run.halted === 'stuck' && this.storagesReady(run)) {
				run.halted = null;
				this.setStatus(job, run.stage);
			}
			if (run.halted === null) {
				continuing++;
				this.later(run, TIMING.stageMs, () => this.continue(run));
			}
		}
		return continuing;
	}

	private storagesReady(run: Run): boolean {
		const { source, target } = run.job.attributes;
		return !!this.store.storages.get(source.id)?.available && !!this.store.storages.get(target.id)?.available;
	}

	private setStatus(job: Job, status: JobStatus): void {
		if (job.attributes.status === status) {
			this.store.changed('jobs', job.id); // its run may have changed (halted, stage): the journal writes both
			return;
		}
		job.attributes.status = status;
		if (isFinal(status)) job.attributes.stats.finishedAt = nextTimestamp(null);
		this.store.touchJob(job);
	}

	private end(job: Job, status: JobStatus): void {
		const run = this.runs.get(job.id);
		if (run) this.clearTimer(run);
		this.runs.delete(job.id);
		this.haltedStage.delete(job.id);
		this.setStatus(job, status);
	}

	private later(run: Run, costMs: number, fn: () => void): void {
		if (this.closed) return;
		this.clearTimer(run);
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			run.timer = null;
			if (run.halted || !this.runs.has(run.job.id)) return;
			fn();
		}, costMs / this.speed);
		run.timer = timer;
		this.timers.add(timer);
	}

	private clearTimer(run: Run): void {
		if (run.timer) {
			clearTimeout(run.timer);
			this.timers.delete(run.timer);
			run.timer = null;
		}
	}

	/** Does the next piece of work of a run that is not halted. */
	private continue(run: Run): void {
		if (run.halted || this.closed) return;
		if (!this.storagesReady(run)) {
			run.halted = 'stuck';
			this.setStatus(run.job, 'stuck');
			return;
		}
		if (run.stage === 'scanning') {
			if (run.listing === null && !this.list(run)) return;
			if (run.scanIndex < run.listing!.length) return this.batch(run);
			return this.finishScan(run);
		}
		if (run.transferIndex < run.planned.length) return this.batch(run);
		this.finishRun(run);
	}

	/** Schedules the next units of work (files scanned or transferred), batched when they are cheap. */
	private batch(run: Run): void {
		const scanning = run.stage === 'scanning';
		const start = scanning ? run.scanIndex : run.transferIndex;
		const end = scanning ? run.listing!.length : run.planned.length;
		let cost = 0;
		let count = 0;
		while (start + count < end && count < MAX_BATCH) {
			cost += scanning
				? TIMING.scanMsPerFile
				: transferCostMs(run.planned[start + count].size, run.job.attributes.transferRateLimit);
			count++;
			if (cost / this.speed >= MIN_TIMER_MS) break;
		}
		this.later(run, cost, () => {
			for (let i = 0; i < count; i++) {
				if (run.halted || !this.runs.has(run.job.id)) return;
				if (scanning) this.scanOne(run);
				else this.transferOne(run);
			}
			this.continue(run);
		});
	}

	private list(run: Run): boolean {
		const job = run.job;
		const source = this.store.storages.get(job.attributes.source.id)!;
		run.sourceRoot = diskPath(source, job.attributes.source.path);
		const listing = listFiles(run.sourceRoot);
		if (!listing) {
			this.addError(job, normalizeStoragePath(job.attributes.source.path), 'The source path does not exist and cannot be scanned.');
			this.end(job, 'failed');
			return false;
		}
		run.listing = listing;
		run.sourceIsFile = fs.statSync(run.sourceRoot).isFile();
		return true;
	}

	private scanOne(run: Run): void {
		const file = run.listing![run.scanIndex++];
		const stats = run.job.attributes.stats;
		stats.scannedFilesCount++;
		if (this.inScope(run.job, file.name)) {
			stats.filesCount++;
			stats.filesSize += file.size;
			run.planned.push(this.planned(run, file));
		}
		this.store.touchJob(run.job);
	}

	private planned(run: Run, file: ListedFile): PlannedFile {
		const abs = run.sourceIsFile ? run.sourceRoot : path.join(run.sourceRoot, ...file.rel.split('/'));
		return { ...file, abs };
	}

	private inScope(job: Job, name: string): boolean {
		const rules = job.attributes.scope?.rules ?? [];
		// include-if-all: a file is in scope only when every rule matches its name.
		return rules.every((rule) =>
			rule.condition === 'ends-with' ? name.endsWith(rule.value) : new RegExp(rule.value).test(name),
		);
	}

	private finishScan(run: Run): void {
		const job = run.job;
		const { stats, source, target, dryRun, transferRateLimit } = job.attributes;
		run.remainingMs = run.planned.reduce((sum, f) => sum + transferCostMs(f.size, transferRateLimit), 0);
		const ms = run.remainingMs / this.speed;
		stats.estimatedDuration = Math.round(ms) / 1000;
		stats.estimatedFinishedAt = new Date(Date.now() + ms).toISOString();
		const targetType = this.store.storages.get(target.id)!.type;
		stats.estimatedCost = estimateCost(stats.filesCount, stats.filesSize, source.type, targetType, source.retrievalType);
		if (dryRun) {
			this.end(job, 'finished');
			return;
		}
		run.stage = 'running';
		this.setStatus(job, 'running');
		this.later(run, TIMING.stageMs, () => this.continue(run));
	}

	private targetFolder(run: Run): { storage: StorageRecord; base: string } {
		const storage = this.store.storages.get(run.job.attributes.target.id)!;
		return { storage, base: normalizeStoragePath(run.job.attributes.target.path) };
	}

	private transferOne(run: Run): void {
		const job = run.job;
		const file = run.planned[run.transferIndex++];
		const { transferType, conflictHandling, stats } = job.attributes;
		const { storage, base } = this.targetFolder(run);
		let targetPath = path.posix.join(base, file.rel);
		const sourceBase = normalizeStoragePath(job.attributes.source.path);
		const sourcePath = run.sourceIsFile ? sourceBase : path.posix.join(sourceBase, file.rel);
		run.remainingMs -= transferCostMs(file.size, job.attributes.transferRateLimit);
		let data: Buffer;
		try {
			if (!file.readable) throw new Error('dangling link');
			data = fs.readFileSync(file.abs);
		} catch (error) {
			const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
			this.fail(run, sourcePath, `The file cannot be read (${reason}).`, targetPath, file.size);
			return;
		}
		const hash = { md5: md5Hex(data), s3Etag: s3Etag(data) };
		let status: TransferStatus = 0;
		let disk = diskPath(storage, targetPath);
		if (fs.existsSync(disk)) {
			if (transferType === 'sync') {
				const same = fs.statSync(disk).isFile() && md5Hex(fs.readFileSync(disk)) === hash.md5;
				if (same) status = 1;
			} else if (conflictHandling === 'skip') {
				status = 1;
			} else if (conflictHandling === 'rename') {
				targetPath = freeCopyName(storage, targetPath);
				disk = diskPath(storage, targetPath);
			}
		}
		if (status === 0) {
			try {
				if (fs.existsSync(disk) && fs.statSync(disk).isDirectory()) throw new Error('a folder has that name');
				writeFileDeep(disk, data);
			} catch (error) {
				this.fail(run, sourcePath, `The file cannot be written to ${targetPath} (${(error as Error).message}).`, targetPath, file.size);
				return;
			}
			if (transferType === 'move') {
				const sourceStorage = this.store.storages.get(job.attributes.source.id)!;
				removeFile(file.abs, sourceStorage.type === 'object-aws' ? sourceStorage.dir : path.dirname(file.abs));
			}
			stats.transferredCount++;
			stats.transferredSize += file.size;
		}
		this.record(job, { type: 'job-transfers', attributes: { path: targetPath, status, size: data.length, hash } });
		this.updateEstimate(run);
		this.store.touchJob(job);
	}

	private fail(run: Run, sourcePath: string, message: string, targetPath: string, size: number): void {
		const job = run.job;
		this.record(job, {
			type: 'job-transfers',
			attributes: { path: targetPath, status: -1, size, hash: { md5: '', s3Etag: '' } },
		});
		this.addError(job, sourcePath, message);
		run.errorCount++;
		const limit = job.attributes.failureConditions.find((c) => c.type === 'error-count');
		if (limit && run.errorCount >= limit.value) {
			this.end(job, 'failed');
			return;
		}
		this.store.touchJob(job);
	}

	private updateEstimate(run: Run): void {
		const rest = Math.max(0, run.remainingMs) / this.speed;
		run.job.attributes.stats.estimatedFinishedAt = new Date(Date.now() + rest).toISOString();
	}

	private finishRun(run: Run): void {
		const job = run.job;
		if (job.attributes.transferType === 'sync') {
			// The target mirrors the source: whatever is not a file in scope at the source goes.
			const { storage, base } = this.targetFolder(run);
			const keep = new Set(run.planned.map((f) => f.rel));
			const root = diskPath(storage, base);
			for (const file of listFiles(root) ?? []) {
				if (!keep.has(file.rel)) removeFile(path.join(root, ...file.rel.split('/')), root);
			}
		}
		job.attributes.stats.estimatedFinishedAt = nextTimestamp(null);
		this.end(job, 'finished');
	}

	private record(job: Job, transfer: JobTransfer): void {
		this.store.addTransfer(job.id, transfer);
	}

	/** Adds a job-error record (also used by the control API). */
	addError(job: Job, sourcePath: string, message: string, event: 'error' | 'warning' = 'error'): void {
		this.store.addJobError(job.id, {
			id: uuid(),
			type: 'job-errors',
			attributes: { sourcePath, message, timestamp: nextTimestamp(null), event },
		});
	}
}

/** `<name>_copy-<n>.<ext>` (split at the last dot) with the smallest free n from 1. */
function freeCopyName(storage: StorageRecord, storagePath: string): string {
	const dir = path.posix.dirname(storagePath);
	const base = path.posix.basename(storagePath);
	const dot = base.lastIndexOf('.');
	const name = dot >= 0 ? base.slice(0, dot) : base;
	const ext = dot >= 0 ? base.slice(dot) : '';
	for (let n = 1; ; n++) {
		const candidate = path.posix.join(dir, `${name}_copy-${n}${ext}`);
		if (!fs.existsSync(diskPath(storage, candidate))) return candidate;
	}
}
