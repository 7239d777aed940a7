#!/usr/bin/env bash
# The load test of `hlorun serve`: exports the models, starts a server on 127.0.0.1 (port chosen
# by the server) per model and batching setting, drives POST :predict with tools/loadgen at each
# concurrency for a fixed time, and prints one table:
#   model | concurrency | batching | req/s | p50 ms | p99 ms | errors
# Every run is bounded: DURATION seconds per cell plus a 1 s warm-up per server, so the default
# (2 models x 2 batching settings x 7 concurrencies x 5 s) takes about 2.5 minutes.
#
# Usage: bench/serve_load.sh HLORUN_BINARY [--models small,transformer] [--duration S]
#                            [--concurrency 1,2,4,8,16,32,64] [--batching off,on]
#                            [--rest-threads N] [--work DIR] [--loadgen BINARY]
#   small        the MLP of tests/server/data/mlp.mlir (64 -> 128 -> 10, weights in the artifact),
#                one row of 64 floats per request
#   transformer  the TinyTransformer (examples/tiny_transformer, 3.3M parameters), one row of 256
#                tokens per request (the answer: 256 x 256 logits)
# Batching on uses max_batch_size 32 (8 for the transformer), batch_timeout_micros 2000,
# num_batch_threads = the number of CPUs, max_enqueued_batches 1000. --rest-threads N passes
# --rest_api_num_threads N to the server (default: the server's, 4 per CPU); a request holds its
# HTTP thread while it waits in a batch, so that number also caps how many requests a batch can
# gather.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
hlorun=${1:?usage: serve_load.sh HLORUN_BINARY [--models small,transformer] [--duration S] [--concurrency LIST] [--work DIR] [--loadgen BINARY]}
hlorun=$(cd "$(dirname "$hlorun")" && pwd)/$(basename "$hlorun")
shift
models=small,transformer
duration=5
concurrency=1,2,4,8,16,32,64
batching_modes=off,on
rest_threads=
work=$root/build/serve_load
loadgen=
while [ $# -gt 0 ]; do
  case $1 in
    --models) models=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --batching) batching_modes=$2; shift 2 ;;
    --rest-threads) rest_threads=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --loadgen) loadgen=$2; shift 2 ;;
    *) echo "serve_load.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $duration =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk "BEGIN{exit !($duration > 0 && $duration <= 60)}" ||
  { echo "serve_load.sh: --duration must be in (0, 60]" >&2; exit 2; }
py=/usr/bin/python3
mkdir -p "$work"
work=$(cd "$work" && pwd)

. "$root/bench/serve_common.sh"

# loadgen: the given binary, the one CMake built next to hlorun, or compiled here
if [ -z "$loadgen" ]; then loadgen=$(dirname "$hlorun")/loadgen; fi
if [ ! -x "$loadgen" ]; then
  cc -std=c17 -O2 -pthread -D_GNU_SOURCE -Wall -Wextra -o "$work/loadgen" "$root/tools/loadgen/loadgen.c"
  loadgen=$work/loadgen
fi

# prepare_MODEL: exports the artifact into $work/MODEL/1/model.hlo and writes $work/MODEL.json
prepare_small() {
  export_small
  "$py" -c 'import json; print(json.dumps({"instances": [[((j % 17) - 8) / 8.0 for j in range(64)]]}))' >"$work/small.json"
}
prepare_transformer() {
  if ! "$py" -c 'import numpy' 2>/dev/null; then
    echo "note: no numpy for $py, the transformer is skipped" >&2
    return 1
  fi
  export_transformer
  "$py" -c 'import json, random; r = random.Random(1); print(json.dumps({"instances": [[r.randrange(256) for _ in range(256)]]}))' \
    >"$work/transformer.json"
}

# start_server MODEL on|off: starts hlorun serve and sets $port
start_server() {
  local model=$1 batching=$2 max_batch=32
  [ "$model" = transformer ] && max_batch=8
  local args=(--rest_api_port 0 --port -1 --model_name "$model" --model_base_path "$work/$model")
  if [ -n "$rest_threads" ]; then args+=(--rest_api_num_threads "$rest_threads"); fi
  if [ "$batching" = on ]; then
    printf 'max_batch_size { value: %d }\nbatch_timeout_micros { value: 2000 }\nmax_enqueued_batches { value: 1000 }\nnum_batch_threads { value: %d }\n' \
      "$max_batch" "$(nproc)" >"$work/batching.config"
    args+=(--enable_batching --batching_parameters_file "$work/batching.config")
  fi
  "$hlorun" serve "${args[@]}" >"$work/server.out" 2>"$work/server.log" &
  server_pid=$!
  port=$(wait_port "" serve_load.sh) || exit 1
  # ready, and one prediction succeeds
  for _ in $(seq 600); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ] && break
    sleep 0.1
  done
  local code
  code=$(curl -s -o "$work/first.out" -w '%{http_code}' --max-time 60 -H 'Content-Type: application/json' \
    --data-binary "@$work/$model.json" "http://127.0.0.1:$port/v1/models/$model:predict")
  [ "$code" = 200 ] || { echo "serve_load.sh: first prediction on $model: HTTP $code $(head -c 300 "$work/first.out")" >&2; exit 1; }
}


# run_cell MODEL CONNECTIONS SECONDS: one loadgen run; prints its result line
run_cell() {
  "$loadgen" --port "$port" --path "/v1/models/$1:predict" --body-file "$work/$1.json" --connections "$2" \
    --duration "$3" --timeout-ms 60000 --expect predictions --quiet | grep '^result '
}
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$duration s per cell, loadgen keep-alive connections = concurrency, one request = one instance," \
  "server HTTP threads: ${rest_threads:-default}"
printf '\n%-12s | %11s | %8s | %8s | %8s | %8s | %6s\n' model concurrency batching req/s "p50 ms" "p99 ms" errors
printf -- '-------------|-------------|----------|----------|----------|----------|-------\n'
IFS=, read -r -a conc_list <<<"$concurrency"
IFS=, read -r -a model_list <<<"$models"
IFS=, read -r -a batching_list <<<"$batching_modes"
for model in "${model_list[@]}"; do
  case $model in
    small | transformer) ;;
    *) echo "serve_load.sh: unknown model $model (small, transformer)" >&2; exit 2 ;;
  esac
  "prepare_$model" || continue
  for batching in "${batching_list[@]}"; do
    case $batching in
      off | on) ;;
      *) echo "serve_load.sh: --batching takes off, on or off,on" >&2; exit 2 ;;
    esac
    start_server "$model" "$batching"
    run_cell "$model" "${conc_list[-1]}" 1 >/dev/null # warm-up: every batch size the run will see
    for c in "${conc_list[@]}"; do
      r=$(run_cell "$model" "$c" "$duration")
      printf '%-12s | %11s | %8s | %8s | %8s | %8s | %6s\n' "$model" "$c" "$batching" "$(field rps "$r")" \
        "$(field p50_ms "$r")" "$(field p99_ms "$r")" "$(field errors "$r")"
    done
    stop_server
  done
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
