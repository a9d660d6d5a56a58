/** The checks of the records: job statuses, attributes, accountId, a job's transfers and errors, sync conflict handling, a missing record. */
import { routes } from '../../../../../shared/api/routes';
import type { ResourceType } from '../../../../../shared/api/types';
import { JOB_STATS_FIELDS, JOB_STATUSES } from '../../../../../shared/api/types';
import { shown } from '../../../../../shared/input/validate';
import type { CheckSpec, Outcome } from '../outcome';
import { NOTHING_TO_FIX, cannotTell, errorCodeOf, errorText, httpCodeOf, isTokenFailure, plural } from '../outcome';
import type { Probe, Rec } from '../probe';
import { COLLECTIONS, NO_SUCH_ID, isObject } from '../probe';

/** Attributes the package knows per type (the API description's fields); the rest are reported. */
const KNOWN_ATTRIBUTES: Partial<Record<ResourceType, readonly string[]>> = {
	accounts: ['name', 'createdAt', 'updatedAt'],
	groups: ['accountId', 'deploymentId', 'name', 'createdAt', 'updatedAt'],
	users: ['accountId', 'deploymentId', 'groupId', 'email', 'firstName', 'lastName', 'timezone', 'createdAt', 'updatedAt'],
	jobs: [
		'name',
		'status',
		'accountId',
		'deploymentId',
		'groupId',
		'userId',
		'dryRun',
		'transferType',
		'source',
		'target',
		'scope',
		'conflictHandling',
		'failureConditions',
		'transferRateLimit',
		'stats',
		'createdAt',
		'updatedAt',
	],
	storages: ['type', 'name', 'status', 'metadata', 'stats', 'createdAt', 'updatedAt'],
};

const KNOWN_JOB_STATS: readonly string[] = JOB_STATS_FIELDS;

/** The sample of jobs, or the outcome to report when it cannot be had or is empty. */
async function jobSample(probe: Probe): Promise<Rec[] | Outcome> {
	const sample = await probe.sample('jobs');
	if (!sample.ok) return cannotTell(`GET /jobs failed: ${errorText(sample.error)}`, 'See the check "list-routes".');
	if (sample.records.length === 0) {
		return cannotTell('No job is visible to this API client, so there is nothing to test with.', 'Run the check again once the deployment has jobs (a dry run is enough).');
	}
	return sample.records;
}

export const jobStatuses: CheckSpec = {
	check: 'job-statuses',
	title: 'Jobs have only the seven statuses of the API description',
	async run(probe) {
		const jobs = await jobSample(probe);
		if (!Array.isArray(jobs)) return jobs;
		const seen = new Set(jobs.map((j) => String(j.attributes.status)));
		const unknown = [...seen].filter((s) => !(JOB_STATUSES as readonly string[]).includes(s));
		if (unknown.length > 0) {
			return {
				result: 'fail',
				observed: `Statuses not in the API description: ${unknown.map((s) => JSON.stringify(s)).join(', ')} (of ${plural(jobs.length, 'listed job')}).`,
				fix: 'The trigger never fires for such a status, and Wait for Completion keeps waiting through it (it ends only on finished, failed, canceled or stuck). Job › Get Many cannot filter by it.',
			};
		}
		return { result: 'pass', observed: `Statuses of ${plural(jobs.length, 'listed job')}: ${[...seen].join(', ')}.`, fix: NOTHING_TO_FIX };
	},
};

