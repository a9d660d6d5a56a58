/** This package as n8n knows it (its type names), and building, packing and installing it the way users do. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from './processes';

/** n8n's node type names of this package once installed as a community package. */
export const PACKAGE_NAME = 'n8n-nodes-file-transfer-manager';
export const NODE_TYPE = `${PACKAGE_NAME}.fileTransferManager`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.fileTransferManagerTrigger`;
export const CREDENTIAL_TYPE = 'fileTransferManagerOAuth2Api';

/**
 * Builds the package and packs it into destDir; returns the tarball's path. No build with `build: false`, or
 * when FTM_PACKAGE_BUILT=1 (the version matrix builds once before all its jest runs).
 */
export async function buildAndPack(destDir: string, options: { build?: boolean; echo?: boolean } = {}): Promise<string> {
	fs.mkdirSync(destDir, { recursive: true });
	if (options.build !== false && process.env.FTM_PACKAGE_BUILT !== '1') {
		await runCommand('npm', ['run', 'build'], { label: 'npm run build', echo: options.echo });
	}
	// The build ran just above; --ignore-scripts skips prepack's second build.
	const { stdout } = await runCommand(
		'npm',
		['pack', '--ignore-scripts', '--json', '--pack-destination', destDir],
		{ label: 'npm pack' },
	);
	const parsed = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
	const file = path.join(destDir, parsed[0].filename);
	if (!fs.existsSync(file)) throw new Error(`npm pack reported ${file}, which does not exist`);
	return file;
}

/** The folder n8n scans for community packages: <N8N_USER_FOLDER>/.n8n/nodes. */
export function nodesDir(userFolder: string): string {
	return path.join(userFolder, '.n8n', 'nodes');
}

/** Installs a packed tarball into n8n's community-package folder, as users do (a copy, not a link). */
export async function installPackage(userFolder: string, tarball: string): Promise<string> {
	const dir = nodesDir(userFolder);
	fs.mkdirSync(dir, { recursive: true });
	const pkgJson = path.join(dir, 'package.json');
	if (!fs.existsSync(pkgJson)) {
		fs.writeFileSync(pkgJson, JSON.stringify({ name: 'installed-nodes', private: true }, null, 2));
	}
	// A rebuilt tarball of the same version must replace the old copy.
	fs.rmSync(path.join(dir, 'node_modules', PACKAGE_NAME), { recursive: true, force: true });
	await runCommand(
		'npm',
		['install', '--prefix', dir, tarball, '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund'],
		{ label: 'npm install <package tarball>' },
	);
	const installed = path.join(dir, 'node_modules', PACKAGE_NAME);
	if (fs.lstatSync(installed).isSymbolicLink()) throw new Error(`${installed} is a symlink, expected a copy`);
	return installed;
}
