#!/usr/bin/env bash
# Builds Jaeger v2 (an OpenTelemetry Collector distribution that receives OTLP)
# into test/jaeger/bin/jaeger, at the version pinned as a tool in go.mod.
# Idempotent: re-runs are fast thanks to the Go build cache.
# Build output goes to stderr; nothing is printed on stdout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v go >/dev/null 2>&1; then
  echo "test/jaeger/build.sh: 'go' not found in PATH; install Go >= 1.24 to build the Jaeger test server" >&2
  exit 127
fi

mkdir -p "$here/bin"
cd "$here"

# -mod=readonly: use exactly the versions pinned in go.mod/go.sum.
# -buildvcs=false: do not stamp git state (keeps the cache hit across commits, works without git).
# GOTOOLCHAIN=local: never try to download another toolchain.
build() {
  GOTOOLCHAIN=local GOFLAGS= go build -mod=readonly -buildvcs=false -o bin/jaeger \
    github.com/jaegertracing/jaeger/cmd/jaeger >&2
}

# Serialize concurrent builds when flock is available.
if command -v flock >/dev/null 2>&1; then
  (
    flock 9
    build
  ) 9>"$here/bin/.build.lock"
else
  build
fi
