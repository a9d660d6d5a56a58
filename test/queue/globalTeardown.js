/** Removes the folder of the tarball test/queue/globalSetup.js packed for the run. */
const fs = require('node:fs');

module.exports = async () => {
	if (globalThis.__ftmQueuePackDir) fs.rmSync(globalThis.__ftmQueuePackDir, { recursive: true, force: true });
	delete process.env.FTM_QUEUE_TARBALL;
};
