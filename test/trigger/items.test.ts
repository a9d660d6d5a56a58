import type { INode, IPollFunctions } from 'n8n-workflow';

import type { Job } from '../../nodes/shared/api/types';
import type { TriggerConfig } from '../../nodes/FileTransferManagerTrigger/config';
import { jobSummary } from '../../nodes/shared/jobs/summary';
import { toItems } from '../../nodes/FileTransferManagerTrigger/items';

const node: INode = {
	id: 'n',
	name: 'File Transfer Manager Trigger',
	type: 'n8n-nodes-file-transfer-manager.fileTransferManagerTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A poll context whose every request is answered with one HTTP error from the service. */
function failingContext(status: number): { ctx: IPollFunctions; calls: () => number } {
	let calls = 0;
	const ctx = {
		getNode: () => node,
		getMode: () => 'trigger',
		getNodeParameter: (name: string, fallback: unknown) => (name === 'requestOptions' ? { maxRetries: 0 } : fallback),
		getCredentials: async () => ({ baseUrl: 'http://127.0.0.1:9' }),
		helpers: {
			httpRequestWithAuthentication: async () => {
				calls++;
				const code = status === 404 ? 'entity-not-found' : 'rate-limited';
				const title = status === 404 ? 'Entity Not Found' : 'Too Many Requests';
				throw Object.assign(new Error(`Request failed with status code ${status}`), {
					response: { status, headers: {}, data: { errors: [{ status: String(status), code, title, detail: title }] } },
				});
			},
		},
	} as unknown as IPollFunctions;
	return { ctx, calls: () => calls };
}

const job = {
	id: '0b0c0d0e-1111-4222-8333-444455556666',
	type: 'jobs',
	attributes: {
		name: 'j',
		status: 'failed',
		dryRun: true,
		updatedAt: '2026-01-01T00:00:10.000Z',
		stats: {
			startedAt: '2026-01-01T00:00:00.000Z',
			finishedAt: '2026-01-01T00:00:10.000Z',
			estimatedDuration: 4,
			estimatedCost: { amount: '0.0104', currency: 'USD' },
			estimatedFinishedAt: null,
			scannedFilesCount: 4,
			filesCount: 4,
			filesSize: 1515,
			transferredCount: 0,
			transferredSize: 0,
		},
	},
} as unknown as Job;

const config = { attachErrors: 3, attachTransferSummary: false } as TriggerConfig;

describe('attached errors', () => {
	it('a refused errors request (404) still delivers the event, with the reason', async () => {
		const { ctx, calls } = failingContext(404);
		const [item] = await toItems(ctx, config, [{ job, event: 'failed' }]);
		// The errors list, then the job itself (a 404 here too: no such job, so the list's 404 stands).
		expect(calls()).toBe(2);
		expect(item.json).toMatchObject({ id: job.id, event: 'failed', errors: [], errorsTotal: null, errorsUnavailable: 'Entity Not Found' });
	});

	it('a rate limit that outlasts the retries fails the poll instead', async () => {
		const { ctx } = failingContext(429);
		await expect(toItems(ctx, config, [{ job, event: 'failed' }])).rejects.toMatchObject({ httpCode: '429' });
	});
});

describe('transfer summary', () => {
	it('describes a dry run by its scope and estimated cost', () => {
		expect(jobSummary(job)).toMatchObject({
			filesCount: 4,
			remainingCount: 4,
			percentDone: 0,
			durationSeconds: 10,
			averageBytesPerSecond: 0,
			text: 'Dry run: 4 files (1.5 KB) in scope, estimated duration 4s, estimated cost 0.0104 USD.',
			dryRun: true,
			estimatedCost: 0.0104,
			currency: 'USD',
		});
	});
});
