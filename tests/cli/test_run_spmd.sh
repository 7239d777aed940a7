#!/usr/bin/env bash
# hlorun run of a module of one device's code for two devices (mhlo.num_partitions = 2, an SPMD
# program): its inputs are named NAME@DEVICE, the devices' all_reduce sums their inputs on both,
# partition_id is each device's; a missing device input, compile and export are clean errors; the
# same module with a Shardy mesh is a global program and runs on one device. With --spmd a global
# program's shard_map bodies run one device per thread and give what the one-device run gives
# (a module here, and JAX's exported shard_map in ../shared/real when present).
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

module() { # module HEADER_EXTRA: the two-device module, with HEADER_EXTRA inside its body
  cat <<MLIR
module attributes {mhlo.num_partitions = 2 : i32} {
  $1
  func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<ui32>) {
    %s = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<3xf32>) -> tensor<3xf32>
    %p = stablehlo.partition_id : tensor<ui32>
    return %s, %p : tensor<3xf32>, tensor<ui32>
  }
}
MLIR
}
module "" >"$tmp/spmd.mlir"

# Generated inputs for both devices (arg0@0, arg0@1): four results, device after device.
timeout 60 "$bin" run "$tmp/spmd.mlir" --batch 1 --output "$tmp/a" >"$tmp/a.out" 2>&1 || fail "run --batch: $(cat "$tmp/a.out")"
grep -A1 '^result 1: tensor<ui32>' "$tmp/a.out" | grep -qx 0 || fail "device 0's partition_id is not 0: $(cat "$tmp/a.out")"
grep -A1 '^result 3: tensor<ui32>' "$tmp/a.out" | grep -qx 1 || fail "device 1's partition_id is not 1: $(cat "$tmp/a.out")"
[ "$(grep -A1 '^result 0:' "$tmp/a.out" | tail -1)" = "$(grep -A1 '^result 2:' "$tmp/a.out" | tail -1)" ] ||
  fail "the devices' all_reduce results differ: $(cat "$tmp/a.out")"

# Inputs by name and device: the sums fed back in sum to twice as much, on both devices.
timeout 60 "$bin" run "$tmp/spmd.mlir" --input "arg0@0=$tmp/a/out0.npy" --input "arg0@1=$tmp/a/out2.npy" \
  --output "$tmp/b" --quiet >"$tmp/b.out" 2>&1 || fail "run --input NAME@D: $(cat "$tmp/b.out")"
timeout 60 "$bin" run "$tmp/spmd.mlir" --input "arg0@0=$tmp/b/out0.npy" --input "arg0@1=$tmp/a/out0.npy" \
  >/dev/null 2>&1 || fail "run on the sums"

# expect_error FILE TEXT CMD...: CMD exits 1 with TEXT in its output (kept in FILE).
expect_error() {
  local out=$1 want=$2
  shift 2
  "$@" >"$out" 2>&1
  local rc=$?
  if [ "$rc" -ne 1 ] || ! grep -qF -- "$want" "$out"; then fail "$*: exit $rc, $(cat "$out")"; fi
}
expect_error "$tmp/c.out" "missing --input for 'arg0@1'" "$bin" run "$tmp/spmd.mlir" --input "arg0@0=$tmp/a/out0.npy"
expect_error "$tmp/d.out" "one device's code for several devices" "$bin" compile "$tmp/spmd.mlir" -o "$tmp/x.hlox"
expect_error "$tmp/e.out" "one device's code for several devices" "$bin" export "$tmp/spmd.mlir" -o "$tmp/x.hlo"

# With a mesh the module is a global program: one device, two results, partition_id 0.
module 'sdy.mesh @mesh = <["x"=2]>' >"$tmp/global.mlir"
timeout 60 "$bin" run "$tmp/global.mlir" --batch 1 >"$tmp/f.out" 2>&1 || fail "global program: $(cat "$tmp/f.out")"
if grep -q '^result 2:' "$tmp/f.out"; then fail "the global program ran on two devices: $(cat "$tmp/f.out")"; fi

