/**
 * Before the queue suites: builds dist/ once (unless FTM_PACKAGE_BUILT=1, as `npm test` sets it: three suite
 * files run side by side, and two builds at once would empty dist/ under each other), and packs it once into
 * a temporary folder for all three (FTM_QUEUE_TARBALL, which jest's workers inherit; test/queue/suite.ts reads
 * it). globalTeardown.ts removes that folder.
 */
import { buildAndPack } from '../../scripts/n8n/packaging';
import { tempDir } from '../../scripts/n8n/paths';

export const TARBALL_ENV = 'FTM_QUEUE_TARBALL';

export default async function globalSetup(): Promise<void> {
	const packDir = tempDir('ftm-queue-pack-');
	process.env[TARBALL_ENV] = await buildAndPack(packDir, { echo: true });
	process.env.FTM_PACKAGE_BUILT = '1';
}
