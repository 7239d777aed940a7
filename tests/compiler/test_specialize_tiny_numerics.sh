#!/usr/bin/env bash
# The TinyTransformer specialized for batch 2 computes exactly what the symbolic model computes:
# both run through `hlorun run` with the same generated weights and tokens must give identical
# logits, which must also match the numpy reference of tools/tiny_transformer. The specialized
# module comes from the C test binary (test_specialize_tiny.c, run with --emit), built beside hlorun.
# Skipped (exit 77) without /usr/bin/python3 and numpy.
set -eu
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
emitter="$(dirname "$bin")/compiler_test_specialize_tiny"
py=/usr/bin/python3
tool="$src/tools/tiny_transformer/tiny_transformer.py"
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "python3 with numpy not found; skipping"
  exit 77
fi
[ -x "$emitter" ] || { echo "missing $emitter"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$tool" weights "$tmp/w.safetensors"
"$py" "$tool" tokens "$tmp/tokens.npy" --batch 2
"$emitter" --emit 2 "$tmp/spec.mlir"
if grep -q -e 'dynamic' -e 'call @' -e '?' "$tmp/spec.mlir"; then
  echo "the specialized model still has dynamic ops, calls or dynamic dimensions"
  exit 1
fi
"$bin" run "$src/examples/tiny_transformer/model.mlir" --weights "$tmp/w.safetensors" \
  --input tokens="$tmp/tokens.npy" --output "$tmp/symbolic" >/dev/null
"$bin" run "$tmp/spec.mlir" --weights "$tmp/w.safetensors" --input tokens="$tmp/tokens.npy" \
  --output "$tmp/specialized" >/dev/null
"$py" "$tool" reference "$tmp/w.safetensors" "$tmp/tokens.npy" "$tmp/reference.npy"
"$py" - "$tmp" <<'EOF'
import sys
import numpy as np
d = sys.argv[1]
a = np.load(f"{d}/symbolic/out0.npy")
b = np.load(f"{d}/specialized/out0.npy")
r = np.load(f"{d}/reference.npy")
assert a.shape == (2, 256, 256) and b.shape == a.shape, (a.shape, b.shape)
assert np.array_equal(a.view(np.uint32), b.view(np.uint32)), "specialized logits differ from the symbolic model's"
err = float(np.abs(b - r).max())
assert err < 1e-3, f"specialized logits are {err} away from the numpy reference"
print(f"specialized TinyTransformer (batch 2): identical to the symbolic model, max |diff| to reference {err:.2e}")
EOF
