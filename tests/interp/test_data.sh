#!/usr/bin/env bash
# Data-movement kernels end to end: every program in data_data/ must pass `hlorun check` with
# exactly as many passing checks as it contains check.* calls, and every program in
# data_data/reject/ (hostile run-time values) must fail cleanly with an error, never crash.
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
dir="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/tests/interp/data_data"
failures=0

# fail MESSAGE: records one failure.
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# Programs whose checks must all pass.
for f in "$dir"/*.mlir; do
  want=$(grep -c '@check\.expect' "$f")
  out=$("$bin" check "$f" 2>&1)
  rc=$?
  if [ "$rc" -ne 0 ]; then
    fail "$(basename "$f") exited with $rc: $out"
  elif ! grep -q "^PASS .*($want checks)" <<<"$out"; then
    fail "$(basename "$f") did not run its $want checks: $out"
  fi
done

# Programs that must be rejected with an error message (exit status 1), not a crash.
for f in "$dir"/reject/*.mlir; do
  out=$("$bin" check "$f" 2>&1)
  rc=$?
  expect=$(sed -n 's|^// EXPECT: ||p' "$f")
  if [ "$rc" -ne 1 ]; then
    fail "$(basename "$f") exited with $rc (expected a clean failure): $out"
  elif ! grep -q "^FAIL .*$expect" <<<"$out"; then
    fail "$(basename "$f") failed without the expected message '$expect': $out"
  fi
done

if [ "$failures" -ne 0 ]; then
  echo "$failures failures" >&2
  exit 1
fi
echo "all data-movement programs behaved"
