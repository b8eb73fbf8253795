#!/usr/bin/env bash
# Stops a server started by test/jaeger/start.sh: test/jaeger/stop.sh PID. Waits up to
# JAEGER_STOP_TIMEOUT seconds (default 15) after SIGTERM, then sends SIGKILL (../support/stop-server.sh).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../support/stop-server.sh" jaeger "${1:-}" "${JAEGER_STOP_TIMEOUT:-15}"
