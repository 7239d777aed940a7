#!/usr/bin/env bash
# Quantized tensors (!quant.uniform): every case of data_quant/pass.mlir passes with its count of
# checks (expected stored integers from the spec's formulas: ties to even, clamping to a narrowed
# storage range, per-axis scales, ops on values, moves of stored integers, i32 products); every
# part of data_quant/fail.mlir fails with the verifier error named here; data_quant/compiled.mlir
# (and quantized_io.mlir, with a quantized parameter and result) gives the expected values compiled
# (the default of `hlorun run`, whose planner leaves quantized ops to the interpreter's kernels),
# interpreted and from MLIR bytecode; and, when ../shared is
# present, the StableHLO interpreter's quantized_ops.mlir passes.
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
src="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}"
dir="$src/tests/interp/data_quant"
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"

expect_all_pass "$dir/pass.mlir" "quantize_ties (1 checks)" "quantize_clamp_narrow (1 checks)" \
  "quantize_unsigned (1 checks)" "quantize_per_axis (1 checks)" "dequantize_per_axis (1 checks)" \
  "requantize_clamp (1 checks)" "elementwise (7 checks)" "data_movement (2 checks)" \
  "transpose_per_axis (1 checks)" "dot_general_per_axis (2 checks)" "convolution (1 checks)" \
  "reduce_sum (1 checks)" "pad_reverse_window (2 checks)" "add_per_axis (1 checks)" "dequantize_f16 (1 checks)" \
  "broadcast_per_axis (1 checks)" "convolution_per_axis (1 checks)" \
  "while_loop (1 checks)" "quantize_wide_storage (3 checks)" \
  "clamp_scalar_bounds (1 checks)" "reshape_per_axis (1 checks)"

"$bin" check "$dir/fail.mlir" >"$tmp/fail.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "fail.mlir exited with $rc, not 1"
f='fail\.mlir'
# expect_error LINE OP MESSAGE: part at LINE:3 fails verification of OP with MESSAGE (a regex).
expect_error() {
  expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:$1:3: stablehlo\.$2: $3$"
}
expect_error 4 uniform_quantize "result #0: quantized type with a scale that is not positive and finite"
expect_error 9 uniform_quantize "result #0: quantized type whose storage_min is not below its storage_max within the storage type"
expect_error 14 uniform_quantize "the result must be quantized, got tensor<2xf32>"
expect_error 19 uniform_quantize "the result's expressed type f32 must be the operand's f16 \(C2\)"
expect_error 24 uniform_dequantize "operand #0 must be quantized, got tensor<2xf32>"
expect_error 29 uniform_quantize "a requantization cannot move the quantized dimension \(0 to 1\)"
expect_error 34 add "the result and operand #1 must both be quantized or both not"
expect_error 39 add "the result and operand #1 must have the same storage type"
expect_error 44 reshape "result type tensor<1x2x!quant\.uniform<i8:f32, 2\.500000e-01>> must have the element type of operand #0 \(tensor<2x!quant\.uniform<i8:f32, 5\.000000e-01>>\)"
expect_error 49 dot_general "the rhs's zero points must be 0"
expect_error 54 dot_general "the rhs is quantized along a dimension it contracts \(0\)"
expect_error 59 dot_general "the lhs is quantized, so the rhs must be too"
expect_error 64 dot_general "a float lhs with a quantized rhs gives a float result"
expect_error 69 transpose "the result's quantized dimension must be 1, where the operand's \(0\) goes, got 0"
expect_error 74 convolution "the rhs must be quantized along its kernel_output_feature_dimension 2, not 1"
expect_error 79 reshape "the result's quantized dimension 1 is not where the operand's \(0\) goes"
expect_line "$tmp/fail.out" "^0 passed, 16 failed$"

# Compiled and interpreted runs of one quantized program give the same, expected, values.
if "$bin" run "$dir/make_inputs.mlir" --output "$tmp/in" >"$tmp/make.out" 2>&1; then
  want='result 0: tensor<2x2xf32>
[[-2.8125, -1.25],
 [6.9375, -1.875]]
result 1: tensor<6xf32>
[-1, 2.5, -4, -6, -1.5, 5]'
  for mode in compiled --interpret; do
    flag=$mode
    [ "$mode" = compiled ] && flag=
    # shellcheck disable=SC2086 # $flag is empty or one word
    got=$("$bin" run "$dir/compiled.mlir" $flag --input 0="$tmp/in/out0.npy" --input 1="$tmp/in/out1.npy" 2>&1)
    [ "$got" = "$want" ] || fail "compiled.mlir run $mode gave: $got"
  done
  want_io='result 0: tensor<2xf32>
[1, -3]
result 1: tensor<2xi8>
[4, -12]'
  for flag in "" --interpret; do
    # shellcheck disable=SC2086 # $flag is empty or one word
    got=$("$bin" run "$dir/quantized_io.mlir" $flag --input 0="$tmp/in/out2.npy" 2>&1)
    [ "$got" = "$want_io" ] || fail "quantized_io.mlir run ${flag:-compiled} gave: $got"
  done
  # Through MLIR bytecode (VHLO's per-tensor and per-axis quantized types written and read back).
  if "$bin" convert "$dir/compiled.mlir" "$tmp/compiled.mlirbc" >"$tmp/convert.out" 2>&1; then
    got=$("$bin" run "$tmp/compiled.mlirbc" --input 0="$tmp/in/out0.npy" --input 1="$tmp/in/out1.npy" 2>&1)
    [ "$got" = "$want" ] || fail "compiled.mlirbc gave: $got"
  else
    fail "compiled.mlir to bytecode: $(cat "$tmp/convert.out")"
  fi
else
  fail "make_inputs.mlir: $(cat "$tmp/make.out")"
fi

conformance="$src/../shared/conformance/stablehlo-interpret/quantized_ops.mlir"
if [ -f "$conformance" ]; then
  expect_all_pass "$conformance" "uniform_quantize (1 checks)" "uniform_quantize (1 checks)" \
    "uniform_dequantize (1 checks)" "uniform_qdq (1 checks)" "quantized_add (1 checks)"
fi

finish "quantized tensors"
