#!/usr/bin/env bash
# Starts the FerretDB-based MongoDB test server in the background.
#
# Usage: test/ferretdb/start.sh [PORT] [DATA_DIR]
#   PORT      loopback TCP port (default: a free port chosen automatically)
#   DATA_DIR  SQLite data directory (default: a fresh temporary directory);
#             pass the same PORT and DATA_DIR again to restart on persisted data.
#
# On success prints exactly these lines on stdout (and nothing else):
#   MONGODB_URI=mongodb://127.0.0.1:PORT/
#   FERRETDB_PID=PID
#   FERRETDB_DATA=DATA_DIR
# Server stdout/stderr go to DATA_DIR/ferretdb.log (truncated on each start).
# Stop it with: test/ferretdb/stop.sh PID
#
# Env: FERRETDB_START_TIMEOUT (seconds, default 60), FERRETDB_LOG_LEVEL (default warn).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$here/bin/ferretdb"
timeout="${FERRETDB_START_TIMEOUT:-60}"
log_level="${FERRETDB_LOG_LEVEL:-warn}"

die() { echo "test/ferretdb/start.sh: $*" >&2; exit 1; }

port="${1:-}"
data="${2:-}"
if [[ -n "$port" && ! "$port" =~ ^[0-9]+$ ]]; then
  die "invalid port '$port' (usage: start.sh [PORT] [DATA_DIR])"
fi

# Build if the binary is missing or older than its sources.
if [[ ! -x "$bin" || "$here/main.go" -nt "$bin" || "$here/go.mod" -nt "$bin" || "$here/go.sum" -nt "$bin" ]]; then
  "$here/build.sh" || die "build failed"
fi

free_port() {
  if command -v node >/dev/null 2>&1; then
    node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1]);s.close()'
  else
    die "need node or python3 to pick a free port (or pass PORT)"
  fi
}

if [[ -z "$data" ]]; then
  data="$(mktemp -d "${TMPDIR:-/tmp}/ferretdb-data.XXXXXX")"
else
  mkdir -p "$data"
  data="$(cd "$data" && pwd)"
fi
log="$data/ferretdb.log"

# Returns 0 once the server has bound its port and accepts TCP connections,
# 1 if it is still starting, 2 if it exited.
probe() {
  local pid="$1" port="$2"
  if ! kill -0 "$pid" 2>/dev/null; then return 2; fi
  grep -q '^ferretdb ready on ' "$log" 2>/dev/null || return 1
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || return 1
  return 0
}

# With an automatically chosen port, retry a few times in case another process
# grabs it between choosing and binding.
attempts=1
[[ -z "$port" ]] && attempts=5
fixed_port="$port"

for ((attempt = 1; attempt <= attempts; attempt++)); do
  [[ -n "$fixed_port" ]] || port="$(free_port)"

  "$bin" -listen "127.0.0.1:$port" -data "$data" -log-level "$log_level" </dev/null >"$log" 2>&1 &
  pid=$!

  deadline=$((SECONDS + timeout))
  status=1
  while ((SECONDS < deadline)); do
    if probe "$pid" "$port"; then status=0; else status=$?; fi
    ((status == 1)) || break
    sleep 0.1
  done

  if ((status == 0)); then
    echo "MONGODB_URI=mongodb://127.0.0.1:$port/"
    echo "FERRETDB_PID=$pid"
    echo "FERRETDB_DATA=$data"
    exit 0
  fi

  if ((status == 1)); then
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "--- $log ---" >&2; tail -n 20 "$log" >&2 || true
    die "server did not become ready on 127.0.0.1:$port within ${timeout}s"
  fi

  wait "$pid" 2>/dev/null || true
  if [[ -z "$fixed_port" ]] && grep -q 'address already in use' "$log" 2>/dev/null; then
    continue # port race: pick another one
  fi
  echo "--- $log ---" >&2; tail -n 20 "$log" >&2 || true
  die "server exited during startup (127.0.0.1:$port, data $data)"
done

die "could not find a free port after $attempts attempts"
