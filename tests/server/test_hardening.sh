#!/usr/bin/env bash
# Attack tests of `hlorun serve`: the served artifact rewritten and truncated under load, a 1 TB
# sparse artifact, slowloris from many loopback addresses, unfinished large bodies, huge outputs,
# requests past their deadline and clients that go away, request smuggling shapes, a corrupt
# newest version, links out of the model root, header floods, chunk-size abuse and odd numbers.
# The work is in tests/server/hardening.py (python3 + requests); run_python.sh checks the tools
# and kills every server it started however it ends. Set HARDENING_ONLY=section,... to run only
# some sections. Skipped (77) when hlorun has no `serve` or a tool is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
only=()
if [ -n "${HARDENING_ONLY:-}" ]; then only=(--only "$HARDENING_ONLY"); fi
exec bash "$here/run_python.sh" hardening.py 400 "${only[@]}"
