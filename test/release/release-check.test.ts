/**
 * The file-level checks of `npm run release:check` (scripts/release-check.ts) on a small unpacked package made
 * here: each passes on a package like ours and fails, naming the reason, when one thing in it is broken. And the
 * release workflow's tag and package.json check (scripts/release-tag-check.sh), run as release.yml runs it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	checkDisableComments,
	checkDocumentationUrls,
	checkPackageFields,
	checkPublishedFiles,
	checkRuntimeDependencies,
	checkSourceMaps,
} from '../../scripts/release-check';
import { projectRoot } from '../../scripts/n8n/paths';

const REPO = 'https://github.com/n8n-nodes-file-transfer-manager/n8n-nodes-file-transfer-manager';
const CREDENTIAL_JS = 'dist/credentials/FileTransferManagerOAuth2Api.credentials.js';
const CODEX = 'dist/nodes/FileTransferManager/FileTransferManager.node.json';

let dir: string;

function write(file: string, text: string): void {
	fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
	fs.writeFileSync(path.join(dir, file), text);
}

function editPackage(edit: (pkg: Record<string, unknown>) => void): void {
	const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
	edit(pkg);
	write('package.json', JSON.stringify(pkg, null, 2));
}

/** An unpacked package like ours: the real package.json, a credential with its map, a codex file. */
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-check-test-'));
	write('package.json', fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
	write('LICENSE', 'MIT License');
	write('README.md', '# n8n-nodes-file-transfer-manager');
	write(
		CREDENTIAL_JS,
		`"use strict";\nconst origin_1 = require("../nodes/shared/transport/origin");\nconst n8n_workflow_1 = require("n8n-workflow");\nclass C {\n    constructor() {\n        this.documentationUrl = '${REPO}#credentials';\n    }\n}\nexports.C = C;\n//# sourceMappingURL=FileTransferManagerOAuth2Api.credentials.js.map`,
	);
	write(`${CREDENTIAL_JS}.map`, JSON.stringify({ version: 3, sources: ['../../credentials/FileTransferManagerOAuth2Api.credentials.ts'], mappings: '' }));
	write(CODEX, JSON.stringify({ resources: { primaryDocumentation: [{ url: `${REPO}#operations` }] } }));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('release:check on a package like ours', () => {
	it('passes every file-level check', () => {
		const checks = [
			checkPublishedFiles(dir),
			checkSourceMaps(dir, projectRoot),
			checkRuntimeDependencies(dir),
			checkPackageFields(dir),
			checkDocumentationUrls(dir),
			checkDisableComments([{ dir, label: '', pattern: /\.js$/ }]),
		];
		expect(checks.filter((c) => !c.ok)).toEqual([]);
		expect(checkSourceMaps(dir, projectRoot).sources).toEqual(['credentials/FileTransferManagerOAuth2Api.credentials.ts']);
	});
});

describe('release:check fails, with the reason, when one thing is broken', () => {
	it.each([
		['a test file', 'dist/nodes/FileTransferManager/helpers/x.test.js', 'a test'],
		['the sandbox', 'sandbox/src/index.js', 'the sandbox'],
		['a TypeScript source', 'nodes/FileTransferManager/x.ts', 'TypeScript source'],
		['a file outside dist/nodes and dist/credentials', 'dist/other/x.js', 'outside dist/nodes and dist/credentials'],
	])('published files: %s', (_, file, reason) => {
		write(file, '');
		const check = checkPublishedFiles(dir);
		expect(check.ok).toBe(false);
		expect(check.detail).toBe(`must not be published: ${file} (${reason})`);
	});

	it('source maps: a map with source text, one pointing outside nodes/ and credentials/, a .js without map', () => {
		write(`${CREDENTIAL_JS}.map`, JSON.stringify({ version: 3, sources: ['../../test/x.ts'], sourcesContent: ['secret'], mappings: '' }));
		write('dist/nodes/FileTransferManager/y.js', '');
		const check = checkSourceMaps(dir, projectRoot);
		expect(check.ok).toBe(false);
		expect(check.detail.split(', ').sort()).toEqual([
			`${CREDENTIAL_JS}.map embeds source text`,
			`${CREDENTIAL_JS}.map points at test/x.ts`,
			'dist/nodes/FileTransferManager/y.js has no source map',
		]);
	});

	it('no runtime dependencies: a declared dependency, another peer, a module the code loads', () => {
		editPackage((pkg) => {
			pkg.dependencies = { 'left-pad': '1.3.0' };
			pkg.peerDependencies = { 'n8n-workflow': '*', 'n8n-core': '*' };
		});
		write('dist/nodes/FileTransferManager/z.js', 'const axios = require("axios");');
		const check = checkRuntimeDependencies(dir);
		expect(check.ok).toBe(false);
		expect(check.detail).toBe(
			'package.json "dependencies" lists 1; peer dependencies other than n8n-workflow: n8n-core; the code loads axios',
		);
	});

	it.each([
		['name', (p: Record<string, unknown>) => (p.name = 'file-transfer-manager'), 'name "file-transfer-manager" does not start with n8n-nodes-'],
		['keyword', (p: Record<string, unknown>) => (p.keywords = ['n8n']), 'keywords lack "n8n-community-node-package"'],
		['license', (p: Record<string, unknown>) => (p.license = 'Apache-2.0'), 'license is "Apache-2.0", not MIT'],
		['repository', (p: Record<string, unknown>) => delete p.repository, 'repository is not {type: git'],
		['bugs', (p: Record<string, unknown>) => (p.bugs = { url: 'https://example.com/issues' }), 'bugs.url "https://example.com/issues" is not in the repository'],
		['homepage', (p: Record<string, unknown>) => (p.homepage = 'https://www.npmjs.com/package/x'), 'homepage "https://www.npmjs.com/package/x" is not in the repository'],
		['strict mode', (p: Record<string, unknown>) => ((p.n8n as Record<string, unknown>).strict = false), 'n8n.strict is not true'],
		['lifecycle script', (p: Record<string, unknown>) => ((p.scripts as Record<string, unknown>).postinstall = 'node x'), 'lifecycle scripts n8n bans: postinstall'],
	])('package.json: %s', (_, edit, reason) => {
		editPackage(edit);
		const check = checkPackageFields(dir);
		expect(check.ok).toBe(false);
		expect(check.detail).toContain(reason);
	});

	it('documentation links: a link outside the repository', () => {
		write(CODEX, JSON.stringify({ resources: { primaryDocumentation: [{ url: 'https://www.npmjs.com/package/x#operations' }] } }));
		const check = checkDocumentationUrls(dir);
		expect(check.ok).toBe(false);
		expect(check.detail).toBe(`not in the repository ${REPO}: https://www.npmjs.com/package/x#operations`);
	});

	it('no disable comments: an eslint-disable comment, with file and line', () => {
		write('dist/nodes/FileTransferManager/w.js', 'const a = 1;\n// eslint-disable-next-line no-console\nconsole.log(a);\n');
		const check = checkDisableComments([{ dir, label: 'tarball:', pattern: /\.js$/ }]);
		expect(check.ok).toBe(false);
		expect(check.detail).toBe('found in tarball:dist/nodes/FileTransferManager/w.js:2');
	});
});

describe("release.yml's tag and package.json check (scripts/release-tag-check.sh)", () => {
	const script = path.join(projectRoot, 'scripts', 'release-tag-check.sh');
	const runCheck = (tag: string, repository: string) =>
		spawnSync('bash', [script], {
			cwd: dir,
			encoding: 'utf8',
			env: { ...process.env, GITHUB_REF_NAME: tag, GITHUB_REPOSITORY: repository },
		});
	const version = () => (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
	const ours = 'n8n-nodes-file-transfer-manager/n8n-nodes-file-transfer-manager';

	it('accepts the tag of package.json\'s version in the repository package.json names', () => {
		const result = runCheck(`v${version()}`, ours);
		expect([result.status, result.stdout.trim()]).toEqual([
			0,
			`release: tag v${version()}, package.json version ${version()}, repository, bugs and homepage in https://github.com/${ours}`,
		]);
	});

	it('refuses another repository, naming each field that points elsewhere', () => {
		const result = runCheck(`v${version()}`, 'someone/fork');
		expect(result.status).toBe(1);
		expect(result.stdout.split('\n').filter(Boolean).map((line) => line.replace(/ is '.*$/, ''))).toEqual([
			'::error::package.json repository.url',
			'::error::package.json bugs.url',
			'::error::package.json homepage',
		]);
	});

	it.each([
		['repository', 'repository.url'],
		['bugs', 'bugs.url'],
		['homepage', 'homepage'],
	])('refuses a package.json without %s', (field, shown) => {
		editPackage((pkg) => delete pkg[field]);
		const result = runCheck(`v${version()}`, ours);
		expect(result.status).toBe(1);
		expect(result.stdout.trim()).toMatch(new RegExp(`^::error::package.json ${shown.replace('.', '\\.')} is ''`));
	});

	it('refuses a tag that is not v<version>', () => {
		const result = runCheck('v9.9.9', ours);
		expect(result.status).toBe(1);
		expect(result.stdout.trim()).toBe(`::error::tag v9.9.9 does not match package.json version ${version()}`);
	});
});
