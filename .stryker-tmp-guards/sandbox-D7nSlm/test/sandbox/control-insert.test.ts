/**
 * The control route that inserts jobs (`POST /__sandbox/jobs/insert`, sandbox/README.md › Control routes), over
 * real HTTP: the attributes it is given win over the defaults, `stats` merged field by field, so a test out of
 * process can make a finished dry run of any age (the Max Dry Run Age guard of Run From Dry Run), read back
 * through the API as given.
 */
// @ts-nocheck

import { expectJsonApi, getJob, useSandbox } from './helpers';

const h = useSandbox({ demo: true });

describe('POST /__sandbox/jobs/insert', () => {
	it('a finished dry run with an old stats.finishedAt: the API returns that finishedAt, the other stats as defaults', async () => {
		const finishedAt = '2026-01-02T03:04:05.678Z';
		const res = await h.api.http.post(
			`${h.sb.baseUrl}/__sandbox/jobs/insert`,
			JSON.stringify({ count: 1, attributes: { dryRun: true, status: 'finished', transferType: 'move', stats: { finishedAt } } }),
			{ headers: { 'Content-Type': 'application/json' } },
		);
		expect(res.status).toBe(200);
		const [id] = (res.data as { ids: string[] }).ids;
		const job = await getJob(h, id);
		expectJsonApi(job, 200);
		expect(job.data.data.attributes).toMatchObject({ dryRun: true, status: 'finished', transferType: 'move' });
		expect(job.data.data.attributes.stats).toMatchObject({ finishedAt, filesCount: 0, estimatedCost: null });
		expect(job.data.data.attributes.stats.startedAt).not.toBe(finishedAt);
	});
});
