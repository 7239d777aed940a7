#!/usr/bin/env bash
# 20 version swaps while clients call Predict over gRPC: no call fails (the gRPC twin of
# test_reload_under_load.sh; tests/server/grpc_client.py, section reload). Skipped (77) when
# grpcio or grpc_tools is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 -c 'import grpc, grpc_tools.protoc' 2>/dev/null ||
  { echo "SKIP: python3-grpcio and python3-grpc-tools are needed"; exit 77; }
exec bash "$here/run_python.sh" grpc_client.py 600 --only reload
