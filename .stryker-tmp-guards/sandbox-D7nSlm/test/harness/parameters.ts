// @ts-nocheck
import type { INodeParameters } from 'n8n-workflow';

import { DEMO_IDS } from '../../sandbox/src';
import { rl } from './locator';

/**
 * Job › Create's parameters for the tests' usual job: a dry run copying the demo file share's /reports to the
 * demo archive storage at `targetPath`, skipping conflicts. Spread it and add or override what a test needs.
 */
export function demoDryRunCopy(targetPath: string): INodeParameters {
	return {
		resource: 'job',
		operation: 'create',
		transferType: 'copy',
		sourceStorageId: rl(DEMO_IDS.storageIds.files),
		sourcePath: '/reports',
		targetStorageId: rl(DEMO_IDS.storageIds.archive),
		targetPath,
		conflictHandling: 'skip',
		dryRun: true,
	};
}
