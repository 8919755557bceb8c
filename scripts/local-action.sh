#!/usr/bin/env bash
# `npm run local [-- ENV_FILE] [--verbose]`: run the action's source (src/main.ts, through
# scripts/local-entry.ts) with @github/local-action, with the inputs of ENV_FILE (default .env, or
# .env.example without one). It prints the action's own lines, its outputs and its job summary;
# --verbose adds the emulator's address and log, and local-action's own banner and tables.
# `npm run local -- WORKFLOW.yml [options]` (an argument ending in .yml or .yaml) runs a whole job of
# that workflow instead: scripts/local-job.ts (`--help` there says its options).
#
# - The API: an emulator it starts on 127.0.0.1:$LOCAL_PORT (default 8080) with the key local-key, or,
#   when LOCAL_BASE_URL is set, that API (no emulator is started; the key is INPUT_API-KEY of the file).
#   This script sets base-url; an INPUT_BASE-URL in the file is replaced.
# - The workspace: a new temporary folder (GITHUB_WORKSPACE), printed at the start and the end. Relative
#   file inputs (checks-file, plan-file, junit-file, approved-plan) are read and written there, never in
#   the repository; give a file of the repository by its absolute path.
# - The outputs: written to a file (GITHUB_OUTPUT, as a runner gives), and shown after the step.
# - The exit status is the action's: 0 when the step succeeded, 1 when it failed.
# The emulator (and every process it started) is stopped when this script ends, however it ends.
set -euo pipefail
verbose=false
files=()
for arg in "$@"; do
  case "$arg" in
    *.yml | *.yaml)
      root=$(cd "$(dirname "$0")/.." && pwd)
      exec node "$root/node_modules/tsx/dist/cli.mjs" "$root/scripts/local-job.ts" "$@"
      ;;
    --verbose) verbose=true ;;
    *) files+=("$arg") ;;
  esac
done
# What only --verbose shows.
say() { if [ "$verbose" = true ]; then echo "$@"; fi; }
cd "$(dirname "$0")/.."
repo=$(pwd)
env_file=${files[0]:-.env}
if [ ${#files[@]} -eq 0 ] && [ ! -f "$env_file" ]; then env_file=.env.example; fi
if [ ! -f "$env_file" ]; then
  echo "no such inputs file: $env_file (npm run local -- FILE takes a file of INPUT_* lines like .env.example)" >&2
  exit 1
fi
port=${LOCAL_PORT:-8080}
base_url=${LOCAL_BASE_URL:-}
if [ -z "$base_url" ]; then
  if ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
    echo "LOCAL_PORT must be a port number from 1 to 65535, got \"$port\"" >&2
    exit 1
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port is in use by another process: stop it first (npm run local starts its own emulator there), or pick another port with LOCAL_PORT=8081" >&2
    exit 1
  fi
  base_url="http://127.0.0.1:$port/v1"
fi

run_dir=$(mktemp -d "${TMPDIR:-/tmp}/monitoring-action-local.XXXXXX")
workspace="$run_dir/workspace"
mkdir "$workspace"
summary="$run_dir/summary.md"
outputs="$run_dir/outputs"
: > "$summary"
: > "$outputs"
# The inputs file as given, then what this script sets (dotenv keeps the last value of a name).
inputs="$run_dir/inputs.env"
{
  cat "$env_file"
  echo
  echo "INPUT_BASE-URL=$base_url"
  echo "GITHUB_WORKSPACE=$workspace"
  echo "GITHUB_STEP_SUMMARY=$summary"
  echo "GITHUB_OUTPUT=$outputs"
} > "$inputs"

emulator=
if [ -z "${LOCAL_BASE_URL:-}" ]; then
  log="$run_dir/emulator.log"
  # A process group of its own, so that the cleanup stops tsx and the node process it starts.
  set -m
  node node_modules/tsx/dist/cli.mjs emulator/cli.ts --port "$port" --api-key local-key --time-scale 0.01 > "$log" 2>&1 &
  emulator=$!
  set +m
  trap 'kill -TERM -- "-$emulator" 2>/dev/null || true; wait "$emulator" 2>/dev/null || true' EXIT
  for _ in $(seq 1 50); do
    grep -q 'listening' "$log" 2>/dev/null && break
    if ! kill -0 "$emulator" 2>/dev/null; then
      echo "the emulator did not start:" >&2
      cat "$log" >&2
      exit 1
    fi
    sleep 0.2
  done
  say "Emulator: $base_url (key local-key; its log: $log)"
else
  say "API: $base_url (LOCAL_BASE_URL; no emulator started)"
fi
say "Inputs: $env_file; workspace (relative file inputs land here): $workspace"

status=0
run_log="$run_dir/local-action.log"
# local-action prints its own trace of the failed command; the step's failure is already in the log.
npx local-action run "$repo" scripts/local-entry.ts "$inputs" > "$run_log" 2>&1 || status=$?
debug=false
if grep -qx 'ACTIONS_STEP_DEBUG=true' "$env_file"; then debug=true; fi
if [ "$verbose" = true ]; then
  cat "$run_log"
else
  # The action's own lines: local-action's "Running Action" section, without its banners, the masks
  # and (unless ACTIONS_STEP_DEBUG=true) the debug lines. Nothing there: its whole log, to say why.
  own=$(awk -v debug="$debug" '
    /^ +Running Action$/ { on = 1; getline; next }
    on && /^====================+$/ { exit }
    on && /^::add-mask::/ { next }
    on && /^::set-output / { next }
    on && /^::info::/ { sub(/^::info::/, "") }
    on && /^::debug::/ && debug != "true" { next }
    on { print }
  ' "$run_log")
  if [ -n "$(echo "$own" | tr -d '[:space:]')" ]; then echo "$own" | sed '/./,$!d'; else cat "$run_log"; fi
fi
# local-action's own core writes outputs as ::set-output lines, not to GITHUB_OUTPUT: shown the same way.
if [ ! -s "$outputs" ] && grep -q '^::set-output name=' "$run_log"; then
  awk '/^::set-output name=/ { line = substr($0, 19); n = index(line, "::"); name = substr(line, 1, n - 1); value = substr(line, n + 2); print name "<<EOF_OUTPUT"; print value; print "EOF_OUTPUT" }' "$run_log" > "$outputs"
fi
if [ -s "$outputs" ]; then
  echo
  echo "Outputs:"
  # name<<delimiter, the value's lines, delimiter: one line each, a long value cut.
  awk '
    !name && /<</ { name = substr($0, 1, index($0, "<<") - 1); delim = substr($0, index($0, "<<") + 2); value = ""; n = 0; next }
    name && $0 == delim { if (length(value) > 120) value = substr(value, 1, 120) "... (" length(value) " characters)"; print "  " name ": " value; name = ""; next }
    name { value = (n++ ? value "\\n" : "") $0 }
  ' "$outputs"
fi
if [ -s "$summary" ]; then
  echo
  echo "Job summary ($summary):"
  cat "$summary"
fi
echo
echo "Workspace: $workspace"
ls -A "$workspace"
[ "$verbose" = true ] || echo "(--verbose shows the emulator, its log and local-action's banner)"
if [ "$status" -ne 0 ]; then
  echo "The action failed (exit status $status)." >&2
  exit 1
fi
echo "The action succeeded."
