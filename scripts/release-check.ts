/**
 * `npm run release:check`: every check of n8n's verification of community nodes that needs no public registry,
 * run on the tarball that would be published. `npm pack` (with its prepack, which builds, as `npm publish` does)
 * packs into a temporary folder, then each check prints one line, PASS or FAIL with the reason; the exit code is
 * 1 when any check fails. docs/verification.md lists n8n's requirements and which check or command proves each.
 *
 * Usage: tsx scripts/release-check.ts [--tarball FILE.tgz]   (with --tarball: check that file, pack nothing)
 *
 * What needs the public registry or GitHub is not checked here (npm provenance, the public repository, the npm
 * maintainer): only a real release can meet it (see docs/verification.md).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

import {
	type CheckOutcome,
	TARBALL_FILE_PATTERNS,
	checkN8nEntries,
	checkWorkflows,
	loadScanner,
	packTarball,
	scan,
	unpack,
} from './check-publish';
import { projectRoot } from './n8n/paths';

export interface Check {
	name: string;
	ok: boolean;
	/** What was found: the evidence when it passes, the reason when it fails. */
	detail: string;
}

const KEYWORD = 'n8n-community-node-package';
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?n8n-nodes-[a-z0-9][a-z0-9._~-]*$/;
const GITHUB_REPOSITORY = /^https:\/\/github\.com\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)\.git$/;
const DISABLE_COMMENT = /eslint-disable|eslint-enable|@ts-ignore|@ts-nocheck|@ts-expect-error|\/[*/]\s*eslint\s/;
const PUBLISHED_EXTENSIONS = /\.(js|d\.ts|js\.map|json|svg|png)$/;

type Json = Record<string, unknown>;

const readJson = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');
const list = (items: string[], max = 8): string =>
	items.length > max ? `${items.slice(0, max).join(', ')} … (${items.length} in all)` : items.join(', ');

/** Every file under dir, as paths relative to it with forward slashes. */
export function filesUnder(dir: string): string[] {
	const out: string[] = [];
	const walk = (sub: string) => {
		for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
			const rel = sub ? `${sub}/${entry.name}` : entry.name;
			if (entry.isDirectory()) walk(rel);
			else out.push(rel);
		}
	};
	if (fs.existsSync(dir)) walk('');
	return out.sort();
}

function outcome(name: string, outcomes: CheckOutcome[], passed: string): Check {
	const failed = outcomes.filter((o) => !o.ok);
	return failed.length === 0
		? { name, ok: true, detail: passed }
		: {
				name,
				ok: false,
				detail: failed
					.map((o) => {
						const what = o.what.startsWith(`${name}: `) ? o.what.slice(name.length + 2) : o.what;
						return o.details ? `${what}\n${o.details}` : what;
					})
					.join('; '),
			};
}

