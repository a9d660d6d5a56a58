/**
 * The canvas subtitles, evaluated the way n8n's editor does (`getNodeSubtitle`: the node type's `subtitle`
 * through `workflow.expression.getSimpleParameterValue(node, subtitle, 'internal', {})`): display names,
 * never raw values.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import { FileTransferManagerTrigger } from '../../nodes/FileTransferManagerTrigger/FileTransferManagerTrigger.node';
import { NODE_TYPE, nodeTypes, TRIGGER_TYPE } from '../harness/engine';

function subtitleOf(type: string, parameters: INodeParameters): unknown {
	const node: INode = { id: 'n', name: 'Node', type, typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({ id: 'wf', nodes: [node], connections: {}, active: false, nodeTypes });
	const subtitle = nodeTypes.getByNameAndVersion(type, 1).description.subtitle!;
	return workflow.expression.getSimpleParameterValue(workflow.getNode('Node')!, subtitle, 'internal', {});
}

const action = new FileTransferManager().description;
const options = (property: INodeProperties) => property.options as INodePropertyOptions[];

describe('canvas subtitle of the action node', () => {
	const resourceProperty = action.properties.find((p) => p.name === 'resource')!;
	const cases = options(resourceProperty).flatMap((resource) =>
		action.properties
			.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value))
			.flatMap((operation) =>
				options(operation).map((op) => [`${resource.name}: ${op.name}`, resource.value, op.value] as const),
			),
	);

	it('covers every operation of every resource', () => {
		expect(cases.length).toBeGreaterThanOrEqual(24);
		expect(cases.map(([text]) => text)).toEqual(
			expect.arrayContaining(['Job: Get Many', 'Job: Run From Dry Run', 'API: Get Version']),
		);
	});

	it.each(cases)('reads "%s"', (text, resource, operation) => {
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
