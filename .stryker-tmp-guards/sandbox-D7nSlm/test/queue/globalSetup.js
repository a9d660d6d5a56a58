/**
 * Builds dist/ once before the queue suites, which then only pack it (two suite files run side by side;
 * two builds at once would empty dist/ under each other). `npm test` has built it already (FTM_QUEUE_BUILT=1).
 * The workers inherit the variable.
 */
// @ts-nocheck

const { execFileSync } = require('node:child_process');

module.exports = async () => {
	if (process.env.FTM_QUEUE_BUILT === '1') return;
	execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
	process.env.FTM_QUEUE_BUILT = '1';
};
