/**
 * The simplified job item (Simplify on): every simplified field in a fixed order, whether the service sent
 * every attribute (the common case, built in one go) or left some out (only the fields it sent).
 */
import type { Job } from '../../../nodes/shared/api/types';
import {
	SIMPLIFIED_JOB_FIELDS,
	SIMPLIFIED_STATS_FIELDS,
	jobJson,
} from '../../../nodes/FileTransferManager/helpers/jobOutput';

const job = {
	type: 'jobs',
	id: '2d0c1f8e-3a4b-4c5d-8e6f-7a8b9c0d1e2f',
	attributes: {
		name: 'nightly',
		status: 'finished',
		accountId: 'a',
		deploymentId: 'a',
		groupId: null,
		userId: null,
		dryRun: false,
		transferType: 'copy',
		source: { storageId: 's', path: '/in' },
		target: { storageId: 't', path: '/out' },
		scope: {},
		conflictHandling: null,
		failureConditions: [],
		transferRateLimit: null,
		stats: { startedAt: '2026-11-23T10:00:00Z', finishedAt: '2026-11-23T10:01:00Z', filesCount: 3, filesSize: 300, transferredCount: 3, transferredSize: 300 },
		createdAt: '2026-11-23T09:59:00Z',
		updatedAt: '2026-11-23T10:01:00Z',
	},
} as unknown as Job;

describe('jobJson, simplified', () => {
	it('a complete job: the simplified fields in order, then summary; stats with all its simplified fields', () => {
		const json = jobJson(job, true);
		expect(Object.keys(json)).toEqual([...SIMPLIFIED_JOB_FIELDS, 'summary']);
		expect(json).toMatchObject({
			id: job.id,
			name: 'nightly',
			status: 'finished',
			transferType: 'copy',
			dryRun: false,
			source: { storageId: 's', path: '/in' },
			target: { storageId: 't', path: '/out' },
			createdAt: '2026-11-23T09:59:00Z',
			updatedAt: '2026-11-23T10:01:00Z',
		});
		expect(json.stats).toEqual({
			startedAt: '2026-11-23T10:00:00Z',
			finishedAt: '2026-11-23T10:01:00Z',
			filesCount: 3,
			filesSize: 300,
			transferredCount: 3,
			transferredSize: 300,
			estimatedDuration: null,
			estimatedCost: null,
		});
		expect(Object.keys(json.stats as object)).toEqual([...SIMPLIFIED_STATS_FIELDS]);
		expect((json.summary as { text: string }).text).toBe('Transferred 3 of 3 files (300 B of 300 B) in 1m 0s.');
	});

	it('a job without some attributes: only the fields the service sent, in the same order', () => {
		const { name: _name, source: _source, ...rest } = job.attributes;
		const json = jobJson({ ...job, attributes: rest } as unknown as Job, true);
		expect(Object.keys(json)).toEqual([...SIMPLIFIED_JOB_FIELDS.filter((f) => f !== 'name' && f !== 'source'), 'summary']);
		expect(json.status).toBe('finished');
	});
});
