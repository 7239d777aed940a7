#!/usr/bin/env bash
# The TinyTransformer on the fast kernels (f32 and bf16) against the numpy reference: generates
# weights, a batch of 2 token sequences and their reference logits, then runs backend_test_fast_model
# on them. Skipped (77) without numpy.
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
HLORUN_FT_WEIGHTS="$tmp/weights.safetensors" HLORUN_FT_TOKENS="$tmp/tokens.npy" \
  HLORUN_FT_REFERENCE="$tmp/reference.npy" "$(dirname "$bin")/backend_test_fast_model"
