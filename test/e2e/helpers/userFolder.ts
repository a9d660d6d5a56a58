/**
 * The packed package installed into a fresh n8n user folder, as users install it: what every end-to-end
 * suite that runs real n8n starts from.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureN8nInstalled } from '../../../scripts/n8n/install';
import { buildAndPack, installPackage } from '../../../scripts/n8n/packaging';
import { runTarball } from './sharedN8n';

/**
 * The packed package: the tarball test/e2e/globalSetup.ts packed once for the run, or, without it (a file run
 * outside the e2e project's setup), one packed now into `<workDir>/pack`.
 */
export async function packedTarball(workDir: string): Promise<string> {
	// Under `npm test` the pretest script has just built dist/; building again would race other test files.
	return runTarball() ?? (await buildAndPack(path.join(workDir, 'pack'), { build: process.env.npm_lifecycle_event !== 'test' }));
}

/**
 * Installs n8n when missing (the version FTM_N8N_VERSION selects), takes the packed package (packedTarball)
 * and installs the tarball into `<workDir>/n8n-user/.n8n/nodes` as users do; returns the user folder.
 */
export async function prepareUserFolder(workDir: string): Promise<string> {
	await ensureN8nInstalled();
	const tarball = await packedTarball(workDir);
	const userFolder = path.join(workDir, 'n8n-user');
	const installed = await installPackage(userFolder, tarball);
	if (fs.lstatSync(installed).isSymbolicLink()) throw new Error(`${installed} is a symlink, not a copy as users install it`);
	return userFolder;
}
