#!/usr/bin/env bash
# SPMD speed-up of a tensor-parallel MLP (bench/tp_mlp.py: x[B,D] @ W1 column shard [D,F/N] ->
# gelu -> @ W2 row shard [F/N,D] -> all_reduce over the N partitions) at N = 1 and N = 2 on this
# machine. Checks first that N = 2 computes what N = 1 does (same weights, results equal within
# float rounding of the split sums on both devices), then times steady-state calls with
# `hlorun bench` (compiled; at N = 2 each device runs on its own thread with an equal share of the
# CPUs, at N = 1 the single device uses them all) and prints the times and the speed-up.
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
