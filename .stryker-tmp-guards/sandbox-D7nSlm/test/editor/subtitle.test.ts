/**
 * The canvas subtitles, evaluated the way n8n's editor does (`getNodeSubtitle`: the node type's `subtitle`
 * through `workflow.expression.getSimpleParameterValue(node, subtitle, 'internal', {})`): display names,
 * never raw values.
 */
// @ts-nocheck

import type { INode, INodeParameters } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import { FileTransferManagerTrigger } from '../../nodes/FileTransferManagerTrigger/FileTransferManagerTrigger.node';
import { NODE_TYPE, nodeTypes, TRIGGER_TYPE } from '../harness/engine';
import { offeredOperations } from '../harness/operations';

function subtitleOf(type: string, parameters: INodeParameters): unknown {
	const node: INode = { id: 'n', name: 'Node', type, typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({ id: 'wf', nodes: [node], connections: {}, active: false, nodeTypes });
	const subtitle = nodeTypes.getByNameAndVersion(type, 1).description.subtitle!;
	return workflow.expression.getSimpleParameterValue(workflow.getNode('Node')!, subtitle, 'internal', {});
}

const action = new FileTransferManager().description;

/**
 * What the canvas must read for each operation, written out here (not derived from the node's display names,
 * which the subtitle itself is built from). A new operation fails the completeness test until its row is added.
 */
const EXPECTED_SUBTITLES: Record<string, string> = {
	'account.get': 'Account: Get',
	'account.getMany': 'Account: Get Many',
	'api.checkCompatibility': 'API: Check Compatibility',
	'api.getVersion': 'API: Get Version',
	'group.create': 'Group: Create',
	'group.deleteGroup': 'Group: Delete',
	'group.get': 'Group: Get',
	'group.getMany': 'Group: Get Many',
	'group.update': 'Group: Update',
	'job.cancel': 'Job: Cancel',
	'job.create': 'Job: Create',
	'job.get': 'Job: Get',
	'job.getErrors': 'Job: Get Errors',
	'job.getMany': 'Job: Get Many',
	'job.getTransfers': 'Job: Get Transfers',
	'job.pause': 'Job: Pause',
	'job.resume': 'Job: Resume',
	'job.runFromDryRun': 'Job: Run From Dry Run',
	'storage.get': 'Storage: Get',
	'storage.getMany': 'Storage: Get Many',
	'user.create': 'User: Create',
	'user.deleteUser': 'User: Delete',
	'user.get': 'User: Get',
	'user.getMany': 'User: Get Many',
	'user.update': 'User: Update',
};

describe('canvas subtitle of the action node', () => {
	const offered = offeredOperations().map((o) => o.key);

	it('has an expected subtitle for every operation the node offers, and none for one it does not', () => {
		expect([...offered].sort()).toEqual(Object.keys(EXPECTED_SUBTITLES).sort());
	});

	it.each(Object.entries(EXPECTED_SUBTITLES))('%s reads "%s"', (key, text) => {
		const [resource, operation] = key.split('.');
		expect(subtitleOf(NODE_TYPE, { resource, operation })).toBe(text);
	});

	it('shows the default resource and operation by name', () => {
		// Workflow fills in the defaults, as in the editor: Job › Get.
		expect(subtitleOf(NODE_TYPE, {})).toBe('Job: Get');
	});
});

describe('canvas subtitle of the trigger', () => {
	it.each([
		[['failed', 'finished', 'stuck'], 'Jobs: Failed, Finished, Stuck'],
		[['canceled'], 'Jobs: Canceled'],
		[[], 'Jobs: '],
	])('%j reads "%s"', (events, text) => {
		expect(subtitleOf(TRIGGER_TYPE, { events })).toBe(text);
	});

	it('defaults to the default events', () => {
		expect(subtitleOf(TRIGGER_TYPE, {})).toBe('Jobs: Failed, Finished, Stuck');
	});
});

describe('node creator texts', () => {
	it('the trigger, whose description n8n shows for the merged entry, reads right for actions and triggers', () => {
		const trigger = new FileTransferManagerTrigger().description;
		expect(trigger.description).toMatch(/^Run and track file transfer jobs, or start a workflow when/);
		expect(action.description).not.toMatch(/^Starts/);
	});
});
