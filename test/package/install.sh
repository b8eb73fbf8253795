#!/usr/bin/env bash
# Installs the package as an embedder would, from the tarball `npm pack` makes and from a git URL,
# into scratch projects outside the repository (npm's cache makes it work offline once warm):
#   1. the tarball alone: only the core's peers (fp-ts, io-ts) come with it, no koa, no mongodb;
#      the client (animal-store/client) works with them alone;
#      a plain ESM program runs on the core, and a strict nodenext TypeScript program typechecks;
#   2. with the optional peers: every entry point loads and typechecks;
#   3. `npm install git+file://<clone>`: npm builds dist/ in its own clone (prepare) and installs.
# Prints the tarball's size and file count. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
tsc="$repo/node_modules/typescript/bin/tsc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm_q() { npm --no-audit --no-fund --prefer-offline --loglevel=error "$@"; }

echo "--- npm pack"
tarball=$(npm pack --silent --pack-destination "$work" | tail -1)
tar -tzf "$work/$tarball" | sort >"$work/files"
echo "$tarball: $(du -k "$work/$tarball" | cut -f1) kB packed, $(wc -l <"$work/files") files"
unexpected=$(grep -Ev '^package/(dist/(core|adapters)/.*\.(js|d\.ts)|package\.json|README\.md|LICENSE)$' "$work/files" || true)
[ -z "$unexpected" ] || { echo "unexpected files in the package:"; echo "$unexpected"; exit 1; }
# The metrics adapter is the service's own: the package does not export it, so it does not
# ship it either.
! grep -q '^package/dist/adapters/prometheus/' "$work/files" || { echo "dist/adapters/prometheus is in the package"; exit 1; }
for entry in core/index adapters/in-memory/index adapters/key-file/index adapters/koa/index adapters/mongodb/index adapters/testing/index adapters/http-client/index; do
  grep -qx "package/dist/$entry.js" "$work/files" && grep -qx "package/dist/$entry.d.ts" "$work/files" ||
    { echo "missing dist/$entry.{js,d.ts}"; exit 1; }
done
grep -qx package/LICENSE "$work/files" || { echo "LICENSE is not in the package"; exit 1; }

scratch() { # a fresh consumer project
  mkdir -p "$work/$1" && echo '{"name":"consumer","version":"0.0.0","private":true,"type":"module"}' >"$work/$1/package.json"
  cp test/package/consumer/tsconfig.json "$work/$1/"
}

echo "--- 1. the tarball alone: core only"
scratch core
cp test/package/consumer/core.mjs test/package/consumer/core.ts "$work/core/"
(cd "$work/core" && npm_q install "$work/$tarball" @types/node@20)
for absent in koa mongodb @koa/router fast-check typescript tsx; do
  [ ! -e "$work/core/node_modules/$absent" ] || { echo "$absent was installed for a core-only embedder"; exit 1; }
done
echo "installed: $(cd "$work/core" && du -sk node_modules | cut -f1) kB in node_modules"
(cd "$work/core" && node core.mjs && "$tsc" -p . && echo "core.ts typechecks")

echo "--- 2. with the optional peers: every entry point"
cp test/package/consumer/all.mjs test/package/consumer/all.ts "$work/core/"
(cd "$work/core" && npm_q install koa@3 @koa/router@15 @types/koa@3 mongodb@7 fast-check@4)
(cd "$work/core" && node all.mjs && "$tsc" -p . && echo "all.ts typechecks")

echo "--- 3. from a git URL"
git clone --quiet --no-hardlinks "$repo" "$work/clone"
scratch git
cp test/package/consumer/core.mjs "$work/git/"
(cd "$work/git" && npm_q install "git+file://$work/clone#$(git -C "$repo" rev-parse HEAD)")
(cd "$work/git" && node core.mjs)
echo "package install: all checks passed"
