import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { routes } from '../shared/api/routes';
import type { Job } from '../shared/api/types';
import { PAGE_LIMIT_MAX } from '../shared/api/types';
import { operationError } from '../shared/execution/operationError';
import { filterChecker } from '../shared/answers/listChecks';
import { recordChecker } from '../shared/answers/shape';
import { requestPage } from '../shared/answers/checkedRequests';
import type { NextPage } from '../shared/transport';
import { apiRequestAllItems, deployment, pages } from '../shared/transport';
import type { TriggerConfig } from './config';
import type { ServiceClock } from './watch';
import { isAheadOf, serviceClock, timeOf } from './watch';

const NEWEST_FIRST = '-updatedAt';

function checkJob(ctx: IPollFunctions, job: Job): void {
	const updatedAt = job?.attributes?.updatedAt;
	if (typeof job?.id !== 'string' || typeof updatedAt !== 'string' || Number.isNaN(timeOf(updatedAt))) {
		throw operationError(ctx.getNode(), 'The service listed a job without an id or a valid updatedAt', {
			description:
				'The trigger orders changes by the server\'s updatedAt timestamp (ISO 8601). Nothing was saved; the next poll tries again.',
		});
	}
}

/** Checks that every job matches each `filter[...]` the trigger asked for (see listChecks.ts). */
function checkFilters(ctx: IPollFunctions, jobs: Job[], qs: IDataObject): void {
	const check = filterChecker(ctx, qs);
	for (const job of jobs) check(job);
}

/**
 * Checks that `jobs` (one page, after the last job of the previous page) come newest first: the trigger
 * stops reading at the first job older than its cursor, so a service that ignores `sort=-updatedAt` would
 * make it miss events without any error.
 */
function checkNewestFirst(ctx: IPollFunctions, jobs: Job[], previous: Job | undefined): void {
	let before = previous;
	for (const job of jobs) {
		if (before && timeOf(job.attributes.updatedAt) > timeOf(before.attributes.updatedAt)) {
			throw operationError(
				ctx.getNode(),
				`The service did not list jobs newest first (sort=${NEWEST_FIRST}): job ${job.id} (updatedAt ${job.attributes.updatedAt}) came after job ${before.id} (updatedAt ${before.attributes.updatedAt})`,
				{
					description:
						'The trigger reads changes newest first and stops at the first job older than its position, so it cannot work with a service that ignores the sort: it would miss events. Nothing was saved. Your deployment differs from the API contract: run API › Check Compatibility.',
				},
			);
		}
		before = job;
	}
}

/** The query of the trigger's job list: the filters, and the status when one final status is watched. */
export function listQuery(config: TriggerConfig): IDataObject {
	const qs: IDataObject = { ...config.filterQs };
	if (config.serverStatus) qs['filter[status]'] = config.serverStatus;
	return qs;
}

/** One page of the job list, newest first: the first page (`next` null) or the one `next` points to. */
export async function listPage(
	ctx: IPollFunctions,
	qs: IDataObject,
	next: NextPage | null,
	previous?: Job,
): Promise<{ jobs: Job[]; next: NextPage | null }> {
	const route = routes.listJobs();
	const limit = PAGE_LIMIT_MAX;
	// Shape first (UUID ids, attributes, a status), then what the trigger orders by and filters on.
	const document = await requestPage<Job>(ctx, route, 'jobs', pages.pageRequest({ ...qs, sort: NEWEST_FIRST }, limit, next));
	for (const job of document.data) checkJob(ctx, job);
	checkNewestFirst(ctx, document.data, previous);
	checkFilters(ctx, document.data, qs);
	const following = pages.nextPageOf(
		ctx,
		{ data: document.data, meta: { page: { after: document.after } }, links: { next: document.nextUrl } },
		deployment.servedPageLimit(ctx, route, limit),
		route,
	);
	return { jobs: document.data, next: following };
}

/**
 * The service's time as of its latest answer in this poll (its Date header, plus the local time elapsed
 * since), or the local clock when it sent no Date header.
 */
export function clockOf(ctx: IPollFunctions): ServiceClock {
	const local = Date.now();
	const seen = deployment.serverClockOf(ctx);
	return seen ? serviceClock(seen.server + (local - seen.local), true) : serviceClock(local, false);
}

export interface ListedWindow {
	jobs: Job[];
	/** The service's clock, read from the first page's answer. */
	clock: ServiceClock;
}

/** Stops a read whose pages do not advance. */
export function pageLoop(ctx: IPollFunctions) {
	return operationError(ctx.getNode(), 'The service returned a page cursor that does not advance; stopped to avoid an endless loop', {
		description: 'Nothing was saved; the next poll tries again.',
	});
}

/**
 * Where the job list stands, for a first activation: the jobs that share the newest updatedAt not ahead of
 * the service's clock, and the jobs ahead of it (they sort first). Usually one request.
 */
export async function listNewest(ctx: IPollFunctions, config: TriggerConfig): Promise<ListedWindow> {
	const qs = listQuery(config);
	const jobs: Job[] = [];
	const cursors = new Set<string>();
	const ids = new Set<string>();
	let clock: ServiceClock | undefined;
	let bound: number | undefined;
	let next: NextPage | null = null;
	let last: Job | undefined;
	for (;;) {
		const page = await listPage(ctx, qs, next, last);
		last = page.jobs[page.jobs.length - 1] ?? last;
		clock ??= clockOf(ctx);
		let reachedOlder = false;
		let fresh = 0;
		for (const job of page.jobs) {
			if (!ids.has(job.id)) fresh++;
			ids.add(job.id);
			const time = timeOf(job.attributes.updatedAt);
			if (bound === undefined && !isAheadOf(clock, job)) bound = time;
			if (bound !== undefined && time < bound) {
				reachedOlder = true;
				break;
			}
			jobs.push(job);
		}
		if (reachedOlder || page.next === null) break;
		const key = 'url' in page.next ? page.next.url : page.next.after;
		// A page that brings no job not seen before, under a new cursor, would otherwise page forever.
		if (cursors.has(key) || page.jobs.length === 0 || fresh === 0) throw pageLoop(ctx);
		cursors.add(key);
		next = page.next;
	}
	return { jobs, clock: clock ?? clockOf(ctx) };
}

/** All matching jobs that are stuck right now (pages of 100). */
export async function listStuck(ctx: IPollFunctions, config: TriggerConfig): Promise<Job[]> {
	const route = routes.listJobs();
	const check = recordChecker<Job>(ctx, 'jobs', { route });
	const qs: IDataObject = { ...config.filterQs, 'filter[status]': 'stuck' };
	const jobs = await apiRequestAllItems<unknown, Job>(ctx, route, qs, { map: check });
	for (const job of jobs) checkJob(ctx, job);
	checkFilters(ctx, jobs, qs);
	return jobs;
}

/** The most recently changed matching job in the given status, if any (one request). */
export async function newestInStatus(
	ctx: IPollFunctions,
	config: TriggerConfig,
	status: string,
): Promise<Job | undefined> {
	const qs: IDataObject = { ...config.filterQs, 'filter[status]': status };
	const page = await requestPage<Job>(ctx, routes.listJobs(), 'jobs', {
		qs: { ...qs, sort: NEWEST_FIRST, 'page[limit]': 1 },
	});
	const job = page.data[0];
	if (job) {
		checkJob(ctx, job);
		checkFilters(ctx, [job], qs);
	}
	return job;
}

/** The first page of matching jobs, newest first (one request). */
export async function newestJobs(ctx: IPollFunctions, config: TriggerConfig): Promise<Job[]> {
	return (await listPage(ctx, listQuery(config), null)).jobs;
}
