#!/usr/bin/env bash
# A short soak of `hlorun serve` (scripts/soak.sh at 1,500 requests and 10 reloads): mixed valid,
# invalid, slow and oversized requests while the model is hot-reloaded; RSS, file descriptors and
# threads must come back to where they started. Skipped (77) when a tool is missing
# (tests/server/run_python.sh).
set -euo pipefail
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
here=$(cd "$(dirname "$0")" && pwd)
HLORUN_BIN=$bin exec bash "$here/../../scripts/soak.sh" 1500 10
