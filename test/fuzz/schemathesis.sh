#!/usr/bin/env bash
# Fuzzes a live service from its own OpenAPI document with Schemathesis (every check on; the
# accepted deviations, with reasons, are in schemathesis.toml).
#
#   test/fuzz/schemathesis.sh [in-memory|mongodb]
#
# Installs the pinned Schemathesis into .venv on first use. The service runs on a free loopback
# port; with `mongodb` it also runs the FerretDB test server (or uses MONGODB_URI when set).
set -euo pipefail
cd "$(dirname "$0")/../.."

SCHEMATHESIS_VERSION=4.32.5
store=${1:-in-memory}
examples=${FUZZ_EXAMPLES:-100}
key="fuzz-key-$RANDOM$RANDOM"
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${ferretdb_pid:-}" ] && test/ferretdb/stop.sh "$ferretdb_pid" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ ! -x .venv/bin/st ] || [ "$(.venv/bin/st --version 2>/dev/null)" != "st, version $SCHEMATHESIS_VERSION" ]; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

env_store=()
if [ "$store" = mongodb ]; then
  uri=${MONGODB_URI:-}
  if [ -z "$uri" ]; then
    eval "$(test/ferretdb/start.sh | sed 's/^/local /;s/^local MONGODB_URI/uri/;s/^local FERRETDB_PID/ferretdb_pid/;s/^local FERRETDB_DATA/ferretdb_data/')"
  fi
  env_store=(MONGODB_URI="${uri%/}/animal_store_fuzz_$RANDOM$RANDOM")
fi

env PORT=0 HOST=127.0.0.1 API_KEYS="$key" LOG_LEVEL=warn "${env_store[@]}" \
  node dist/apps/server/main.js >"$work/service.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  port=$(grep -o '"msg":"listening"' "$work/service.log" >/dev/null && grep -o '"port":[0-9]*' "$work/service.log" | head -1 | cut -d: -f2 || true)
  [ -n "$port" ] && break
  sleep 0.2
done
[ -n "${port:-}" ] || { echo "the service did not start:"; cat "$work/service.log"; exit 1; }

base="http://127.0.0.1:$port/v1"
echo "fuzzing $base ($store store, $examples examples per operation, seed 42)"
.venv/bin/st --config-file schemathesis.toml run "$base/openapi.json" --url "$base" \
  -H "Authorization: Bearer $key" --seed 42 --max-examples "$examples" --workers 2 --no-color
