#!/usr/bin/env bash
# `npm run local`: run the action's source (src/main.ts) with @github/local-action,
# against an emulator it starts on 127.0.0.1:8080, with the inputs of .env (or .env.example).
# The emulator (and every process it started) is stopped when this script ends, however it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
env_file=.env
[ -f "$env_file" ] || env_file=.env.example
summary="$(pwd)/.local-summary.md"
: > "$summary"
port=8080
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "port $port is in use by another process: stop it first (npm run local starts its own emulator there)." >&2
  exit 1
fi
# A process group of its own, so that the cleanup stops tsx and the node process it starts.
set -m
node node_modules/tsx/dist/cli.mjs emulator/cli.ts --port "$port" --api-key local-key --time-scale 0.01 > .local-emulator.log 2>&1 &
emulator=$!
set +m
trap 'kill -TERM -- "-$emulator" 2>/dev/null || true; wait "$emulator" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  grep -q 'listening' .local-emulator.log 2>/dev/null && break
  if ! kill -0 "$emulator" 2>/dev/null; then
    echo "the emulator did not start:" >&2
    cat .local-emulator.log >&2
    exit 1
  fi
  sleep 0.2
done
GITHUB_STEP_SUMMARY="$summary" npx local-action run . src/main.ts "$env_file"
echo
echo "Job summary ($summary):"
cat "$summary"
