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
key="fuzz-key-$RANDOM$RANDOM$RANDOM-bootstrap"
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

# Starts the service with extra environment ($@) and sets $port. Schemathesis deliberately sends
# many requests without a key from one address; the per-address budget of failed
# authentications would soon answer them 429 before the key is even read (as documented), and
# Schemathesis's check wants the 401. That budget is tested in test/adapters/koa, so here it is
# set out of reach; the per-key limit stays as configured.
start_service() {
  local log="$work/service-$((${#pids[@]} + 1)).log"
  env PORT=0 HOST=127.0.0.1 API_KEYS="$key" LOG_LEVEL=warn "${env_store[@]}" \
    AUTH_FAILURE_RPM=1000000 AUTH_FAILURE_BURST=1000000 "$@" \
    node dist/apps/server/main.js >"$log" 2>&1 &
  pids+=($!)
  port=
  for _ in $(seq 1 100); do
    port=$(grep -o '"msg":"listening"' "$log" >/dev/null && grep -o '"port":[0-9]*' "$log" | head -1 | cut -d: -f2 || true)
    [ -n "$port" ] && break
    sleep 0.2
  done
  [ -n "${port:-}" ] || { echo "the service did not start:"; cat "$log"; exit 1; }
}
fuzz() { # key, examples
  local base="http://127.0.0.1:$port/v1"
  .venv/bin/st --config-file schemathesis.toml run "$base/openapi.json" --url "$base" \
    -H "Authorization: Bearer $1" --seed 42 --max-examples "$2" --workers 2 --no-color
}

start_service
echo "fuzzing port $port ($store store, $examples examples per operation, seed 42)"
fuzz "$key" "$examples"

# Second pass, for the answers the first rarely sees: a read-only key minted with the CLI (so
# createPet answers 403 insufficient_scope) and a tight rate limit (many 429 rate_limited), all
# checked against the document like any other answer.
# The key goes where the service reads minted keys: the database on MongoDB, else a key file.
if [ "$store" = mongodb ]; then
  read_key=$(env "${env_store[@]}" node dist/apps/keys/main.js create --label fuzz --scope pets:read)
  start_service RATE_LIMIT_RPS=20 RATE_LIMIT_BURST=20
else
  keys_file="$work/keys.jsonl"
  read_key=$(node dist/apps/keys/main.js create --label fuzz --scope pets:read --file "$keys_file")
  start_service API_KEYS_FILE="$keys_file" RATE_LIMIT_RPS=20 RATE_LIMIT_BURST=20
fi
# A key the service does not know would make this pass a fuzz of 401s only: check it first.
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $read_key" "http://127.0.0.1:$port/v1/pets")
[ "$status" = 200 ] || { echo "the pets:read key was refused ($status): nothing to fuzz"; exit 1; }
echo "fuzzing port $port with a pets:read key and 20 requests/s (30 examples per operation)"
fuzz "$read_key" 30
