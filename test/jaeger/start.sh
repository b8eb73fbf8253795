#!/usr/bin/env bash
# Starts Jaeger v2 for the tests in the background: OTLP over HTTP and gRPC in, traces in memory, the
# query API out, all on loopback ports (config.yaml). The source build serves no UI: read traces
# from the query API (docs/tracing.md).
#
# Usage: test/jaeger/start.sh [OTLP_PORT [QUERY_PORT]]
#   OTLP_PORT   loopback port of OTLP over HTTP (default: a free port chosen automatically)
#   QUERY_PORT  loopback port of the query API (default: a free port chosen automatically)
#   The gRPC ports are always chosen free.
#
# On success prints exactly these lines on stdout (and nothing else):
#   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:PORT   (OTLP over HTTP)
#   OTLP_GRPC_ENDPOINT=http://127.0.0.1:PORT            (OTLP over gRPC)
#   JAEGER_QUERY_URL=http://127.0.0.1:PORT
#   JAEGER_PID=PID
#   JAEGER_DIR=DIR
# Jaeger's stdout/stderr go to DIR/jaeger.log.
# Stop it with: test/jaeger/stop.sh PID
#
# Env: JAEGER_START_TIMEOUT (seconds, default 60).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$here/bin/jaeger"
timeout="${JAEGER_START_TIMEOUT:-60}"

die() { echo "test/jaeger/start.sh: $*" >&2; exit 1; }

fixed_otlp="${1:-}"
fixed_query="${2:-}"
for port in "$fixed_otlp" "$fixed_query"; do
  if [[ -n "$port" && ! "$port" =~ ^[0-9]+$ ]]; then
    die "invalid port '$port' (usage: start.sh [OTLP_PORT [QUERY_PORT]])"
  fi
done

# Build if the binary is missing or older than the pinned versions.
if [[ ! -x "$bin" || "$here/go.mod" -nt "$bin" || "$here/go.sum" -nt "$bin" ]]; then
  "$here/build.sh" || die "build failed"
fi

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'
}

dir="$(mktemp -d "${TMPDIR:-/tmp}/jaeger-data.XXXXXX")"
log="$dir/jaeger.log"

# 0 once the query API answers and the OTLP port accepts, 1 while starting, 2 if it exited.
probe() {
  local pid="$1"
  kill -0 "$pid" 2>/dev/null || return 2
  (exec 3<>"/dev/tcp/127.0.0.1/$JAEGER_OTLP_PORT") 2>/dev/null || return 1
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$JAEGER_QUERY_PORT/api/services" || return 1
}

# Another process may take a chosen port before Jaeger binds it: retry with new ones.
for attempt in 1 2 3 4 5; do
  export JAEGER_OTLP_PORT="${fixed_otlp:-$(free_port)}" JAEGER_QUERY_PORT="${fixed_query:-$(free_port)}"
  export JAEGER_QUERY_GRPC_PORT="$(free_port)" JAEGER_OTLP_GRPC_PORT="$(free_port)"
  "$bin" --config "$here/config.yaml" </dev/null >"$log" 2>&1 &
  pid=$!

  deadline=$((SECONDS + timeout))
  status=1
  while ((SECONDS < deadline)); do
    if probe "$pid"; then status=0; else status=$?; fi
    ((status == 1)) || break
    sleep 0.2
  done

  if ((status == 0)); then
    echo "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$JAEGER_OTLP_PORT"
    echo "OTLP_GRPC_ENDPOINT=http://127.0.0.1:$JAEGER_OTLP_GRPC_PORT"
    echo "JAEGER_QUERY_URL=http://127.0.0.1:$JAEGER_QUERY_PORT"
    echo "JAEGER_PID=$pid"
    echo "JAEGER_DIR=$dir"
    exit 0
  fi
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if ((status == 2)) && grep -q 'address already in use' "$log" 2>/dev/null; then
    # A port given is not for us to change: say so. A chosen one was taken meanwhile: choose again.
    [[ -z "$fixed_otlp$fixed_query" ]] || die "a port given is in use (see $log)"
    continue
  fi
  echo "--- $log ---" >&2; tail -n 20 "$log" >&2 || true
  die "Jaeger did not become ready within ${timeout}s (attempt $attempt)"
done

die "could not find free ports after 5 attempts"
