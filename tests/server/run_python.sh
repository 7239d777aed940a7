#!/usr/bin/env bash
# Runs one of the python end-to-end tests of `hlorun serve` (rest_api.py, hardening.py, soak.py):
# checks the tools (skipping with 77 when one is missing), gives it a work directory and a pid
# file, bounds it to LIMIT seconds, and kills every server it started however it ends.
#   run_python.sh SCRIPT.py LIMIT [ARGS...]     (HLORUN_BIN names the hlorun binary)
set -euo pipefail
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
here=$(cd "$(dirname "$0")" && pwd)
script=$1
limit=$2
shift 2
py=/usr/bin/python3

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$py" ] || skip "no $py"
"$py" -c 'import requests' 2>/dev/null || skip "python3-requests is not installed"
command -v curl >/dev/null || skip "curl is not installed"
"$bin" serve --help >/dev/null 2>&1 || skip "this hlorun has no serve command"

tmp=$(mktemp -d)
pids=$tmp/pids
: >"$pids"
cleanup() {
  local pid
  while read -r pid; do
    # only our servers: the pid must still be an `hlorun serve` process
    if { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -q ' serve '; then kill -KILL "$pid" 2>/dev/null || true; fi
  done <"$pids"
  rm -rf "$tmp"
}
trap cleanup EXIT

# The whole run is bounded; each section bounds its own waits far below this.
timeout --kill-after=10 "$limit" "$py" -B "$here/$script" --bin "$bin" --work "$tmp" --pidfile "$pids" "$@"
