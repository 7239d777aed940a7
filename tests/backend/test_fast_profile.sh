#!/usr/bin/env bash
# HLORUN_PROFILE: an executable created while it is set prints, when freed, the time of its steps
# by op and implementation and its costliest steps; without it nothing is printed.
set -eu
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
for flag in avx512f avx512dq avx512bw avx512vl; do
  if ! grep -qw "$flag" /proc/cpuinfo 2>/dev/null; then
    echo "no $flag: the fast kernels do not run; skipping"
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/model.mlir" <<'MLIR'
func.func @main(%x: tensor<4x16xf32>) -> tensor<4x4x4xf32> {
  %s = stablehlo.constant dense<1.5> : tensor<16xf32>
  %b = stablehlo.constant dense<0.25> : tensor<16xf32>
  %w = stablehlo.constant dense<0.125> : tensor<16x16xf32>
  %n = "hlorun.layer_norm"(%x, %s, %b) {epsilon = 1.0e-6 : f32} : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %y = "hlorun.matmul"(%n, %w) ({
  ^bb0(%acc: tensor<f32>):
    %t = stablehlo.tanh %acc : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %r = stablehlo.reshape %y : (tensor<4x16xf32>) -> tensor<4x4x4xf32>
  return %r : tensor<4x4x4xf32>
}
MLIR
HLORUN_PROFILE=1 "$bin" run "$tmp/model.mlir" --batch 1 --quiet 2> "$tmp/profile.txt"
cat "$tmp/profile.txt"
grep -q '^hlorun profile: @main, 2 steps, 1 runs, ' "$tmp/profile.txt"
grep -Eq '%  +[0-9.]+ ms  \(min +[0-9.]+\)  hlorun.matmul \[matmul\]$' "$tmp/profile.txt"
grep -Eq '%  +[0-9.]+ ms  \(min +[0-9.]+\)  hlorun.layer_norm \[layer_norm\]$' "$tmp/profile.txt"
grep -Eq 'step +1 .* hlorun.matmul \[matmul\] -> tensor<4x16xf32> \(line 6\)$' "$tmp/profile.txt"
HLORUN_PROFILE=0 "$bin" run "$tmp/model.mlir" --batch 1 --quiet 2> "$tmp/none.txt"
"$bin" run "$tmp/model.mlir" --batch 1 --quiet 2>> "$tmp/none.txt"
if grep -q 'hlorun profile' "$tmp/none.txt"; then
  echo "a profile was printed without HLORUN_PROFILE"
  exit 1
fi
echo "profile ok"
