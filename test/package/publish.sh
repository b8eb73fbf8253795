#!/usr/bin/env bash
# `npm publish --dry-run` where nothing can be published: the registry is a closed loopback port,
# no user or global npm configuration (so no token) is read, and dry-run is asked twice (flag and
# environment). npm's dry run passes a private package and any version, so this also checks that
# the package is not private, that its version is semantic and is the newest release in
# CHANGELOG.md, that every release tag has its entry there, and that the tarball holds the
# changelog and every file the exports map names.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

touch "$work/user.npmrc" "$work/global.npmrc"
npm_config_dry_run=true npm publish --dry-run --json --registry=http://127.0.0.1:9/ \
  --userconfig="$work/user.npmrc" --globalconfig="$work/global.npmrc" --fetch-retries=0 \
  --loglevel=error \
  >"$work/publish.json"
node test/package/publish-check.mjs "$work/publish.json"
