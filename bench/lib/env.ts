/** Paths and facts about the machine that every benchmark shares. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const projectRoot = path.resolve(__dirname, '..', '..');

/** Node 24 from the project's `node` devDependency (what npm scripts run). */
export const NODE_BIN = path.join(projectRoot, 'node_modules', '.bin', 'node');

export function machine(): { cpus: number; cpuModel: string; node: string; os: string; memoryGb: number } {
	return {
		cpus: os.availableParallelism(),
		cpuModel: os.cpus()[0]?.model ?? 'unknown',
		node: process.version,
		os: `${os.type()} ${os.release()}`,
		memoryGb: Math.round(os.totalmem() / 1024 ** 3),
	};
}

export function assertNodeBin(): void {
	if (!fs.existsSync(NODE_BIN)) {
		throw new Error(`${NODE_BIN} is missing: run "npm install" (the "node" devDependency provides Node 24).`);
	}
}
