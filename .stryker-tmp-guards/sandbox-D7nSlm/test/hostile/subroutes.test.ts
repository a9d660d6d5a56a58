/**
 * A job's transfers or errors route answered with 405, or with a 404 that is no JSON:API document (a proxy
 * or a web server in front of the API): when the job itself exists, the error says the deployment serves
 * the list elsewhere, with the status it got; when the job check fails too, the list's own error stands.
 */
// @ts-nocheck

import { DEMO_IDS, seen, useHostileSuite } from './helpers';
import { apiError } from './servers';
import { rl } from '../harness/locator';

const h = useHostileSuite();
const JOB = DEMO_IDS.jobIds.failedSync;

const getErrors = { resource: 'job', operation: 'getErrors', jobId: rl(JOB), returnAll: true, requestOptions: { maxRetries: 0 } };

describe("a job's errors route that answers 405 or a bare 404", () => {
	it('405 Method Not Allowed for a job that exists: served elsewhere, with the API\'s title', async () => {
		h.service.on('GET', `/jobs/${JOB}/errors`, (_req, res) => apiError(res, 405, 'method-not-allowed', 'Method Not Allowed', 'GET is not allowed on this resource.'));
		const result = await h.run(getErrors);
		expect(result.error?.message).toBe(
			`The job ${JOB} exists, but this deployment serves its errors elsewhere, not at GET /jobs/${JOB}/errors (HTTP 405 Method Not Allowed): run API › Check Compatibility`,
		);
		expect(seen(h.service).filter((line) => !line.startsWith('POST /oauth/token'))).toEqual([`GET /jobs/${JOB}/errors`, `GET /jobs/${JOB}`]);
	});

	it('a 404 without an error document for a job that exists: served elsewhere, with the status only', async () => {
		h.service.on('GET', `/jobs/${JOB}/errors`, (_req, res) => {
			res.writeHead(404, { 'Content-Type': 'text/html' });
			res.end('<html><body>Not Found</body></html>');
		});
		const result = await h.run(getErrors);
		expect(result.error?.message).toBe(
			`The job ${JOB} exists, but this deployment serves its errors elsewhere, not at GET /jobs/${JOB}/errors (HTTP 404): run API › Check Compatibility`,
		);
	});

	it('when the job check fails as well, the list\'s own error stands', async () => {
		h.service.on('GET', `/jobs/${JOB}/errors`, (_req, res) => apiError(res, 405, 'method-not-allowed', 'Method Not Allowed', 'GET is not allowed on this resource.'));
		h.service.on('GET', `/jobs/${JOB}`, (_req, res) => apiError(res, 500, 'internal-error', 'Internal Server Error'));
		const result = await h.run(getErrors);
		expect(result.error?.message).toBe('Method Not Allowed');
	});

	it('any other failure of the list asks nothing more', async () => {
		h.service.on('GET', `/jobs/${JOB}/errors`, (_req, res) => apiError(res, 403, 'forbidden', 'Forbidden', 'Not your job.'));
		const result = await h.run(getErrors);
		expect(result.error?.message).toBe('Forbidden');
		expect(seen(h.service).filter((line) => line === `GET /jobs/${JOB}`)).toEqual([]);
	});
});
