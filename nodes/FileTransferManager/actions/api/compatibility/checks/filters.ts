/** The checks of the list filters the nodes send (one per filter), and that an unknown filter is refused. */
import type { Route } from '../../../../../shared/api/routes';
import { routes } from '../../../../../shared/api/routes';
import type { ResourceType } from '../../../../../shared/api/types';
import { JOB_STATUSES, TRANSFER_TYPES } from '../../../../../shared/api/types';
import { shown } from '../../../../../shared/input/validate';
import type { CheckSpec } from '../outcome';
import { NOTHING_TO_FIX, cannotTell, errorText, httpCodeOf, isTokenFailure, plural } from '../outcome';
import { NO_SUCH_ID, attributeAt } from '../probe';

/** How a filter compares: the record's value as the text the query carries. */
function asFilterText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'boolean' || typeof value === 'number') return String(value);
	return undefined;
}

/** A filter check: ask with a value and see that every record returned has it. */
interface FilterSpecOfCheck {
	check: string;
	type: ResourceType;
	route: () => Route;
	field: string;
	/** Who relies on the filter, for the fix. */
	use: string;
	/** A value no listed record has, for a sample where every record has the same value. */
	absent: (seen: Set<string>) => string;
}

function firstNotIn(options: readonly string[], fallback: string): (seen: Set<string>) => string {
	return (seen) => options.find((o) => !seen.has(o)) ?? fallback;
}

function filterCheck(spec: FilterSpecOfCheck): CheckSpec {
	const noun = spec.type === 'jobs' ? 'job' : spec.type === 'users' ? 'user' : 'group';
	return {
		check: spec.check,
		title: `Lists of ${spec.type} honour filter[${spec.field}]`,
		async run(probe) {
			const sample = await probe.sample(spec.type);
			if (!sample.ok) return cannotTell(`GET /${spec.type} failed: ${errorText(sample.error)}`, 'See the check "list-routes".');
			if (sample.records.length === 0) {
				return cannotTell(`No ${noun} is visible, so there is nothing to filter.`, `Run the check again once the deployment has ${spec.type}.`);
			}
			// The value held by the fewest listed records, so that an ignored filter shows; when every record
			// holds the same value, one that none holds (an ignored filter then returns them all).
			const counts = new Map<string, number>();
			for (const record of sample.records) {
				const value = asFilterText(attributeAt(record, spec.field));
				if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
			}
			const rarest = [...counts.entries()].sort((a, b) => a[1] - b[1])[0];
			const fromSample = rarest !== undefined && rarest[1] < sample.records.length;
			const value = fromSample ? rarest[0] : spec.absent(new Set(counts.keys()));
			const query = `filter[${spec.field}]=${value}`;
			const page = await probe.list(`filter:${spec.type}:${spec.field}`, spec.type, spec.route(), { [`filter[${spec.field}]`]: value });
			const fix = `${spec.use} rely on this filter. Get Many and the trigger re-check every record they get and stop with "The service ignored the filter …" rather than return ${spec.type} that do not match; leave the filter out and filter in the workflow (an If or Filter node after the node) on this deployment.`;
			if (!page.ok) {
				if (httpCodeOf(page.error) === undefined || isTokenFailure(page.error)) return cannotTell(`GET /${spec.type}?${query}: ${errorText(page.error)}`);
				return {
					result: 'fail',
					observed: `GET /${spec.type}?${query}: ${errorText(page.error)}`,
					fix: `${spec.use} send this filter; this deployment refuses it, so they fail. Report this output to the package maintainers.`,
				};
			}
			const wrong = page.records.filter((r) => asFilterText(attributeAt(r, spec.field)) !== value);
			if (wrong.length > 0) {
				return {
					result: 'fail',
					observed: `GET /${spec.type}?${query} returned ${plural(page.records.length, noun)}, ${wrong.length} of them with ${spec.field} ≠ ${JSON.stringify(value)} (e.g. ${wrong[0].id ?? 'a record'}: ${shown(attributeAt(wrong[0], spec.field))}): the filter is not applied.`,
					fix,
				};
			}
			if (fromSample && page.records.length === 0) {
				return {
					result: 'fail',
					observed: `GET /${spec.type}?${query} returned nothing, though ${plural(rarest[1], noun)} listed without the filter ${rarest[1] === 1 ? 'has' : 'have'} that value.`,
					fix,
				};
			}
			return {
				result: 'pass',
				observed:
					page.records.length === 0
						? `GET /${spec.type}?${query} (a value none of the ${plural(sample.records.length, `listed ${noun}`)} has) returned none.`
						: `GET /${spec.type}?${query} returned ${plural(page.records.length, noun)}, all with ${spec.field} ${JSON.stringify(value)}.`,
				fix: NOTHING_TO_FIX,
			};
		},
	};
}

