#!/usr/bin/env bash
# `hlorun convert MODEL DIR --to savedmodel --weights W`: the TinyTransformer (examples/) written as
# the SavedModel jax2tf writes, its parameters as variables. The directory inspects as a serving
# signature over the tokens, runs with the variables restored from variables/ to exactly the logits
# of the module run with the safetensors weights, and its saved_model.pb has, field by field, the
# layout of a SavedModel TensorFlow wrote (tests/formats/savedmodel_layout.py against jax2tf's
# own in ../shared/real, when present). Bad requests fail with one clear line. Skipped (77)
# without numpy.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
py=/usr/bin/python3 # Debian's, with python3-numpy (scripts/install-deps.sh)
"$py" -c "import numpy" 2>/dev/null || { echo "python3-numpy is not installed; skipping"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

tt="$py $src/tools/tiny_transformer/tiny_transformer.py"
model=$src/examples/tiny_transformer/model.mlir
$tt weights "$tmp/w.safetensors" >/dev/null && $tt tokens "$tmp/tokens.npy" --batch 2 >/dev/null || {
  echo "FAIL: could not make the weights"; exit 1; }

if "$bin" convert "$model" "$tmp/sm/1" --to savedmodel --weights "$tmp/w.safetensors" >"$tmp/convert" 2>&1 &&
   grep -qF "1 signature inputs, 69 variables" "$tmp/convert" && [ -s "$tmp/sm/1/saved_model.pb" ] &&
   [ -s "$tmp/sm/1/variables/variables.index" ] && [ -s "$tmp/sm/1/variables/variables.data-00000-of-00001" ]; then
  pass
else
  fail "convert: $(cat "$tmp/convert")"
fi

# inspect: serving_default over the tokens, as TF names its tensors
if "$bin" inspect "$tmp/sm/1" >"$tmp/inspect" 2>&1 &&
   grep -qE "^ +tokens: DT_INT32 \[-1,256\] \(serving_default_tokens:0\)" "$tmp/inspect" &&
   grep -qE "^ +output_0: DT_FLOAT \[-1,256,256\] \(StatefulPartitionedCall:0\)" "$tmp/inspect" &&
   grep -qF "version 9" "$tmp/inspect"; then
  pass
else
  fail "inspect: $(head -20 "$tmp/inspect")"
fi

# run: the same logits, bit for bit, as the module with the safetensors weights
if "$bin" run "$tmp/sm/1" --input tokens="$tmp/tokens.npy" --output "$tmp/out_sm" --quiet >"$tmp/run" 2>&1 &&
   "$bin" run "$model" --weights "$tmp/w.safetensors" --input tokens="$tmp/tokens.npy" --output "$tmp/out_ref" --quiet \
     >>"$tmp/run" 2>&1 &&
   "$py" - "$tmp/out_sm/out0.npy" "$tmp/out_ref/out0.npy" <<'PY' >>"$tmp/run" 2>&1; then
import sys, numpy
a, b = numpy.load(sys.argv[1]), numpy.load(sys.argv[2])
print(a.shape, float(abs(a - b).max()))
sys.exit(0 if a.shape == (2, 256, 256) and (a == b).all() else 1)
PY
  pass
else
  fail "run: $(cat "$tmp/run")"
fi

# field by field against the SavedModel jax2tf wrote
real=$src/../shared/real/jax2tf-savedmodel/tf_call_tf_function__data_2023_07_29/saved_model/saved_model.pb
if [ -f "$real" ]; then
  if "$py" "$src/tests/formats/savedmodel_layout.py" "$tmp/sm/1/saved_model.pb" "$real" >"$tmp/layout" 2>&1; then
    pass
  else
    fail "layout: $(grep -E 'UNEXPLAINED|unexplained' "$tmp/layout")"
  fi
else
  echo "../shared is absent: the field-by-field comparison is skipped"
fi

# refused: --weights for another form; a weight file that does not fit the parameters
"$bin" convert "$model" "$tmp/x.mlir" --weights "$tmp/w.safetensors" >/dev/null 2>"$tmp/err1"
rc1=$?
"$bin" convert "$model" "$tmp/sm/2" --to savedmodel --weights "$tmp/tokens.npy" >/dev/null 2>"$tmp/err2"
rc2=$?
if [ $rc1 -ne 0 ] && grep -qF -- "--weights applies to --to savedmodel" "$tmp/err1" && [ $rc2 -ne 0 ] &&
   [ "$(wc -l <"$tmp/err2")" -eq 1 ] && [ ! -e "$tmp/sm/2/saved_model.pb" ]; then
  pass
else
  fail "refusals: $rc1 $(cat "$tmp/err1") / $rc2 $(cat "$tmp/err2")"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
