#!/usr/bin/env bash
# The TinyTransformer end to end through every path, against the independent numpy reference of
# tools/tiny_transformer (float64): logits for a batch of 2 must agree to max |diff| < 1e-4 when run
#   - compiled (JIT), and through the reference interpreter,
#   - as an ahead-of-time executable, and as the specialized program text it contains,
#   - from a portable artifact (in a process that has neither the .mlir nor the weights file),
#   - with the parameters baked into the program as constants.
# Paths that compute the same thing the same way must agree exactly. Skipped (77) without numpy.
set -eu
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
py=/usr/bin/python3
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "numpy is not available to $py; skipping"
  exit 77
fi
tt="$py $src/tools/tiny_transformer/tiny_transformer.py"
model="$src/examples/tiny_transformer/model.mlir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
$tt weights w.safetensors
$tt tokens tokens.npy --batch 2
$tt reference w.safetensors tokens.npy reference.npy
$py "$src/tools/tiny_transformer/gen_mlir.py" baked.mlir --baked w.safetensors

"$bin" run "$model" --weights w.safetensors --input tokens=tokens.npy --output jit --quiet
"$bin" run "$model" --weights w.safetensors --input tokens=tokens.npy --output interp --quiet --interpret
"$bin" compile "$model" --weights w.safetensors --shape tokens=2x256 -o b2.hlox >/dev/null
"$bin" run b2.hlox --input tokens=tokens.npy --output aot --quiet
"$bin" inspect --ir b2.hlox --out specialized.mlir >/dev/null
if grep -q -e 'dynamic' -e 'call @' -e '?x' specialized.mlir; then
  echo "FAIL: the specialized program still has dynamic ops, calls or dynamic dimensions"
  exit 1
fi
"$bin" run specialized.mlir --weights w.safetensors --input tokens=tokens.npy --output specialized --quiet
"$bin" export "$model" --weights w.safetensors -o tiny.hlo >/dev/null
mkdir moved && mv tiny.hlo moved/
(cd moved && "$bin" run tiny.hlo --input tokens=../tokens.npy --output ../artifact --quiet)
"$bin" run baked.mlir --input tokens=tokens.npy --output baked --quiet

$py - <<'PY'
import numpy as np
ref = np.load("reference.npy")
runs = {name: np.load(f"{name}/out0.npy") for name in ("jit", "interp", "aot", "specialized", "artifact", "baked")}
failed = 0
for name, out in runs.items():
    diff = float(np.abs(out - ref).max()) if out.shape == ref.shape else float("inf")
    print(f"{name:12s} max |hlorun - numpy| = {diff:.3g}")
    failed += not diff < 1e-4
for a, b in (("jit", "aot"), ("aot", "specialized"), ("jit", "artifact"), ("jit", "baked")):
    same = np.array_equal(runs[a], runs[b])
    print(f"{a} == {b}: {same}")
    failed += not same
print(f"{len(runs) + 4 - failed} passed, {failed} failed")
raise SystemExit(1 if failed else 0)
PY
