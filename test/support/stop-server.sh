#!/usr/bin/env bash
# Stops a test server (FerretDB, Jaeger) by its PID: SIGTERM, up to TIMEOUT seconds (default 15)
# for it to exit, then SIGKILL. Exits 0 once the process is gone (including when it was not
# running), 1 on bad usage or if PID is not a process named NAME (a reused PID is never signalled).
#
# Usage: test/support/stop-server.sh NAME PID [TIMEOUT]
set -euo pipefail

die() { echo "test/support/stop-server.sh: $*" >&2; exit 1; }

name="${1:-}"
pid="${2:-}"
timeout="${3:-15}"
[[ -n "$name" && "$pid" =~ ^[0-9]+$ && "$timeout" =~ ^[0-9]+$ ]] || die "usage: stop-server.sh NAME PID [TIMEOUT]"

# alive: true while the process (any of its threads) still runs. A zombie whose
# threads have all exited has released its port and files: it only waits to be
# reaped by its parent (which can take a while when that is PID 1), so it counts
# as stopped.
alive() {
  kill -0 "$pid" 2>/dev/null || return 1
  [[ -d "/proc/$pid/task" ]] || return 0 # no procfs: trust kill -0
  local f stat
  for f in "/proc/$pid"/task/*/stat; do
    stat="$(cat "$f" 2>/dev/null)" || continue
    stat="${stat##*) }"
    [[ "${stat%% *}" == "Z" ]] || return 0
  done
  return 1
}

if ! alive; then
  exit 0
fi

# Guard against PID reuse: only signal our server binary.
if [[ -r "/proc/$pid/comm" && "$(cat "/proc/$pid/comm" 2>/dev/null)" != "$name" ]]; then
  die "PID $pid is not a $name process; not stopping it"
fi

kill -TERM "$pid" 2>/dev/null || true

deadline=$((SECONDS + timeout))
while ((SECONDS < deadline)); do
  alive || exit 0
  sleep 0.1
done

echo "test/$name/stop.sh: PID $pid did not exit within ${timeout}s after SIGTERM; sending SIGKILL" >&2
kill -KILL "$pid" 2>/dev/null || true
for _ in $(seq 1 50); do
  alive || exit 0
  sleep 0.1
done
die "PID $pid still alive after SIGKILL"
