/**
 * builderHint of both nodes (nodes/shared/builderHints.ts): what n8n 2.x's AI workflow builder
 * reads. A one-sentence searchHint each; relatedNodes that name real node types (n8n's own, or this package's
 * under its package name); and plain data, so that n8n 1.x, which has no such key, carries it along unread.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { IBuilderHint, INodeTypeDescription } from 'n8n-workflow';

import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import { FileTransferManagerTrigger } from '../../nodes/FileTransferManagerTrigger/FileTransferManagerTrigger.node';

const packageName = (JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { name: string }).name;
const descriptions: Array<[string, INodeTypeDescription]> = [
	['action', new FileTransferManager().description],
	['trigger', new FileTransferManagerTrigger().description],
];
const ownTypes = descriptions.map(([, description]) => `${packageName}.${description.name}`);

describe.each(descriptions)('the %s node', (_kind, description) => {
	const hint = description.builderHint as IBuilderHint;

	it('has a searchHint of one sentence', () => {
		expect(hint.searchHint).toMatch(/^[A-Z][^.]*(\.[a-z0-9][^.]*)*\.$/);
		expect(hint.searchHint!.length).toBeLessThan(300);
	});

	it('names related nodes that exist: n8n\'s own or this package\'s, each with why', () => {
		expect(hint.relatedNodes!.length).toBeGreaterThan(0);
		for (const related of hint.relatedNodes!) {
			expect(related.nodeType.startsWith('n8n-nodes-base.') || ownTypes.includes(related.nodeType)).toBe(true);
			expect(related.relationHint).toMatch(/\.$/);
		}
	});

	it('is plain data: the same after a JSON round trip', () => {
		expect(JSON.parse(JSON.stringify(hint))).toEqual(hint);
	});
});

it('the chains users build: Create with Dry Run → Run From Dry Run, and the trigger → Switch on the event', () => {
	const [action, trigger] = descriptions.map(([, description]) => description.builderHint!.relatedNodes!);
	expect(action.find((related) => related.nodeType === ownTypes[0])?.relationHint).toMatch(/Dry Run.*Run From Dry Run.*Max Estimated Cost/);
	expect(action.map((related) => related.nodeType)).toContain(ownTypes[1]);
	expect(trigger.find((related) => related.nodeType === 'n8n-nodes-base.switch')?.relationHint).toContain('event');
});
