#!/usr/bin/env bash
# The compiled path (specialize, fuse, the executable's plan: `hlorun run`'s default) on the narrow
# types (f8E4M3FN, f8E5M2, f4E2M1FN, tf32, i2): no fast CPU kernel may compute on them (the fast
# kernels are f32 code), so every arithmetic step must fall back to the interpreter's kernels, and
# the outputs must equal `hlorun run --interpret`'s bit for bit. The inputs are runtime f32/i32
# tensors (written here as .npy), so that nothing folds away at compile time; the program converts
# them to each type and runs elementwise ops, broadcasts, transposes, selects, a dot_general and a
# reduce on them, returning f32/i32 conversions of the results.
set -eu
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# x: 32x32 f32 values over several binades (both signs, a few beyond every f8's range); k: 32x32 i32.
"$py" - "$tmp" <<'PY'
import struct, sys
def npy(path, descr, fmt, shape, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, ", ".join(map(str, shape)) + ("," if len(shape) == 1 else ""))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))
n = 32
xs = [((i * 37 + 11) % 97 - 48) * 2.0 ** ((i % 15) - 10) / 7.0 for i in range(n * n)]
ks = [(i * 13 + 5) % 11 - 5 for i in range(n * n)]
npy(sys.argv[1] + "/x.npy", "<f4", "f", (n, n), xs)
npy(sys.argv[1] + "/k.npy", "<i4", "i", (n, n), ks)
PY

cat > "$tmp/narrow.mlir" <<'MLIR'
module @narrow {
  func.func public @main(%x: tensor<32x32xf32>, %k: tensor<32x32xi32>) -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xi32>) {
    %a = stablehlo.convert %x : (tensor<32x32xf32>) -> tensor<32x32xf8E4M3FN>
    %at = stablehlo.transpose %a, dims = [1, 0] : (tensor<32x32xf8E4M3FN>) -> tensor<32x32xf8E4M3FN>
    %s = stablehlo.add %a, %at : tensor<32x32xf8E4M3FN>
    %m = stablehlo.multiply %s, %a : tensor<32x32xf8E4M3FN>
    %r0 = stablehlo.convert %m : (tensor<32x32xf8E4M3FN>) -> tensor<32x32xf32>
    %b = stablehlo.convert %x : (tensor<32x32xf32>) -> tensor<32x32xf8E5M2>
    %d = stablehlo.dot_general %b, %b, contracting_dims = [1] x [0] : (tensor<32x32xf8E5M2>, tensor<32x32xf8E5M2>) -> tensor<32x32xf8E5M2>
    %r1 = stablehlo.convert %d : (tensor<32x32xf8E5M2>) -> tensor<32x32xf32>
    %c = stablehlo.convert %x : (tensor<32x32xf32>) -> tensor<32x32xf4E2M1FN>
    %cr = stablehlo.slice %c [0:32, 0:1] : (tensor<32x32xf4E2M1FN>) -> tensor<32x1xf4E2M1FN>
    %cr2 = stablehlo.reshape %cr : (tensor<32x1xf4E2M1FN>) -> tensor<32xf4E2M1FN>
    %cb = stablehlo.broadcast_in_dim %cr2, dims = [0] : (tensor<32xf4E2M1FN>) -> tensor<32x32xf4E2M1FN>
    %cs = stablehlo.subtract %c, %cb : tensor<32x32xf4E2M1FN>
    %r2 = stablehlo.convert %cs : (tensor<32x32xf4E2M1FN>) -> tensor<32x32xf32>
    %t = stablehlo.convert %x : (tensor<32x32xf32>) -> tensor<32x32xtf32>
    %tt = stablehlo.divide %t, %t : tensor<32x32xtf32>
    %te = stablehlo.exponential %t : tensor<32x32xtf32>
    %tm = stablehlo.maximum %tt, %te : tensor<32x32xtf32>
    %r3 = stablehlo.convert %tm : (tensor<32x32xtf32>) -> tensor<32x32xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<32x32xf8E4M3FN>
    %pos = stablehlo.compare GT, %a, %zero, FLOAT : (tensor<32x32xf8E4M3FN>, tensor<32x32xf8E4M3FN>) -> tensor<32x32xi1>
    %sel = stablehlo.select %pos, %a, %at : tensor<32x32xi1>, tensor<32x32xf8E4M3FN>
    %r4 = stablehlo.convert %sel : (tensor<32x32xf8E4M3FN>) -> tensor<32x32xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f8E4M3FN>
    %sum = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<32x32xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<32xf8E4M3FN>
    %r5 = stablehlo.convert %sum : (tensor<32xf8E4M3FN>) -> tensor<32xf32>
    %i = stablehlo.convert %k : (tensor<32x32xi32>) -> tensor<32x32xi2>
    %it = stablehlo.transpose %i, dims = [1, 0] : (tensor<32x32xi2>) -> tensor<32x32xi2>
    %ia = stablehlo.add %i, %it : tensor<32x32xi2>
    %im = stablehlo.multiply %ia, %i : tensor<32x32xi2>
    %r6 = stablehlo.convert %im : (tensor<32x32xi2>) -> tensor<32x32xi32>
    return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xi32>
  }
}
MLIR

inputs=(--input "0=$tmp/x.npy" --input "1=$tmp/k.npy")
"$bin" run "$tmp/narrow.mlir" "${inputs[@]}" --output "$tmp/compiled" --quiet
"$bin" run "$tmp/narrow.mlir" "${inputs[@]}" --output "$tmp/interpreted" --interpret --quiet
count=0
for f in "$tmp"/interpreted/*.npy; do
  count=$((count + 1))
  if ! cmp -s "$f" "$tmp/compiled/$(basename "$f")"; then
    echo "FAIL: output $(basename "$f") of the compiled program differs from the interpreter's" >&2
    exit 1
  fi
done
if [ "$count" -ne 7 ]; then
  echo "FAIL: expected 7 outputs, found $count" >&2
  exit 1
fi
echo "the compiled program's 7 outputs equal the interpreter's"
