// @ts-nocheck
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DB_FILE, DEMO_IDS, type NetworkSettings, type Sandbox, startSandbox } from './index';

const HELP = `Usage: npm run sandbox -- [options]

  --port N              port on 127.0.0.1 (default 8787; 0 picks a free one)
  --client-id ID        client id accepted by /oauth/token (default sandbox-client)
  --client-secret S     client secret (default sandbox-secret)
  --token-ttl SECONDS   access token lifetime (default 86400)
  --speed FACTOR        job time runs FACTOR times faster (default 1)
  --data-dir DIR        keep everything in DIR: the storages' files and sandbox.db (jobs with their
                        transfers and errors, users, groups, storages, tokens, running jobs), reused
                        by the next start; a new DIR is seeded with the demo data once
                        (default: a temporary folder and the state in memory, both gone on exit)
  --seed N              seed for demo file contents and chaos (default 1)
  --no-demo             start without demo groups, users, files and jobs
  --deviate A,B         deviate from the contract in the named ways (see docs/api-contract.md), e.g.
                        --deviate ignore-sort,max-page:50; repeatable
  --latency-ms MS       network model: every API and token answer takes MS ms of service time (default 0)
  --jitter-ms MS        ... plus or minus up to MS ms, uniform, from --seed (default 0; at most --latency-ms)
  --capacity N          ... at most N requests in service at once, the rest wait in a FIFO queue
                        (default: no limit)
  --queue N             ... at most N waiting; one more gets 503 with Retry-After at once (default: no bound)
  --overload-retry-after SECONDS
                        Retry-After of that 503 (default 1)
  -h, --help            this text
`;

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '8787' },
			'client-id': { type: 'string' },
			'client-secret': { type: 'string' },
			'token-ttl': { type: 'string' },
			speed: { type: 'string' },
			'data-dir': { type: 'string' },
			seed: { type: 'string' },
			'no-demo': { type: 'boolean', default: false },
			deviate: { type: 'string', multiple: true },
			'latency-ms': { type: 'string' },
			'jitter-ms': { type: 'string' },
			capacity: { type: 'string' },
			queue: { type: 'string' },
			'overload-retry-after': { type: 'string' },
			help: { type: 'boolean', short: 'h', default: false },
		},
	});
	if (values.help) {
		process.stdout.write(HELP);
		return;
	}
	const number = (name: string, text: string | undefined): number | undefined => {
		if (text === undefined) return undefined;
		const value = Number(text);
		if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got "${text}".`);
		return value;
	};
	const sandbox = await startSandbox({
		port: number('port', values.port),
		clientId: values['client-id'],
		clientSecret: values['client-secret'],
		tokenTtlSeconds: number('token-ttl', values['token-ttl']),
		speed: number('speed', values.speed),
		dataDir: values['data-dir'],
		seed: number('seed', values.seed),
		demo: !values['no-demo'],
		deviations: values.deviate,
		network: networkFlags(values),
	});
	const network = sandbox.network.get();
	process.stdout.write(
		[
			keptLine(sandbox),
			`Sandbox listening on ${sandbox.baseUrl}`,
			`  token URL:     ${sandbox.baseUrl}/oauth/token`,
			`  client id:     ${sandbox.clientId}`,
			`  client secret: ${sandbox.clientSecret}`,
			`  account id:    ${DEMO_IDS.accountId}`,
			`  storages:      files ${DEMO_IDS.storageIds.files}, archive ${DEMO_IDS.storageIds.archive}, bucket ${DEMO_IDS.storageIds.bucket}`,
			`  admin:         ${sandbox.baseUrl}/__sandbox/info`,
			...(sandbox.deviations.list().length ? [`  deviations:    ${sandbox.deviations.list().join(', ')}`] : []),
			...(network.settings ? [`  network:       ${networkLine(network.settings)}`] : []),
			'Press Ctrl+C to stop.',
			'',
		].join('\n'),
	);
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: closing the sandbox\n`);
		sandbox.close().then(
			() => process.exit(0),
			(error) => {
				process.stderr.write(`${String(error)}\n`);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
	process.on('SIGHUP', () => stop('SIGHUP'));
	process.stdout.on('error', () => undefined);
}

const NETWORK_FLAGS = {
	'latency-ms': 'latencyMs',
	'jitter-ms': 'jitterMs',
	capacity: 'capacity',
	queue: 'queue',
	'overload-retry-after': 'overloadRetryAfterSeconds',
} as const;

/** The network model's settings from its flags (checked by startSandbox), or undefined when none is given. */
function networkFlags(values: Record<string, unknown>): NetworkSettings | undefined {
	let settings: NetworkSettings | undefined;
	for (const [flag, key] of Object.entries(NETWORK_FLAGS)) {
		const text = values[flag];
		if (typeof text !== 'string') continue;
		const value = Number(text);
		if (text.trim() === '' || !Number.isFinite(value)) throw new Error(`--${flag} must be a number, got "${text}".`);
		settings = { ...settings, [key]: value };
	}
	return settings;
}

function networkLine(s: Required<NetworkSettings>): string {
	const limit = (n: number | null) => (n === null ? 'no limit' : String(n));
	return (
		`latency ${s.latencyMs} ± ${s.jitterMs} ms, capacity ${limit(s.capacity)}, queue ${limit(s.queue)}, ` +
		`overload: 503 with Retry-After ${s.overloadRetryAfterSeconds}`
	);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line on what the data folder held: "Sandbox: kept 12 jobs, 3 users, 2 groups ... from .sandbox-data/". */
export function keptLine(sandbox: Sandbox): string {
	const { data } = sandbox;
	if (!data.database) return `Sandbox: state in memory (no --data-dir): nothing is kept after it stops; files in ${data.dataDir}`;
	const relative = path.relative(process.cwd(), data.dataDir);
	const where = `${relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : data.dataDir}/`;
	if (data.created) return `Sandbox: new data folder ${where}: created ${DB_FILE} and seeded it`;
	const k = data.kept;
	return (
		`Sandbox: kept ${plural(k.jobs, 'job')} (${plural(k.transfers, 'transfer')}, ${plural(k.errors, 'error')}), ` +
		`${plural(k.users, 'user')}, ${plural(k.groups, 'group')}, ${plural(k.storages, 'storage')}, ` +
		`${plural(k.accounts, 'account')} and ${plural(k.tokens, 'token')} from ${where}${DB_FILE}` +
		(k.resumedRuns ? `; ${plural(k.resumedRuns, 'running job')} carr${k.resumedRuns === 1 ? 'ies' : 'y'} on` : '')
	);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).message}\n`);
	process.exit(1);
});
