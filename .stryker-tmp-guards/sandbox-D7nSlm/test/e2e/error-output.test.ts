/**
 * End-to-end: On Error "Continue (using error output)" in real n8n. Three job IDs (one of a
 * demo job, one that is not a UUID, one unknown to the service) go through Job › Get; the found job must
 * reach the node on the success output, the two failures the node on the error output, each with the
 * node's message and description. Run in a running n8n (useN8nStack: the packed package installed as users
 * do), created through the public API and run as from the editor, against an in-process sandbox.
 */
// @ts-nocheck

import { DEMO_IDS } from '../../sandbox/src';
import type { CredentialRef } from '../../scripts/n8n/credentials';
import { nodeOutput, randomId } from '../../scripts/n8n/headless';
import { CREDENTIAL_TYPE, NODE_TYPE } from '../../scripts/n8n/packaging';
import type { WorkflowJson } from '../../scripts/n8n/workflows';
import { useN8nStack } from './helpers/stack';
import { runToSuccess } from './helpers/workflows';

const MINUTE = 60 * 1000;
const CLIENT_ID = 'error-output-e2e-client';
const CLIENT_SECRET = `error-output-e2e-${randomId()}`;
const GOOD = DEMO_IDS.jobIds.copied;
const UNKNOWN = '0d0d0d0d-0000-4000-8000-000000000000';

const stack = useN8nStack({
	name: 'error output e2e',
	clientId: CLIENT_ID,
	clientSecret: CLIENT_SECRET,
	credentialName: 'File Transfer Manager (error output e2e)',
	sandbox: { speed: 1000 },
});

const uuid = (n: number) => `e0e0e0e0-0000-4000-8000-${String(n).padStart(12, '0')}`;

function errorOutputWorkflow(credential: CredentialRef): WorkflowJson {
	return {
		name: 'e2e: Job Get with the error output',
		nodes: [
			{
				id: uuid(1),
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: uuid(2),
				name: 'Job IDs',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: {
					assignments: {
						assignments: [
							{ id: uuid(20), name: 'ids', value: `={{ ["${GOOD}", "not-a-uuid", "${UNKNOWN}"] }}`, type: 'array' },
						],
					},
					options: {},
				},
			},
			{
				id: uuid(3),
				name: 'One Item per ID',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [440, 0],
				parameters: { fieldToSplitOut: 'ids', include: 'noOtherFields', options: { destinationFieldName: 'jobId' } },
			},
			{
				id: uuid(4),
				name: 'Get Job',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [660, 0],
				onError: 'continueErrorOutput',
				parameters: {
					resource: 'job',
					operation: 'get',
					jobId: { __rl: true, mode: 'id', value: '={{ $json.jobId }}' },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
			{
				id: uuid(5),
				name: 'Found',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [880, -100],
				parameters: {},
			},
			{
				id: uuid(6),
				name: 'Failed',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [880, 100],
				parameters: {},
			},
		],
		connections: {
			Start: { main: [[{ node: 'Job IDs', type: 'main', index: 0 }]] },
			'Job IDs': { main: [[{ node: 'One Item per ID', type: 'main', index: 0 }]] },
			'One Item per ID': { main: [[{ node: 'Get Job', type: 'main', index: 0 }]] },
			'Get Job': {
				main: [[{ node: 'Found', type: 'main', index: 0 }], [{ node: 'Failed', type: 'main', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

test('the found job takes the success branch, the invalid and the unknown ID the error branch with our description', async () => {
	const { sandbox } = stack;
	sandbox.requests.clear();
	const run = await runToSuccess(stack, errorOutputWorkflow(stack.credential));

	const found = nodeOutput(run, 'Found');
	expect(found).toHaveLength(1);
	expect(found[0]).toEqual(expect.objectContaining({ id: GOOD, name: expect.any(String), status: expect.any(String) }));
	expect(found.every((item) => item.error === undefined)).toBe(true);

	const failed = nodeOutput(run, 'Failed');
	expect(failed).toEqual([
		{
			jobId: 'not-a-uuid',
			error: '"Job" must be a UUID, got "not-a-uuid" [item 1]',
			message: expect.stringContaining('IDs of this API look like'),
		},
		{
			jobId: UNKNOWN,
			error: 'Entity Not Found',
			message: expect.stringContaining('The requested entity was not found.'),
		},
	]);
	// The node's own two outputs, as n8n recorded them.
	expect(nodeOutput(run, 'Get Job', 0).map((item) => item.id)).toEqual([GOOD]);
	expect(nodeOutput(run, 'Get Job', 1).map((item) => item.jobId)).toEqual(['not-a-uuid', UNKNOWN]);
	// The invalid ID never reached the service. The two requests may arrive in either order: items run up to
	// Parallel Requests at once (the outputs above keep item order).
	expect(
		sandbox.requests
			.all()
			.filter((r) => r.route === '/jobs/{id}')
			.map((r) => `${r.path} ${r.status}`)
			.sort(),
	).toEqual([`/jobs/${GOOD} 200`, `/jobs/${UNKNOWN} 404`].sort());
}, 10 * MINUTE);
