/**
 * docs/troubleshooting.md has a row for every message the nodes and the credential can raise: each constant
 * part of every message template in the source (test/layout/messages.ts) is found in the message column of
 * one of its tables. A new message without its row fails here, naming where it is written.
 */
// @ts-nocheck

import * as fs from 'node:fs';
import * as path from 'node:path';

import { FileTransferManagerOAuth2Api } from '../../credentials/FileTransferManagerOAuth2Api.credentials';
import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import { FileTransferManagerTrigger } from '../../nodes/FileTransferManagerTrigger/FileTransferManagerTrigger.node';
import { collectMessageParts, meaningfulParts, parameterLabels } from './messages';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The code spans of the first cell of every table row, spaces collapsed, `\|` read as `|`. */
function messageCells(markdown: string): string[] {
	return markdown
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|[-\s|:]+\|$/.test(line))
		.map((line) => line.replace(/\\\|/g, '\u0000').split('|')[1].replace(/\u0000/g, '|'))
		.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\s+/g, ' ').trim()));
}

const labels = parameterLabels([
	new FileTransferManager().description.properties,
	new FileTransferManagerTrigger().description.properties,
	new FileTransferManagerOAuth2Api().properties,
]);
const parts = meaningfulParts(collectMessageParts(), labels);

describe('docs/troubleshooting.md', () => {
	it('finds the messages in the source (the collector works)', () => {
		const texts = parts.map((p) => p.text);
		// One of each way a message is written: operationError, invalidInput's problem, NodeApiError, the token's, the origin's, a returned object's property.
		expect(texts).toEqual(
			expect.arrayContaining([
				'No job matching the events and filters found',
				'must be a UUID, got',
				'The service answered HTTP',
				'Could not get an access token: check your Client ID and Client Secret in the credential (',
				'This credential sends its token only to',
				// A property of the objects a function returns, through a returned call (runGuards.ts's refusals).
				'minutes ago, more than',
			]),
		);
		expect(new Set(texts).size).toBeGreaterThan(60);
	});

	it('has a row for every message', () => {
		const cells = messageCells(read('docs/troubleshooting.md'));
		const missing = parts.filter((p) => !cells.some((cell) => cell.includes(p.text))).map((p) => `${p.at}: "${p.text}"`);
		expect([...new Set(missing)]).toEqual([]);
	});

	it('is linked from the README', () => {
		expect(read('README.md')).toContain('](docs/troubleshooting.md)');
	});
});
