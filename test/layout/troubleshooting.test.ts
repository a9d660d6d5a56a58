/**
 * docs/troubleshooting.md has a row for every message the nodes and the credential can raise: each constant
 * part of every message template in the source (test/layout/messages.ts) is found in the message column of
 * one of its tables. A new message without its row fails here, naming where it is written.
 *
 * And its causes and fixes still fit the nodes: every field, option or mode a cause or fix names in bold
 * exists in the nodes' descriptions with that name, every "Resource › Operation" it sends you to exists, and
 * the limits the causes and fixes state (redirects followed, default sizes, lengths, ranges) are the code's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { FileTransferManagerOAuth2Api } from '../../credentials/FileTransferManagerOAuth2Api.credentials';
import { FileTransferManager } from '../../nodes/FileTransferManager/FileTransferManager.node';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from '../../nodes/shared/input/validate';
import { MAX_REDIRECTS } from '../../nodes/shared/transport/adaptations';
import { DEFAULT_TRANSPORT, MAX_PARALLEL } from '../../nodes/shared/transport/settings';
import { FileTransferManagerTrigger } from '../../nodes/FileTransferManagerTrigger/FileTransferManagerTrigger.node';
import { MAX_ATTACHED_ERRORS } from '../../nodes/FileTransferManagerTrigger/description';
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

/** The cells of every table row after its header and separator: [message, cause, fix] (or [what you see, …]). */
function rows(markdown: string): string[][] {
	return markdown
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|[-\s|:]+\|$/.test(line))
		.map((line) =>
			line
				.replace(/\\\|/g, '\u0000')
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.replace(/\u0000/g, '|').trim()),
		)
		.filter((cells) => !['Message', 'What you see'].includes(cells[0]));
}

/** Every name the nodes' editors show: fields, options of a list or collection, a picker's modes. */
function editorNames(properties: unknown): Set<string> {
	const out = new Set<string>();
	const visit = (value: unknown) => {
		if (Array.isArray(value)) return value.forEach(visit);
		if (!value || typeof value !== 'object') return;
		const record = value as Record<string, unknown>;
		for (const key of ['displayName', 'name']) if (typeof record[key] === 'string') out.add(record[key] as string);
		for (const key of ['options', 'values', 'modes']) visit(record[key]);
	};
	visit(properties);
	return out;
}

/** "Resource › Operation" as the action node's editor shows them, e.g. "Job › Get Many". */
function operationPaths(properties: INodeProperties[]): Set<string> {
	const resources = properties.find((p) => p.name === 'resource')?.options as Array<{ name: string; value: string }>;
	const out = new Set<string>();
	for (const property of properties.filter((p) => p.name === 'operation')) {
		for (const value of property.displayOptions?.show?.resource ?? []) {
			const resource = resources.find((r) => r.value === value)?.name;
			for (const operation of (property.options ?? []) as Array<{ name: string }>) out.add(`${resource} › ${operation.name}`);
		}
	}
	return out;
}

const actionProperties = new FileTransferManager().description.properties;
const names = editorNames([
	actionProperties,
	new FileTransferManagerTrigger().description.properties,
	new FileTransferManagerOAuth2Api().properties,
]);
/**
 * Names in bold that are not the package's own: n8n's node setting and the trigger's button in n8n's editor,
 * and the service's web interface. Each one says where it is shown.
 */
