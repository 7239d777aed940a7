#!/usr/bin/env bash
# Elementwise kernels end to end: every program in data_elementwise/ must pass `hlorun check`
# with exactly as many passing checks as it contains check.* calls. The programs cover edge cases
# the conformance corpus misses: integer overflow, division by zero, shifts, NaN and infinity
# handling, f16/bf16 rounding, every class of convert, bitcast_convert, complex math, the chlo
# special functions, empty tensors, and the narrow types: every f8/f6/f4 type and tf32, i2 and ui2
# (narrow_float*.mlir and subbyte_i2.mlir, written with their expected values by
# narrow_type_cases.py).
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
dir="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/tests/interp/data_elementwise"
failures=0

# fail MESSAGE: records one failure.
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

count=0
for f in "$dir"/*.mlir; do
  count=$((count + 1))
  want=$(grep -c '@check\.expect' "$f")
  out=$("$bin" check "$f" 2>&1)
  rc=$?
  if [ "$rc" -ne 0 ]; then
    fail "$(basename "$f") exited with $rc: $out"
  elif ! grep -q "^PASS .*($want checks)" <<<"$out"; then
    fail "$(basename "$f") did not run its $want checks: $out"
  fi
done
if [ "$count" -eq 0 ]; then
  fail "no programs found in $dir"
fi

# The generated programs are what their generator writes today.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$HLORUN_SOURCE_DIR/tests/interp/narrow_type_cases.py" --out "$tmp"
for f in "$tmp"/*.mlir; do
  cmp -s "$f" "$dir/$(basename "$f")" || fail "$(basename "$f") differs from what narrow_type_cases.py writes"
done

if [ "$failures" -ne 0 ]; then
  echo "$failures failures" >&2
  exit 1
fi
echo "all $count elementwise programs passed"