export const unknownAttributes: CheckSpec = {
	check: 'unknown-attributes',
	title: 'Records carry only the attributes the package knows',
	async run(probe) {
		const found = new Map<string, Set<string>>();
		let read = 0;
		const note = (type: string, name: string) => {
			if (!found.has(type)) found.set(type, new Set());
			found.get(type)!.add(name);
		};
		for (const { type } of COLLECTIONS) {
			const pages = [await probe.firstOfOne(type), ...(['jobs', 'users', 'groups'].includes(type) ? [await probe.sample(type)] : [])];
			for (const page of pages) {
				if (!page.ok) continue;
				for (const record of page.records) {
					read++;
					const known = KNOWN_ATTRIBUTES[type] ?? [];
					for (const name of Object.keys(record.attributes)) if (!known.includes(name)) note(type, name);
					if (type === 'jobs' && isObject(record.attributes.stats)) {
						for (const name of Object.keys(record.attributes.stats)) if (!KNOWN_JOB_STATS.includes(name)) note(type, `stats.${name}`);
					}
				}
			}
		}
		if (read === 0) return cannotTell('No record could be read.', 'See the check "list-routes".');
		if (found.size === 0) return { result: 'pass', observed: `None in ${plural(read, 'record')} read.`, fix: NOTHING_TO_FIX };
		// A departure from the contract the nodes cope with: reported as such, with nothing to change.
		return {
			result: 'fail',
			observed: `Seen in ${plural(read, 'record')}: ${[...found].map(([type, names]) => `${type}: ${[...names].join(', ')}`).join('; ')}.`,
			fix: 'Nothing to change: the nodes output them with the record (Simplify leaves them out), and an attribute under a name the nodes use themselves goes under apiAttributes.',
		};
	},
};

export const accountId: CheckSpec = {
	check: 'account-id',
	title: 'Groups, users and jobs carry accountId',
	async run(probe) {
		let records = 0;
		const missing: string[] = [];
		const failed: string[] = [];
		let withoutDeploymentId = 0;
		for (const type of ['groups', 'users', 'jobs'] as const) {
			const page = await probe.sample(type);
			if (!page.ok) {
				failed.push(`/${type}: ${errorText(page.error)}`);
				continue;
			}
			for (const record of page.records) {
				records++;
				if (typeof record.attributes.accountId !== 'string') missing.push(`${type} ${record.id}`);
				if (!('deploymentId' in record.attributes)) withoutDeploymentId++;
			}
		}
		if (missing.length > 0) {
			return {
				result: 'fail',
				observed: `${plural(missing.length, 'record')} of ${records} without accountId, e.g. ${missing.slice(0, 3).join(', ')}.`,
				fix: 'Outputs of this deployment show no account for those records; the trigger\'s Account filter and the Account fields still send accountId.',
			};
		}
		if (records === 0) return cannotTell(failed.length ? failed.join('; ') : 'No group, user or job is visible.', 'See the check "list-routes".');
		const note =
			withoutDeploymentId > 0
				? ` The deprecated deploymentId is left out on ${plural(withoutDeploymentId, 'record')} (the nodes do not read it; they still send it on creates, for older servers).`
				: '';
		return { result: 'pass', observed: `accountId on all ${plural(records, 'record')} read.${note}`, fix: NOTHING_TO_FIX };
	},
};

/** The most recently created job of the sample (by createdAt, not by the service's sort). */
function newestJob(jobs: Rec[]): Rec {
	return jobs.reduce((newest, job) =>
		Date.parse(String(job.attributes.createdAt)) > Date.parse(String(newest.attributes.createdAt)) ? job : newest,
	);
}

