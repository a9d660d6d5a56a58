import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ItemContext } from '../../../shared/execution/item';
import { requestErrors } from '../../../shared/transport';
import type { Outcome } from './compatibility';
import { CHECKS, Probe, cannotTell, errorText, rootAnswer } from './compatibility';

/**
 * API › Check Compatibility: probes the deployment behind the credential and outputs one item per
 * assumption of docs/api-contract.md (the check ids are the ones used there). Read-only: every request
 * is a GET, except the media-type probe, a PATCH of a job id that does not exist (nothing can change).
 * Each check catches its own failures, so one failing probe never stops the others.
 * The checks live in ./compatibility/ (probe.ts: the requests; outcome.ts: what a check outputs;
 * checks/: the checks by concern; index.ts: their order).
 */

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['api'], operation: ['checkCompatibility'] } },
	properties,
);

export type { CheckResult } from './compatibility';
export { CHECKS } from './compatibility';

export async function execute(this: IExecuteFunctions, item: ItemContext): Promise<INodeExecutionData[]> {
	const probe = new Probe(this, item);
	// A credential whose Base URL is unusable is an input error (nothing was sent), not a finding.
	const first = await rootAnswer(probe);
	if (!first.ok && first.error instanceof NodeOperationError && /Base URL/.test(first.error.message)) throw first.error;
	// n8n's SSRF protection refuses the service's address: no check can reach it, and the error says what to set.
	if (!first.ok && first.error instanceof requestErrors.EgressBlockedError) throw first.error;
	const items: INodeExecutionData[] = [];
	for (const spec of CHECKS) {
		let outcome: Outcome;
		try {
			outcome = await spec.run(probe);
		} catch (error) {
			outcome = cannotTell(`The check itself failed: ${errorText(error)}`, 'Report this output to the package maintainers.');
		}
		items.push({ json: { check: spec.check, title: spec.title, ...outcome } });
	}
	return items;
}