# --spmd: a global program with a shard_map body (each device negates its rows, adds its partition
# id, and the rows' sum is all-reduced) gives the one-device expansion's results.
cat >"$tmp/shard_map.mlir" <<'MLIR'
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
    %0:2 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}]>] manual_axes={"x"} (%a: tensor<2x3xf32>) {
      %p = stablehlo.partition_id : tensor<ui32>
      %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
      %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
      %n = stablehlo.negate %a : tensor<2x3xf32>
      %r = stablehlo.add %n, %b : tensor<2x3xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
      %t = "stablehlo.all_reduce"(%s) ({
      ^bb0(%u: tensor<f32>, %v: tensor<f32>):
        %w = stablehlo.add %u, %v : tensor<f32>
        stablehlo.return %w : tensor<f32>
      }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<3xf32>) -> tensor<3xf32>
      sdy.return %r, %t : tensor<2x3xf32>, tensor<3xf32>
    } : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
    return %0#0, %0#1 : tensor<4x3xf32>, tensor<3xf32>
  }
}
MLIR
timeout 60 "$bin" run "$tmp/shard_map.mlir" --batch 1 --output "$tmp/g1" >"$tmp/g1.out" 2>&1 ||
  fail "shard_map on one device: $(cat "$tmp/g1.out")"
timeout 60 "$bin" run "$tmp/shard_map.mlir" --spmd --input "arg0=$tmp/g1/out0.npy" >"$tmp/g2.out" 2>&1 ||
  fail "shard_map --spmd: $(cat "$tmp/g2.out")"
timeout 60 "$bin" run "$tmp/shard_map.mlir" --input "arg0=$tmp/g1/out0.npy" >"$tmp/g3.out" 2>&1 ||
  fail "shard_map on one device, again: $(cat "$tmp/g3.out")"
cmp -s "$tmp/g2.out" "$tmp/g3.out" || fail "--spmd differs from one device: $(cat "$tmp/g2.out") vs $(cat "$tmp/g3.out")"
grep -q '^result 2:' "$tmp/g2.out" && fail "--spmd printed every device's results: $(cat "$tmp/g2.out")"
timeout 120 "$bin" bench "$tmp/shard_map.mlir" --spmd --no-throughput --jit-calls 3 >"$tmp/g4.out" 2>&1 ||
  fail "bench --spmd: $(cat "$tmp/g4.out")"
module "" | sed 's/mhlo.num_partitions = 2/mhlo.num_partitions = 1/' >"$tmp/one.mlir"
expect_error "$tmp/g6.out" "is written for one device" "$bin" run "$tmp/one.mlir" --spmd --batch 1

# JAX's exports of a shard_map (a collective_permute swapping the rows of two devices), in
# Shardy's native form and in its round-trip form (2023 and early 2025), when the shared real
# files are there.
ran=0
for case in shardy_sharding_ops_with_different_meshes__data_2025_06_30 tpu_Sharding__data_2025_06_30_shardy \
  shardy_sharding_ops_with_different_meshes__data_2025_02_12 tpu_Sharding__data_2023_03_16_shardy; do
  real=${HLORUN_SOURCE_DIR:-.}/../shared/real/vhlo/$case
  [ -f "$real/module.mlirbc" ] || continue
  for flag in "" --spmd; do
    timeout 60 "$bin" run "$real/module.mlirbc" $flag --input "arg0=$real/inputs/arg0.npy" >"$tmp/r.out" 2>&1 ||
      fail "$case $flag: $(cat "$tmp/r.out")"
    [ "$(tr -d ' \n' <"$tmp/r.out")" = "result0:tensor<2x4xf32>[[4,5,6,7],[0,1,2,3]]" ] ||
      fail "$case $flag: $(cat "$tmp/r.out")"
  done
  ran=$((ran + 1))
done
echo "JAX's shard_map exports: $ran ran on one device and with --spmd"

finish "SPMD runs: all cases as expected"
