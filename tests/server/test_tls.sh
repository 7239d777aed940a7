#!/usr/bin/env bash
# HTTPS of `hlorun serve --ssl_config_file` (TensorFlow Serving's SSLConfig): server certificate,
# client certificates checked against custom_ca, and bad configs refused (tests/server/tls.py).
# Skipped (77) when a tool is missing (run_python.sh, openssl).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v openssl >/dev/null || { echo "SKIP: openssl is not installed"; exit 77; }
exec bash "$here/run_python.sh" tls.py 300
