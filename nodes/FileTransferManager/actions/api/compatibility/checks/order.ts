/** The checks of the order of lists: sort by updatedAt and by createdAt, both ways. */
import { routes } from '../../../../../shared/api/routes';
import type { CheckSpec } from '../outcome';
import { NOTHING_TO_FIX, cannotTell, errorText, httpCodeOf, isTokenFailure, plural } from '../outcome';
import { attributeAt } from '../probe';

function sortCheck(field: 'updatedAt' | 'createdAt', use: string): CheckSpec {
	return {
		check: `sort-${field}`,
		title: `Lists sort by ${field} (sort=${field} and sort=-${field})`,
		async run(probe) {
			const notes: string[] = [];
			let distinct = false;
			for (const direction of ['-', ''] as const) {
				const sort = `${direction}${field}`;
				const page = await probe.list(`sort:${sort}`, 'jobs', routes.listJobs(), { sort });
				if (!page.ok) {
					if (httpCodeOf(page.error) === undefined || isTokenFailure(page.error)) return cannotTell(`GET /jobs?sort=${sort}: ${errorText(page.error)}`);
					return { result: 'fail', observed: `GET /jobs?sort=${sort}: ${errorText(page.error)}`, fix: `The nodes sort jobs by ${field} (${use}); this deployment refuses it. Report this output to the package maintainers.` };
				}
				const times = page.records.map((r) => ({ id: r.id, at: attributeAt(r, field), ms: Date.parse(String(attributeAt(r, field))) }));
				for (let i = 1; i < times.length; i++) {
					const [a, b] = [times[i - 1], times[i]];
					if (!Number.isFinite(a.ms) || !Number.isFinite(b.ms)) continue;
					if (a.ms !== b.ms) distinct = true;
					if (direction === '-' ? b.ms > a.ms : b.ms < a.ms) {
						return {
							result: 'fail',
							observed: `GET /jobs?sort=${sort} listed job ${a.id} (${field} ${String(a.at)}) before job ${b.id} (${field} ${String(b.at)}).`,
							fix: `The nodes rely on this order (${use}). They check it and stop with "The service ignored sort=…" rather than miss jobs, so on this deployment they fail. Report this output to the package maintainers.`,
						};
					}
				}
				notes.push(`sort=${sort}: ${plural(page.records.length, 'job')} in order`);
			}
			if (!distinct) {
				return cannotTell(`Fewer than two jobs with different ${field} values were listed (${notes.join('; ')}), so an order cannot be seen.`, 'Run the check again once the deployment has two jobs or more.');
			}
			return { result: 'pass', observed: `${notes.join('; ')}.`, fix: NOTHING_TO_FIX };
		},
	};
}

export const sortUpdatedAt = sortCheck('updatedAt', 'the trigger lists jobs by sort=-updatedAt');
export const sortCreatedAt = sortCheck('createdAt', 'the lookup that protects creates against a double create');
