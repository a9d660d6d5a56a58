/**
 * Wait for Completion looks at once, then backs off (0.5 s, 1 s, 2 s, … up to the Poll Interval): a dry
 * run of about 0.3 s returns in under a second with the default settings (Poll Interval 5 s).
 */
import { createParameters, FILES, uniq, useJobSandbox } from './helpers';

// Real speed: the job takes what the sandbox's timings say (a stage pause of 0.2 s, 40 ms per file).
const t = useJobSandbox({ speed: 1 });

describe('job: Wait for Completion with the default Poll Interval', () => {
	it('a dry run of about 0.3 s returns in under 1 s, after a look at once and one 0.5 s backoff', async () => {
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
		const stats = items[0].json.stats as { startedAt: string; finishedAt: string };
		const jobMs = Date.parse(stats.finishedAt) - Date.parse(stats.startedAt);
		expect(jobMs).toBeGreaterThanOrEqual(200);
		expect(jobMs).toBeLessThan(600);
		expect(elapsed).toBeLessThan(1000);
		// The status checks: one at once (still scanning), then one after 0.5 s (finished).
		const checks = t.sandbox.requests.all().filter((r) => r.method === 'GET' && r.route === '/jobs/{id}');
		expect(checks.length).toBeGreaterThanOrEqual(1);
		expect(checks.length).toBeLessThanOrEqual(3);
	});
});
