#!/usr/bin/env bash
# Loading a model from a StableHLO portable artifact against parsing its text: the TinyTransformer
# with its 13 MB of weights baked in as constants (what jax.jit of a closure over the parameters
# lowers to), once as StableHLO text and once as MLIR bytecode written by `hlorun convert`. Prints
# the median of `hlorun bench`'s open time (read, parse or decode, verify) over several runs of
# each, interleaved, and the ratio.
#
# Usage: bench/load.sh            (HLORUN=path/to/hlorun; default build/release/hlorun, built if absent)
#        BENCH_LOAD_RUNS=7        runs of each form
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
hlorun=${HLORUN:-$root/build/release/hlorun}
if [ ! -x "$hlorun" ]; then
  cmake -S "$root" -B "$root/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$root/build/release" hlorun >/dev/null
fi
runs=${BENCH_LOAD_RUNS:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=/usr/bin/python3
"$py" "$root/tools/tiny_transformer/tiny_transformer.py" weights "$work/weights.safetensors" >/dev/null
"$py" "$root/tools/tiny_transformer/gen_mlir.py" "$work/baked.mlir" --baked "$work/weights.safetensors" >/dev/null
"$hlorun" convert "$work/baked.mlir" "$work/baked.mlirbc" >/dev/null

# The open time `hlorun bench` reports for a model file, in ms.
open_ms() { "$hlorun" bench "$1" --batches 1 --no-throughput --jit-calls 1 | sed -nE 's/^open .*: ([0-9.]+) ms$/\1/p'; }

text=() bc=()
for _ in $(seq "$runs"); do
  text+=("$(open_ms "$work/baked.mlir")")
  bc+=("$(open_ms "$work/baked.mlirbc")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR + 1) / 2)]}'; }
mt=$(median "${text[@]}")
mb=$(median "${bc[@]}")
printf 'TinyTransformer, 13 MB of baked weights, median of %d runs (%s)\n' "$runs" "$(lscpu | sed -nE 's/^Model name: *//p')"
printf '  StableHLO text      %9d bytes  open %7.2f ms\n' "$(stat -c %s "$work/baked.mlir")" "$mt"
printf '  portable artifact   %9d bytes  open %7.2f ms\n' "$(stat -c %s "$work/baked.mlirbc")" "$mb"
awk -v t="$mt" -v b="$mb" 'BEGIN { printf "  bytecode loads %.2fx faster than text\n", t / b }'
