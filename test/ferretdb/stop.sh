#!/usr/bin/env bash
# Stops a server started by test/ferretdb/start.sh: test/ferretdb/stop.sh PID. Waits up to
# FERRETDB_STOP_TIMEOUT seconds (default 15) after SIGTERM, then sends SIGKILL (../support/stop-server.sh).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../support/stop-server.sh" ferretdb "${1:-}" "${FERRETDB_STOP_TIMEOUT:-15}"
