/** After the queue suites: removes the folder that globalSetup.ts packed the run's tarball into. */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { TARBALL_ENV } from './globalSetup';

export default async function globalTeardown(): Promise<void> {
	const tarball = process.env[TARBALL_ENV];
	if (tarball) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	delete process.env[TARBALL_ENV];
}
