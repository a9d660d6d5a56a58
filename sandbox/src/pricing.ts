import type { Money, RetrievalType, StorageType } from '../../nodes/shared/api/types';

/**
 * The sandbox's pricing and timing model (documented in sandbox/README.md). Times are at speed 1; the
 * engine divides them by the speed factor.
 */
export const TIMING = {
	/** Pause before a stage starts (scanning, running). */
	stageMs: 200,
	scanMsPerFile: 40,
	transferMsPerFile: 150,
	/** Throughput when the job sets no transferRateLimit, bytes per second. */
	throughput: 20 * 1024 * 1024,
};

const PRICING = {
	currency: 'USD',
	/** Flat fee per job. */
	jobFee: 0.01,
	/** Per file transferred. */
	perFile: 0.0001,
	/** Per GiB read from the source, by source storage type. */
	perGibRead: { file: 0.02, 'object-aws': 0.09 } as Record<StorageType, number>,
	/** Extra per GiB for an object-aws source, by retrievalType (standard when not set). */
	perGibRetrieval: { standard: 0.01, bulk: 0.0025, expedited: 0.03 } as Record<RetrievalType, number>,
	/** Per GiB written, by target storage type. */
	perGibWrite: { file: 0, 'object-aws': 0.005 } as Record<StorageType, number>,
};

const GIB = 1024 ** 3;

/** Estimated cost of moving `filesCount` files of `filesSize` bytes in total. */
export function estimateCost(
	filesCount: number,
	filesSize: number,
	sourceType: StorageType,
	targetType: StorageType,
	retrievalType: RetrievalType | undefined,
): Money {
	const gib = filesSize / GIB;
	let amount = PRICING.jobFee + filesCount * PRICING.perFile;
	amount += gib * PRICING.perGibRead[sourceType] + gib * PRICING.perGibWrite[targetType];
	if (sourceType === 'object-aws') amount += gib * PRICING.perGibRetrieval[retrievalType ?? 'standard'];
	return { amount: amount.toFixed(4), currency: PRICING.currency };
}

/** Bytes per second a job transfers with. */
const effectiveRate = (transferRateLimit: number | null): number =>
	transferRateLimit ? Math.min(transferRateLimit, TIMING.throughput) : TIMING.throughput;

/** Milliseconds (at speed 1) that transferring one file of `size` bytes takes. */
export const transferCostMs = (size: number, transferRateLimit: number | null): number =>
	TIMING.transferMsPerFile + (size * 1000) / effectiveRate(transferRateLimit);
