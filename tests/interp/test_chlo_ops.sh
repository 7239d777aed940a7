#!/usr/bin/env bash
# chlo's broadcasting ops, constant, constant_like, ragged_dot (its three modes), scan and _asin_acos_kernel: every case of data_chlo/pass.mlir passes with
# its count of checks (values worked out by hand), every part of data_chlo/fail.mlir fails with the
# verifier error named here (file:line:col and op), and the printed form of pass.mlir is a fixed
# point that still passes; `hlorun run` (compiled) gives the interpreter's result.
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
dir="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/tests/interp/data_chlo"
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"

expect_all_pass "$dir/pass.mlir" "broadcast_arith (8 checks)" "broadcast_dimensions (3 checks)" \
  "broadcast_int_logic (7 checks)" "broadcast_compare_select (5 checks)" "broadcast_special (5 checks)" \
  "constants (5 checks)" "main (0 checks)" "ragged_non_contracting (2 checks)" \
  "ragged_batched_groups (1 checks)" "ragged_contracting (1 checks)" "ragged_batch (1 checks)" \
  "scan_reverse_product (2 checks)" "scan_no_inputs (3 checks)" "asin_acos_kernel (3 checks)"

"$bin" check "$dir/fail.mlir" >"$tmp/fail.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "fail.mlir exited with $rc, not 1"
f='fail\.mlir'
e="^FAIL .*$f: VERIFY_ERROR: .*$f"
expect_line "$tmp/fail.out" "$e:5:3: chlo\.broadcast_add: operand 1 dimension 0 of size 2 does not broadcast with size 3$"
expect_line "$tmp/fail.out" "$e:12:3: chlo\.broadcast_add: broadcast_dimensions has 2 entries, expected 1 \(the rank of operand 1\)$"
expect_line "$tmp/fail.out" "$e:19:3: chlo\.broadcast_add: broadcast_dimensions\[0\] = 2 is not a dimension of the rank-2 result$"
expect_line "$tmp/fail.out" "$e:25:3: chlo\.broadcast_and: operand #0: element type f32 is not supported by this op$"
expect_line "$tmp/fail.out" "$e:31:3: chlo\.broadcast_compare: missing or malformed attribute 'comparison_direction'$"
expect_line "$tmp/fail.out" "$e:37:3: chlo\.broadcast_select: predicate must have element type i1$"
expect_line "$tmp/fail.out" "$e:43:3: chlo\.constant_like: attribute 'value' must be a typed integer, float or boolean scalar$"
expect_line "$tmp/fail.out" "$e:50:3: chlo\.broadcast_multiply: result type tensor<2x2xf32> does not match inferred tensor<2x3xf32>$"
expect_line "$tmp/fail.out" "$e:57:3: chlo\.broadcast_subtract: operands #0 and #1 must have the same element type, got f32 and f64$"
expect_line "$tmp/fail.out" "$e:65:3: chlo\.ragged_dot: there must be exactly one ragged dimension in the lhs, got 2$"
expect_line "$tmp/fail.out" "$e:73:3: chlo\.ragged_dot: there must be exactly one group dimension in the rhs when the lhs ragged dimension is non-contracting$"
expect_line "$tmp/fail.out" "$e:81:3: chlo\.ragged_dot: rhs group dimension and number of groups: dimension sizes 3 and 2 differ$"
expect_line "$tmp/fail.out" "$e:89:3: chlo\.ragged_dot: group_sizes and lhs dimensions: dimension sizes 3 and 2 differ$"
expect_line "$tmp/fail.out" "$e:97:3: chlo\.ragged_dot: group_sizes \(operand #2\) must have an integer element type, got tensor<2xf32>$"
expect_line "$tmp/fail.out" "$e:104:3: chlo\.scan: scan dimension of operand 0 is out of bounds$"
expect_line "$tmp/fail.out" "$e:114:3: chlo\.scan: body argument #0 has type tensor<2xi32>, but operand #0 gives tensor<4xi32>$"
expect_line "$tmp/fail.out" "$e:124:3: chlo\.scan: body must return 2 values \(1 outputs, 1 carries\), got 1$"
expect_line "$tmp/fail.out" "$e:133:3: chlo\.scan: at least one of inputs or outputs must be present$"
expect_line "$tmp/fail.out" "$e:143:3: chlo\.scan: body carry result and init: types tensor<f32> and tensor<i32> differ$"
expect_line "$tmp/fail.out" "$e:153:3: chlo\._asin_acos_kernel: operand #0: element type f32 is not supported by this op$"
# A kernel's run-time error names the chlo op.
expect_line "$tmp/fail.out" "^FAIL .*$f:main: VERIFY_ERROR: .*$f:160:3: chlo\.broadcast_compare: compare_type UNSIGNED does not apply to i32$"
expect_line "$tmp/fail.out" "^0 passed, 21 failed$"

# Printing: each part of pass.mlir is a fixed point of printing and still passes.
expect_print_fixed_point "$dir/pass.mlir"

# Compiled: the broadcasting ops with a dynamic operand, specialized for the input's shape.
cat >"$tmp/dyn.mlir" <<'MLIR'
func.func @main(%arg0: tensor<?x1xf32>) -> tensor<?x2xf32> {
  %v = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = chlo.broadcast_add %arg0, %v : (tensor<?x1xf32>, tensor<2xf32>) -> tensor<?x2xf32>
  %k = "chlo.constant_like"(%r) {value = 10.0 : f32} : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %s = chlo.broadcast_multiply %r, %k : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  func.return %s : tensor<?x2xf32>
}
MLIR
cat >"$tmp/in.mlir" <<'MLIR'
func.func @main() -> tensor<3x1xf32> {
  %x = stablehlo.constant dense<[[0.0], [1.0], [2.0]]> : tensor<3x1xf32>
  func.return %x : tensor<3x1xf32>
}
MLIR
if "$bin" run "$tmp/in.mlir" --output "$tmp/in" >"$tmp/run.out" 2>&1 &&
  "$bin" run "$tmp/dyn.mlir" --input arg0="$tmp/in/out0.npy" >"$tmp/run.out" 2>&1; then
  expect_line "$tmp/run.out" "10, 20"
  expect_line "$tmp/run.out" "30, 40"
  expect_line "$tmp/run.out" "20, 30"
else
  fail "run of a chlo program: $(cat "$tmp/run.out")"
fi

finish "chlo ops"
