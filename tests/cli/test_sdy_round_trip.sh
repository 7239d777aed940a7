#!/usr/bin/env bash
# JAX's exports of shard_map in Shardy's round-trip form (custom calls @xla.sdy.GlobalToLocalShape
# and @xla.sdy.LocalToGlobalShape around a call of a body function, meshes and shardings in
# strings; src/ir/sdy_round_trip.c): the two real cases of ../shared/real/vhlo, from their text and
# their bytecode, run with `hlorun run` and give JAX's expected output, and `hlorun inspect --ir`
# shows them in the native form; `hlorun convert` writes them as portable artifacts that do the same.
# Skipped (77) without ../shared or numpy.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}
cases=$src/../shared/real/vhlo
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_dir "$cases"
need_numpy

# Runs $1 on $2's input and compares its output with JAX's; `hlorun inspect --ir` must show it
# in the native form.
check_file() {
  local file=$1 dir=$2 out=$3
  if ! timeout 60 "$bin" run "$file" --input "arg0=$dir/inputs/arg0.npy" --output "$out" >"$out.log" 2>&1; then
    fail "$file: $(cat "$out.log")"
    return
  fi
  npy_equal "$out/out0.npy" "$dir/expected/out0.npy" ||
    fail "$file: out0 differs from expected/out0.npy: $(cat "$out.log")"
  timeout 60 "$bin" inspect "$file" --ir >"$out.ir" 2>&1 || fail "$file: inspect --ir: $(cat "$out.ir")"
  grep -q '^  sdy.mesh @mesh = <\["a"=2\]>$' "$out.ir" || fail "$file: no module mesh: $(cat "$out.ir")"
  grep -qF 'sdy.manual_computation(' "$out.ir" || fail "$file: no sdy.manual_computation: $(cat "$out.ir")"
  if grep -qE 'xla\.sdy|custom_call|manual_computation_body' "$out.ir"; then
    fail "$file: the round-trip form is left: $(cat "$out.ir")"
  fi
}

# The 2023 form (shardings on the custom calls) and the early-2025 form (on the call, escaped twice),
# each also converted to a portable artifact (written in the native form: sdy ops, Shardy
# attributes in MLIR's text) and run from that.
for name in tpu_Sharding__data_2023_03_16_shardy shardy_sharding_ops_with_different_meshes__data_2025_02_12; do
  dir=$cases/$name
  for file in module.mlir module.mlirbc; do
    check_file "$dir/$file" "$dir" "$tmp/$name.$file"
    converted=$tmp/$name.$file.converted.mlirbc
    if timeout 60 "$bin" convert "$dir/$file" "$converted" >"$converted.log" 2>&1; then
      check_file "$converted" "$dir" "$converted.run"
    else
      fail "$name/$file: convert: $(cat "$converted.log")"
    fi
  done
done

finish "Shardy round-trip exports: both run as JAX ran them, read in the native form, and convert to bytecode"
