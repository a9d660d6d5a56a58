/**
 * A 100,000-character name made Group › Create fail in its pre-create lookup with ECONNRESET
 * (the name goes into `filter[name]`, and no server takes a query string that long). Names are now
 * limited to 1,000 characters and e-mail addresses to 254, checked before anything is sent.
 */
// @ts-nocheck

import { DEMO_IDS, FILES, ARCHIVE, rl, useHostileService } from './shapesHarness';

const t = useHostileService();

const account = rl(DEMO_IDS.accountId);

describe('hostile limits: overlong lookup values are input errors', () => {
	it('Group Create with a 100,000-character name fails before any request', async () => {
		const { error } = await t.run({ resource: 'group', operation: 'create', accountId: account, name: 'g'.repeat(100_000) });
		expect(error?.message).toBe('"Name" must be at most 1,000 characters long, got 100,000 [item 0]');
		expect(t.service.requests).toEqual([]);
	});

	it('Group Create with exactly 1,000 characters (emoji: 12 bytes each once encoded) passes lookup and create', async () => {
		const name = '\u{1F4C1}'.repeat(1000);
		const { items, error } = await t.run({ resource: 'group', operation: 'create', accountId: account, name });
		expect(error).toBeUndefined();
		expect(items[0].json.name).toBe(name);
		expect(t.calls()).toEqual(['GET /groups', 'POST /groups']);
		const lookup = decodeURIComponent(t.recorded()[0].url);
		expect(lookup).toContain(`filter[name]=${name}`);
	});

	it('User Create with a 255-character e-mail address fails before any request', async () => {
		const email = `${'u'.repeat(243)}@example.com`;
		expect(email).toHaveLength(255);
		const { error } = await t.run({ resource: 'user', operation: 'create', accountId: account, email });
		expect(error?.message).toBe('"Email" must be at most 254 characters long, got 255 [item 0]');
		expect(t.service.requests).toEqual([]);
	});

	it('Job Create and Run From Dry Run with a 1,001-character name fail before any request', async () => {
		const name = 'j'.repeat(1001);
		const created = await t.run({
			resource: 'job',
			operation: 'create',
			transferType: 'copy',
			sourceStorageId: rl(FILES),
			targetStorageId: rl(ARCHIVE),
			conflictHandling: 'skip',
			dryRun: true,
			additionalFields: { name },
		});
		expect(created.error?.message).toBe('"Name" must be at most 1,000 characters long, got 1,001 [item 0]');
		const rerun = await t.run({ resource: 'job', operation: 'runFromDryRun', jobId: rl(DEMO_IDS.jobIds.dryRun), name });
		expect(rerun.error?.message).toBe('"Name" must be at most 1,000 characters long, got 1,001 [item 0]');
		expect(t.service.requests).toEqual([]);
	});
});