function subListCheck(kind: 'transfers' | 'errors'): CheckSpec {
	const type: ResourceType = kind === 'transfers' ? 'job-transfers' : 'job-errors';
	return {
		check: `${kind}-route`,
		title: `A job's ${kind} are listed at /jobs/{id}/${kind}`,
		async run(probe) {
			const jobs = await jobSample(probe);
			if (!Array.isArray(jobs)) return jobs;
			const job = newestJob(jobs);
			if (typeof job.id !== 'string') return cannotTell('The newest job has no id.', 'See the check "list-routes".');
			const route = kind === 'transfers' ? routes.listJobTransfers(job.id) : routes.listJobErrors(job.id);
			const page = await probe.list(`sub:${kind}`, type, route, { 'page[limit]': 1 });
			const path = `GET /jobs/${job.id}/${kind}?page[limit]=1`;
			if (!page.ok) {
				const http = httpCodeOf(page.error);
				if (http === undefined || isTokenFailure(page.error)) return cannotTell(`${path}: ${errorText(page.error)}`);
				const readers = `Job › Get ${kind === 'transfers' ? 'Transfers' : 'Errors'}${kind === 'errors' ? ' and the trigger\'s Attach Errors' : ''}`;
				// The job was just listed, so a 404 or 405 here says the route is not served, not that the job is missing.
				const elsewhere = http === '404' || http === '405';
				return {
					result: 'fail',
					observed: `${path}: ${errorText(page.error)}${elsewhere ? `; the job exists (it was listed), so this deployment serves a job's ${kind} elsewhere, not at GET /jobs/{id}/${kind}.` : ''}`,
					fix: `${readers} read this list and fail on this deployment${elsewhere ? `, saying that the job exists and its ${kind} are served elsewhere` : ''}. Report where it serves a job's ${kind} to the package maintainers (nodes/shared/api/routes.ts holds the paths); meanwhile the HTTP Request node can read that route with this credential.`,
				};
			}
			const links = isObject(page.doc.links) ? page.doc.links : undefined;
			const next = links ? links.next : undefined;
			const note = typeof next === 'string' || next === null ? `links.next is ${next === null ? 'null' : 'a URL'}` : 'links.next is missing (the nodes page by meta.page.after)';
			return { result: 'pass', observed: `${path} (the newest job) was answered with ${plural(page.records.length, 'record')}; ${note}.`, fix: NOTHING_TO_FIX };
		},
	};
}

export const transfersRoute = subListCheck('transfers');
export const errorsRoute = subListCheck('errors');

export const syncConflict: CheckSpec = {
	check: 'sync-conflict',
	title: 'Sync jobs have no conflict handling (null)',
	async run(probe) {
		const jobs = await jobSample(probe);
		if (!Array.isArray(jobs)) return jobs;
		const syncs = jobs.filter((j) => j.attributes.transferType === 'sync');
		if (syncs.length === 0) {
			return cannotTell(
				`None of the ${plural(jobs.length, 'listed job')} is a sync job. (Read-only: the check does not try to create one.)`,
				'If creating a sync job fails with an error on conflictHandling, set Job › Create › Sync Conflict Handling to the value your deployment expects.',
			);
		}
		const withValue = syncs.filter((j) => j.attributes.conflictHandling !== null && j.attributes.conflictHandling !== undefined);
		if (withValue.length > 0) {
			const example = withValue[0];
			return {
				result: 'fail',
				observed: `${plural(withValue.length, 'sync job')} of ${syncs.length} listed carry a conflict handling, e.g. ${example.id}: ${shown(example.attributes.conflictHandling)}. This deployment takes (and may require) one for sync jobs.`,
				fix: 'Set Job › Create › Sync Conflict Handling to the value your deployment expects (Skip, Rename or Overwrite). Run From Dry Run copies the dry run\'s value.',
			};
		}
		return { result: 'pass', observed: `Every listed sync job (${syncs.length}) has conflictHandling null.`, fix: NOTHING_TO_FIX };
	},
};

export const notFound: CheckSpec = {
	check: 'not-found',
	title: 'A missing record gets 404 entity-not-found',
	async run(probe) {
		const answer = await probe.request('not-found', routes.getJob(NO_SUCH_ID));
		if (answer.ok) return cannotTell(`GET /jobs/${NO_SUCH_ID} found a job: there is nothing missing to test with.`, NOTHING_TO_FIX);
		const http = httpCodeOf(answer.error);
		const code = errorCodeOf(answer.error);
		if (http === '404' && code === 'entity-not-found') {
			return { result: 'pass', observed: `GET /jobs/${NO_SUCH_ID}: ${errorText(answer.error)}.`, fix: NOTHING_TO_FIX };
		}
		if (http === undefined || isTokenFailure(answer.error)) return cannotTell(`GET /jobs/${NO_SUCH_ID}: ${errorText(answer.error)}`);
		return {
			result: 'fail',
			observed: `GET /jobs/${NO_SUCH_ID}: ${errorText(answer.error)} (code ${code ?? 'none'}); expected HTTP 404 entity-not-found.`,
			fix: 'Errors of the nodes for an unknown ID show what the service sent; the hint "Check the ID" is given for 404 entity-not-found only.',
		};
	},
};
