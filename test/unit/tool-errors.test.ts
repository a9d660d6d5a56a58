/**
 * Input and API errors in tool use (execution/toolUse.ts, nodes/shared/input/validate.ts, transport/errors.ts): an ID
 * parameter says what it must be, what it got and where to find one, by the name the model knows it by,
 * without "[item N]" or editor hints; a 404 names the record. Outside tool use nothing changes.
 * docs/operations.md › As an AI agent tool.
 */
import type { IExecuteFunctions, INode, INodeParameters, NodeOperationError } from 'n8n-workflow';

import { FILTERS as JOB_FILTERS } from '../../nodes/FileTransferManager/actions/job/getMany.operation';
import { routes } from '../../nodes/shared/api/routes';
import { toNodeApiError } from '../../nodes/shared/transport/errors';
import { DEFAULT_TRANSPORT } from '../../nodes/shared/transport/settings';
import {
	isToolUse,
	notFoundInToolUse,
	recordKindOf,
	toolParameterName,
} from '../../nodes/shared/execution/toolUse';
import { itemError } from '../../nodes/shared/execution/operationError';
import { filterQuery } from '../../nodes/shared/input/filters';
import { optionalUuid, requireLocatorId, requireUuid } from '../../nodes/shared/input/validate';
import { executeContext, NODE, thrown } from './fixtures';

const TOOL_NODE: INode = { ...NODE, type: `${NODE.type}Tool` };
const ID = '3f2b8c1e-6a1d-4c1f-9b7e-0d2a6c9e4f10';

/** A context of the node run as a tool: evaluated `values` by name, and the node's raw `parameters`. */
function toolContext(values: Record<string, unknown>, parameters: INodeParameters = {}): IExecuteFunctions {
	const node = { ...TOOL_NODE, parameters };
	return {
		getNode: () => node,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			Object.prototype.hasOwnProperty.call(values, name) ? values[name] : fallback,
	} as unknown as IExecuteFunctions;
}

const refusal = (call: () => unknown) => thrown(call) as NodeOperationError;
const fromAi = (key: string) => ({ __rl: true, mode: 'id', value: `={{ $fromAI('${key}', 'the id', 'string') }}` });

describe('isToolUse', () => {
	it('is true for the type n8n gives the tool variant, in 1.x and 2.x: the node\'s name with "Tool"', () => {
		expect(isToolUse({ type: 'n8n-nodes-file-transfer-manager.fileTransferManagerTool' })).toBe(true);
		expect(isToolUse({ type: 'n8n-nodes-file-transfer-manager.fileTransferManagerHitlTool' })).toBe(true);
	});

	it('is false for the node itself and its trigger', () => {
		expect(isToolUse({ type: 'n8n-nodes-file-transfer-manager.fileTransferManager' })).toBe(false);
		expect(isToolUse({ type: 'n8n-nodes-file-transfer-manager.fileTransferManagerTrigger' })).toBe(false);
		// "Tool" in the package's name is not the node's.
		expect(isToolUse({ type: 'n8n-nodes-tool.fileTransferManager' })).toBe(false);
	});
});

