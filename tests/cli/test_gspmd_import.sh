#!/usr/bin/env bash
# JAX's pre-Shardy (GSPMD) export of a shard_map (custom calls @Sharding, @SPMDFullToShardShape and
# @SPMDShardToFullShape with HloSharding strings; src/ir/gspmd_import.c): the real 2023 case of
# ../shared/real/vhlo, from its text and its bytecode, run with `hlorun run` on one device and with
# `--spmd` (one thread per device), gives JAX's expected output; `hlorun inspect --ir` shows the
# native form (a module mesh, sdy.manual_computation, no GSPMD custom call), and `hlorun convert`
# writes a portable artifact that runs the same. Skipped (77) without ../shared or numpy.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}
dir=$src/../shared/real/vhlo/tpu_Sharding__data_2023_03_16
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_dir "$dir"
need_numpy

# Runs $1 (with the further flags $3...) on the case's input into $2 and compares with JAX's output.
check_run() {
  local file=$1 out=$2
  shift 2
  if ! timeout 60 "$bin" run "$file" "$@" --input "args[0]=$dir/inputs/arg0.npy" --output "$out" >"$out.log" 2>&1; then
    fail "$file $*: $(cat "$out.log")"
    return
  fi
  npy_equal "$out/out0.npy" "$dir/expected/out0.npy" ||
    fail "$file $*: out0 differs from expected/out0.npy: $(cat "$out.log")"
}

# `hlorun inspect --ir` of $1 shows the native form only.
check_ir() {
  local file=$1 ir=$2
  timeout 60 "$bin" inspect "$file" --ir >"$ir" 2>&1 || fail "$file: inspect --ir: $(cat "$ir")"
  grep -q '^  sdy.mesh @mesh = <\["a"=2\]>$' "$ir" || fail "$file: no module mesh: $(cat "$ir")"
  grep -qF 'mhlo.num_partitions = 2 : i32' "$ir" || fail "$file: no mhlo.num_partitions: $(cat "$ir")"
  grep -qF 'sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"}' "$ir" ||
    fail "$file: no sdy.manual_computation: $(cat "$ir")"
  if grep -qE 'custom_call|SPMDFullToShardShape|SPMDShardToFullShape' "$ir"; then
    fail "$file: the GSPMD form is left: $(cat "$ir")"
  fi
}

for file in module.mlir module.mlirbc; do
  out=$tmp/$file
  check_run "$dir/$file" "$out.one"
  check_run "$dir/$file" "$out.spmd" --spmd
  check_ir "$dir/$file" "$out.ir"
  if timeout 60 "$bin" convert "$dir/$file" "$out.converted.mlirbc" >"$out.convert.log" 2>&1; then
    check_run "$out.converted.mlirbc" "$out.converted.one"
    check_ir "$out.converted.mlirbc" "$out.converted.ir"
  else
    fail "$file: convert: $(cat "$out.convert.log")"
  fi
done

finish "GSPMD shard_map export: runs as JAX ran it (one device and --spmd), reads in the native form, converts"
