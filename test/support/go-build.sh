#!/usr/bin/env bash
# Builds a Go test server (FerretDB, Jaeger) from the module in DIR into DIR/bin/NAME, at the
# versions pinned in DIR/go.mod and go.sum. Idempotent: re-runs are fast thanks to the Go build
# cache. Build output goes to stderr; nothing is printed on stdout.
#
# Usage: test/support/go-build.sh DIR NAME PACKAGE
set -euo pipefail

dir="${1:?usage: go-build.sh DIR NAME PACKAGE}"
name="${2:?usage: go-build.sh DIR NAME PACKAGE}"
package="${3:?usage: go-build.sh DIR NAME PACKAGE}"

if ! command -v go >/dev/null 2>&1; then
  echo "test/$name/build.sh: 'go' not found in PATH; install Go >= 1.24 to build the $name test server" >&2
  exit 127
fi

mkdir -p "$dir/bin"
cd "$dir"

# -mod=readonly: use exactly the versions pinned in go.mod/go.sum.
# -buildvcs=false: do not stamp git state (keeps the cache hit across commits, works without git).
# GOTOOLCHAIN=local: never try to download another toolchain.
build() {
  GOTOOLCHAIN=local GOFLAGS= go build -mod=readonly -buildvcs=false -o "bin/$name" "$package" >&2
}

# Serialize concurrent builds (e.g. parallel test workers) when flock is available.
if command -v flock >/dev/null 2>&1; then
  (
    flock 9
    build
  ) 9>"$dir/bin/.build.lock"
else
  build
fi
