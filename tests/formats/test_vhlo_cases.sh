#!/usr/bin/env bash
# JAX export payloads (../shared/real/vhlo: the bytes jax.export and XlaCallModule carry, with the
# text JAX printed for the same module): every case's bytecode reads, and where hlorun parses its
# text, `hlorun inspect --ir` prints the same module from both. Skipped (exit 77) without ../shared.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
dir="$src/../shared/real/vhlo"
if [ ! -d "$dir" ]; then
  echo "vhlo cases not found at $dir; skipping"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Cases whose printed forms differ for a known reason, with the reason.
declare -A known=(
  [cpu_lu_lapack_getrf__data_2023_06_14_c64]="2023 text spells gather slice_sizes as dense<...>, today's StableHLO as array<i64>"
  [cpu_lu_lapack_getrf__data_2023_06_14_f64]="2023 text spells gather slice_sizes as dense<...>, today's StableHLO as array<i64>"
  [tpu_Sharding__data_2023_03_16]="the channel type (1) is in the text but not in VHLO's collective_permute_v1"
)
# What hlorun does not read yet: cases failing with this are counted apart (Shardy's casts between
# global and local shapes).
unsupported="builtin.unrealized_conversion_cast: not a VHLO operation"
read_ok=0 same=0 compared=0 failed=0 skipped=0
for case_dir in "$dir"/*/; do
  name=$(basename "$case_dir")
  if ! "$bin" inspect --ir --out "$tmp/bc.mlir" "$case_dir/module.mlirbc" >/dev/null 2>"$tmp/err"; then
    if grep -qF "$unsupported" "$tmp/err"; then
      skipped=$((skipped + 1))
      continue
    fi
    echo "FAIL $name: $(head -c 300 "$tmp/err")"
    failed=$((failed + 1))
    continue
  fi
  read_ok=$((read_ok + 1))
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
echo "vhlo cases: $read_ok bytecode files read ($skipped with $unsupported); $compared with a text twin hlorun parses, $same printing the same"
[ "$failed" -eq 0 ] && [ "$read_ok" -ge 140 ] && [ "$same" -ge 110 ]
