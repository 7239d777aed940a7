#!/usr/bin/env bash
# deepmd-kit's jax2tf SavedModel (../shared/real/jax2tf-savedmodel/deepmd_deeppot_sea, no
# SignatureDef) through the hlorun command: `inspect` lists its object-graph functions; its
# call_lower_atomic_virial and call_lower functions run (`run --signature NAME`, compiled and
# interpreted) on the inputs deepmd-kit's C++ JAX backend builds for the system of its C++ test
# (ghost atoms and neighbour list: tests/cli/deepmd_nlist.py), and the results, folded back onto
# the local atoms, match the test's references within its tolerance (1e-10); a neighbour list
# wider than sum(sel) = 138 takes the branch hlorun does not run (the model's own sort) and fails
# naming it; `call` (which builds the neighbour list in TF ops) is refused naming an op.
# Skipped (77) without ../shared or numpy.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
case=$src/../shared/real/jax2tf-savedmodel/deepmd_deeppot_sea
py=/usr/bin/python3 # Debian's, with python3-numpy (scripts/install-deps.sh)
[ -d "$case/saved_model" ] || { echo "$case not found; skipping"; exit 77; }
"$py" -c "import numpy" 2>/dev/null || { echo "python3-numpy is not installed; skipping"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
model=$case/saved_model
ref=$case/reference_from_cc_tests.json
nlist=$src/tests/cli/deepmd_nlist.py

# inspect: the functions of the object graph
if "$bin" inspect "$model" >"$tmp/inspect" 2>&1 && grep -qF "function 'call_lower_atomic_virial'" "$tmp/inspect" &&
   grep -qF "function 'call_lower'" "$tmp/inspect"; then
  pass
else
  fail "inspect: $(cat "$tmp/inspect")"
fi

# the inputs DeepPotJAX builds: extended coordinates, neighbour list, mapping
if ! "$py" "$nlist" inputs "$ref" "$tmp"; then
  echo "FAIL: $nlist could not build the inputs"
  exit 1
fi
inputs=()
for name in coord atype nlist mapping fparam aparam; do inputs+=(--input "$name=$tmp/$name.npy"); done

# run FUNCTION MODE: runs the function (MODE: compiled or --interpret), compares its results
run() {
  local fn=$1 out=$tmp/$1$2 how=compare
  [ "$fn" = call_lower_atomic_virial ] && how=compare-atomic
  if "$bin" run "$model" --signature "$fn" $2 "${inputs[@]}" --output "$out" --quiet >"$tmp/run" 2>&1 &&
     "$py" "$nlist" "$how" "$ref" "$tmp" "$out"; then
    pass
  else
    fail "$fn $2: $(cat "$tmp/run")"
  fi
}
run call_lower_atomic_virial ""
run call_lower_atomic_virial --interpret
run call_lower ""

# a neighbour list wider than sum(sel): the model sorts it in TF ops hlorun does not run
"$py" -c "import numpy, sys; n = numpy.load(sys.argv[1]); w = numpy.full((1, n.shape[1], 140), -1, numpy.int64); \
w[:, :, :n.shape[2]] = n; numpy.save(sys.argv[2], w)" "$tmp/nlist.npy" "$tmp/wide.npy"
wide=()
for name in coord atype mapping fparam aparam; do wide+=(--input "$name=$tmp/$name.npy"); done
"$bin" run "$model" --signature call_lower "${wide[@]}" --input nlist="$tmp/wide.npy" >"$tmp/out_wide" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "takes branch cond_cond_true" "$tmp/err" &&
   grep -qF "only jax2tf native-serialization graphs" "$tmp/err"; then
  pass
else
  fail "a list of 140 neighbours: exit $rc: $(cat "$tmp/err")"
fi

# call builds the neighbour list itself, in TF ops hlorun does not lower
"$bin" run "$model" --signature call >"$tmp/out_call" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -qF "only jax2tf native-serialization graphs" "$tmp/err"; then
  pass
else
  fail "call: exit $rc: $(cat "$tmp/err")"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
