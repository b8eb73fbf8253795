#!/usr/bin/env bash
# Installs the package as an embedder would, from the tarball `npm pack` makes and from a git URL,
# into scratch projects outside the repository (npm's cache makes it work offline once warm):
#   1. the tarball alone: only the core's peers (fp-ts, io-ts) come with it, no koa, no mongodb;
#      the client (animal-store/client) works with them alone;
#      a plain ESM program runs on the core, and a strict nodenext TypeScript program typechecks;
#   2. with the optional peers: every entry point loads and typechecks, every installed package's
#      engines admit ours, and the test kit's contracts pass on the in-memory stores and fail on
#      a pet store that ignores a keyed insert's op and on an idempotency store that claims anew;
#   3. `npm install fp-ts io-ts git+file://<clone>`: npm builds dist/ in its own clone (the
#      service workspace's prepare) and installs.
# Each install is the documented line (docs/embedding.md#installing) and prints no npm warning;
# the packed manifest has no script npm would run on install.
# Prints the tarball's size and file count. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
tsc="$repo/node_modules/typescript/bin/tsc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm_q() { npm --no-audit --no-fund --prefer-offline --loglevel=error "$@"; }
# An embedder's install: npm's warnings shown, and any of them fails it.
npm_quiet() {
  npm --no-audit --no-fund --prefer-offline "$@" >"$work/npm.log" 2>&1 || { cat "$work/npm.log"; return 1; }
  ! grep -i 'warn' "$work/npm.log" || { echo "npm warned installing $*"; return 1; }
}

echo "--- npm pack"
# Packed beside the consumers, as the docs' line has it (../animal-store/animal-store-X.Y.Z.tgz).
mkdir "$work/animal-store"
tarball=animal-store/$(npm pack --silent --pack-destination "$work/animal-store" | tail -1)
tar -tzf "$work/$tarball" | sort >"$work/files"
echo "$tarball: $(du -k "$work/$tarball" | cut -f1) kB packed, $(wc -l <"$work/files") files"
unexpected=$(grep -Ev '^package/(dist/(core|adapters)/.*\.(js|d\.ts)|package\.json|README\.md|CHANGELOG\.md|LICENSE|docs/[a-z-]+\.(md|json|yaml)|bench/HISTORY\.md)$' "$work/files" || true)
[ -z "$unexpected" ] || { echo "unexpected files in the package:"; echo "$unexpected"; exit 1; }
# The metrics adapter is the service's own: the package does not export it, so it does not
# ship it either.
! grep -q '^package/dist/adapters/prometheus/' "$work/files" || { echo "dist/adapters/prometheus is in the package"; exit 1; }
# Every file the exports map names (each entry point's .js and .d.ts).
for target in $(node -p "Object.values(require('./package.json').exports).flatMap(t => typeof t === 'string' ? [t] : Object.values(t)).join(' ')"); do
  grep -qx "package/${target#./}" "$work/files" || { echo "missing ${target#./}"; exit 1; }
done
grep -qx package/LICENSE "$work/files" || { echo "LICENSE is not in the package"; exit 1; }
# npm runs these on install (prepare for a git or folder dependency): the package needs none.
tar -xzOf "$work/$tarball" package/package.json | node -e "
  const { scripts = {} } = JSON.parse(require('fs').readFileSync(0, 'utf8'))
  const run = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish'].filter((s) => s in scripts)
  if (run.length > 0) { console.log('the packed manifest has', run.join(', ')); process.exit(1) }"

scratch() { # a fresh consumer project
  mkdir -p "$work/$1" && echo '{"name":"consumer","version":"0.0.0","private":true,"type":"module"}' >"$work/$1/package.json"
  cp test/package/consumer/tsconfig.json "$work/$1/"
}

echo "--- 1. the tarball alone: core only"
scratch core
cp test/package/consumer/core.mjs test/package/consumer/core.ts "$work/core/"
(cd "$work/core" && npm_quiet install "../$tarball" fp-ts io-ts && npm_q install @types/node@20)
for absent in koa mongodb @koa/router fast-check typescript tsx; do
  [ ! -e "$work/core/node_modules/$absent" ] || { echo "$absent was installed for a core-only embedder"; exit 1; }
done
echo "installed: $(cd "$work/core" && du -sk node_modules | cut -f1) kB in node_modules"
(cd "$work/core" && node core.mjs && "$tsc" -p . && echo "core.ts typechecks")

echo "--- 2. with the optional peers: every entry point"
cp test/package/consumer/all.mjs test/package/consumer/all.ts "$work/core/"
(cd "$work/core" && npm_q install koa@3 @koa/router@15 @types/koa@3 mongodb@7 mongodb-connection-string-url@7 fast-check@4 swagger-ui-dist@5)
# swagger-ui-dist's download statistics: declined as docs/embedding.md says, which silences npm.
(cd "$work/core" && npm_q install-scripts deny @scarf/scarf >/dev/null)
# The host Koa app's middleware, by the line of docs/embedding.md#inside-a-host-koa-app.
(cd "$work/core" && npm_quiet install koa-mount@4 @koa/etag@5 koa-conditional-get@3 @types/koa-mount@4 @types/koa-conditional-get@2)
(cd "$work/core" && node all.mjs && "$tsc" -p . && echo "all.ts typechecks")
node test/package/engines-check.mjs "$work/core/node_modules"

echo "--- the test kit's contracts, on sound and on broken stores"
cp test/package/consumer/contracts.mjs "$work/core/"
contracts() { (cd "$work/core" && BROKEN=$1 node --test --test-reporter=tap contracts.mjs >"$work/contracts-$1.tap" 2>&1); }
contracts none || { cat "$work/contracts-none.tap"; echo "the contracts failed sound stores"; exit 1; }
echo "sound stores: $(grep -Ec '^ +ok ' "$work/contracts-none.tap") tests passed"
cp test/package/consumer/kit-example.mjs "$work/core/"
(cd "$work/core" && node --test kit-example.mjs >/dev/null) || { echo "the documented test kit example failed"; exit 1; }
for broken in op:'keyed insert: stores one pet for an op inserted twice' claim:'claims a new key once'; do
  if contracts "${broken%%:*}"; then echo "the contracts passed the broken store '${broken%%:*}'"; exit 1; fi
  grep -Eq "^ +not ok [0-9]+ - ${broken#*:}" "$work/contracts-${broken%%:*}.tap" ||
    { cat "$work/contracts-${broken%%:*}.tap"; echo "'${broken%%:*}' failed, but not by '${broken#*:}'"; exit 1; }
  echo "broken store '${broken%%:*}': failed by '${broken#*:}'"
done

echo "--- 3. from a git URL"
git clone --quiet --no-hardlinks "$repo" "$work/clone"
git -C "$work/clone" checkout --quiet --detach "$(git -C "$repo" rev-parse HEAD)"
scratch git
cp test/package/consumer/core.mjs "$work/git/"
(cd "$work/git" && npm_quiet install fp-ts io-ts "git+file://$work/clone")
(cd "$work/git" && node core.mjs)
echo "package install: all checks passed"
