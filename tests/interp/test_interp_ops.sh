#!/usr/bin/env bash
# Interpreter ops beyond the elementwise and data kernels (chlo.mulhi's rejections, and the ops
# added with it): every part of data_ops/fail.mlir fails with the error named here, by file:line:col
# and op.
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
dir="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/tests/interp/data_ops"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# fail MESSAGE: records one failure.
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_line FILE PATTERN: FILE must hold a line matching the extended regex PATTERN.
expect_line() {
  grep -Eq "$2" "$1" || fail "no line matching '$2' in: $(cat "$1")"
}

"$bin" check "$dir/fail.mlir" >"$tmp/fail.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "fail.mlir exited with $rc, not 1"
f='fail\.mlir'
expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:5:3: chlo\.mulhi: operand #0: element type f32 is not supported by this op$"
expect_line "$tmp/fail.out" "^0 passed, 1 failed$"

if [ "$failures" -ne 0 ]; then
  echo "$failures failures" >&2
  exit 1
fi
echo "interpreter ops: all cases as expected"
