import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { routes } from '../api/routes';
import type { CreateBody, Job, JobCreateAttributes } from '../api/types';
import { samePath } from './jobBody';
import { createRecoverable } from './recoverableCreate';


export interface CreatedJob {
	job: Job;
	/** True when the create request failed ambiguously and the job was found afterwards. */
	recovered: boolean;
}

/** Jobs that could be this create's: same storages, transfer type, dry run flag (and name when given). */
function candidateQuery(attributes: JobCreateAttributes): IDataObject {
	const qs: IDataObject = {
		'filter[source.id]': attributes.source.id,
		'filter[target.id]': attributes.target.id,
		'filter[transferType]': attributes.transferType,
		'filter[dryRun]': String(attributes.dryRun ?? false),
	};
	if (attributes.name !== undefined) qs['filter[name]'] = attributes.name;
	return qs;
}

function same(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields (as the form names them) in which a job differs from the create attributes; only what was
 * sent is compared. Empty when the job carries every attribute the create request sent.
 */
export function jobDifferences(job: Job, sent: JobCreateAttributes): string[] {
	const a = job.attributes;
	const differ: string[] = [];
	if (a.transferType !== sent.transferType) differ.push('Transfer Type');
	if (a.dryRun !== (sent.dryRun ?? false)) differ.push('Dry Run');
	if (a.source?.id !== sent.source.id || a.source?.type !== sent.source.type) differ.push('Source Storage');
	if (a.target?.id !== sent.target.id) differ.push('Target Storage');
	if (!samePath(a.source?.path, sent.source.path)) differ.push('Source Path');
	if (!samePath(a.target?.path, sent.target.path)) differ.push('Target Path');
	if (sent.source.retrievalType !== undefined && a.source?.retrievalType !== sent.source.retrievalType) differ.push('Retrieval Type');
	if ((a.conflictHandling ?? null) !== (sent.conflictHandling ?? null)) differ.push('Conflict Handling');
	// What the service lists is compared without trusting its shape: a rule that is not an object is kept as is.
	const rules = (rs: Array<{ type: string; condition: string; value: string }> | undefined) =>
		(Array.isArray(rs) ? rs : []).map((r) => (r && typeof r === 'object' ? [r.type, r.condition, r.value] : r));
	if (!same(rules(a.scope?.rules), rules(sent.scope?.rules))) differ.push('Scope Rules');
	if (sent.failureConditions !== undefined) {
		const conditions = (cs: Array<{ type: string; value: number }> | undefined) =>
			(Array.isArray(cs) ? cs : []).map((c) => (c && typeof c === 'object' ? [c.type, c.value] : c));
		if (!same(conditions(a.failureConditions), conditions(sent.failureConditions))) differ.push('Fail After Errors');
	}
	const labels = { name: 'Name', transferRateLimit: 'Transfer Rate Limit', accountId: 'Account', userId: 'User', groupId: 'Group' };
	for (const key of ['name', 'transferRateLimit', 'accountId', 'userId', 'groupId'] as const) {
		if (sent[key] !== undefined && a[key] !== sent[key]) differ.push(labels[key]);
	}
	return differ;
}

/** Whether a job carries every attribute the create request sent (and only compares what was sent). */
function matchesSent(job: Job, sent: JobCreateAttributes): boolean {
	return jobDifferences(job, sent).length === 0;
}

/**
 * POST /jobs without ever repeating it blindly: when the request fails ambiguously, finds the job it
 * may have created instead (see createRecoverable).
 */
export async function createJobRecoverable(
	ctx: IExecuteFunctions,
	attributes: JobCreateAttributes,
	itemIndex: number,
): Promise<CreatedJob> {
	const body: CreateBody<'jobs', JobCreateAttributes> = { data: { type: 'jobs', attributes } };
	const { record, recovered } = await createRecoverable<Job>(
		ctx,
		{
			noun: 'job',
			type: 'jobs',
			createRoute: routes.createJob(),
			listRoute: routes.listJobs(),
			body: body as unknown as IDataObject,
			candidateFilters: candidateQuery(attributes),
			matches: (job) => matchesSent(job, attributes),
			lookHint: 'Job → Get Many (filter by source and target storage)',
		},
		itemIndex,
	);
	return { job: record, recovered };
}
