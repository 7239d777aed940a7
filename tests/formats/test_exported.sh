#!/usr/bin/env bash
# Serialized jax.export files (../shared/real/exported: serialization versions 4 to 12, 2-device
# shardings, several platforms): `hlorun inspect` shows their metadata and `hlorun run` reads each one by its content, applies the calling
# convention (the platform index bound to the CPU's) and reproduces JAX's expected outputs from
# the case's inputs, computed with its global semantics on one CPU. Each file is also converted
# (`hlorun convert`) to a jax.export file of our writing, once keeping its module and once with the
# module rewritten at StableHLO 1.8: the first inspects the same (but for the module's place and the
# serialization version), and both reproduce the outputs too. Skipped (exit 77) without ../shared.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
dir="$src/../shared/real/exported"
if [ ! -d "$dir" ]; then
  echo "exported cases not found at $dir; skipping"
  exit 77
fi
py=/usr/bin/python3 # Debian's, with python3-numpy (scripts/install-deps.sh)
"$py" -c "import numpy" 2>/dev/null || { echo "python3-numpy is not installed; skipping"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=0 passed=0
for case_dir in "$dir"/*/; do
  name=$(basename "$case_dir")
  cases=$((cases + 1))
  args=()
  for f in "$case_dir"/inputs/arg*.npy; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .npy)
    args+=(--input "${n#arg}=$f")
  done
  # `hlorun inspect` shows what JAX's Exported does.
  "$bin" inspect "$case_dir/exported.bin" >"$tmp/inspect" 2>&1
  for want in "fun_name: " "in_avals: (ShapedArray(" "platforms: (" "nr_devices: 2" "calling_convention_version: " "@main("; do
    grep -qF "$want" "$tmp/inspect" || { echo "FAIL $name: inspect lacks '$want'"; continue 2; }
  done
  if ! "$bin" convert "$case_dir/exported.bin" "$tmp/kept.bin" >/dev/null 2>"$tmp/err" ||
     ! "$bin" convert "$case_dir/exported.bin" "$tmp/rewritten.bin" --target 1.8 >/dev/null 2>>"$tmp/err"; then
    echo "FAIL $name: convert: $(head -c 300 "$tmp/err")"
    continue
  fi
  "$bin" inspect "$tmp/kept.bin" >"$tmp/inspect_kept" 2>&1
  if ! diff <(grep -v '^mlir_module_serialized\|^serialization_version\|^jax_version' "$tmp/inspect") \
            <(grep -v '^mlir_module_serialized\|^serialization_version' "$tmp/inspect_kept") >"$tmp/diff"; then
    echo "FAIL $name: the converted file inspects differently:"; head -n 10 "$tmp/diff"
    continue
  fi
  for file in "$case_dir/exported.bin" "$tmp/kept.bin" "$tmp/rewritten.bin"; do
    rm -rf "$tmp/out"
    if ! "$bin" run "$file" "${args[@]}" --output "$tmp/out" --quiet 2>"$tmp/err"; then
      echo "FAIL $name ($(basename "$file")): $(head -c 300 "$tmp/err")"
      continue 2
    fi
    "$py" - "$case_dir/expected" "$tmp/out" <<'PY' || { echo "FAIL $name ($(basename "$file")): outputs differ"; continue 2; }
import glob, os, sys
import numpy as np
expected, got = sys.argv[1], sys.argv[2]
ok = True
for e in sorted(glob.glob(os.path.join(expected, "*.npy"))):
    g = os.path.join(got, os.path.basename(e))
    if not os.path.exists(g):
        print("missing", os.path.basename(e)); ok = False; continue
    a, b = np.load(e), np.load(g)
    if a.shape != b.shape or a.dtype != b.dtype or not np.allclose(a, b, rtol=1e-6, atol=1e-6):
        print(os.path.basename(e), "differs:", a.dtype, a.shape, b.dtype, b.shape); ok = False
sys.exit(0 if ok else 1)
PY
  done
  passed=$((passed + 1))
done
echo "jax.export files: $passed of $cases reproduce JAX's outputs, as do both their conversions"
[ "$passed" -eq "$cases" ] && [ "$cases" -ge 17 ]
