#!/usr/bin/env bash
# Builds Jaeger v2 (an OpenTelemetry Collector distribution that receives OTLP) into
# test/jaeger/bin/jaeger, at the version pinned as a tool in go.mod (see ../support/go-build.sh:
# pinned versions, the Go build cache, output on stderr only).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "$here/../support/go-build.sh" "$here" jaeger github.com/jaegertracing/jaeger/cmd/jaeger
