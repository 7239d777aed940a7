#!/usr/bin/env bash
# End-to-end tests of text generation in `hlorun serve`: greedy text equal to the numpy reference
# through :generate (JSON and Server-Sent Events) and OpenAI's /v1/completions, seeds, stop strings,
# errors, the model list and the playground page, a client disconnecting mid-stream, and 64
# streaming clients at once for three rounds (tests/server/generate_rest.py; run_python.sh checks the
# tools and kills every server it started). GENERATE_ONLY=section,... runs only some sections.
# Skipped (77) when a tool or numpy is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 -c 'import numpy' 2>/dev/null || { echo "SKIP: numpy is not installed"; exit 77; }
only=()
if [ -n "${GENERATE_ONLY:-}" ]; then only=(--only "$GENERATE_ONLY"); fi
exec bash "$here/run_python.sh" generate_rest.py 900 "${only[@]}"