const NOT_OURS = new Map([
	['Retry On Fail', "n8n's node Settings"],
	['Fetch Test Event', "n8n's button on a trigger"],
]);

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

	describe('its causes and fixes fit the nodes', () => {
		const table = rows(read('docs/troubleshooting.md'));
		const causesAndFixes = table.map((cells) => cells.slice(1).join(' | '));

		it('reads the tables (every row a message, a cause and a fix)', () => {
			expect(table.length).toBeGreaterThan(70);
			expect(table.filter((cells) => cells.length !== 3)).toEqual([]);
		});

		it('every field, option or mode named in bold is one the nodes show, with that name', () => {
			const named = causesAndFixes.flatMap((text) => [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]));
			expect(named.length).toBeGreaterThan(10);
			// "Request Options › Timeout (Seconds)": each step of the path.
			const unknown = named.flatMap((name) => name.split(' › ')).filter((name) => !names.has(name) && !NOT_OURS.has(name));
			expect([...new Set(unknown)]).toEqual([]);
		});

		it('every "Resource › Operation" a cause or fix sends you to exists, and every other "Field › Field" path too', () => {
			const operations = operationPaths(actionProperties);
			const resources = new Set([...operations].map((path) => path.split(' › ')[0]));
			// The words before "›" may start with a verb of the sentence ("run API › Check Compatibility"): the first
			// step is the longest run of them, ending at "›", that the editor shows.
			const firstStep = (words: string): string => {
				const all = words.split(' ');
				for (let i = 0; i < all.length; i++) {
					const step = all.slice(i).join(' ');
					if (resources.has(step) || names.has(step)) return step;
				}
				return words;
			};
			const cited = causesAndFixes.flatMap((text) =>
				[...text.matchAll(/\b([A-Z]\w*(?: [A-Z]\w*)*) › ([A-Z]\w*(?: [A-Z]\w*)*(?: \([A-Z][\w ]*\))?)/g)].map((m) => [
					firstStep(m[1]),
					m[2],
				]),
			);
			const toOperations = cited.filter(([first]) => resources.has(first)).map((steps) => steps.join(' › '));
			expect(toOperations).toEqual(expect.arrayContaining(['Job › Get Many', 'API › Check Compatibility', 'Job › Get Errors']));
			expect([...new Set(toOperations)].filter((path) => !operations.has(path))).toEqual([]);
			const fieldPaths = cited.filter(([first]) => !resources.has(first));
			expect(fieldPaths.length).toBeGreaterThan(0);
			expect(fieldPaths.filter((steps) => steps.some((step) => !names.has(step))).map((steps) => steps.join(' › '))).toEqual([]);
		});

		/** The cause and fix of the row whose message holds `message`. */
		const rowOf = (message: string): string => {
			const found = table.filter((cells) => cells[0].includes(message));
			expect(found).toHaveLength(1);
			return found[0].slice(1).join(' | ');
		};
		const thousands = (n: number) => n.toLocaleString('en-US');
		const defaultOf = (properties: unknown, field: string): unknown => {
			let found: unknown;
			const visit = (value: unknown) => {
				if (Array.isArray(value)) return value.forEach(visit);
				if (!value || typeof value !== 'object') return;
				const record = value as Record<string, unknown>;
				if (record.name === field && 'default' in record) found = record.default;
				for (const key of ['options', 'values']) visit(record[key]);
			};
			visit(properties);
			return found;
		};

		it("states the code's limits: redirects followed, the default response size, lengths and ranges", () => {
			expect(rowOf('with a redirect (HTTP <status>)')).toContain(`more than ${MAX_REDIRECTS}`);
			const size = rowOf('was larger than <size> and was refused');
			expect(size).toContain(`(${DEFAULT_TRANSPORT.maxResponseBytes / 1024 / 1024} by default)`);
			expect(defaultOf(actionProperties, 'maxResponseSize')).toBe(DEFAULT_TRANSPORT.maxResponseBytes / 1024 / 1024);
			expect(rowOf('must be at most <n> characters long')).toContain(
				`A name over ${thousands(MAX_NAME_LENGTH)} characters or an e-mail over ${MAX_EMAIL_LENGTH}`,
			);
			const trigger = new FileTransferManagerTrigger().description.properties;
			expect(rowOf('Option "Attach Errors" must be a whole number')).toContain(
				`Give 0 to ${MAX_ATTACHED_ERRORS} (default ${String(defaultOf(trigger, 'attachErrors'))})`,
			);
			expect(rowOf('"Request Options → Parallel Requests (Fixed Number)" must be')).toContain('Request Option out of its range');
			expect(read('docs/troubleshooting.md')).toContain(`whole number from 1 to ${MAX_PARALLEL}, got`);
		});
	});
});
