#!/usr/bin/env bash
# The deployment of docs/operations.md on a fresh clone of HEAD: `npm ci --omit=dev` (which builds dist/),
# then the start command; /healthz answers, and SIGTERM to the started pid stops it with status 0
# and releases the port. Bounded in time; everything it starts is stopped by its pid.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
pid=
cleanup() {
  # npm start's child is the service itself (its script execs node): stop both by their ids.
  [ -n "$pid" ] && { pkill -KILL -P "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null; } || true
  rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet --no-hardlinks . "$work/app"
cd "$work/app"
git checkout --quiet "$(git -C "$OLDPWD" rev-parse HEAD)"
echo "--- npm ci --omit=dev"
timeout 300 npm ci --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error
for dev in mocha chai eslint tsx; do
  [ ! -e "node_modules/$dev" ] || { echo "dev dependency $dev was installed"; exit 1; }
done
echo "node_modules: $(du -sk node_modules | cut -f1) kB"

echo "--- start"
PORT=0 HOST=127.0.0.1 API_KEYS=deploy-key-0123456789 npm start --silent >"$work/out.log" 2>&1 &
pid=$!
port=
for _ in $(seq 1 100); do
  port=$(grep -o '"msg":"listening"' "$work/out.log" >/dev/null && grep -o '"port":[0-9]*' "$work/out.log" | head -1 | cut -d: -f2 || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "did not start:"; cat "$work/out.log"; exit 1; }
health=$(node -e "fetch('http://127.0.0.1:$port/healthz').then(r => console.log(r.status))")
[ "$health" = 200 ] || { echo "/healthz answered $health"; exit 1; }
echo "listening on $port, /healthz 200"

kill -TERM "$pid"
status=0
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { echo "still running 10 s after SIGTERM"; exit 1; }
wait "$pid" || status=$?
pid=
[ "$status" -eq 0 ] || { echo "exited with $status after SIGTERM"; cat "$work/out.log"; exit 1; }
if node -e "require('net').connect($port, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))"; then
  echo "port $port still open after the exit"; exit 1
fi
echo "deployment: SIGTERM stopped it with status 0 and released the port"
