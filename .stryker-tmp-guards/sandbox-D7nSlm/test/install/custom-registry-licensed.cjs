// @ts-nocheck
'use strict';
/**
 * Preloaded into the n8n process of the install-route tests (test/install) with `node --require <this file>`,
 * and into nothing else (not npm, not the task runners: it is a command-line flag of that one process).
 *
 * n8n refuses a community-package registry other than the public npm registry unless its license has the
 * Enterprise feature `feat:communityNodes:customRegistry`. In n8n 2.41.1 that is one check,
 * `CommunityPackagesService.getNpmRegistry()` (n8n/dist/modules/community-packages/community-packages.service.js),
 * which calls `License.isCustomNpmRegistryEnabled()` (n8n/dist/license.js) and throws
 * FeatureNotLicensedError (HTTP 500 "Your license does not allow for feat:communityNodes:customRegistry") when
 * it answers false. Nothing else calls that method.
 *
 * This file makes that one method answer true, and changes nothing else: every other license question
 * (`isLicensed`, the other `is…Enabled` methods, the plan name, the quotas) still goes to n8n's own license
 * manager, which has no license here. It does so by replacing the method on the License class's prototype as
 * soon as n8n loads the module that defines it, then unhooks itself. It prints one line, which the tests
 * look for, so that a preload that found nothing cannot go unnoticed.
 */
const Module = require('node:module');

const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
	const exported = originalLoad.apply(this, arguments);
	const License = exported && exported.License;
	if (
		typeof License === 'function' &&
		License.prototype &&
		typeof License.prototype.isCustomNpmRegistryEnabled === 'function' &&
		parent &&
		/[\\/]n8n[\\/]dist[\\/]/.test(parent.filename || '')
	) {
		License.prototype.isCustomNpmRegistryEnabled = function isCustomNpmRegistryEnabled() {
			return true;
		};
		Module._load = originalLoad;
		process.stdout.write('[install-route test preload] License.isCustomNpmRegistryEnabled() answers true\n');
	}
	return exported;
};
