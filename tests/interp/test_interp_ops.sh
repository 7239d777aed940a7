#!/usr/bin/env bash
# Interpreter ops beyond the elementwise and data kernels: chlo.mulhi's rejections, tuples,
# get_tuple_element, tokens (after_all), optimization_barrier over every kind of value, composites, interpreter.print (its
# output checked line by line) and interpreter.probe with check.expect_serialized_eq. Every case of data_ops/pass.mlir passes
# with its count of checks, every part of data_ops/fail.mlir fails with the error named here, by
# file:line:col and op, and the printed form of pass.mlir is a fixed point that still passes.
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
dir="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/tests/interp/data_ops"
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"

expect_all_pass "$dir/pass.mlir" "tuple_nested (3 checks)" "tuple_through_call (2 checks)" "composite_two_results (2 checks)" "probe_loop (4 checks)" "print_values (0 checks)" "barrier_values (3 checks)"
# interpreter.print writes as StableHLO's interpreter does: the value's name, type, nested rows.
printed=$(grep -A22 '^%m = ' "$tmp/pass.out" | grep -Ev '^PASS|passed, ')
want='%m = tensor<2x2xi8> {
  [
    [1, 2],
    [3, -4]
  ]
}
%s = tensor<ui8> {7}
%e = tensor<2x0xf32> {
  [
    [],
    []
  ]
}
%f = tensor<2xi1> {
  [true, false]
}
%g = tensor<2xf64> {
  [1.500000e+00, -2.500000e-01]
}'
[ "$printed" = "$want" ] || fail "interpreter.print wrote: $printed"

"$bin" check "$dir/fail.mlir" >"$tmp/fail.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "fail.mlir exited with $rc, not 1"
f='fail\.mlir'
expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:5:3: chlo\.mulhi: operand #0: element type f32 is not supported by this op$"
expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:12:3: stablehlo\.get_tuple_element: index 1 is outside \[0, 1\)$"
expect_line "$tmp/fail.out" "^FAIL .*$f:composite_no_function: NOT_FOUND: .*$f:18:3: stablehlo\.composite: no function @missing \(the decomposition\)$"
expect_line "$tmp/fail.out" "^FAIL .*$f:composite_wrong_type: VERIFY_ERROR: .*$f:28:3: stablehlo\.composite: result 0 has an unexpected type or shape$"
expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:35:3: stablehlo\.optimization_barrier: result #1 type tensor<i64> does not match inferred tensor<i32>$"
expect_line "$tmp/fail.out" "^FAIL .*$f:probe_mismatch: CHECK_FAILED: .*$f:43:3: check\.expect_serialized_eq: check failed: 1 of 2 elements differ; first at \[1\]: actual 3, expected 2$"
expect_line "$tmp/fail.out" "^FAIL .*$f:probe_no_iteration: CHECK_FAILED: .*$f:50:3: check\.expect_serialized_eq: check failed: probe \"a\" recorded 1 values, none for iteration 1$"
expect_line "$tmp/fail.out" "^FAIL .*$f:probe_other_type: VERIFY_ERROR: .*$f:58:3: check\.expect_serialized_eq: .*element types differ \(i64 vs i32\)$"
expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:64:3: interpreter\.probe: missing 'probe_id'$"
expect_line "$tmp/fail.out" "^0 passed, 9 failed$"

# Printing: each part of pass.mlir is a fixed point of printing and still passes.
expect_print_fixed_point "$dir/pass.mlir"

# Compiled, optimization_barrier fills the executable's buffers with its operands.
cat >"$tmp/barrier.mlir" <<'MLIR'
func.func @main() -> tensor<3xi32> {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.add %a, %a : tensor<3xi32>
  %r:2 = stablehlo.optimization_barrier %b, %a : tensor<3xi32>, tensor<3xi32>
  %s = stablehlo.add %r#0, %r#1 : tensor<3xi32>
  func.return %s : tensor<3xi32>
}
MLIR
"$bin" run "$tmp/barrier.mlir" >"$tmp/barrier.out" 2>&1 || fail "compiled barrier: $(cat "$tmp/barrier.out")"
expect_line "$tmp/barrier.out" "^\[3, 6, 9\]$"

finish "interpreter ops"
