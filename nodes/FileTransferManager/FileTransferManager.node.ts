import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account/Account.resource';
import * as api from './actions/api/Api.resource';
import * as group from './actions/group/Group.resource';
import * as job from './actions/job/Job.resource';
import * as storage from './actions/storage/Storage.resource';
import * as user from './actions/user/User.resource';
import { router } from './actions/router';
import { actionBuilderHint } from '../shared/builderHints';
import { toolReplacements } from './actions/toolDescription';
import { requestOptions } from '../shared/descriptions/common.descriptions';
import { listSearch } from '../shared/methods';

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Account', value: 'account' },
		{ name: 'API', value: 'api' },
		{ name: 'Group', value: 'group' },
		{ name: 'Job', value: 'job' },
		{ name: 'Storage', value: 'storage' },
		{ name: 'User', value: 'user' },
	],
	default: 'job',
};

const properties: INodeProperties[] = [
	resourceProperty,
	...account.description,
	...api.description,
	...group.description,
	...job.description,
	...storage.description,
	...user.description,
	requestOptions,
];

/**
 * The canvas subtitle, "Job: Get Many": n8n evaluates `subtitle` as an expression over the raw parameter values
 * and has no way to look up an option's display name, so the expression carries two maps built from the
 * Resource and Operation options above (never out of date). Unknown values fall back to the raw value.
 */
export function subtitleExpression(nodeProperties: INodeProperties[]): string {
	const resources: Record<string, string> = {};
	const operations: Record<string, string> = {};
	const optionsOf = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];
	for (const property of nodeProperties) {
		if (property.name === 'resource') {
			for (const option of optionsOf(property)) resources[String(option.value)] = option.name;
		}
		if (property.name === 'operation') {
			for (const resource of property.displayOptions?.show?.resource ?? []) {
				for (const option of optionsOf(property)) operations[`${String(resource)}.${String(option.value)}`] = option.name;
			}
		}
	}
	// Flat maps only: a "}}" inside the expression would end it early.
	return (
		`={{ (${JSON.stringify(resources)}[$parameter["resource"]] || $parameter["resource"]) + ": " + ` +
		`(${JSON.stringify(operations)}[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"]) }}`
	);
}

export class FileTransferManager implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'File Transfer Manager',
		name: 'fileTransferManager',
		icon: { light: 'file:fileTransferManager.svg', dark: 'file:fileTransferManager.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: subtitleExpression(properties),
		description:
			'Run and track file transfer jobs (copy, move, sync, dry runs with cost estimates) and manage the users, groups and storages of the File Transfer Management Service',
		defaults: { name: 'File Transfer Manager' },
		// The tool variant (n8n's AI Agent, MCP Server Trigger) gets a description for a model: actions/toolDescription.ts.
		usableAsTool: { replacements: toolReplacements() },
		// For n8n's AI workflow builder (n8n 2.x); n8n 1.x carries it along unread.
		builderHint: actionBuilderHint,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fileTransferManagerOAuth2Api', required: true }],
		properties,
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
