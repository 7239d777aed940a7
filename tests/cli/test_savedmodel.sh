#!/usr/bin/env bash
# A jax2tf SavedModel with a variable, end to end through the hlorun command: the directory that
# tests/formats/test_savedmodel.c builds (saved_model.pb computing y = x * w, variables/ holding
# w = [1, 2, 3]; its test binary writes it under HLORUN_WRITE_SAVEDMODEL) lists its signature
# (`inspect`), runs with w restored from variables/ (`run`: x = [2, 2, 2] gives [2, 4, 6]), and a
# signature it lacks fails with one line naming it. Skipped (77) without numpy.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
py=/usr/bin/python3 # Debian's, with python3-numpy (scripts/install-deps.sh)
"$py" -c "import numpy" 2>/dev/null || { echo "python3-numpy is not installed; skipping"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

model="$tmp/saved_model"
if ! HLORUN_WRITE_SAVEDMODEL="$model" "$(dirname "$bin")/formats_test_savedmodel"; then
  echo "FAIL: formats_test_savedmodel could not write the SavedModel"
  exit 1
fi

# inspect: the serving signature and its input
if "$bin" inspect "$model" >"$tmp/inspect" 2>&1 && grep -qF "signature 'serving_default'" "$tmp/inspect" &&
   grep -qE "^ +x: DT_FLOAT" "$tmp/inspect"; then
  pass
else
  fail "inspect: $(cat "$tmp/inspect")"
fi

# run: the variable comes from variables/, x from a .npy file
"$py" -c "import numpy, sys; numpy.save(sys.argv[1], numpy.full(3, 2, numpy.float32))" "$tmp/x.npy"
if "$bin" run "$model" --input x="$tmp/x.npy" --output "$tmp/out" >"$tmp/run" 2>&1 &&
   "$py" - "$tmp/out/out0.npy" <<'PY'; then
import sys, numpy
y = numpy.load(sys.argv[1])
sys.exit(0 if y.dtype == numpy.float32 and y.tolist() == [2, 4, 6] else 1)
PY
  pass
else
  fail "run: $(cat "$tmp/run")"
fi

# a signature the model lacks: exit 1, one line naming it
"$bin" run "$model" --signature nope >"$tmp/out_nope" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "no signature 'nope'" "$tmp/err"; then
  pass
else
  fail "--signature nope: exit $rc: $(cat "$tmp/err")"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
