#!/usr/bin/env bash
# Runs the reduce kernel group's hand-written StableHLO programs (tests/interp/data_reduce):
# every *.mlir must pass `hlorun check`, and every errors/*.mlir must fail with the message named
# on its "// ERROR:" line.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}
dir=${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/tests/interp/data_reduce
passed=0
failed=0

for f in "$dir"/*.mlir; do
  if out=$("$bin" check "$f" 2>&1); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $f"
    echo "$out"
  fi
done

for f in "$dir"/errors/*.mlir; do
  want=$(sed -n 's#^// ERROR: ##p' "$f" | head -n 1)
  out=$("$bin" check "$f" 2>&1)
  rc=$?
  if [ "$rc" -ne 0 ] && [ -n "$want" ] && grep -qF -- "$want" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $f: expected an error containing '$want' (exit $rc)"
    echo "$out"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
