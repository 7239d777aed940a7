#!/usr/bin/env bash
# End-to-end tests of `hlorun serve` through TensorFlow Serving's REST API: status and metadata
# JSON, predict (row/columnar, 1 and 2 inputs/outputs, results equal `hlorun run`), versions,
# labels and version policies, errors, limits, health/readiness, polling and corrupt versions,
# batching (plain and padded), a full queue, head-of-line blocking, command-line errors,
# Prometheus metrics and SIGTERM with requests in flight.
# The work is in tests/server/rest_api.py (python3 + requests) and curl; run_python.sh checks the
# tools and kills every server it started however it ends. Set REST_API_ONLY=section,... to run
# only some sections. Skipped (77) when hlorun has no `serve` or a tool is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
only=()
if [ -n "${REST_API_ONLY:-}" ]; then only=(--only "$REST_API_ONLY"); fi
exec bash "$here/run_python.sh" rest_api.py 600 "${only[@]}"