const TRIGGER = 'The trigger (its Filters) and Job › Get Many';
const RECOVERY = 'the lookup that protects Job › Create against a double create';
const idAbsent = () => NO_SUCH_ID;

export const filterChecks: CheckSpec[] = [
	filterCheck({ check: 'filter-status', type: 'jobs', route: routes.listJobs, field: 'status', use: `${TRIGGER} (one watched final status)`, absent: firstNotIn(JOB_STATUSES, 'canceled') }),
	filterCheck({ check: 'filter-source', type: 'jobs', route: routes.listJobs, field: 'source.id', use: `${TRIGGER}, and ${RECOVERY},`, absent: idAbsent }),
	filterCheck({ check: 'filter-target', type: 'jobs', route: routes.listJobs, field: 'target.id', use: `${TRIGGER}, and ${RECOVERY},`, absent: idAbsent }),
	filterCheck({ check: 'filter-transferType', type: 'jobs', route: routes.listJobs, field: 'transferType', use: `${TRIGGER}, and ${RECOVERY},`, absent: firstNotIn(TRANSFER_TYPES, 'move') }),
	filterCheck({ check: 'filter-accountId', type: 'jobs', route: routes.listJobs, field: 'accountId', use: TRIGGER, absent: idAbsent }),
	filterCheck({ check: 'filter-groupId', type: 'jobs', route: routes.listJobs, field: 'groupId', use: TRIGGER, absent: idAbsent }),
	filterCheck({ check: 'filter-userId', type: 'jobs', route: routes.listJobs, field: 'userId', use: TRIGGER, absent: idAbsent }),
	filterCheck({ check: 'filter-dryRun', type: 'jobs', route: routes.listJobs, field: 'dryRun', use: `${TRIGGER} (Dry Runs), and ${RECOVERY},`, absent: firstNotIn(['true', 'false'], 'true') }),
	filterCheck({ check: 'filter-email', type: 'users', route: routes.listUsers, field: 'email', use: 'User › Get Many and the lookup that protects User › Create', absent: () => 'no-such-user@check-compatibility.invalid' }),
	filterCheck({ check: 'filter-name', type: 'groups', route: routes.listGroups, field: 'name', use: 'Group › Get Many and the lookup that protects Group › Create', absent: () => 'no such group (check compatibility)' }),
];

export const filterUnknown: CheckSpec = {
	check: 'filter-unknown',
	title: 'A filter on an unknown field is refused (400), not ignored',
	async run(probe) {
		const query = 'filter[no-such-field]=x';
		const page = await probe.list('filter-unknown', 'jobs', routes.listJobs(), { 'filter[no-such-field]': 'x' });
		if (page.ok) {
			return {
				result: 'fail',
				observed: `GET /jobs?${query} was answered with ${plural(page.records.length, 'job')}: a filter on a field the service does not know is ignored.`,
				fix: 'A filter this deployment does not support would silently widen a list instead of failing. Run the filter checks above: each one that passes is applied.',
			};
		}
		const http = httpCodeOf(page.error);
		if (http === '400') return { result: 'pass', observed: `GET /jobs?${query}: ${errorText(page.error)}.`, fix: NOTHING_TO_FIX };
		if (http === undefined || isTokenFailure(page.error)) return cannotTell(`GET /jobs?${query}: ${errorText(page.error)}`);
		return { result: 'fail', observed: `GET /jobs?${query}: ${errorText(page.error)}; expected HTTP 400 invalid-filter.`, fix: 'Report this output to the package maintainers.' };
	},
};
