#!/usr/bin/env bash
# End-to-end tests of `hlorun serve`'s KServe v2 REST API (server metadata, health, model metadata
# and readiness, infer with JSON tensors and binary tensor data, errors) and of its fidelity to
# TensorFlow Serving's REST answers (float text, lenient JSON, OPTIONS, "Malformed request",
# classify/regress checks, TF Serving's Prometheus metric names).
# The work is in tests/server/kserve_rest.py (python3 + requests) and curl; run_python.sh checks the
# tools and kills every server it started however it ends. Set KSERVE_REST_ONLY=section,... to run
# only some sections. Skipped (77) when hlorun has no `serve` or a tool is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
only=()
if [ -n "${KSERVE_REST_ONLY:-}" ]; then only=(--only "$KSERVE_REST_ONLY"); fi
exec bash "$here/run_python.sh" kserve_rest.py 300 "${only[@]}"
