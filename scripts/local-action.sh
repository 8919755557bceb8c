#!/usr/bin/env bash
# `npm run local`: run the action's source (src/main.ts) with @github/local-action,
# against the emulator on 127.0.0.1:8080, with the inputs of .env (or .env.example).
set -euo pipefail
cd "$(dirname "$0")/.."
env_file=.env
[ -f "$env_file" ] || env_file=.env.example
summary="$(pwd)/.local-summary.md"
: > "$summary"
npx tsx emulator/cli.ts --port 8080 --api-key local-key --time-scale 0.01 > .local-emulator.log 2>&1 &
emulator=$!
trap 'kill $emulator 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  curl -s http://127.0.0.1:8080/__emulator/state > /dev/null 2>&1 && break
  sleep 0.2
done
GITHUB_STEP_SUMMARY="$summary" npx local-action run . src/main.ts "$env_file"
echo
echo "Job summary ($summary):"
cat "$summary"
