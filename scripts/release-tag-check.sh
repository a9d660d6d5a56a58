#!/usr/bin/env bash
# Run by .github/workflows/release.yml before anything is published (and by scripts/release-check.ts, with the
# repository package.json names, to show it passes; and with others, to show it refuses).
# Needs GITHUB_REF_NAME (the pushed tag, v<version>) and GITHUB_REPOSITORY (owner/name), as GitHub Actions sets
# them. Reads ./package.json. Refuses, with one error line per problem, when:
# - the tag is not v<package.json version>;
# - repository.url is not https://github.com/<GITHUB_REPOSITORY>(.git): npm provenance and n8n's scanner
#   look for the source there;
# - bugs.url or homepage does not point into that repository.
set -uo pipefail

: "${GITHUB_REF_NAME:?GITHUB_REF_NAME (the tag, v<version>) is not set}"
: "${GITHUB_REPOSITORY:?GITHUB_REPOSITORY (owner/name) is not set}"

field() {
	node -e "
		const pkg = require('./package.json');
		const value = $1;
		process.stdout.write(typeof value === 'string' ? value : '');
	"
}

repo_url="https://github.com/$GITHUB_REPOSITORY"
failed=0

version="$(field 'pkg.version')"
if [ "v$version" != "$GITHUB_REF_NAME" ]; then
	echo "::error::tag $GITHUB_REF_NAME does not match package.json version $version"
	failed=1
fi

repository="$(field '(pkg.repository || {}).url')"
case "$repository" in
	"$repo_url" | "$repo_url.git" | "git+$repo_url" | "git+$repo_url.git") ;;
	*)
		echo "::error::package.json repository.url is '$repository'; npm provenance needs it to be $repo_url.git"
		failed=1
		;;
esac

bugs="$(field '(pkg.bugs || {}).url')"
case "$bugs" in
	"$repo_url" | "$repo_url/"*) ;;
	*)
		echo "::error::package.json bugs.url is '$bugs'; it must point into $repo_url (e.g. $repo_url/issues)"
		failed=1
		;;
esac

homepage="$(field 'pkg.homepage')"
case "$homepage" in
	"$repo_url" | "$repo_url#"* | "$repo_url/"*) ;;
	*)
		echo "::error::package.json homepage is '$homepage'; it must point into $repo_url (e.g. $repo_url#readme)"
		failed=1
		;;
esac

if [ "$failed" -ne 0 ]; then
	exit 1
fi
echo "release: tag $GITHUB_REF_NAME, package.json version $version, repository, bugs and homepage in $repo_url"