/** Only the build (dist/nodes, dist/credentials) and package.json, README and LICENSE are in the tarball. */
export function checkPublishedFiles(unpacked: string): Check {
	const files = filesUnder(unpacked);
	const why = (file: string): string | undefined => {
		if (['package.json', 'README.md', 'LICENSE', 'LICENSE.md'].includes(file)) return undefined;
		if (/(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[jt]s/.test(file)) return 'a test';
		if (/(^|\/)sandbox\//.test(file)) return 'the sandbox';
		if (/(^|\/)(bench|scripts|examples|docs|\.github|\.ci|node_modules|\.n8n-cache)\//.test(file)) return 'not part of the package';
		if (/\.ts$/.test(file) && !/\.d\.ts$/.test(file)) return 'TypeScript source';
		if (/\.tsbuildinfo$|\.tgz$|(^|\/)\.env|\.log$/.test(file)) return 'a build or local file';
		if (!/^dist\/(nodes|credentials)\//.test(file)) return 'outside dist/nodes and dist/credentials';
		if (!PUBLISHED_EXTENSIONS.test(file)) return 'not a build output';
		return undefined;
	};
	const refused = files.flatMap((file) => {
		const reason = why(file);
		return reason ? [`${file} (${reason})`] : [];
	});
	const maps = files.filter((f) => f.endsWith('.js.map')).length;
	return refused.length === 0
		? {
				name: 'published files',
				ok: true,
				detail: `${files.length} files: package.json, README.md, LICENSE and the build in dist/ (${files.filter((f) => f.endsWith('.js')).length} .js, ${maps} source maps); no tests, sandbox, scripts or sources`,
			}
		: { name: 'published files', ok: false, detail: `must not be published: ${list(refused)}` };
}

/**
 * The source maps name only sources in nodes/ and credentials/ of this repository (so the source lint below
 * covers every published file) and hold no source text; every .js has one.
 */
export function checkSourceMaps(unpacked: string, sourceRoot: string): Check & { sources: string[] } {
	const files = filesUnder(unpacked);
	const problems: string[] = [];
	const sources = new Set<string>();
	for (const js of files.filter((f) => f.endsWith('.js'))) {
		if (!files.includes(`${js}.map`)) problems.push(`${js} has no source map`);
	}
	for (const map of files.filter((f) => f.endsWith('.js.map'))) {
		let parsed: { sources?: unknown; sourcesContent?: unknown };
		try {
			parsed = readJson(path.join(unpacked, map));
		} catch {
			problems.push(`${map} is not JSON`);
			continue;
		}
		if (Array.isArray(parsed.sourcesContent) && parsed.sourcesContent.some((s) => typeof s === 'string')) {
			problems.push(`${map} embeds source text`);
		}
		for (const source of Array.isArray(parsed.sources) ? parsed.sources : []) {
			const rel = path.relative(unpacked, path.resolve(path.dirname(path.join(unpacked, map)), String(source))).split(path.sep).join('/');
			if (!/^(nodes|credentials)\/.+\.ts$/.test(rel)) problems.push(`${map} points at ${rel}`);
			else if (!fs.existsSync(path.join(sourceRoot, rel))) problems.push(`${map} points at ${rel}, which is not in the source`);
			else sources.add(rel);
		}
	}
	return problems.length === 0
		? { name: 'source maps', ok: true, detail: `every .js maps to one of ${sources.size} sources in nodes/ and credentials/; no source text embedded`, sources: [...sources] }
		: { name: 'source maps', ok: false, detail: list(problems), sources: [...sources] };
}

/** No runtime dependency: none declared, n8n-workflow as the only peer, and the code loads nothing else. */
export function checkRuntimeDependencies(unpacked: string): Check {
	const pkg = readJson(path.join(unpacked, 'package.json'));
	const problems: string[] = [];
	for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
		const value = pkg[field];
		const count = Array.isArray(value) ? value.length : value && typeof value === 'object' ? Object.keys(value).length : 0;
		if (count > 0) problems.push(`package.json "${field}" lists ${count}`);
	}
	const peers = Object.keys((pkg.peerDependencies as Json | undefined) ?? {});
	const otherPeers = peers.filter((p) => p !== 'n8n-workflow');
	if (otherPeers.length) problems.push(`peer dependencies other than n8n-workflow: ${otherPeers.join(', ')}`);
	const loaded = new Set<string>();
	for (const js of filesUnder(unpacked).filter((f) => f.endsWith('.js'))) {
		const text = fs.readFileSync(path.join(unpacked, js), 'utf8');
		for (const match of text.matchAll(/\b(?:require|import)\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) {
			if (!match[1].startsWith('.')) loaded.add(match[1]);
		}
	}
	const foreign = [...loaded].filter((m) => m !== 'n8n-workflow');
	if (foreign.length) problems.push(`the code loads ${foreign.join(', ')}`);
	return problems.length === 0
		? { name: 'no runtime dependencies', ok: true, detail: `none declared; the code loads only its own files and ${[...loaded].join(', ') || 'nothing else'} (peer, n8n's own copy)` }
		: { name: 'no runtime dependencies', ok: false, detail: problems.join('; ') };
}

/** The package.json fields n8n requires of a (verified) community package. */
export function checkPackageFields(unpacked: string): Check {
	const pkg = readJson(path.join(unpacked, 'package.json'));
	const problems: string[] = [];
	const str = (value: unknown): string => (typeof value === 'string' ? value : '');
	if (!PACKAGE_NAME.test(str(pkg.name))) problems.push(`name "${str(pkg.name)}" does not start with n8n-nodes- (or @scope/n8n-nodes-)`);
	if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(str(pkg.version))) problems.push(`version "${str(pkg.version)}" is not semver`);
	if (!str(pkg.description).trim()) problems.push('no description');
	if (!Array.isArray(pkg.keywords) || !pkg.keywords.includes(KEYWORD)) problems.push(`keywords lack "${KEYWORD}"`);
	if (pkg.license !== 'MIT') problems.push(`license is "${str(pkg.license)}", not MIT`);
	if (!fs.existsSync(path.join(unpacked, 'LICENSE')) && !fs.existsSync(path.join(unpacked, 'LICENSE.md'))) problems.push('no LICENSE file');
	const author = pkg.author;
	const authorName = typeof author === 'string' ? author : str((author as Json | undefined)?.name);
	if (!authorName.trim()) problems.push('no author name');
	const repository = (pkg.repository ?? {}) as Json;
	const repo = GITHUB_REPOSITORY.exec(str(repository.url));
	if (repository.type !== 'git' || !repo) {
		problems.push(`repository is not {type: git, url: https://github.com/<owner>/<name>.git} (${JSON.stringify(pkg.repository ?? null)})`);
	}
	const repoUrl = repo ? `https://github.com/${repo[1]}/${repo[2]}` : undefined;
	const inRepo = (url: string) => repoUrl !== undefined && (url === repoUrl || url.startsWith(`${repoUrl}/`) || url.startsWith(`${repoUrl}#`));
	if (!inRepo(str(pkg.homepage))) problems.push(`homepage "${str(pkg.homepage)}" is not in the repository`);
	if (!inRepo(str((pkg.bugs as Json | undefined)?.url))) problems.push(`bugs.url "${str((pkg.bugs as Json | undefined)?.url)}" is not in the repository`);
	const n8n = (pkg.n8n ?? {}) as Json;
	if (n8n.n8nNodesApiVersion !== 1) problems.push('n8n.n8nNodesApiVersion is not 1');
	if (n8n.strict !== true) problems.push('n8n.strict is not true (n8n Cloud needs strict mode)');
	if (!Array.isArray(n8n.nodes) || n8n.nodes.length === 0) problems.push('n8n.nodes is empty');
	if (!Array.isArray(pkg.files)) problems.push('no "files" list');
	if (pkg.overrides !== undefined) problems.push('has "overrides"');
	const scripts = (pkg.scripts ?? {}) as Json;
	// The lifecycle scripts n8n's rule no-forbidden-lifecycle-scripts bans (prepack is not one of them).
	const banned = ['prepare', 'preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'postprepare'];
	const lifecycle = banned.filter((s) => scripts[s] !== undefined);
	if (lifecycle.length) problems.push(`lifecycle scripts n8n bans: ${lifecycle.join(', ')}`);
	return problems.length === 0
		? {
				name: 'package.json',
				ok: true,
				detail: `${str(pkg.name)}@${str(pkg.version)}, keyword ${KEYWORD}, MIT with LICENSE, n8n section (API 1, strict, ${(n8n.nodes as unknown[]).length} nodes, ${((n8n.credentials as unknown[] | undefined) ?? []).length} credential), repository, homepage and bugs in ${repoUrl}`,
			}
		: { name: 'package.json', ok: false, detail: problems.join('; ') };
}

/** The documentation links n8n shows (credential documentationUrl, the nodes' codex resources) are in the repository. */
export function checkDocumentationUrls(unpacked: string): Check {
	const pkg = readJson(path.join(unpacked, 'package.json'));
	const repo = GITHUB_REPOSITORY.exec(String((pkg.repository as Json | undefined)?.url ?? ''));
	const base = repo ? `https://github.com/${repo[1]}/${repo[2]}` : undefined;
	const urls: string[] = [];
	const files = filesUnder(unpacked);
	for (const file of files.filter((f) => /^dist\/credentials\/.+\.js$/.test(f))) {
		const text = fs.readFileSync(path.join(unpacked, file), 'utf8');
		for (const match of text.matchAll(/\b(?:documentationUrl|docsUrl)\s*[=:]\s*["'`]([^"'`]+)["'`]/g)) urls.push(match[1]);
	}
	for (const file of files.filter((f) => f.endsWith('.node.json'))) {
		const resources = (readJson(path.join(unpacked, file)).resources ?? {}) as Record<string, Array<{ url?: string }>>;
		for (const entries of Object.values(resources)) for (const entry of entries) if (entry.url) urls.push(entry.url);
	}
	const outside = urls.filter((url) => base === undefined || !(url.startsWith(`${base}#`) || url.startsWith(`${base}/`) || url === base));
	if (urls.length === 0) return { name: 'documentation links', ok: false, detail: 'no documentationUrl or codex resource found' };
	return outside.length === 0
		? { name: 'documentation links', ok: true, detail: `${urls.length} links (credential documentationUrl, codex resources) into ${base}` }
		: { name: 'documentation links', ok: false, detail: `not in the repository ${base ?? '(no repository)'}: ${list(outside)}` };
}

/** No lint or type-check disable comments in the package's sources or its published code. */
export function checkDisableComments(dirs: Array<{ dir: string; label: string; pattern: RegExp }>): Check {
	const found: string[] = [];
	let scanned = 0;
	for (const { dir, label, pattern } of dirs) {
		for (const file of filesUnder(dir).filter((f) => pattern.test(f))) {
			scanned++;
			const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
			lines.forEach((line, index) => {
				if (DISABLE_COMMENT.test(line)) found.push(`${label}${file}:${index + 1}`);
			});
		}
	}
	return found.length === 0
		? { name: 'no disable comments', ok: true, detail: `none of eslint-disable, @ts-ignore, @ts-nocheck, @ts-expect-error in ${scanned} files` }
		: { name: 'no disable comments', ok: false, detail: `found in ${list(found)}` };
}

/** A CLI of the project's devDependencies; its output without colours. */
function runBin(bin: string, args: string[], cwd: string): { code: number | null; output: string } {
	const result = spawnSync(path.join(projectRoot, 'node_modules', '.bin', bin), args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
		timeout: 10 * 60 * 1000,
	});
	return { code: result.status, output: stripAnsi(`${result.stdout ?? ''}${result.stderr ?? ''}`) };
}

/** `n8n-node cloud-support` (no argument: the status) reports the package eligible for n8n Cloud verification. */
export function checkCloudSupport(root: string): Check {
	const { code, output } = runBin('n8n-node', ['cloud-support'], root);
	const eligible = /Cloud support is ENABLED/.test(output) && /eligible for n8n Cloud verification/.test(output) && !/NOT eligible/.test(output);
	const facts = output
		.split('\n')
		.map((line) => line.replace(/^[\s│◆●◇└┌]+/, '').trim())
		.filter((line) => /^• (Strict mode|ESLint config|Status):/.test(line));
	return eligible && code === 0
		? { name: 'n8n-node cloud-support', ok: true, detail: facts.join('; ').replace(/• /g, '') }
		: { name: 'n8n-node cloud-support', ok: false, detail: `exit ${code}: ${facts.join('; ') || output.trim().slice(-500)}` };
}

/**
 * `n8n-node lint` (eslint with n8n's community rules, the default config that strict mode asks for) on the
 * package's source as the published files come from it: package.json, eslint.config.mjs, tsconfig.json, nodes/
 * and credentials/ in a temporary folder. In the repository itself it also lints test/, bench/, scripts/ and
 * sandbox/, which are not published and use Node's own modules.
 */
export function checkSourceLint(root: string, work: string, mappedSources: string[]): Check {
	const tree = path.join(work, 'source');
	fs.mkdirSync(tree, { recursive: true });
	for (const entry of ['package.json', 'eslint.config.mjs', 'tsconfig.json', 'nodes', 'credentials']) {
		fs.cpSync(path.join(root, entry), path.join(tree, entry), { recursive: true });
	}
	fs.symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
	const linted = filesUnder(tree).filter((f) => /^(nodes|credentials)\/.+\.ts$/.test(f));
	const unlinted = mappedSources.filter((source) => !linted.includes(source));
	const { code, output } = runBin('n8n-node', ['lint'], tree);
	const summary = /✖ (\d+) problems? \((\d+) errors?, (\d+) warnings?\)/.exec(output);
	const ok = code === 0 && !summary && unlinted.length === 0;
	if (ok) {
		return { name: 'n8n-node lint (community rules, strict)', ok, detail: `0 problems in package.json and ${linted.length} sources (every published file's source)` };
	}
	const findings = output
		.split('\n')
		.filter((line) => /^\s+\d+:\d+\s+(error|warning)\s/.test(line) || /^\//.test(line.trim()))
		.map((line) => line.trim().replace(tree, '.'))
		.slice(0, 12);
	const reason = unlinted.length ? `sources not linted: ${list(unlinted)}` : `exit ${code}, ${summary ? summary[0].slice(2) : 'failed'}: ${findings.join(' | ')}`;
	return { name: 'n8n-node lint (community rules, strict)', ok: false, detail: reason };
}

function print(check: Check, seconds: number): void {
	const detail = check.detail.replace(/\s*\n\s*/g, ' | ');
	process.stdout.write(`${check.ok ? 'PASS' : 'FAIL'}  ${check.name}: ${detail} (${seconds.toFixed(1)} s)\n`);
}

async function main(): Promise<void> {
	const { values } = parseArgs({ options: { tarball: { type: 'string' } } });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'release-check-'));
	const checks: Check[] = [];
	const run = async (name: string, step: () => Check | Promise<Check>): Promise<Check> => {
		const started = Date.now();
		let check: Check;
		try {
			check = await step();
		} catch (error) {
			check = { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
		}
		print(check, (Date.now() - started) / 1000);
		checks.push(check);
		return check;
	};
	try {
		let tarball = '';
		const packed = await run('npm pack', () => {
			tarball = values.tarball ? path.resolve(values.tarball) : packTarball(work, { scripts: true });
			const size = fs.statSync(tarball).size;
			return {
				name: 'npm pack',
				ok: true,
				detail: `${path.basename(tarball)}, ${(size / 1024).toFixed(0)} kB${values.tarball ? ' (given)' : ', built by its prepack as npm publish does'}`,
			};
		});
		if (!packed.ok) throw new Error('nothing to check without a tarball');
		const unpacked = unpack(tarball, work);
		const scanner = await loadScanner();

		await run('n8n scanner, source', async () => outcome('n8n scanner, source', [await scan(scanner, 'source', projectRoot, scanner.SOURCE_FILE_PATTERNS)], 'no findings in package.json, nodes/ and credentials/ (the leg n8n runs on the commit the provenance names)'));
		await run('n8n scanner, tarball', async () => outcome('n8n scanner, tarball', [await scan(scanner, 'tarball', unpacked, TARBALL_FILE_PATTERNS)], 'no findings in the compiled .js and package.json'));
		const maps = checkSourceMaps(unpacked, projectRoot);
		await run('source maps', () => maps);
		await run('n8n-node lint', () => checkSourceLint(projectRoot, work, maps.sources));
		await run('n8n-node cloud-support', () => checkCloudSupport(projectRoot));
		await run('no runtime dependencies', () => checkRuntimeDependencies(unpacked));
		await run('package.json', () => checkPackageFields(unpacked));
		await run('n8n section', () => outcome('n8n section', [checkN8nEntries(unpacked)], 'every node and credential file it names is in the tarball'));
		await run('documentation links', () => checkDocumentationUrls(unpacked));
		await run('no disable comments', () =>
			checkDisableComments([
				{ dir: path.join(projectRoot, 'nodes'), label: 'nodes/', pattern: /\.(ts|json)$/ },
				{ dir: path.join(projectRoot, 'credentials'), label: 'credentials/', pattern: /\.ts$/ },
				{ dir: unpacked, label: 'tarball:', pattern: /\.js$/ },
			]),
		);
		await run('published files', () => checkPublishedFiles(unpacked));
		await run('GitHub workflows', () =>
			outcome(
				'GitHub workflows',
				checkWorkflows(path.join(projectRoot, '.github', 'workflows')),
				'ci.yml runs .ci/run; release.yml checks the tag and repository, then npm publish --provenance with id-token: write',
			),
		);
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
	const failed = checks.filter((c) => !c.ok);
	process.stdout.write(
		failed.length === 0
			? `release:check: all ${checks.length} checks passed\n`
			: `release:check: ${failed.length} of ${checks.length} checks failed: ${failed.map((c) => c.name).join(', ')}\n`,
	);
	if (failed.length) process.exitCode = 1;
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`release:check: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exit(1);
	});
}
