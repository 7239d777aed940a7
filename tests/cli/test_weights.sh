#!/usr/bin/env bash
# Weight sources end to end: `hlorun weights` lists a safetensors file and an Orbax checkpoint and
# converts either into the other; a program's parameters bind to an Orbax checkpoint's arrays by
# their pytree paths exactly as to the safetensors tensors (`run`, `export` into an artifact), with
# the same results; Orbax's own checkpoints (../shared/real/orbax, when present) list as their
# content; a damaged checkpoint fails with one clear line.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# A safetensors file of two parameters, written byte by byte (the format is a JSON header).
python3 - "$tmp/w.safetensors" <<'PY'
import json, struct, sys
kernel = struct.pack("<6f", 1, 2, 3, 4, 5, 6)
bias = struct.pack("<3f", 0.5, -0.5, 0.25)
header = {"dense.kernel": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
          "dense.bias": {"dtype": "F32", "shape": [3], "data_offsets": [24, 36]}}
h = json.dumps(header).encode()
h += b" " * (-len(h) % 8)
open(sys.argv[1], "wb").write(struct.pack("<Q", len(h)) + h + kernel + bias)
PY
cat >"$tmp/dense.mlir" <<'MLIR'
func.func public @main(%x: tensor<1x2xf32>, %k: tensor<2x3xf32> {jax.arg_info = "params['dense']['kernel']"},
                       %b: tensor<3xf32> {jax.arg_info = "params['dense']['bias']"}) -> tensor<1x3xf32> {
  %0 = stablehlo.dot_general %x, %k, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
  %2 = stablehlo.add %0, %1 : tensor<1x3xf32>
  return %2 : tensor<1x3xf32>
}
MLIR
cat >"$tmp/x.mlir" <<'MLIR'
func.func @main() -> tensor<1x2xf32> {
  %0 = stablehlo.constant dense<[[1.0, -1.0]]> : tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
MLIR
"$bin" run "$tmp/x.mlir" --output "$tmp/x" --quiet

# safetensors -> Orbax checkpoint -> listing and back
if "$bin" weights "$tmp/w.safetensors" --save "$tmp/ckpt" >/dev/null && [ -f "$tmp/ckpt/manifest.ocdbt" ] &&
   [ -f "$tmp/ckpt/_METADATA" ] && "$bin" weights "$tmp/ckpt" >"$tmp/list" &&
   grep -qE "^dense.kernel +tensor<2x3xf32>  24 bytes$" "$tmp/list" && grep -q "2 tensors, 36 bytes" "$tmp/list" &&
   "$bin" weights "$tmp/ckpt" --save "$tmp/back.safetensors" >/dev/null &&
   cmp -s <("$bin" weights "$tmp/w.safetensors" | sed '$d') <("$bin" weights "$tmp/back.safetensors" | sed '$d'); then
  pass
else
  fail "safetensors <-> Orbax round trip"
fi
# the same run from either source, and from an artifact packed from the checkpoint
"$bin" run "$tmp/dense.mlir" --input 0="$tmp/x/out0.npy" --weights "$tmp/w.safetensors" >"$tmp/st" 2>&1
"$bin" run "$tmp/dense.mlir" --input 0="$tmp/x/out0.npy" --weights "$tmp/ckpt" >"$tmp/ob" 2>&1
if grep -qF "[[-2.5, -3.5, -2.75]]" "$tmp/st" && cmp -s "$tmp/st" "$tmp/ob"; then pass; else fail "run with an Orbax checkpoint: $(cat "$tmp/ob")"; fi
if "$bin" export "$tmp/dense.mlir" --weights "$tmp/ckpt" -o "$tmp/dense.hlo" >/dev/null &&
   "$bin" run "$tmp/dense.hlo" --input 0="$tmp/x/out0.npy" | grep -qF "[[-2.5, -3.5, -2.75]]"; then
  pass
else
  fail "export an artifact from an Orbax checkpoint"
fi
# an existing destination is refused, and nothing is left half-written
if "$bin" weights "$tmp/w.safetensors" --save "$tmp/ckpt" >/dev/null 2>"$tmp/err"; then fail "saving over a checkpoint"; else pass; fi
grep -qF "already exists" "$tmp/err" && pass || fail "saving over a checkpoint: $(cat "$tmp/err")"

real="$src/../shared/real/orbax"
if [ -d "$real" ]; then
  # Orbax's legacy aggregate checkpoint: zarr directories and a msgpack file
  if "$bin" weights "$real/legacy__aggregate_some_checkpoint/checkpoint" >"$tmp/legacy" &&
     grep -qE "^c.e +tensor<4x4xi64>" "$tmp/legacy" && grep -q "4 tensors, 384 bytes" "$tmp/legacy"; then
    pass
  else
    fail "list the legacy checkpoint: $(cat "$tmp/legacy")"
  fi
  # a checkpoint whose data directory is gone: one line naming what is missing
  case_dir="$real/v0_checkpoints__composite_checkpoint__critical_metadata_alterations__missing_pytree_data_dir_d"
  "$bin" weights "$case_dir/checkpoint" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "hlorun: " "$tmp/err"; then pass; else fail "damaged checkpoint: exit $rc: $(cat "$tmp/err")"; fi
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
