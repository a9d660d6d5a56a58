/**
 * Wait for Completion looks at once, then backs off (0.5 s, 1 s, 2 s, … up to the Poll Interval): a dry
 * run of about 0.3 s is not held for the default Poll Interval (5 s). Timings are the sandbox's request log,
 * not the test's own clock, so that a loaded machine does not fail it.
 */
// @ts-nocheck

import { createParameters, FILES, uniq, useJobSandbox } from './helpers';

// Real speed: the job takes what the sandbox's timings say (a stage pause of 0.2 s, 40 ms per file).
const t = useJobSandbox({ speed: 1 });

describe('job: Wait for Completion with the default Poll Interval', () => {
	it('a dry run of about 0.3 s is looked at once, then after a 0.5 s backoff, never after a full Poll Interval', async () => {
		const folder = `/${uniq('quick')}`;
		t.sandbox.control.writeFile(FILES, `${folder}/a.txt`, 'a');
		t.sandbox.control.writeFile(FILES, `${folder}/b.txt`, 'bb');
		t.sandbox.requests.clear();
		const started = Date.now();
		const { items, error } = await t.run(
			createParameters({ sourcePath: folder, dryRun: true, waitForCompletion: true }),
		);
		const elapsed = Date.now() - started;
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('finished');
		// The default Poll Interval is 5 s: the old behaviour slept that long before its first look.
		expect(elapsed).toBeLessThan(5000);
		const all = t.sandbox.requests.all();
		const post = all.find((r) => r.method === 'POST' && r.route === '/jobs');
		const checks = all.filter((r) => r.method === 'GET' && r.route === '/jobs/{id}');
		expect(post).toBeDefined();
		// At once (still scanning, unless the job was quicker than the request), then once after 0.5 s.
		expect(checks.length).toBeGreaterThanOrEqual(1);
		expect(checks.length).toBeLessThanOrEqual(3);
		// The first look does not wait for the backoff; each later one waits at least the 0.5 s step.
		expect(checks[0].at - post!.at).toBeLessThan(500);
		for (let i = 1; i < checks.length; i++) expect(checks[i].at - checks[i - 1].at).toBeGreaterThanOrEqual(450);
	});
});
