#!/usr/bin/env bash
# SPMD speed-up of a tensor-parallel MLP (bench/tp_mlp.py: x[B,D] @ W1 column shard [D,F/N] ->
# gelu -> @ W2 row shard [F/N,D] -> all_reduce over the N partitions) at N = 1 and N = 2 on this
# machine. Checks first that N = 2 computes what N = 1 does (same weights, results equal within
# float rounding of the split sums on both devices), then times steady-state calls with
# `hlorun bench` (compiled; at N = 2 each device runs on its own thread with an equal share of the
# CPUs, at N = 1 the single device uses them all) and prints the times and the speed-up.
# Then the same MLP as JAX exports a shard_map of it (tp_mlp.py --shard-map: a global program
# whose sdy.manual_computation cuts the whole W1 and W2 over a mesh of 2): run on one device (the
# body expanded over the 2 devices, every op on all CPUs) and with --spmd (each device's part on
# its own thread), with the weights as inputs and bound from a safetensors file; the results must
# equal N = 1's.
#
# usage: bench/spmd.sh [BUILD_DIR] [--batch 64] [--dim 1024] [--hidden 4096] [--calls 30]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
batch=64 dim=1024 hidden=4096 calls=30
while [ $# -gt 0 ]; do
  case "$1" in
    --batch) batch=$2; shift 2 ;;
    --dim) dim=$2; shift 2 ;;
    --hidden) hidden=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
bin=$build/hlorun
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_model N: runs the N-device module on its generated inputs, results into $tmp/out$N.
run_model() {
  local n=$1 args=() d suffix
  for ((d = 0; d < n; d++)); do
    suffix=""
    [ "$n" -gt 1 ] && suffix="@$d"
    args+=(--input "arg0$suffix=$tmp/in$n/x@$d.npy" --input "arg1$suffix=$tmp/in$n/w1@$d.npy"
      --input "arg2$suffix=$tmp/in$n/w2@$d.npy")
  done
  "$bin" run "$tmp/tp$n.mlir" "${args[@]}" --output "$tmp/out$n" --quiet
}

# steady_ms N [FLAGS...]: "MEAN MIN", the mean and the fastest of $calls later calls of
# `hlorun bench`, in ms (the minimum is the steadier figure on a loaded machine).
steady_ms() {
  local n=$1
  shift
  "$bin" bench "$tmp/tp$n.mlir" --no-throughput --jit-calls "$calls" "$@" |
    sed -nE 's/.*later calls, mean of [0-9]+ +([0-9.]+) ms +\(min ([0-9.]+) ms\).*/\1 \2/p'
}

for n in 1 2; do
  "$py" "$here/tp_mlp.py" "$n" "$tmp/tp$n.mlir" --batch "$batch" --dim "$dim" --hidden "$hidden" --inputs "$tmp/in$n"
  run_model "$n"
done
"$py" - "$tmp" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
one = np.load(f"{d}/out1/out0.npy")
for dev in range(2):
    two = np.load(f"{d}/out2/out{dev}.npy")
    err = float(np.max(np.abs(two - one)))
    if not np.allclose(two, one, rtol=1e-4, atol=1e-4):
        sys.exit(f"N=2 device {dev} differs from N=1: max abs difference {err}")
    print(f"N=2 device {dev} equals N=1 (max abs difference {err:.2e})")
PY

# The shard_map program: x, W1 and W2 whole; its results on one device and with --spmd.
"$py" "$here/tp_mlp.py" 2 "$tmp/sm.mlir" --shard-map --batch "$batch" --dim "$dim" --hidden "$hidden" --inputs "$tmp/insm"
for flag in "" --spmd; do
  "$bin" run "$tmp/sm.mlir" $flag --input "arg0=$tmp/insm/x.npy" --input "params['w1']=$tmp/insm/w1.npy" \
    --input "params['w2']=$tmp/insm/w2.npy" --output "$tmp/outsm$flag" --quiet
  "$bin" run "$tmp/sm.mlir" $flag --weights "$tmp/insm/w.safetensors" --input "arg0=$tmp/insm/x.npy" \
    --output "$tmp/outsmw$flag" --quiet
done
"$py" - "$tmp" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
one = np.load(f"{d}/out1/out0.npy")
for run in ("outsm", "outsm--spmd", "outsmw", "outsmw--spmd"):
    got = np.load(f"{d}/{run}/out0.npy")
    if not np.allclose(got, one, rtol=1e-4, atol=1e-4):
        sys.exit(f"shard_map {run} differs from N=1: max abs difference {float(np.max(np.abs(got - one)))}")
print("shard_map program: one device and --spmd, weights as inputs or bound, equal N=1")
PY

cpu=$(lscpu | sed -nE 's/^Model name: +//p' | head -n 1)
echo "CPU: $cpu, $(nproc) CPUs; MLP x[$batch,$dim] @ W1[$dim,$hidden] -> gelu -> @ W2[$hidden,$dim]"
read -r t1 m1 <<<"$(steady_ms 1)"
read -r t1s m1s <<<"$(steady_ms 1 --threads 1)"
read -r t2 m2 <<<"$(steady_ms 2)"
echo "                       mean ms    min ms"
printf 'N=1 (all CPUs):        %8s  %8s\n' "$t1" "$m1"
printf 'N=1 (one thread):      %8s  %8s\n' "$t1s" "$m1s"
printf 'N=2 (one thread each): %8s  %8s\n' "$t2" "$m2"
awk -v a="$t1" -v b="$t2" -v c="$t1s" -v ma="$m1" -v mb="$m2" -v mc="$m1s" 'BEGIN {
  printf "speed-up N=2 vs N=1: %.2fx by mean, %.2fx by min (vs N=1 on one thread: %.2fx, %.2fx)\n", a / b, ma / mb, c / b, mc / mb
}'

# steady_sm [FLAGS...]: steady_ms for the shard_map program.
steady_sm() { "$bin" bench "$tmp/sm.mlir" --no-throughput --jit-calls "$calls" "$@" |
  sed -nE 's/.*later calls, mean of [0-9]+ +([0-9.]+) ms +\(min ([0-9.]+) ms\).*/\1 \2/p'; }
read -r s1 sm1 <<<"$(steady_sm)"
read -r s2 sm2 <<<"$(steady_sm --spmd)"
read -r w1 wm1 <<<"$(steady_sm --weights "$tmp/insm/w.safetensors")"
read -r w2 wm2 <<<"$(steady_sm --spmd --weights "$tmp/insm/w.safetensors")"
echo "shard_map program (global, mesh of 2)          mean ms    min ms"
printf 'weights as inputs, one device (expanded):  %8s  %8s\n' "$s1" "$sm1"
printf 'weights as inputs, --spmd (thread each):   %8s  %8s\n' "$s2" "$sm2"
printf 'weights bound, one device (expanded):      %8s  %8s\n' "$w1" "$wm1"
printf 'weights bound, --spmd (thread each):       %8s  %8s\n' "$w2" "$wm2"
awk -v a="$s1" -v b="$s2" -v ma="$sm1" -v mb="$sm2" -v c="$w1" -v d="$w2" -v mc="$wm1" -v md="$wm2" 'BEGIN {
  printf "--spmd vs one device: %.2fx by mean, %.2fx by min (weights bound: %.2fx, %.2fx)\n", a / b, ma / mb, c / d, mc / md
}'
