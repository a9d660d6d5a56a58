/**
 * The tool variant's texts: n8n lays `usableAsTool.replacements` over the node's description for the editor
 * (n8n's createAiTools: `{ ...description, ...usableAsTool.replacements }`). The node's description becomes one
 * written for a model (the start of a manual Tool Description); the operations keep their short actions, so
 * that the tool nodes n8n names after them have short, distinct tool names. The per-operation texts for a
 * manual Tool Description are a table in docs/ai-agents.md: one row for every operation the node offers, each
 * naming only operations that exist, the neighbours where one could be mistaken for another.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import { TOOL_NODE_DESCRIPTION } from '../../nodes/FileTransferManager/actions/toolDescription';
import { offeredOperations } from '../harness/operations';

const editor = new FileTransferManager().description;
const replacements = typeof editor.usableAsTool === 'object' ? editor.usableAsTool.replacements : undefined;
/** The tool variant's description as n8n makes it for the editor. */
const tool = { ...structuredClone(editor), ...replacements, name: `${editor.name}Tool` } as INodeTypeDescription;
const offered = offeredOperations();

/** The rows of the "Tool descriptions" table of docs/ai-agents.md: "Resource › Operation" → text. */
function documentedTexts(): Map<string, string> {
	const text = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'ai-agents.md'), 'utf8');
	const section = text.slice(text.indexOf('## Tool descriptions'));
	const rows = [...section.matchAll(/^\| ((?:Account|API|Group|Job|Storage|User) › [^|]+?) \| (.+) \|$/gm)];
	return new Map(rows.map((m) => [m[1], m[2]]));
}

describe('usableAsTool.replacements', () => {
	it('gives the tool variant the node description for a model', () => {
		expect(replacements).toEqual({ description: TOOL_NODE_DESCRIPTION });
		expect(tool.description).toBe(TOOL_NODE_DESCRIPTION);
		expect(TOOL_NODE_DESCRIPTION).toMatch(/dry runs that only estimate/);
		// The Guards and Max Estimated Cost of Run From Dry Run: the model is told they are the workflow's.
		expect(TOOL_NODE_DESCRIPTION).toMatch(/Run From Dry Run starts the real job of a finished dry run only within limits set in the workflow \(transfer types, conflict handling, target storages, dry-run age, estimated cost\): a refusal names the limit, no tool call can change it/);
		expect(editor.description).toMatch(/^Run and track file transfer jobs/);
	});

	it('keeps the operations and their actions as the editor node has them', () => {
		expect(tool.properties).toEqual(editor.properties);
	});

	it('the tools n8n names after the actions have distinct, uncut names', () => {
		const names = offered.map((o) =>
			nodeNameToToolName(NodeHelpers.makeNodeName({ resource: o.resource, operation: o.operation }, { ...tool, outputs: ['ai_tool'] } as INodeTypeDescription)),
		);
		expect(new Set(names).size).toBe(names.length);
		for (const name of names) expect(name.length).toBeLessThan(64);
	});
});

describe('the Tool Description texts of docs/ai-agents.md', () => {
	const texts = documentedTexts();
	const offeredNames = offered.map((o) => `${o.resourceName} › ${o.operationName}`);

	it('has one row for every operation the node offers, and none for another', () => {
		expect([...texts.keys()].sort()).toEqual([...offeredNames].sort());
	});

	it('names only operations the node offers', () => {
		const names = new Set(offeredNames);
		const named = [...texts.values()].flatMap((text) =>
			[...text.matchAll(/(Account|API|Group|Job|Storage|User) › ((?:Get Many|Get Version|Check Compatibility|Run From Dry Run|Get Errors|Get Transfers|[A-Z][a-z]+))/g)].map((m) => `${m[1]} › ${m[2]}`),
		);
		expect(named.length).toBeGreaterThan(10);
		expect(named.filter((name) => !names.has(name))).toEqual([]);
	});

	it('say when to use a neighbour instead, and what a real transfer does', () => {
		expect(texts.get('Job › Get')).toContain('Job › Get Many');
		expect(texts.get('Job › Get Many')).toContain('Job › Get ');
		expect(texts.get('Job › Create')).toMatch(/really transfers/);
		expect(texts.get('Job › Create')).toMatch(/sync \(deletes target files/);
		expect(texts.get('Job › Create')).toContain('Job › Run From Dry Run');
		expect(texts.get('Job › Run From Dry Run')).toContain('Job › Create with Dry Run on');
		expect(texts.get('API › Check Compatibility')).toContain('API › Get Version');
		expect(texts.get('Job › Cancel')).toContain('Job › Pause');
	});
});
