import type { JobStats } from '../../nodes/FileTransferManager/api/types';

/** A job's full stats object, nulls and zeros as the API sends for a new job; `over` sets some of them. */
export function emptyStats(over: Partial<JobStats> = {}): JobStats {
	return {
		startedAt: null,
		finishedAt: null,
		estimatedDuration: null,
		estimatedCost: null,
		estimatedFinishedAt: null,
		scannedFilesCount: 0,
		filesCount: 0,
		filesSize: 0,
		transferredCount: 0,
		transferredSize: 0,
		...over,
	};
}
