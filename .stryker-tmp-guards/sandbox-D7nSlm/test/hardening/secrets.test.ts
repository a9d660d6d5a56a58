/**
 * The secret search itself: it sees what n8n logs (LoggerProxy, the node context's logger, the error
 * reporter), it knows every token the sandbox issued, and it finds a secret where one is.
 */
// @ts-nocheck

import { startSandbox } from '../../sandbox/src';
import type { Sandbox } from '../../sandbox/src/api';
import { credentialsFor, runNode } from '../harness/engine';
import { ACCOUNT, DEMO_IDS, captureLogs, findSecrets, rl, runTexts, secretsOf } from './harness';

const logs = captureLogs();
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ speed: 1000 });
});
afterAll(async () => {
	await sandbox.close();
});

const getGroup = { resource: 'group', operation: 'get', groupId: rl(DEMO_IDS.groupIds[0]) };

it('captures what n8n logs: the OAuth2 renewal, node errors and their report', async () => {
	const credentials = credentialsFor(sandbox);
	await runNode({ credentials, parameters: getGroup });
	sandbox.control.expireTokens();
	logs.clear();
	await runNode({ credentials, parameters: getGroup });
	// The renewal after the 401 leaves n8n's node log, and the new token is in the credential.
	expect(logs.text()).toContain('Running node "File Transfer Manager" finished successfully');
	expect(credentials.tokenUpdates).toHaveLength(2);
	logs.clear();
	await runNode({ credentials, parameters: { resource: 'group', operation: 'get', groupId: rl('0b5e9a3c-1d2f-4a6b-8c7d-9e0f1a2b3c4d') } });
	expect(logs.lines.map((line) => [line.level, line.message])).toEqual(
		expect.arrayContaining([
			['debug', 'Running node "File Transfer Manager" finished with error'],
			['error', expect.stringContaining('Entity Not Found')],
		]),
	);
});

it('knows every token the sandbox issued, and the client secret', async () => {
	const credentials = credentialsFor(sandbox);
	await runNode({ credentials, parameters: getGroup });
	sandbox.control.expireTokens();
	await runNode({ credentials, parameters: getGroup });
	const secrets = secretsOf(sandbox, [credentials]);
	expect(credentials.tokenUpdates).toHaveLength(2);
	for (const token of credentials.tokenUpdates) expect(secrets).toContain(token);
	expect(secrets).toContain(sandbox.clientSecret);
});

it('finds a token where one is, and the output never holds one: a group named after the access token is shown redacted', async () => {
	const credentials = credentialsFor(sandbox);
	await runNode({ credentials, parameters: getGroup });
	const token = credentials.tokenUpdates[0];
	const result = await runNode({ credentials, parameters: { resource: 'group', operation: 'create', name: token, accountId: rl(ACCOUNT) } });
	expect(result.error).toBeUndefined();
	// The service stored the name as sent, and echoed it: the node's output shows it redacted.
	expect(sandbox.state.groups().some((group) => group.attributes.name === token)).toBe(true);
	expect(result.items[0].json.name).toBe('[redacted]');
	const secrets = secretsOf(sandbox, [credentials]);
	expect(findSecrets(runTexts(result), secrets)).toEqual([]);
	expect(findSecrets([`planted ${token} here`], secrets).length).toBeGreaterThan(0);
	expect(findSecrets(['nothing here'], secrets)).toEqual([]);
});
