#!/usr/bin/env bash
# Restoring the TinyTransformer's weights (13 MB, 70 float32 arrays) from an Orbax checkpoint
# against reading the same weights from a safetensors file. The checkpoint is written by
# `hlorun weights --save DIR` in the layout orbax-checkpoint's StandardCheckpointer writes (OCDBT
# database, zarr arrays, zstd). Prints the median read time `hlorun weights` reports for each (the
# whole restore: metadata, B+tree, decompression, the tensors in memory) over several interleaved
# runs, and the ratio. Every tensor of the restore is checked equal to the safetensors one first.
#
# Usage: bench/restore.sh            (HLORUN=path/to/hlorun; default build/release/hlorun, built if absent)
#        BENCH_RESTORE_RUNS=9        runs of each form
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
hlorun=${HLORUN:-$root/build/release/hlorun}
if [ ! -x "$hlorun" ]; then
  cmake -S "$root" -B "$root/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$root/build/release" hlorun >/dev/null
fi
runs=${BENCH_RESTORE_RUNS:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=/usr/bin/python3
"$py" "$root/tools/tiny_transformer/tiny_transformer.py" weights "$work/weights.safetensors" >/dev/null
"$hlorun" weights "$work/weights.safetensors" --save "$work/ckpt" >/dev/null
"$hlorun" weights "$work/ckpt" --save "$work/back.safetensors" >/dev/null
cmp -s <("$hlorun" weights "$work/weights.safetensors" | sed '$d') <("$hlorun" weights "$work/back.safetensors" | sed '$d') ||
  { echo "the restored tensors differ from the saved ones"; exit 1; }
"$py" - "$work/weights.safetensors" "$work/back.safetensors" <<'PY'
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
sys.exit(0 if a[8 + int.from_bytes(a[:8], "little"):] == b[8 + int.from_bytes(b[:8], "little"):] else 1)
PY

# The read time `hlorun weights` reports for a source, in ms.
read_ms() { "$hlorun" weights "$1" | sed -nE 's/.* read in ([0-9.]+) ms$/\1/p'; }

st=() ob=()
for _ in $(seq "$runs"); do
  st+=("$(read_ms "$work/weights.safetensors")")
  ob+=("$(read_ms "$work/ckpt")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR + 1) / 2)]}'; }
ms=$(median "${st[@]}")
mo=$(median "${ob[@]}")
bytes() { du -sb "$1" | cut -f1; }
printf 'TinyTransformer weights, median of %d runs (%s)\n' "$runs" "$(lscpu | sed -nE 's/^Model name: *//p')"
printf '  safetensors file     %9d bytes  read %7.2f ms (mapped: no copy)\n' "$(bytes "$work/weights.safetensors")" "$ms"
printf '  Orbax checkpoint     %9d bytes  read %7.2f ms (OCDBT + zarr + zstd, decoded into memory)\n' "$(bytes "$work/ckpt")" "$mo"
awk -v s="$ms" -v o="$mo" 'BEGIN { printf "  the Orbax restore takes %.2fx the safetensors read\n", o / s }'
