#!/usr/bin/env bash
# JAX export payloads (../shared/real/vhlo: the bytes jax.export and XlaCallModule carry, with the
# text JAX printed for the same module): every case's bytecode reads, `hlorun inspect --ir` prints
# the same module from it and from its text, and the cases without custom calls (Shardy's
# shard_map over 2 devices) reproduce JAX's outputs from both, run with their global meaning on one
# CPU. Skipped (exit 77) without ../shared.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
dir="$src/../shared/real/vhlo"
if [ ! -d "$dir" ]; then
  echo "vhlo cases not found at $dir; skipping"
  exit 77
fi
py=/usr/bin/python3 # Debian's, with python3-numpy (scripts/install-deps.sh)
"$py" -c "import numpy" 2>/dev/null || { echo "python3-numpy is not installed; skipping"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Cases whose printed forms differ for a known reason, with the reason.
declare -A known=(
  [cuda_cusolver_syev__data_2023_03_17_f32_syevj]="its text went through a Python string literal, where the escape of byte 8 became a NUL and a digit 8"
  [cuda_cusolver_syev__data_2023_03_17_f64_syevj]="its text went through a Python string literal, where the escape of byte 8 became a NUL and a digit 8"
  [tpu_Sharding__data_2023_03_16]="the channel type (1) is in the text but not in VHLO's collective_permute_v1"
)
# Runs `model` on the case's inputs and compares the outputs with JAX's (exit status 0 when equal).
reproduces() {
  local case_dir=$1 model=$2 args=()
  for f in "$case_dir"/inputs/arg*.npy; do
    [ -f "$f" ] && args+=(--input "$(basename "$f" .npy)=$f")
  done
  rm -rf "$tmp/out"
  "$bin" run "$model" "${args[@]}" --output "$tmp/out" --quiet 2>"$tmp/err" || { head -c 300 "$tmp/err"; return 1; }
  "$py" - "$case_dir/expected" "$tmp/out" <<'PY'
import glob, os, sys
import numpy as np
ok = True
for e in sorted(glob.glob(os.path.join(sys.argv[1], "*.npy"))):
    g = os.path.join(sys.argv[2], os.path.basename(e))
    if not os.path.exists(g) or not np.array_equal(np.load(e), np.load(g)):
        print(os.path.basename(e), "differs"); ok = False
sys.exit(0 if ok else 1)
PY
}
ran=0
read_ok=0 same=0 compared=0 failed=0
for case_dir in "$dir"/*/; do
  name=$(basename "$case_dir")
  if ! "$bin" inspect --ir --out "$tmp/bc.mlir" "$case_dir/module.mlirbc" >/dev/null 2>"$tmp/err"; then
    echo "FAIL $name: $(head -c 300 "$tmp/err")"
    failed=$((failed + 1))
    continue
  fi
  read_ok=$((read_ok + 1))
  if grep -q '"custom_call_targets": \[\]' "$case_dir/meta.json" && [ -d "$case_dir/expected" ]; then
    for model in module.mlirbc module.mlir; do
      if ! msg=$(reproduces "$case_dir" "$case_dir/$model"); then
        echo "FAIL $name ($model): $msg"
        failed=$((failed + 1))
      fi
    done
    ran=$((ran + 1))
  fi
  "$bin" inspect --ir --out "$tmp/text.mlir" "$case_dir/module.mlir" >/dev/null 2>&1 || continue
  compared=$((compared + 1))
  if cmp -s "$tmp/text.mlir" "$tmp/bc.mlir"; then
    same=$((same + 1))
  elif [ -z "${known[$name]:-}" ]; then
    echo "FAIL $name: text and bytecode print differently:"
    diff "$tmp/text.mlir" "$tmp/bc.mlir" | head -6 | cut -c1-300
    failed=$((failed + 1))
  fi
done
# `hlorun inspect` names a portable artifact's producer and bytecode version.
"$bin" inspect "$dir/cpu_eig_lapack_geev__data_2024_08_19_f32/module.mlirbc" >"$tmp/inspect" 2>&1
if ! grep -qF "StableHLO portable artifact: producer StableHLO_v0.9.0, MLIR bytecode version 0" "$tmp/inspect"; then
  echo "FAIL inspect: $(head -c 300 "$tmp/inspect")"
  failed=$((failed + 1))
fi
echo "vhlo cases: $read_ok bytecode files read; $compared with a text twin hlorun parses, $same printing the same; $ran without custom calls reproduce JAX's outputs"
[ "$failed" -eq 0 ] && [ "$read_ok" -ge 153 ] && [ "$same" -ge 150 ] && [ "$ran" -ge 2 ]
