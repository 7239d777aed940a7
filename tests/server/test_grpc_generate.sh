#!/usr/bin/env bash
# End-to-end tests of hlorun.GenerationService/Generate (proto/hlorun/generation.proto,
# docs/generation.md "gRPC"): serves the TinyTransformer's generation module
# (examples/tiny_transformer/generate.mlir) and drives it with grpcio stubs generated from proto/
# (tests/server/grpc_generate.py): streamed tokens equal REST's :generate, seeds, errors,
# cancellation, deadlines, metrics, a stop with a stream in progress. Skipped (77) when grpcio,
# grpc_tools, numpy or the module is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${HLORUN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
/usr/bin/python3 -c 'import grpc, grpc_tools.protoc' 2>/dev/null ||
  { echo "SKIP: python3-grpcio and python3-grpc-tools are needed"; exit 77; }
/usr/bin/python3 -c 'import numpy' 2>/dev/null || { echo "SKIP: python3-numpy is not installed"; exit 77; }
[ -f "$root/examples/tiny_transformer/generate.mlir" ] ||
  { echo "SKIP: no examples/tiny_transformer/generate.mlir"; exit 77; }
exec bash "$here/run_python.sh" grpc_generate.py 300 --root "$root"
