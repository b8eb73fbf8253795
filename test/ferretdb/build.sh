#!/usr/bin/env bash
# Builds the FerretDB-based MongoDB test server into test/ferretdb/bin/ferretdb (see
# ../support/go-build.sh: pinned versions, the Go build cache, output on stderr only).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "$here/../support/go-build.sh" "$here" ferretdb .
