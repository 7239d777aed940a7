#!/usr/bin/env bash
# The check dialect's ops (check.expect_eq, expect_eq_const, expect_almost_eq,
# expect_almost_eq_const, expect_close) and `hlorun check` on lit files split at `// -----`:
# every case of data_check/pass.mlir passes with its count of checks, every case of
# data_check/fail.mlir fails with its message (a parse error naming the file's own line), the
# parts of data_check/invalid.mlir are rejected by the verifier, and the
# printed form of the ops parses back to the same text and still passes.
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
dir="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/tests/interp/data_check"
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"

expect_all_pass "$dir/pass.mlir" "eq (2 checks)" "eq_nan (1 checks)" "almost_eq (5 checks)" "close (2 checks)" "main (2 checks)"
grep -q "helper" "$tmp/pass.out" && fail "a private function was run as a test case"

"$bin" check "$dir/fail.mlir" >"$tmp/fail.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "fail.mlir exited with $rc, not 1"
f='fail\.mlir'
expect_line "$tmp/fail.out" "^FAIL .*$f:eq: CHECK_FAILED: .*$f:7:3: check\.expect_eq: check failed: 1 of 3 elements differ; first at \[2\]: actual 3, expected 4$"
expect_line "$tmp/fail.out" "^FAIL .*$f:eq_const: CHECK_FAILED: .*$f:13:3: check\.expect_eq_const: check failed: 1 of 4 elements differ; first at \[1, 1\]: actual 4, expected 5$"
expect_line "$tmp/fail.out" "^FAIL .*$f:almost_eq: CHECK_FAILED: .*$f:22:3: check\.expect_almost_eq: check failed: .*first at \[1\]"
expect_line "$tmp/fail.out" "^FAIL .*$f:almost_eq_tolerance: CHECK_FAILED: .*$f:29:3: .*first at \[0\]"
expect_line "$tmp/fail.out" "^FAIL .*$f:almost_eq_const: CHECK_FAILED: .*$f:35:3: .*actual nan, expected 1$"
expect_line "$tmp/fail.out" "^FAIL .*$f:close: CHECK_FAILED: .*$f:44:3: check\.expect_close: .*\(ULP difference 2, allowed 0\.\.1\)$"
expect_line "$tmp/fail.out" "^FAIL .*$f:close_min: CHECK_FAILED: .*$f:50:3: .*\(ULP difference 0, allowed 1\.\.4\)$"
expect_line "$tmp/fail.out" "^FAIL .*$f: PARSE_ERROR: .*$f:58:29: "
expect_line "$tmp/fail.out" "^0 passed, 8 failed$"

"$bin" check "$dir/invalid.mlir" >"$tmp/invalid.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "invalid.mlir exited with $rc, not 1"
f='invalid\.mlir'
expect_line "$tmp/invalid.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:5:3: check\.expect_almost_eq: operands must have float or complex elements, not i32$"
expect_line "$tmp/invalid.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:11:3: check\.expect_eq_const: 'value' has type tensor<2xi32> but the operand has type tensor<i32>$"
expect_line "$tmp/invalid.out" "^0 passed, 2 failed$"

# Printing: the parts of pass.mlir as one module, converted to text twice, give the same text,
# which spells the ops in their own syntax and still passes.
grep -v '^// -----$' "$dir/pass.mlir" >"$tmp/one.mlir"
if "$bin" convert "$tmp/one.mlir" "$tmp/a.mlir" --to text >"$tmp/convert.out" 2>&1 &&
  "$bin" convert "$tmp/a.mlir" "$tmp/b.mlir" --to text >>"$tmp/convert.out" 2>&1; then
  cmp -s "$tmp/a.mlir" "$tmp/b.mlir" || fail "printing is not a fixed point: $(diff "$tmp/a.mlir" "$tmp/b.mlir")"
  expect_line "$tmp/a.mlir" "check\.expect_close %[0-9a-z_]+, %[0-9a-z_]+, max_ulp_difference = 1 : tensor<4xf16>, tensor<4xf16>$"
  expect_line "$tmp/a.mlir" "check\.expect_close .*, max_ulp_difference = 3 \{min_ulp_difference = 2 : ui64\} : "
  expect_line "$tmp/a.mlir" "check\.expect_eq_const %[0-9a-z_]+, dense<\[1, -2, 3\]> : tensor<3xi32>$"
  expect_line "$tmp/a.mlir" "check\.expect_almost_eq %[0-9a-z_]+, %[0-9a-z_]+ \{tolerance = 1\.0+e-03 : f64\} : tensor<2xf64>$"
  "$bin" check "$tmp/a.mlir" >"$tmp/a.out" 2>&1 || fail "the printed module does not pass: $(cat "$tmp/a.out")"
else
  fail "convert failed: $(cat "$tmp/convert.out")"
fi

finish "check ops"
