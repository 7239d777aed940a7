#!/usr/bin/env bash
# Text generation: hlorun (`hlorun generate --parallel C`: continuous batching over the KV cache of
# examples/tiny_transformer/generate.mlir) side by side with a PyTorch KV-cache loop over the same
# weights (bench/tiny_transformer_torch.py generate-bench: eager, inference_mode, fp32, a
# preallocated cache written at each row's position), at several numbers of concurrent sequences.
# Prints per concurrency: generated tokens/s, time to first token, inter-token latency p50/p99, the
# hlorun/torch ratio, and hlorun's share of the machine's measured FMA peak (FLOPs counted per
# generated token: the matrix products, 2 x 3.21 M, and attention over the context so far).
#
# Usage: bench/generate.sh        (installs python3-torch and OpenBLAS when missing, builds hlorun)
# Environment (optional):
#   GEN_CONCURRENCY=1,4,16,64   sequences at once
#   GEN_PROMPT_LEN=32           prompt bytes; GEN_TOKENS=128 generated tokens per sequence (sum <= 256)
#   BENCH_THREADS=$(nproc)      threads of both engines
#   HLORUN=path/to/hlorun       use this binary instead of building build/release
#   GEN_PEAK_GFLOPS=N           the FMA peak for the % column (default: measured by gemm_bench)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
die() { echo "bench/generate.sh: $*" >&2; exit 1; }

conc=${GEN_CONCURRENCY:-1,4,16,64}
plen=${GEN_PROMPT_LEN:-32}
tokens=${GEN_TOKENS:-128}
threads=${BENCH_THREADS:-$(nproc)}
openblas=/usr/lib/x86_64-linux-gnu/openblas-openmp

# ---- packages: torch and numpy; the OpenMP OpenBLAS that torch's BLAS calls should reach ----
need=()
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
/usr/bin/python3 -c 'import torch' 2>/dev/null || need+=(python3-torch)
[ -e "$openblas/libblas.so.3" ] || need+=(libopenblas0-openmp)
"$here/apt_install.sh" ${need[@]+"${need[@]}"} || die "installing ${need[*]} failed"

# ---- hlorun (Release) and gemm_bench ----
build=$root/build/release
if [ -z "${HLORUN:-}" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" hlorun gemm_bench >/dev/null
  HLORUN=$build/hlorun
fi
work=$root/bench/out/generate
mkdir -p "$work"
/usr/bin/python3 "$root/tools/tiny_transformer/tiny_transformer.py" weights "$work/w.safetensors" >/dev/null
if [ -z "${GEN_PEAK_GFLOPS:-}" ]; then
  gb=$(dirname "$HLORUN")/gemm_bench
  [ -x "$gb" ] || gb=$build/gemm_bench
  [ -x "$gb" ] || die "no gemm_bench next to $HLORUN: set GEN_PEAK_GFLOPS"
  GEN_PEAK_GFLOPS=$("$gb" --seconds 0.1 --m 64 --threads "$threads" --no-dnnl |
    sed -n 's/.*measured FMA peak \([0-9.]*\) GF\/s.*/\1/p' | tail -1)
fi
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;" \
  "measured FMA peak on $threads thread(s): $GEN_PEAK_GFLOPS GF/s; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "prompts of $plen bytes, $tokens tokens each, greedy, fp32, $threads thread(s)"

prompt=$(/usr/bin/python3 -c "import sys; sys.stdout.write(('The TinyTransformer generates bytes. ' * 20)[:$plen])")
IFS=, read -r -a levels <<<"$conc"
rows=()
for c in "${levels[@]}"; do
  h=$("$HLORUN" generate "$root/examples/tiny_transformer/generate.mlir" --weights "$work/w.safetensors" \
    --prompt "$prompt" --max-tokens "$tokens" --parallel "$c" --temperature 0 --threads "$threads" --quiet 2>/dev/null | tail -1)
  # the peer without the OpenBLAS tuning variables of this environment, with the OpenMP OpenBLAS
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE LD_LIBRARY_PATH="$openblas${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    /usr/bin/python3 "$here/tiny_transformer_torch.py" generate-bench "$work/w.safetensors" --concurrency "$c" \
    --prompt-len "$plen" --max-tokens "$tokens" --threads "$threads" --json "$work/torch_$c.json" >/dev/null
  rows+=("$c|$h|$(cat "$work/torch_$c.json" | tr -d '\n')")
done

/usr/bin/python3 - "$work/summary.json" "$GEN_PEAK_GFLOPS" "$plen" "$tokens" "${rows[@]}" <<'PY'
import json, sys
out, peak, plen, tokens = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
L, D, F, V = 4, 256, 1024, 256
# per generated token: every matrix product (2 flops a weight) and attention over the context so far
flops = 2 * (L * (4 * D * D + 2 * D * F) + D * V) + L * 4 * D * (plen + tokens / 2)
print(f"\n{'seqs':>5} | {'hlorun tok/s':>12} {'torch tok/s':>11} {'ratio':>6} | {'TTFT p50 ms h/t':>17} | "
      f"{'ITL p50 ms h/t':>15} | {'ITL p99 ms h/t':>15} | {'% peak':>6}")
summary = []
for row in sys.argv[5:]:
    c, h, t = row.split("|", 2)
    h, t = json.loads(h), json.loads(t)["rows"][0]
    ratio = h["tokens_per_second"] / t["tokens_per_s"]
    pct = 100 * h["tokens_per_second"] * flops / (peak * 1e9)
    print(f"{c:>5} | {h['tokens_per_second']:>12.0f} {t['tokens_per_s']:>11.0f} {ratio:>5.2f}x | "
          f"{h['ttft_p50_ms']:>8.1f} / {t['ttft_ms']:>6.1f} | {h['itl_p50_ms']:>6.2f} / {t['itl_p50_ms']:>6.2f} | "
          f"{h['itl_p99_ms']:>6.2f} / {t['itl_p99_ms']:>6.2f} | {pct:>5.1f}%")
    summary.append({"sequences": int(c), "hlorun": h, "torch": t, "ratio": ratio, "percent_of_peak": pct})
print(f"\n{flops / 1e6:.2f} MFLOP per generated token; torch's TTFT is its batched prefill, hlorun's the p50 "
      "over sequences from submission (prefill in buckets of up to 8, queueing included)")
with open(out, "w") as f:
    json.dump(summary, f, indent=1)
print(f"results: {out}")
PY
