#!/usr/bin/env bash
# End-to-end tests of `hlorun serve` through TensorFlow Serving's REST API: status and metadata
# JSON, predict (row/columnar, 1 and 2 inputs/outputs, results equal `hlorun run`), versions,
# labels and version policies, errors, limits, health/readiness, polling and corrupt versions,
# batching (plain and padded), a full queue, head-of-line blocking, command-line errors,
# Prometheus metrics and SIGTERM with requests in flight.
# The work is in tests/server/rest_api.py (python3 + requests) and curl; this script checks the
# tools, and kills every server it started however it ends. Set REST_API_ONLY=section,... to run
# only some sections. Skipped (77) when hlorun has no `serve` or a tool is missing.
set -euo pipefail
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
here=$(cd "$(dirname "$0")" && pwd)
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

only=()
if [ -n "${REST_API_ONLY:-}" ]; then only=(--only "$REST_API_ONLY"); fi
# The whole run is bounded; each section bounds its own waits far below this.
timeout --kill-after=10 600 "$py" -B "$here/rest_api.py" --bin "$bin" --work "$tmp" --pidfile "$pids" "${only[@]}"
