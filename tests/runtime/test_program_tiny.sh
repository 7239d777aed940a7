#!/usr/bin/env bash
# The TinyTransformer as a program: weights bound from a safetensors file by key path, logits for
# a batch of 2 compared with the independent numpy reference (max |diff| < 1e-4), plus the plans
# at batch 1 and 64. The generated files feed test_program's tiny_transformer test through
# HLORUN_TT_* variables. Skipped (77) without numpy.
set -eu
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
py=/usr/bin/python3
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "numpy is not available to $py; skipping"
  exit 77
fi
tool="$src/tools/tiny_transformer/tiny_transformer.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" "$tool" weights "$tmp/weights.safetensors"
"$py" "$tool" tokens "$tmp/tokens.npy" --batch 2
"$py" "$tool" reference "$tmp/weights.safetensors" "$tmp/tokens.npy" "$tmp/reference.npy"
HLORUN_TT_WEIGHTS="$tmp/weights.safetensors" HLORUN_TT_TOKENS="$tmp/tokens.npy" \
  HLORUN_TT_REFERENCE="$tmp/reference.npy" "$(dirname "$bin")/runtime_test_program"
