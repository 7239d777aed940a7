#!/usr/bin/env bash
# End-to-end tests of `hlorun serve`'s gRPC port: TensorFlow Serving's PredictionService and
# ModelService, gRPC health and KServe's GRPCInferenceService driven by grpcio stubs generated
# from proto/ (tests/server/grpc_client.py), errors and limits. GRPC_ONLY=section,... runs only
# some sections (test_grpc_reload.sh runs the reload one). Skipped (77) when grpcio or grpc_tools
# is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 -c 'import grpc, grpc_tools.protoc' 2>/dev/null ||
  { echo "SKIP: python3-grpcio and python3-grpc-tools are needed"; exit 77; }
only=()
if [ -n "${GRPC_ONLY:-}" ]; then only=(--only "$GRPC_ONLY"); fi
exec bash "$here/run_python.sh" grpc_client.py 600 "${only[@]}"