describe('input errors of IDs in tool use', () => {
	it('a job ID that is not a UUID: parameter, what it must be, what it got, where to find one', () => {
		const error = refusal(() => requireLocatorId(toolContext({ jobId: { __rl: true, mode: 'id', value: 'abc' } }), 0, 'jobId', 'Job'));
		expect(error.message).toBe(`jobId must be a job's UUID (got "abc"); list jobs with Job › Get Many to find one`);
		expect(error.description ?? undefined).toBeUndefined();
		expect(error.context.itemIndex).toBe(0);
	});

	it('an empty one too, and a number', () => {
		expect(refusal(() => requireLocatorId(toolContext({ jobId: '' }), 0, 'jobId', 'Job')).message).toBe(
			`jobId must be a job's UUID (got ""); list jobs with Job › Get Many to find one`,
		);
		expect(refusal(() => requireLocatorId(toolContext({ jobId: 42 }), 0, 'jobId', 'Job')).message).toBe(
			`jobId must be a job's UUID (got 42); list jobs with Job › Get Many to find one`,
		);
	});

	it('names the parameter by its $fromAI key, which is what the model sent', () => {
		const ctx = toolContext({ jobId: 'abc' }, { jobId: fromAi('the_job') });
		expect(refusal(() => requireLocatorId(ctx, 0, 'jobId', 'Job')).message).toMatch(/^the_job must be a job's UUID \(got "abc"\)/);
	});

	it('a dry run: where to find a finished one', () => {
		expect(refusal(() => requireLocatorId(toolContext({ jobId: 'x' }), 0, 'jobId', 'Dry-Run Job', 'dryRun')).message).toBe(
			`jobId must be a finished dry run's UUID (got "x"); list dry runs with Job › Get Many (filter Dry Run on) to find one`,
		);
	});

	it.each([
		['sourceStorageId', 'Source Storage', `sourceStorageId must be a storage's UUID (got "files"); list storages with Storage › Get Many to find one`],
		['targetStorageId', 'Target Storage', `targetStorageId must be a storage's UUID (got "files"); list storages with Storage › Get Many to find one`],
		['storageId', 'Storage', `storageId must be a storage's UUID (got "files"); list storages with Storage › Get Many to find one`],
		['userId', 'User', `userId must be a user's UUID (got "files"); list users with User › Get Many to find one`],
		['groupId', 'Group', `groupId must be a group's UUID (got "files"); list groups with Group › Get Many to find one`],
		['accountId', 'Account', `accountId must be an account's UUID (got "files"); list accounts with Account › Get Many to find one`],
	])('%s', (name, label, message) => {
		expect(refusal(() => requireLocatorId(toolContext({ [name]: 'files' }), 0, name, label)).message).toBe(message);
	});

	it('an ID inside a collection: by its own name, or its $fromAI key', () => {
		expect(refusal(() => optionalUuid(toolContext({}), 0, 'Group', 'ops', 'additionalFields.groupId')).message).toBe(
			`groupId must be a group's UUID (got "ops"); list groups with Group › Get Many to find one`,
		);
		const ctx = toolContext({}, { additionalFields: { userId: fromAi('owner') } });
		expect(refusal(() => optionalUuid(ctx, 0, 'User', 'ada', 'additionalFields.userId')).message).toMatch(/^owner must be a user's UUID/);
		// Empty is still "not given" there.
		expect(optionalUuid(toolContext({}), 0, 'Group', '', 'additionalFields.groupId')).toBeUndefined();
	});

	it('an ID filter', () => {
		const error = refusal(() => filterQuery(toolContext({}), 0, { sourceStorageId: 'files' }, JOB_FILTERS));
		expect(error.message).toBe(`sourceStorageId must be a storage's UUID (got "files"); list storages with Storage › Get Many to find one`);
		// Other filters keep their text.
		expect(refusal(() => filterQuery(toolContext({}), 0, { status: 'done' }, JOB_FILTERS)).message).toMatch(/^"Filters → Status" must be one of/);
	});

	it('a UUID passes, as outside tool use', () => {
		expect(requireLocatorId(toolContext({ jobId: ID }), 0, 'jobId', 'Job')).toBe(ID);
		expect(requireUuid(toolContext({}), 0, 'Job', ` ${ID} `, 'jobId')).toBe(ID);
	});

	it('a field named by no ID parameter, or by none at all, keeps the editor\'s wording', () => {
		expect(refusal(() => requireUuid(toolContext({}), 0, 'Group', 'ops')).message).toBe('"Group" must be a UUID, got "ops"');
		expect(refusal(() => requireUuid(toolContext({}), 0, 'Name', 'ops', 'additionalFields.name')).message).toBe(
			'"Name" must be a UUID, got "ops"',
		);
	});

	it('outside tool use, the editor\'s wording, item and hint are kept', () => {
		const error = refusal(() => requireLocatorId(executeContext({ jobId: 'abc' }), 2, 'jobId', 'Job'));
		expect(error.message).toBe('"Job" must be a UUID, got "abc" [item 2]');
		expect(error.description).toContain('Pick the record from the list, or map an ID field.');
	});
});

describe('the pieces', () => {
	it('recordKindOf: by the parameter\'s name', () => {
		expect(['jobId', 'filters.sourceStorageId', 'targetStorageId', 'storageId', 'userId', 'additionalFields.groupId', 'accountId', 'name'].map(recordKindOf)).toEqual([
			'job', 'storage', 'storage', 'storage', 'user', 'group', 'account', undefined,
		]);
	});

	it('toolParameterName: the $fromAI key of a text or a locator, in any spelling n8n accepts, else the name', () => {
		const node = {
			parameters: { a: "={{ $fromAI('key_a') }}", b: fromAi('key-b'), c: { d: '={{ $fromAI("key_d", "x") }}' }, e: 'plain', g: "={{ $fromAi('key_g') }}", h: "={{ $fromai('key_h') }}" },
		};
		expect(['a', 'b', 'c.d', 'e', 'missing.f', 'g', 'h'].map((p) => toolParameterName(node as unknown as INode, p))).toEqual([
			'key_a',
			'key-b',
			'key_d',
			'e',
			'f',
			'key_g',
			'key_h',
		]);
	});

	it('notFoundInToolUse: the record a path names', () => {
		expect(notFoundInToolUse(`/jobs/${ID}`)).toBe(`no job with ID ${ID} exists; list jobs with Job › Get Many to find one`);
		expect(notFoundInToolUse(`/jobs/${ID}/transfers`)).toMatch(/^no job with ID/);
		expect(notFoundInToolUse(`/storages/${ID}`)).toMatch(/^no storage with ID .*Storage › Get Many/);
		expect(notFoundInToolUse(`/accounts/${ID}`)).toMatch(/^no account with ID .*Account › Get Many/);
		expect(notFoundInToolUse('/jobs')).toBeUndefined();
		expect(notFoundInToolUse('/')).toBeUndefined();
	});

	it('itemError: the item number once at the end of the message, none in tool use or without an item', () => {
		const numbered = itemError(NODE, '"Limit" must be a whole number', 3, { description: 'Give 1 or more.' });
		expect([numbered.message, numbered.description, numbered.context.itemIndex]).toEqual(['"Limit" must be a whole number [item 3]', 'Give 1 or more.', 3]);
		const tool = itemError(TOOL_NODE, '"Limit" must be a whole number', 0);
		expect([tool.message, tool.context.itemIndex]).toEqual(['"Limit" must be a whole number', 0]);
		const none = itemError(NODE, '"Limit" must be a whole number', undefined);
		expect([none.message, none.context.itemIndex]).toEqual(['"Limit" must be a whole number', undefined]);
	});
});

describe('API errors in tool use', () => {
	const facts = {
		status: 404,
		headers: {},
		body: { errors: [{ status: '404', code: 'entity-not-found', title: 'Entity Not Found', detail: 'The requested entity was not found.' }] },
	};
	const options = { attempts: 1, ambiguousEarlier: false, route: routes.getJob(ID), secrets: [], itemIndex: 0 };

	it('a 404 names the record, and keeps the API\'s title and detail', () => {
		const error = toNodeApiError(toolContext({}), facts, DEFAULT_TRANSPORT, options);
		expect(error.message).toBe(`Entity Not Found: no job with ID ${ID} exists; list jobs with Job › Get Many to find one`);
		expect(error.description).toMatch(/^The requested entity was not found\. Check the ID/);
		expect(error.httpCode).toBe('404');
	});

	it('outside tool use, the API\'s title alone', () => {
		expect(toNodeApiError(executeContext(), facts, DEFAULT_TRANSPORT, options).message).toBe('Entity Not Found');
	});

	it('another status keeps the API\'s title in tool use too', () => {
		const conflict = { ...facts, status: 409, body: { errors: [{ status: '409', code: 'conflict', title: 'Conflict' }] } };
		expect(toNodeApiError(toolContext({}), conflict, DEFAULT_TRANSPORT, options).message).toBe('Conflict');
	});
});
