// @ts-nocheck
import type { INodeProperties } from 'n8n-workflow';

import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getErrors from './getErrors.operation';
import * as getMany from './getMany.operation';
import * as getTransfers from './getTransfers.operation';
import * as pause from './pause.operation';
import * as resume from './resume.operation';
import * as runFromDryRun from './runFromDryRun.operation';

export { cancel, create, get, getErrors, getMany, getTransfers, pause, resume, runFromDryRun };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['job'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel a job that has not ended',
				action: 'Cancel a job',
			},
			{
				name: 'Create',
				value: 'create',
				description:
					'Start a copy, move or sync job between two storages, or a dry run that only estimates cost; optionally wait until it ends',
				action: 'Create a job',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one job by ID with its status and statistics (files, sizes, times, estimated cost)',
				action: 'Get a job',
			},
			{
				name: 'Get Errors',
				value: 'getErrors',
				description: 'List the errors and warnings of a job (file path, message, time), one item each',
				action: 'Get errors of a job',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List jobs, filtered by status, dry run, transfer type, storages, account, group or user, and sorted',
				action: 'Get many jobs',
			},
			{
				name: 'Get Transfers',
				value: 'getTransfers',
				description: 'List the per-file records of a job (path on the target, outcome, size, MD5), one item each',
				action: 'Get transfers of a job',
			},
			{
				name: 'Pause',
				value: 'pause',
				description: 'Pause a scanning, running or stuck job',
				action: 'Pause a job',
			},
			{
				name: 'Resume',
				value: 'resume',
				description: 'Resume a paused job; optionally wait until it ends',
				action: 'Resume a job',
			},
			{
				name: 'Run From Dry Run',
				value: 'runFromDryRun',
				description:
					'Start a real job with the settings of a finished dry-run job, and report the dry run\'s estimated cost next to it',
				action: 'Run a job from a dry run',
			},
		],
		default: 'get',
	},
	...cancel.description,
	...create.description,
	...get.description,
	...getErrors.description,
	...getMany.description,
	...getTransfers.description,
	...pause.description,
	...resume.description,
	...runFromDryRun.description,
];
