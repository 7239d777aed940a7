#!/usr/bin/env bash
# hlorun versus ONNX Runtime 1.30 (and PyTorch) on the TinyTransformer, side by side in one run:
# prints a table of tokens/s per batch size with the hlorun/ORT ratio, hlorun's parse + compile
# time and every engine's max |diff| against the numpy float64 reference. See bench/README.md.
#
# Usage: bench/run.sh            (the first run installs packages, builds hlorun, exports ONNX)
# Environment (all optional):
#   BENCH_BATCHES=1,4,16,64   batch sizes (x 256 tokens)
#   BENCH_THREADS=$(nproc)    threads for every engine (ORT intra-op, torch, hlorun)
#   BENCH_MIN_TIME=1          timed seconds per engine and batch size (and at least 3 runs)
#   BENCH_BUDGET=15           at most this many timed seconds per engine and batch size
#                             (at least one run): keeps the run short while hlorun is slow
#   BENCH_ROUNDS=1            repeat the comparison N times; the table shows medians and ranges
#   BENCH_TORCH=1             0: leave PyTorch out of the timed comparison
#   BENCH_BF16=1              0: leave hlorun --bf16 out (timed where the CPU has AVX512_BF16 or AMX-BF16)
#   BENCH_PEAK_GFLOPS=507     FP32 peak for the % peak column (default: the Zen 5 the targets are set on;
#                             build/release/gemm_bench prints the measured FMA peak of this machine)
#   BENCH_ORT_SPIN=best       ORT's intra-op threads spin (1, ORT's default) or block (0) while they
#                             wait; best: time both, count the faster per batch size
#   HLORUN=path/to/hlorun     use this binary instead of building build/release
#   BENCH_BUILD_TYPE=Release  CMAKE_BUILD_TYPE of that build (BENCH_BUILD_DIR=release: build/<dir>)
#   BENCH_WORK=bench/out      where weights, the ONNX model and results go
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

die() { echo "bench/run.sh: $*" >&2; exit 1; }

# ---- Debian packages: python3-torch (the ONNX export and the torch peer), numpy, node + npm ----
need=()
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
/usr/bin/python3 -c 'import torch' 2>/dev/null || need+=(python3-torch)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
# Debian's torch calls the system BLAS (libblas.so.3), by default the slow reference BLAS; the torch
# peer runs with the OpenMP build of OpenBLAS (the OpenMP runtime torch uses) via LD_LIBRARY_PATH.
if [ "${BENCH_TORCH:-1}" != 0 ] && [ ! -e /usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3 ]; then
  need+=(libopenblas0-openmp)
fi
"$here/apt_install.sh" ${need[@]+"${need[@]}"} || die "installing ${need[*]} failed"
/usr/bin/python3 -c 'import torch, numpy' 2>/dev/null || die "python3 cannot import torch and numpy (apt-get install python3-torch python3-numpy)"
command -v node >/dev/null && command -v npm >/dev/null || die "node or npm not found (apt-get install nodejs npm)"

# ---- onnxruntime-node, pinned by package-lock.json; --ignore-scripts: its CPU binding ships in the
#      package, the postinstall script only downloads optional CUDA binaries ----
binding="$here/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node"
if [ ! -f "$binding" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  echo "== npm ci --ignore-scripts (onnxruntime-node)"
  (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund) || die "npm ci failed in $here"
fi
[ -f "$binding" ] || die "onnxruntime-node has no native binding for linux/x64 at $binding"

# ---- hlorun, optimized ----
if [ -n "${HLORUN:-}" ]; then
  hlorun=$HLORUN
  [ -x "$hlorun" ] || die "HLORUN=$hlorun is not an executable"
else
  "$root/scripts/install-deps.sh"
  type=${BENCH_BUILD_TYPE:-Release}
  build="$root/build/${BENCH_BUILD_DIR:-release}"
  echo "== building hlorun ($type) in $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="$type" >/dev/null || die "cmake configure failed"
  if ! ninja -C "$build" hlorun >/dev/null; then
    ninja -C "$build" hlorun 2>&1 | grep -E 'error|FAILED' | head -20 >&2 || true
    die "building hlorun ($type) failed (above); to benchmark another build set HLORUN=path/to/hlorun"
  fi
  hlorun="$build/hlorun"
fi

args=(--hlorun "$hlorun" --work "${BENCH_WORK:-$here/out}" --batches "${BENCH_BATCHES:-1,4,16,64}"
      --threads "${BENCH_THREADS:-$(nproc)}" --min-time "${BENCH_MIN_TIME:-1}" --budget "${BENCH_BUDGET:-15}"
      --rounds "${BENCH_ROUNDS:-1}")
if [ "${BENCH_TORCH:-1}" = 0 ]; then args+=(--no-torch); fi
if [ "${BENCH_BF16:-1}" = 0 ]; then args+=(--no-bf16); fi
if [ -n "${BENCH_PEAK_GFLOPS:-}" ]; then args+=(--peak "$BENCH_PEAK_GFLOPS"); fi
args+=(--ort-spin "${BENCH_ORT_SPIN:-best}")
# peer_bench.py removes OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE from the peers' environment only.
exec /usr/bin/python3 "$here/peer_bench.py" "${args[@]}"
