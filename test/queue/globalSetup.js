/**
 * Builds dist/ once before the queue suites (three suite files run side by side; two builds at once would
 * empty dist/ under each other; `npm test` has built it already: FTM_QUEUE_BUILT=1), and packs it once into a
 * temporary folder for all three (FTM_QUEUE_TARBALL). The workers inherit the variables.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = async () => {
	if (process.env.FTM_QUEUE_BUILT !== '1') {
		execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
		process.env.FTM_QUEUE_BUILT = '1';
	}
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ftm-queue-pack-'));
	// The build ran already; --ignore-scripts skips prepack's second build.
	const stdout = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], { encoding: 'utf8' });
	const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('[')));
	process.env.FTM_QUEUE_TARBALL = path.join(packDir, filename);
	globalThis.__ftmQueuePackDir = packDir;
};
