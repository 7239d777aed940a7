#!/usr/bin/env bash
# The fused TinyTransformer end to end. Generates weights, tokens (batches 1 and 2) and the
# float64 numpy reference, runs compiler_test_fuse_transformer on them (op counts, pass timings, fused
# and unfused logits through executables and the interpreter), then through the CLI: an executable
# compiled with fusion (the default) whose `inspect --ir` text holds the hlorun ops and parses back,
# that executable file opened and run, the JIT path and `run --interpret`, all within 1e-4 of the
# reference. Skipped (77) without numpy.
set -eu
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
py=/usr/bin/python3
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "numpy is not available to $py; skipping"
  exit 77
fi
tool="$src/tools/tiny_transformer/tiny_transformer.py"
model="$src/examples/tiny_transformer/model.mlir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" "$tool" weights "$tmp/w.safetensors"
for b in 1 2; do
  "$py" "$tool" tokens "$tmp/t$b.npy" --batch "$b"
  "$py" "$tool" reference "$tmp/w.safetensors" "$tmp/t$b.npy" "$tmp/r$b.npy"
done

HLORUN_FT_WEIGHTS="$tmp/w.safetensors" HLORUN_FT_TOKENS="$tmp/t2.npy" HLORUN_FT_REFERENCE="$tmp/r2.npy" \
  "$(dirname "$bin")/compiler_test_fuse_transformer"

# Largest |a - b| between two .npy files, which must not exceed 1e-4.
close() {
  "$py" - "$1" "$2" <<'EOF'
import sys
import numpy as np
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
err = float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))
print(f"  {sys.argv[1].split('/')[-2]}: max |diff| = {err:.3g}")
sys.exit(0 if a.shape == b.shape and err < 1e-4 else 1)
EOF
}

for b in 1 2; do
  echo "batch $b (CLI):"
  "$bin" compile "$model" --weights "$tmp/w.safetensors" --batch "$b" -o "$tmp/m$b.hlox"
  "$bin" inspect --ir "$tmp/m$b.hlox" --out "$tmp/fused$b.mlir" >/dev/null
  for op in hlorun.matmul hlorun.attention hlorun.layer_norm; do
    grep -q "\"$op\"" "$tmp/fused$b.mlir" || { echo "no $op in the fused program"; exit 1; }
  done
  if grep -q "stablehlo.dot_general" "$tmp/fused$b.mlir"; then echo "a dot_general was left"; exit 1; fi
  "$bin" inspect "$tmp/fused$b.mlir" >/dev/null
  "$bin" run "$tmp/m$b.hlox" --input "tokens=$tmp/t$b.npy" --output "$tmp/aot$b" --quiet
  "$bin" run "$model" --weights "$tmp/w.safetensors" --input "tokens=$tmp/t$b.npy" --output "$tmp/jit$b" --quiet
  "$bin" run "$model" --weights "$tmp/w.safetensors" --input "tokens=$tmp/t$b.npy" --output "$tmp/interp$b" \
    --interpret --quiet
  for way in aot jit interp; do close "$tmp/$way$b/out0.npy" "$tmp/r$b.npy"; done
done
echo "fused TinyTransformer: OK"
