import { JOB_STATUSES, type JobStatus } from '../../nodes/shared/api/types';
import type { ChaosOptions, FaultRule, NetworkSettings, Sandbox } from './api';
import type { Answer, RequestContext, Router } from './router';
import { isObject } from './util';

function json(ctx: RequestContext): Record<string, unknown> {
	if (ctx.body.trim() === '') return {};
	const parsed: unknown = JSON.parse(ctx.body);
	if (!isObject(parsed)) throw new Error('The body must be a JSON object.');
	return parsed;
}

const ok = (body: unknown = { ok: true }): Answer => ({ status: 200, body });

/** JSON `times` cannot carry Infinity: null, -1 or "Infinity" mean every matching request. */
function faultRule(body: Record<string, unknown>): FaultRule {
	const rule = { ...body } as unknown as FaultRule;
	const times = body.times as unknown;
	if (times === null || times === 'Infinity' || times === -1) rule.times = Infinity;
	return rule;
}

/** Unauthenticated control routes under /__sandbox/ for out-of-process use (not in the request log). */
export function registerAdmin(router: Router, sandbox: Sandbox, info: () => unknown): void {
	const { control, faults, network, requests, state } = sandbox;
	const job = (id: string) => {
		const found = state.job(id);
		if (!found) throw Object.assign(new Error(`No job ${id}.`), { status: 404 });
		return found;
	};
	router
		.add('/__sandbox/info', { GET: () => ok(info()) })
		.add('/__sandbox/faults', {
			POST: (c) => {
				faults.add(faultRule(json(c)));
				return ok();
			},
			DELETE: () => {
				faults.clear();
				return ok();
			},
		})
		.add('/__sandbox/chaos', {
			POST: (c) => {
				faults.chaos(json(c) as unknown as ChaosOptions);
				return ok();
			},
		})
		.add('/__sandbox/network', {
			GET: () => ok(network.get()),
			PUT: (c) => ok(network.set(json(c) as NetworkSettings)),
			DELETE: () => ok(network.clear()),
		})
		.add('/__sandbox/requests', {
			GET: () => ok({ requests: requests.all() }),
			DELETE: () => {
				requests.clear();
				return ok();
			},
		})
		.add('/__sandbox/jobs/insert', {
			POST: (c) => {
				const body = json(c);
				const count = Number(body.count ?? 1);
				if (!Number.isInteger(count) || count < 0) throw new Error('count must be a non-negative integer.');
				return ok({ ids: control.insertJobs(count, (body.attributes ?? {}) as never) });
			},
		})
		.add('/__sandbox/jobs/{id}/status', {
			POST: (c) => {
				const status = json(c).status as JobStatus;
				if (!JOB_STATUSES.includes(status)) throw new Error(`status must be one of ${JOB_STATUSES.join(', ')}.`);
				job(c.params.id);
				control.setJobStatus(c.params.id, status);
				return ok({ data: state.job(c.params.id) });
			},
		})
		.add('/__sandbox/jobs/{id}/errors', {
			POST: (c) => {
				const body = json(c);
				job(c.params.id);
				control.addJobError(c.params.id, {
					sourcePath: String(body.sourcePath ?? '/'),
					message: String(body.message ?? 'Injected error'),
					event: body.event === 'warning' ? 'warning' : 'error',
				});
				return ok();
			},
		})
		.add('/__sandbox/jobs/{id}/wait', {
			GET: async (c) => {
				job(c.params.id);
				const timeout = Number(c.query.get('timeoutMs') ?? 30000);
				return ok({ data: await control.waitForJob(c.params.id, timeout) });
			},
		})
		.add('/__sandbox/state/jobs/{id}', {
			GET: (c) => ok({ data: job(c.params.id), transfers: state.jobTransfers(c.params.id), errors: state.jobErrors(c.params.id) }),
		})
		.add('/__sandbox/storages/{id}/availability', {
			POST: (c) => {
				const available = json(c).available;
				if (typeof available !== 'boolean') throw new Error('available must be true or false.');
				control.setStorageAvailable(c.params.id, available);
				return ok();
			},
		})
		.add('/__sandbox/storages/{id}/files', {
			POST: (c) => {
				const body = json(c);
				if (typeof body.path !== 'string' || !body.path.startsWith('/')) throw new Error('path must be absolute.');
				const content = String(body.content ?? '');
				control.writeFile(c.params.id, body.path, body.encoding === 'base64' ? Buffer.from(content, 'base64') : content);
				return ok();
			},
		})
		.add('/__sandbox/tokens/expire', {
			POST: () => {
				control.expireTokens();
				return ok();
			},
		});
}
