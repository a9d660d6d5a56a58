/** After the e2e layer's last suite: stops the shared n8n and removes the run's folder (globalSetup.ts). */
import * as fs from 'node:fs';
import { SHARED_N8N_ENV, TARBALL_ENV } from './helpers/sharedN8n';
import { takeRun } from './runState';

export default async function globalTeardown(): Promise<void> {
	const run = takeRun();
	delete process.env[SHARED_N8N_ENV];
	delete process.env[TARBALL_ENV];
	if (!run) return;
	await run.server?.stop();
	fs.rmSync(run.runDir, { recursive: true, force: true });
}
