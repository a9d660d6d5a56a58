/**
 * Profiles of n8n settings that the end-to-end helpers apply to every n8n they start (n8nEnv in n8nProcess.ts):
 * FTM_N8N_PROFILE=v3 runs the suites with n8n 3.0's coming defaults turned on in n8n 2.x (the rules of its
 * 3.0 list, `n8n/dist/modules/breaking-changes/rules/v3/` in n8n 2.41.1), together, as an administrator who
 * turns them on before upgrading would. `npm run test:matrix` shows it as a column of its own. See
 * docs/versions.md › n8n 3.0.
 */

/** The profile names FTM_N8N_PROFILE takes. */
const N8N_PROFILES = ['v3'] as const;
export type N8nProfile = (typeof N8N_PROFILES)[number];

/** The address the sandbox listens on in every e2e suite (startSandbox's host). */
export const SANDBOX_ADDRESS = '127.0.0.1';

/** A profile's name as FTM_N8N_PROFILE gives it, checked; undefined when unset or empty. */
export function parseProfile(value: string | undefined): N8nProfile | undefined {
	const name = value?.trim() ?? '';
	if (name === '') return undefined;
	if (!(N8N_PROFILES as readonly string[]).includes(name)) {
		throw new Error(`FTM_N8N_PROFILE="${name}" is not a profile (known: ${N8N_PROFILES.join(', ')})`);
	}
	return name as N8nProfile;
}

/** The profile of this process: FTM_N8N_PROFILE (the version matrix sets it for its profile column). */
const N8N_PROFILE = parseProfile(process.env.FTM_N8N_PROFILE);

/**
 * n8n 3.0's defaults, each with the rule of n8n's v3 list it anticipates. What the docs tell users to set so
 * that this package keeps loading is part of it: the profile proves that advice.
 */
export const V3_ENV: Readonly<Record<string, string>> = {
	// Polling triggers on n8n's durable scheduler, with cursors committed with the execution (the coming
	// default for polling triggers; n8n 2.36 and later).
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	// offload-manual-executions: in queue mode, manual executions run on workers (ignored outside queue mode).
	OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	// ssrf-default-blocked-ranges: SSRF protection on, with the service's address allowed, as docs/install.md
	// tells administrators whose service runs on an internal network.
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_IP_RANGES: `${SANDBOX_ADDRESS}/32`,
	// unverified-packages: n8n 3.0's default is false (unverified community packages are not installed, and per
	// n8n's rule no longer loaded). test/e2e/unverified-packages.test.ts runs n8n with it false.
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
};

/**
 * What README › Install tells n8n 3.0 users to set so that this package loads until n8n verifies it; applied
 * over V3_ENV (test/e2e/unverified-packages.test.ts checks that the README says exactly this).
 */
export const V3_DOCUMENTED_ENV: Readonly<Record<string, string>> = {
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
};

/** The environment a profile adds to an n8n process (nothing without a profile). */
export function profileEnv(profile: N8nProfile | undefined = N8N_PROFILE): Record<string, string> {
	return profile === 'v3' ? { ...V3_ENV, ...V3_DOCUMENTED_ENV } : {};
}

/** A run's label in tables and file names: the version, and the profile when there is one. */
export function runLabel(version: string, profile: N8nProfile | undefined): string {
	return profile ? `${version}+${profile}` : version;
}
