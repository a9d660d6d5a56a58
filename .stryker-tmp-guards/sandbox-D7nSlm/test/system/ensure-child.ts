/**
 * One process that asks for system packages, as a test file running beside others does:
 * `node --import tsx test/system/ensure-child.ts '<json>'` with the packages and the installer's options.
 * Prints the programs' paths as JSON, or the error's message on stderr with exit code 1.
 */
// @ts-nocheck

import { ensureSystemPackages, type InstallOptions, type SystemPackage } from '../../scripts/system-packages';

const { packages, options } = JSON.parse(process.argv[2] ?? '{}') as { packages: SystemPackage[]; options: InstallOptions };

ensureSystemPackages(packages, { ...options, log: (line) => process.stderr.write(`${line}\n`) }).then(
	(paths) => process.stdout.write(JSON.stringify(paths)),
	(error: Error) => {
		process.stderr.write(error.message);
		process.exitCode = 1;
	},
);
